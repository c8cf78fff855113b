package mockserver

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
)

// Route is one endpoint a Server answers: an HTTP method and a path.
type Route struct {
	Method string // "GET", "PUT", "POST" or "DELETE"
	// Path is "/api/v2/query", "/_mock/journal", "/openapi.yaml"…; a path
	// segment in braces (as in "/_mock/jobs/{id}" and
	// "/_mock/faults/{index}") stands for any non-empty segment.
	Path string
}

// String returns the route as "METHOD /path".
func (r Route) String() string { return r.Method + " " + r.Path }

// Routes lists every endpoint a Server answers, in a fixed order: the four
// API endpoints in documentation order, then the mock's own control
// endpoints under /_mock/ (UIPath included) sorted by path and method, then
// OpenAPIPath. Every Server answers the same routes; a request for any
// other path gets a 404 whose message lists them.
func Routes() []Route {
	rs := make([]Route, 0, len(endpoints)+len(adminRoutes)+1)
	for _, ep := range endpoints {
		rs = append(rs, Route{http.MethodPost, ep.path})
	}
	admin := []Route{{http.MethodGet, UIPath}}
	for _, route := range adminRoutes {
		admin = append(admin, Route{route.method, route.pattern})
	}
	slices.SortFunc(admin, func(a, b Route) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Method, b.Method))
	})
	rs = append(rs, admin...)
	return append(rs, Route{http.MethodGet, OpenAPIPath})
}
