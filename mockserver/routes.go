package mockserver

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
)

// Route is a method and path a Server answers.
type Route struct {
	Method string // "GET", "PUT", "POST" or "DELETE"
	// Path may hold a segment in braces, as in "/_mock/jobs/{id}", that
	// stands for any.
	Path string
}

// String returns the route as "METHOD /path".
func (r Route) String() string { return r.Method + " " + r.Path }

// Routes lists every route a Server answers: the four API endpoints, then
// those under /_mock/, then OpenAPIPath.
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
