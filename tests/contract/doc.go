// Package contract holds the OpenAPI contract tests of newssearch-go: they
// validate the SDK's requests and the mock server's responses against
// api/openapi.yaml with libopenapi-validator, and check that the document,
// the SDK's types and the mock's accepted input do not drift apart.
//
// It lives in the nested module github.com/newssearch/newssearch-go/tests so
// that the OpenAPI and YAML libraries it needs never reach the go.sum of a
// program that uses the SDK or the mock server (see docs/dependencies.md).
// It has no API; run it with
//
//	cd tests && go test ./...
package contract
