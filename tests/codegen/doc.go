// Package codegen checks that api/openapi.yaml generates working Go clients
// with two popular OpenAPI code generators, pinned as tool directives of
// tests/go.mod: oapi-codegen (github.com/oapi-codegen/oapi-codegen/v2) and
// ogen (github.com/ogen-go/ogen).
//
// The generated clients are committed, in oapiclient/ and ogenclient/, so
// that the ordinary build compiles them (and vet and staticcheck read
// them). Its tests check that
//
//   - running the pinned generators over the document now reproduces the
//     committed files exactly (TestGeneratedUpToDate, which builds the
//     generators and so runs only with NEWSSEARCH_LONG_TESTS=1, as CI sets);
//   - each client calls the four endpoints of a real mock server
//     (mockserver.New on loopback), unchanged, and decodes its answers into
//     the values the mock sent.
//
// After a change to api/openapi.yaml, regenerate the clients from tests/
// with
//
//	go generate ./codegen/
//
// The generators see only the four service operations: the mock's /_mock/
// control API is filtered out (oapi-codegen.yaml, ogen.yml).
package codegen

//go:generate go run ./internal/regen
