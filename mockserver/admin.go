package mockserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/newssearch/newssearch-go/api"
)

// OpenAPIPath is where the server answers GET (and HEAD) with the service's
// OpenAPI 3.1 document (package api), for generating clients in other
// languages. Like the /_mock/ endpoints it needs no api_key, is not
// journaled and never gets faults.
const OpenAPIPath = "/openapi.yaml"

// adminPrefix starts the paths of the mock's own control endpoints:
//
//	GET    /_mock/health   {"state": "SUCCESS", "articles": N, "jobs": N, "date_shift_seconds": N}
//	GET    /_mock/journal  {"state": "SUCCESS", "entries": [JournalEntry…]}
//	DELETE /_mock/journal  {"state": "SUCCESS"}; the same as Server.ClearJournal
//	GET    /_mock/record   {"state": "SUCCESS", "recording": …}; see RecordSummary
//	POST   /_mock/reset    {"state": "SUCCESS"}; the same as Server.Reset
//	GET    /_mock/ui       the inspector page (see UIPath)
//
// They need no api_key, are not journaled and never get faults.
const adminPrefix = "/_mock/"

// adminRoute is what one method does at one /_mock/ path.
type adminRoute struct {
	method string
	serve  func(s *Server) any
}

// success is the body of a control call that returns nothing else.
var success = struct {
	State string `json:"state"`
}{"SUCCESS"}

// adminRoutes lists the routes of each /_mock/ path.
var adminRoutes = map[string][]adminRoute{
	adminPrefix + "health": {{http.MethodGet, func(s *Server) any {
		return struct {
			State     string `json:"state"`
			Articles  int    `json:"articles"`
			Jobs      int    `json:"jobs"`
			DateShift int64  `json:"date_shift_seconds"`
		}{"SUCCESS", s.corpus.Len(), s.jobs.Len(), int64(s.shift.Seconds())}
	}}},
	adminPrefix + "journal": {{http.MethodGet, func(s *Server) any {
		return struct {
			State   string         `json:"state"`
			Entries []JournalEntry `json:"entries"`
		}{"SUCCESS", s.Journal()}
	}}, {http.MethodDelete, func(s *Server) any {
		s.ClearJournal()
		return success
	}}},
	adminPrefix + "record": {{http.MethodGet, func(s *Server) any {
		return struct {
			State string `json:"state"`
			RecordSummary
		}{"SUCCESS", s.RecordSummary()}
	}}},
	adminPrefix + "reset": {{http.MethodPost, func(s *Server) any {
		s.Reset()
		return success
	}}},
}

// serveAdmin answers the /_mock/ endpoints.
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["X-Request-Id"] = []string{"mock-" + strconv.FormatUint(s.adminSeq.Add(1), 10)}
	h["Content-Type"] = []string{"application/json"}
	if r.URL.Path == OpenAPIPath {
		s.serveOpenAPI(w, r)
		return
	}
	if isUIPath(r.URL.Path) {
		s.serveUI(w, r)
		return
	}
	routes, found := adminRoutes[r.URL.Path]
	var route *adminRoute
	methods := make([]string, len(routes))
	for i := range routes {
		methods[i] = routes[i].method
		if routes[i].method == r.Method {
			route = &routes[i]
		}
	}
	var status int
	var body []byte
	switch {
	case !found:
		status, body = http.StatusNotFound, errorBody(fmt.Sprintf(
			"there is no endpoint at %s: the mock's own endpoints are GET /_mock/health, GET and DELETE /_mock/journal, GET /_mock/record, POST /_mock/reset and GET /_mock/ui (the inspector page)",
			quoteShort(r.URL.Path)))
	case route == nil:
		h.Set("Allow", strings.Join(methods, ", "))
		status, body = http.StatusMethodNotAllowed, errorBody(fmt.Sprintf(
			"%s does not accept %s: use %s", r.URL.Path, quoteShort(r.Method), strings.Join(methods, " or ")))
	default:
		status, body = http.StatusOK, mustJSON(route.serve(s))
	}
	writeRaw(w, status, 0, body, len(body))
}

// serveOpenAPI answers GET and HEAD with the OpenAPI document; it runs after
// serveAdmin has set the request id.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		b := errorBody(fmt.Sprintf("%s does not accept %s: fetch it with GET", OpenAPIPath, r.Method))
		writeRaw(w, http.StatusMethodNotAllowed, 0, b, len(b))
		return
	}
	w.Header().Set("Content-Type", "application/yaml")
	writeRaw(w, http.StatusOK, 0, api.OpenAPI, len(api.OpenAPI))
}
