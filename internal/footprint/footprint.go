// Package footprint holds the dependency footprint test of newssearch-go: it
// builds two throwaway consumer modules, one importing only the root package
// and one importing mockserver, runs go mod tidy and go list -deps on them,
// and checks what a user of the SDK or the mock server would download and
// compile against the limits in docs/dependencies.md. It has no API.
package footprint
