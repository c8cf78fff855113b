// Package tools runs third-party OpenAPI tools against api/openapi.yaml,
// the mock server and the SDK: Prism as a validating proxy between them.
// The tools are npm packages pinned in tools/openapi (package.json and
// package-lock.json); install them with
//
//	npm ci --prefix tools/openapi
//
// Without them the tests skip, except in CI (CI=true), where they fail.
// tools/openapi/check runs the linters (Redocly, Spectral) the same way.
package tools
