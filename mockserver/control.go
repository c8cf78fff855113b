package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/newssearch/newssearch-go/api"
)

// OpenAPIPath is where the server serves the service's OpenAPI 3.1 document.
const OpenAPIPath = "/openapi.yaml"

// controlPrefix starts the paths of the control endpoints (adminRoutes;
// docs/control-api.md). They need no api_key, are not journaled, never get
// faults, and call the Server method of the same action.
const controlPrefix = "/_mock/"

// adminCall is one request to a control endpoint.
type adminCall struct {
	w      http.ResponseWriter
	r      *http.Request
	body   []byte
	id     string // the last segment of a templated path ({id}, {index})
	unread bool   // the body was refused unread: drain it after the answer
}

type adminRoute struct {
	pattern string // a path, or a prefix and a templated segment such as "/{id}"
	method  string
	serve   func(s *Server, c *adminCall) (any, *apiError)
	global  bool // acts on the server, not on one world: KeyHeader is not read
}

// state is the answer of a control call that has nothing else to say.
type state struct {
	State string `json:"state"`
}

var success = state{"SUCCESS"}

// adminRoutes are the control endpoints, in documentation order.
var adminRoutes = []adminRoute{
	{controlPrefix + "health", http.MethodGet, (*Server).adminHealth, true},
	{controlPrefix + "journal", http.MethodGet, (*Server).adminJournal, false},
	{controlPrefix + "journal", http.MethodDelete, func(s *Server, _ *adminCall) (any, *apiError) { s.journal.Reset(); return success, nil }, false},
	{controlPrefix + "record", http.MethodGet, func(s *Server, _ *adminCall) (any, *apiError) {
		return struct {
			State string `json:"state"`
			RecordSummary
		}{"SUCCESS", s.RecordSummary()}, nil
	}, true},
	{controlPrefix + "reset", http.MethodPost, func(s *Server, _ *adminCall) (any, *apiError) { s.Reset(); return success, nil }, false},
	{controlPrefix + "faults", http.MethodGet, (*Server).adminFaults, false},
	{controlPrefix + "faults", http.MethodPut, (*Server).adminSetFaults, false},
	{controlPrefix + "faults", http.MethodPost, (*Server).adminAddFault, false},
	{controlPrefix + "faults", http.MethodDelete, func(s *Server, c *adminCall) (any, *apiError) { _ = s.SetFaults(); return s.adminFaults(c) }, false},
	{controlPrefix + "faults/{index}", http.MethodDelete, (*Server).adminRemoveFault, false},
	{controlPrefix + "jobs", http.MethodGet, (*Server).adminJobs, false},
	{controlPrefix + "jobs/{id}", http.MethodGet, (*Server).adminJob, false},
	{controlPrefix + "jobs/{id}", http.MethodPost, (*Server).adminForceJob, false},
	{controlPrefix + "jobs/{id}", http.MethodDelete, (*Server).adminExpireJob, false},
	{controlPrefix + "clock", http.MethodGet, (*Server).adminClock, false},
	{controlPrefix + "clock", http.MethodPost, (*Server).adminMoveClock, false},
	{controlPrefix + "articles", http.MethodGet, func(s *Server, _ *adminCall) (any, *apiError) { return s.articleCounts(0), nil }, false},
	{controlPrefix + "articles", http.MethodPost, (*Server).adminAddArticles, false},
	{controlPrefix + "articles", http.MethodPut, (*Server).adminAddArticles, false},
	{controlPrefix + "articles", http.MethodDelete, func(s *Server, _ *adminCall) (any, *apiError) {
		s.resetArticles()
		return s.articleCounts(0), nil
	}, false},
	{controlPrefix + "settings", http.MethodGet, (*Server).adminSettings, false},
	{controlPrefix + "settings", http.MethodPatch, (*Server).adminPatchSettings, false},
	{controlPrefix + "settings", http.MethodDelete, func(s *Server, c *adminCall) (any, *apiError) {
		s.applySettings(s.startSettings)
		s.resetClock()
		return s.adminSettings(c)
	}, false},
	{controlPrefix + "expectations", http.MethodGet, (*Server).adminExpectations, false},
	{controlPrefix + "expectations", http.MethodPost, (*Server).adminAddExpectations, false},
	{controlPrefix + "expectations", http.MethodDelete, func(s *Server, c *adminCall) (any, *apiError) {
		s.expect.reset()
		return s.adminExpectations(c)
	}, false},
	{controlPrefix + "verify", http.MethodGet, (*Server).adminVerify, false},
	{controlPrefix + "worlds", http.MethodGet, (*Server).adminWorlds, true},
	{controlPrefix + "worlds", http.MethodPost, (*Server).adminCreateWorld, true},
	{controlPrefix + "worlds", http.MethodDelete, (*Server).adminDropWorlds, true},
	{controlPrefix + "worlds/{id}", http.MethodDelete, (*Server).adminDropWorld, true},
}

// adminEndpoints lists the control endpoints for messages.
var adminEndpoints = func() string {
	var list []string
	for _, r := range adminRoutes {
		list = append(list, r.method+" "+r.pattern)
	}
	return strings.Join(append(list, "GET "+UIPath+" (the inspector page)"), ", ")
}()

