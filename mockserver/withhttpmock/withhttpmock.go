// Package withhttpmock serves a mockserver.Server from a
// github.com/jarcoal/httpmock transport, for tests that already mock HTTP
// with httpmock.
//
// It is a package of its own so that programs that use mockserver without
// httpmock never require httpmock: only importing this package does.
//
//	srv := mockserver.New(mockserver.WithoutListener())
//	defer srv.Close()
//	mt := httpmock.NewMockTransport()
//	withhttpmock.Register(mt, srv, "https://app.runathena.com")
//	client, err := newssearch.NewClient(newssearch.WithAPIKey("my-key"),
//		newssearch.WithHTTPClient(&http.Client{Transport: mt}))
package withhttpmock

import (
	"regexp"
	"strings"

	"github.com/jarcoal/httpmock"

	"github.com/newssearch/newssearch-go/mockserver"
)

// Responder returns an httpmock.Responder that serves every request through
// srv in process, as srv.Transport does: whatever the request's host, the
// server answers by its path. Drop faults fail the request with
// mockserver.ErrDropped.
func Responder(srv *mockserver.Server) httpmock.Responder {
	return srv.Transport().RoundTrip
}

// Register registers Responder(srv) on mt for every route in
// mockserver.Routes (the four API endpoints, the /_mock/ control endpoints
// and /openapi.yaml) under baseURL, e.g. "https://app.runathena.com" (a
// trailing slash is ignored). It returns the registered routes as
// "METHOD URL" strings, in the order of mockserver.Routes: the keys
// httpmock.MockTransport.GetCallCountInfo counts calls under. A route with
// a segment in braces (/_mock/jobs/{id}, /_mock/faults/{index}) is
// registered as an httpmock regexp,
// "=~^" and an expression matching any id. A request with
// another method reaches httpmock's no-responder handling, not the server's
// 405.
func Register(mt *httpmock.MockTransport, srv *mockserver.Server, baseURL string) []string {
	base := strings.TrimRight(baseURL, "/")
	responder := Responder(srv)
	routes := mockserver.Routes()
	registered := make([]string, 0, len(routes))
	for _, r := range routes {
		url := base + r.Path
		if before, rest, templated := strings.Cut(r.Path, "{"); templated {
			_, after, _ := strings.Cut(rest, "}")
			// httpmock's regexp form, "=~" and an expression, for any id
			url = "=~^" + regexp.QuoteMeta(base+before) + `[^/?]+` + regexp.QuoteMeta(after) + `(\?.*)?$`
		}
		mt.RegisterResponder(r.Method, url, responder)
		registered = append(registered, r.Method+" "+url)
	}
	return registered
}
