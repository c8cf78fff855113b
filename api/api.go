// Package api holds the OpenAPI 3.1 document of the news search service: the
// four endpoints under /api/v2/, their request and response bodies, status
// codes and headers, and the mock server's own administration endpoints.
//
// The document is the contract that the Go SDK (package newssearch) and the
// mock server (package mockserver) are tested against; users of other
// languages can generate clients from it. The mock server serves it at
// GET /openapi.yaml.
package api

import _ "embed"

// OpenAPI is the OpenAPI 3.1 document (YAML) describing the service. It is
// embedded from openapi.yaml at build time; treat it as read-only.
//
//go:embed openapi.yaml
var OpenAPI []byte