// match reports whether path matches the route's pattern, and the value of
// its templated last segment ({id}, {index}).
func (r adminRoute) match(path string) (id string, ok bool) {
	brace := strings.IndexByte(r.pattern, '{')
	if brace < 0 {
		return "", path == r.pattern
	}
	id, ok = strings.CutPrefix(path, r.pattern[:brace])
	return id, ok && id != "" && !strings.Contains(id, "/")
}

// serveControl answers the /_mock/ endpoints.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Request-Id", s.adminID())
	h.Set("Content-Type", "application/json")
	if r.URL.Path == OpenAPIPath {
		s.serveOpenAPI(w, r)
		return
	}
	if isUIPath(r.URL.Path) {
		s.serveUI(w, r)
		return
	}
	var allowed []string
	var route *adminRoute
	call := &adminCall{w: w, r: r}
	for i := range adminRoutes {
		id, ok := adminRoutes[i].match(r.URL.Path)
		if !ok {
			continue
		}
		allowed = append(allowed, adminRoutes[i].method)
		if adminRoutes[i].method == r.Method {
			route, call.id = &adminRoutes[i], id
		}
	}
	status, body := http.StatusOK, []byte(nil)
	switch {
	case len(allowed) == 0:
		status, body = http.StatusNotFound, failureBody(fmt.Sprintf(
			"there is no endpoint at %s: the mock's own endpoints are %s", quoteShort(r.URL.Path), adminEndpoints))
	case route == nil:
		h.Set("Allow", strings.Join(allowed, ", "))
		status, body = http.StatusMethodNotAllowed, failureBody(fmt.Sprintf(
			"%s does not accept %s: use %s", r.URL.Path, quoteShort(r.Method), strings.Join(allowed, " or ")))
	default:
		var aerr *apiError
		unread := false
		if r.Method == http.MethodPost {
			if msg := checkControlBody(r, route.pattern); msg != "" {
				refuseBody(w, r)
				aerr, unread = &apiError{status: http.StatusUnsupportedMediaType, msg: msg}, true
			}
		}
		switch {
		case aerr != nil:
		case route.pattern == controlPrefix+"articles" && (r.Method == http.MethodPost || r.Method == http.MethodPut):
			// adminAddArticles reads its (large) body itself.
		case r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch:
			call.body, aerr = readBody(w, r, MaxBodyBytes, apiBodyTooBig)
			unread = aerr != nil && aerr.status == http.StatusRequestEntityTooLarge
		}
		defer func() {
			if unread || call.unread {
				s.drain(w, r)
			}
		}()
		target := s
		if aerr == nil && !route.global {
			target, aerr = s.controlWorld(r.Header.Get(KeyHeader), r.Header.Get(worldHeader))
		}
		var v any
		if aerr == nil {
			v, aerr = route.serve(target, call)
		}
		if aerr != nil {
			status, body = aerr.status, failureBody(aerr.msg)
		} else {
			body = encodeJSON(v)
		}
	}
	writeAnswer(w, status, 0, len(body), body)
}

// adminID returns the next X-Request-Id of an answer not the API's.
func (s *Server) adminID() string { return "mock-" + strconv.FormatUint(s.adminSeq.Add(1), 10) }

// serveOpenAPI answers GET and HEAD with the OpenAPI document.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		b := failureBody(fmt.Sprintf("%s does not accept %s: fetch it with GET", OpenAPIPath, r.Method))
		writeAnswer(w, http.StatusMethodNotAllowed, 0, len(b), b)
		return
	}
	w.Header().Set("Content-Type", "application/yaml")
	writeAnswer(w, http.StatusOK, 0, len(api.OpenAPI), api.OpenAPI)
}

// controlError turns a Server method's error into a 400.
func controlError(err error) *apiError {
	return badRequest("%s", strings.TrimPrefix(err.Error(), "mockserver: "))
}

func (s *Server) adminHealth(*adminCall) (any, *apiError) {
	return struct {
		State     string `json:"state"`
		Articles  int    `json:"articles"`
		Jobs      int    `json:"jobs"`
		DateShift int64  `json:"date_shift_seconds"`
		Worlds    int    `json:"worlds"`
	}{"SUCCESS", s.Corpus().Len(), s.jobs.Len(), int64(s.shift.Seconds()), len(s.listWorlds())}, nil
}

// decodeStrict decodes a JSON object body into v, refusing unknown fields.
func decodeStrict(body []byte, v any, example, fields string) *apiError {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return badRequest("the body is empty: send %s", example)
	}
	if body[0] != '{' || !json.Valid(body) {
		return badRequest("the body is not a JSON object: send %s", example)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return badRequest("%s must be a %s, not %s: send %s", te.Field, te.Type.Kind(), te.Value, example)
		}
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return badRequest("unknown field %s: the fields are %s; send %s", name, fields, example)
		}
		return badRequest("the body is not valid: %v; send %s", err, example)
	}
	return nil
}
