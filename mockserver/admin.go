package mockserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/api"
	"github.com/newssearch/newssearch-go/internal/textutil"
)

// OpenAPIPath is where the server answers GET (and HEAD) with the service's
// OpenAPI 3.1 document (package api), for generating clients in other
// languages. Like the /_mock/ endpoints it needs no api_key, is not
// journaled and never gets faults.
const OpenAPIPath = "/openapi.yaml"

// controlPrefix starts the paths of the mock's own control endpoints, listed
// in adminRoutes and described in docs/control-api.md and api/openapi.yaml.
// They need no api_key, are not journaled and never get faults; each calls
// the Server method of the same action.
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

// adminID returns the X-Request-Id of the next answer that is not the
// API's: "mock-" and a counter.
func (s *Server) adminID() string { return "mock-" + strconv.FormatUint(s.adminSeq.Add(1), 10) }

// serveOpenAPI answers GET and HEAD with the OpenAPI document; it runs after
// serveControl has set the request id.
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

// controlError turns an error of a Server method into a 400 whose message
// drops the package prefix.
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

// journalParams are the query parameters GET /_mock/journal accepts.
const journalParams = "path, status, since, limit, count, body.<member>, wait and min"

// maxJournalWait bounds GET /_mock/journal's wait.
const maxJournalWait = time.Minute

func (s *Server) adminJournal(c *adminCall) (any, *apiError) {
	var q JournalQuery
	count := false
	var wait time.Duration
	least := 1
	values := c.r.URL.Query()
	for _, name := range slices.Sorted(maps.Keys(values)) {
		vs := values[name]
		if len(vs) > 1 {
			return nil, badRequest("the parameter %s is given %d times: give it once", quoteShort(name), len(vs))
		}
		v := vs[0]
		number := func(min int64) (int64, *apiError) {
			n, err := strconv.ParseInt(v, 10, 64)
			if errors.Is(err, strconv.ErrRange) && n > 0 {
				err = nil // n is math.MaxInt64, above any seq, status or count it meets
			}
			if err != nil || n < min {
				return 0, badRequest("%s=%s is not a whole number from %d: write e.g. %s=%d", name, quoteShort(v), min, name, max(min, 2))
			}
			return n, nil
		}
		var aerr *apiError
		var n int64
		switch name {
		case "path":
			if _, ok := endpointName(v); !ok && !strings.HasPrefix(v, "/") {
				return nil, badRequest("path=%s is not an endpoint: use a path such as /api/v2/query-async or a name: query, query-async, get-results or headlines", quoteShort(v))
			}
			q.Path = v
		case "status":
			n, aerr = number(0)
			q.Status = int(min(n, 999))
		case "since":
			n, aerr = number(0)
			q.Since = uint64(n)
		case "limit":
			n, aerr = number(0)
			q.Limit = int(min(n, 1<<31-1))
		case "min":
			n, aerr = number(1)
			least = int(min(n, 1<<31-1))
		case "wait":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > maxJournalWait {
				return nil, badRequest("wait=%s is not a duration from 0 to %v: write e.g. wait=2s", quoteShort(v), maxJournalWait)
			}
			wait = d
		case "count":
			switch strings.ToLower(v) {
			case "", "1", "true":
				count = true
			case "0", "false":
			default:
				return nil, badRequest("count=%s is not a boolean: write count=true, or leave it out for the entries", quoteShort(v))
			}
		default:
			member, ok := strings.CutPrefix(name, "body.")
			if !ok || member == "" {
				return nil, badRequest("unknown parameter %s: GET /_mock/journal takes %s", quoteShort(name), journalParams)
			}
			if q.Body == nil {
				q.Body = map[string]string{}
			}
			q.Body[member] = v
		}
		if aerr != nil {
			return nil, aerr
		}
	}
	if values.Has("min") && !values.Has("wait") {
		return nil, badRequest("min goes with wait: write e.g. wait=2s&min=3 to wait until 3 entries match")
	}
	ctx, cancel := context.WithTimeout(c.r.Context(), wait)
	defer cancel()
	entries, err := s.AwaitJournal(ctx, least, q)
	_, dropped := s.journalSnapshot()
	var met *bool // whether wait found min entries; absent without wait
	if values.Has("wait") {
		ok := err == nil
		met = &ok
	}
	if count {
		return struct {
			State   string `json:"state"`
			Count   int    `json:"count"`
			Dropped uint64 `json:"dropped"`
			Met     *bool  `json:"met,omitempty"`
		}{"SUCCESS", len(entries), dropped, met}, nil
	}
	return struct {
		State   string         `json:"state"`
		Dropped uint64         `json:"dropped"` // before the entries, which may be long
		Met     *bool          `json:"met,omitempty"`
		Entries []JournalEntry `json:"entries"`
	}{"SUCCESS", dropped, met, entries}, nil
}

// faultJSON is a Fault on the wire.
type faultJSON struct {
	Latency    string `json:"latency,omitempty"`
	Status     int    `json:"status,omitempty"`
	RetryAfter int    `json:"retry_after,omitempty"`
	Drop       bool   `json:"drop,omitempty"`
	Truncate   bool   `json:"truncate,omitempty"`
	Job        string `json:"job,omitempty"`
	Results    string `json:"results,omitempty"`
	Totals     string `json:"totals,omitempty"`
}

// faultRuleJSON is a FaultRuleStatus on the wire.
type faultRuleJSON struct {
	Index       int       `json:"index"`
	Text        string    `json:"text"`
	Endpoint    string    `json:"endpoint"`
	Every       int       `json:"every"`
	Probability float64   `json:"probability"`
	Times       int       `json:"times"`
	Optional    bool      `json:"optional,omitempty"`
	Fault       faultJSON `json:"fault"`
	Matched     uint64    `json:"matched"`
	Fired       int       `json:"fired"`
	Remaining   *int      `json:"remaining"` // null = no limit
}

func (s *Server) adminFaults(*adminCall) (any, *apiError) {
	rules := []faultRuleJSON{}
	for _, r := range s.Faults() {
		rules = append(rules, ruleJSON(r))
	}
	return struct {
		State string          `json:"state"`
		Rules []faultRuleJSON `json:"rules"`
	}{"SUCCESS", rules}, nil
}

// ruleJSON is a rule with its counters on the wire.
func ruleJSON(r FaultRuleStatus) faultRuleJSON {
	f := r.Fault
	fj := faultJSON{Status: f.Status, RetryAfter: f.RetryAfter, Drop: f.Drop, Truncate: f.Truncate,
		Results: f.Shape.Results, Totals: f.Shape.Totals}
	if f.Latency > 0 {
		fj.Latency = f.Latency.String()
	}
	fj.Job = [...]string{JobFail: "fail", JobStuck: "stuck", JobRefuse: "refuse", JobNormal: ""}[f.Job]
	out := faultRuleJSON{Index: r.Index, Text: r.FaultRule.String(), Endpoint: r.Endpoint, Every: r.Every,
		Probability: r.Probability, Times: r.Times, Optional: r.Optional, Fault: fj, Matched: r.Matched, Fired: r.Fired}
	if r.Remaining >= 0 {
		out.Remaining = &r.Remaining
	}
	return out
}

func (s *Server) adminSetFaults(c *adminCall) (any, *apiError) {
	rules, err := parseFaultRules(c.body)
	if err != nil {
		return nil, controlError(err)
	}
	if err := s.SetFaults(rules...); err != nil {
		return nil, controlError(err)
	}
	return s.adminFaults(c)
}

func (s *Server) adminAddFault(c *adminCall) (any, *apiError) {
	n := len(s.faults.Status())
	body := bytes.TrimSpace(c.body)
	if len(body) == 0 {
		return nil, badRequest(`the body is empty: send one rule, e.g. {"endpoint": "query", "times": 2, "fault": {"status": 503}} or endpoint=query;times=2;status=503`)
	}
	rule, err := parseFaultRule(n, body)
	if err != nil {
		return nil, controlError(err)
	}
	if err := s.AddFault(rule); err != nil {
		return nil, controlError(err)
	}
	return s.adminFaults(c)
}

// adminRemoveFault answers DELETE /_mock/faults/{index}[?text=rule]: with
// text, the rule is removed only if it is still the one at index, so that a
// page or a script that read the list cannot remove another rule that has
// taken its place meanwhile.
func (s *Server) adminRemoveFault(c *adminCall) (any, *apiError) {
	const usage = "DELETE /_mock/faults/{index} takes the index GET /_mock/faults lists, e.g. DELETE /_mock/faults/0"
	if strings.TrimLeft(c.id, "0123456789") != "" {
		return nil, badRequest("fault rule index %s is not a whole number from 0: %s", quoteShort(c.id), usage)
	}
	index, err := strconv.Atoi(c.id)
	if err != nil { // digits only, too many for an int: past every rule
		digits := strings.TrimLeft(c.id, "0")
		if len(digits) > 40 {
			digits = digits[:20] + "..." + digits[len(digits)-20:]
		}
		err := noFaultRuleError{digits, len(s.faults.Status())}
		return nil, &apiError{status: http.StatusNotFound, msg: strings.TrimPrefix(err.Error(), "mockserver: ")}
	}
	q := c.r.URL.Query()
	for _, name := range slices.Sorted(maps.Keys(q)) {
		if name != "text" {
			return nil, badRequest("unknown query parameter %s: the only one is text, the rule's text as GET /_mock/faults lists it "+
				"(the rule is then removed only if it is still at that index)", quoteShort(name))
		}
	}
	var accept func(FaultRule) bool
	want, guarded := q["text"]
	if guarded {
		accept = func(r FaultRule) bool { return r.String() == want[0] }
	}
	rule, removed, err := s.removeFault(index, accept)
	switch {
	case err != nil:
		return nil, &apiError{status: http.StatusNotFound, msg: strings.TrimPrefix(err.Error(), "mockserver: ")}
	case !removed:
		return nil, &apiError{status: http.StatusConflict, msg: fmt.Sprintf(
			"fault rule %d is now %s, not %s: the rules changed since you read them; GET /_mock/faults and try again",
			index, quoteShort(rule.String()), quoteShort(want[0]))}
	}
	return s.adminFaults(c)
}

// parseFaultRules reads the body of PUT /_mock/faults: {"rules": [...]},
// a JSON array of rules, or rules in -fault syntax one a line.
func parseFaultRules(body []byte) ([]FaultRule, error) {
	body = bytes.TrimSpace(body)
	var raws []json.RawMessage
	switch {
	case len(body) == 0:
		return nil, nil
	case body[0] == '{':
		var wrap map[string]json.RawMessage
		if err := json.Unmarshal(body, &wrap); err != nil {
			return nil, fmt.Errorf("the body is not valid JSON (%v): send {\"rules\": [rule, ...]}", err)
		}
		for name := range wrap {
			if name != "rules" {
				return nil, fmt.Errorf("unknown field %s: the body is {\"rules\": [rule, ...]}", quoteShort(name))
			}
		}
		rules, ok := wrap["rules"]
		if !ok || json.Unmarshal(rules, &raws) != nil {
			return nil, errors.New(`"rules" must be an array of rules: send {"rules": [{"endpoint": "query", "fault": {"status": 503}}]} ({"rules": []} removes them all)`)
		}
	case body[0] == '[':
		if err := json.Unmarshal(body, &raws); err != nil {
			return nil, fmt.Errorf("the body is not valid JSON (%v): send an array of rules", err)
		}
	default:
		var rules []FaultRule
		for line := range strings.Lines(string(body)) {
			if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			r, err := parseFaultRule(len(rules), []byte(line))
			if err != nil {
				return nil, err
			}
			rules = append(rules, r)
		}
		return rules, nil
	}
	rules := make([]FaultRule, len(raws))
	for i, raw := range raws {
		r, err := parseFaultRule(i, bytes.TrimSpace(raw))
		if err != nil {
			return nil, err
		}
		rules[i] = r
	}
	return rules, nil
}

// ruleFields names the fields of a rule object for messages.
const ruleFields = "endpoint, every, probability, times, optional and fault"

// faultFields names the fields of a fault object for messages.
const faultFields = "latency, status, retry_after, drop, truncate, job, results and totals"

// parseFaultRule reads rule i: a JSON object, a JSON string in -fault
// syntax, or -fault syntax as it is.
func parseFaultRule(i int, raw []byte) (FaultRule, error) {
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return FaultRule{}, fmt.Errorf("fault rule %d is not a valid JSON string (%v)", i, err)
		}
		raw = []byte(text)
	case len(raw) > 0 && raw[0] == '{':
		return parseFaultRuleObject(i, raw)
	case len(raw) > 0 && (raw[0] == '[' || raw[0] == 'n' || raw[0] == 't' || raw[0] == 'f' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
		return FaultRule{}, fmt.Errorf(`fault rule %d is %s: write a rule as an object such as {"endpoint": "query", "fault": {"status": 503}} or a string such as "endpoint=query;status=503"`, i, textutil.JSONKind(raw))
	}
	r, err := ParseFaultRule(string(raw))
	if err != nil {
		return FaultRule{}, fmt.Errorf("fault rule %d: %s", i, strings.TrimPrefix(err.Error(), "mockserver: "))
	}
	return r, nil
}

func parseFaultRuleObject(i int, raw []byte) (FaultRule, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return FaultRule{}, fmt.Errorf("fault rule %d is not valid JSON (%v)", i, err)
	}
	var r FaultRule
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v := m[name]
		var err error
		switch name {
		case "endpoint":
			err = decodeField(v, &r.Endpoint, `a string such as "query"`)
		case "every":
			err = decodeField(v, &r.Every, "a whole number such as 3")
		case "probability":
			err = decodeField(v, &r.Probability, "a number from 0 to 1 such as 0.25")
		case "times":
			err = decodeField(v, &r.Times, "a whole number such as 2")
		case "fault":
			r.Fault, err = parseFaultJSON(v)
		case "optional":
			err = decodeField(v, &r.Optional, "true or false")
		case "index", "text", "matched", "fired", "remaining": // as GET lists them, so a listing can be sent back
		default:
			return FaultRule{}, fmt.Errorf("fault rule %d: unknown field %s: a rule has %s", i, quoteShort(name), ruleFields)
		}
		if err != nil {
			return FaultRule{}, fmt.Errorf("fault rule %d: %s%w", i, name, err)
		}
	}
	return r, nil
}

func parseFaultJSON(raw json.RawMessage) (Fault, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return Fault{}, fmt.Errorf(" is not a valid JSON string (%v)", err)
		}
		f, err := ParseFault(text)
		if err != nil {
			return Fault{}, fmt.Errorf(" is wrong: %s", strings.TrimPrefix(err.Error(), "mockserver: "))
		}
		return f, nil
	}
	var m map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return Fault{}, fmt.Errorf(` must be an object such as {"status": 503} or a string such as "status=503", not %s`, textutil.JSONKind(raw))
	}
	var f Fault
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v := m[name]
		var err error
		switch name {
		case "latency":
			var d string
			if err = decodeField(v, &d, `a duration such as "150ms"`); err == nil {
				if f.Latency, err = time.ParseDuration(d); err != nil {
					err = fmt.Errorf(" must be a duration such as \"150ms\" or \"2s\", not %s", quoteShort(d))
				}
			}
		case "status":
			err = decodeField(v, &f.Status, "a whole number such as 503")
		case "retry_after":
			err = decodeField(v, &f.RetryAfter, "a whole number of seconds such as 2")
		case "drop":
			err = decodeField(v, &f.Drop, "true or false")
		case "truncate":
			err = decodeField(v, &f.Truncate, "true or false")
		case "job":
			var j string
			if err = decodeField(v, &j, `"fail", "stuck" or "refuse"`); err == nil {
				switch strings.ToLower(j) {
				case "", "normal":
				case "fail":
					f.Job = JobFail
				case "stuck":
					f.Job = JobStuck
				case "refuse":
					f.Job = JobRefuse
				default:
					err = fmt.Errorf(` must be "fail", "stuck" or "refuse", not %s`, quoteShort(j))
				}
			}
		case "results":
			err = decodeField(v, &f.Shape.Results, `"nested" or "top-level"`)
		case "totals":
			err = decodeField(v, &f.Shape.Totals, `"both", "totalResults" or "totalArticles"`)
		default:
			return Fault{}, fmt.Errorf(" has an unknown field %s: a fault has %s", quoteShort(name), faultFields)
		}
		if err != nil {
			return Fault{}, fmt.Errorf(".%s%w", name, err)
		}
	}
	return f, nil
}

// decodeField decodes a JSON value into p, or says what it must be.
func decodeField[T any](raw json.RawMessage, p *T, want string) error {
	if err := json.Unmarshal(raw, p); err != nil {
		return fmt.Errorf(" must be %s, not %s", want, textutil.JSONKind(bytes.TrimSpace(raw)))
	}
	return nil
}

// jobJSON is a JobInfo on the wire.
type jobJSON struct {
	QueryID  string    `json:"query_id"`
	Owner    string    `json:"owner"`
	State    JobState  `json:"state"`
	Query    string    `json:"query"`
	Body     string    `json:"body"`
	Message  string    `json:"message,omitempty"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
	Expires  time.Time `json:"expires"`
	Polls    int       `json:"polls"`
}

func toJobJSON(j JobInfo) jobJSON {
	return jobJSON(j)
}

type jobAnswer struct {
	State string  `json:"state"`
	Job   jobJSON `json:"job"`
}

func (s *Server) adminJobs(*adminCall) (any, *apiError) {
	list := s.Jobs()
	out := make([]jobJSON, len(list))
	for i, j := range list {
		out[i] = toJobJSON(j)
	}
	return struct {
		State string    `json:"state"`
		Jobs  []jobJSON `json:"jobs"`
	}{"SUCCESS", out}, nil
}

func unknownJob(id string) *apiError {
	return &apiError{status: http.StatusNotFound, msg: fmt.Sprintf(
		"no live job has query_id %s (never issued, expired or removed): GET /_mock/jobs lists the live ones", quoteShort(id))}
}

func (s *Server) adminJob(c *adminCall) (any, *apiError) {
	for _, j := range s.Jobs() {
		if j.QueryID == c.id {
			return jobAnswer{"SUCCESS", toJobJSON(j)}, nil
		}
	}
	return nil, unknownJob(c.id)
}

func (s *Server) adminForceJob(c *adminCall) (any, *apiError) {
	var in struct {
		State   string `json:"state"`
		Message string `json:"message"`
	}
	const example = `{"state": "FAILED", "message": "upstream timeout"}`
	if aerr := decodeStrict(c.body, &in, example, "state and message"); aerr != nil {
		return nil, aerr
	}
	if in.State == "" {
		return nil, badRequest("state is missing: send %s; state is SUCCESS, FAILED or PENDING", example)
	}
	info, err := s.ForceJob(c.id, JobState(strings.ToUpper(in.State)), in.Message)
	switch {
	case errors.Is(err, ErrUnknownJob):
		return nil, unknownJob(c.id)
	case err != nil:
		return nil, controlError(err)
	}
	return jobAnswer{"SUCCESS", toJobJSON(info)}, nil
}

func (s *Server) adminExpireJob(c *adminCall) (any, *apiError) {
	if err := s.ExpireJob(c.id); err != nil {
		return nil, unknownJob(c.id)
	}
	return success, nil
}

type clockAnswer struct {
	State  string    `json:"state"`
	Now    time.Time `json:"now"`
	Manual bool      `json:"manual"`
}

func (s *Server) adminClock(*adminCall) (any, *apiError) {
	return clockAnswer{"SUCCESS", s.Now(), (s.manual != nil)}, nil
}

func (s *Server) adminMoveClock(c *adminCall) (any, *apiError) {
	if !(s.manual != nil) {
		return nil, &apiError{status: http.StatusConflict, msg: "the clock is the real one, so it cannot be moved: " +
			"start newsmock with -clock manual (or -clock manual=2026-01-15T12:00:00Z), or the Go server with mockserver.WithManualClock"}
	}
	var in struct {
		Advance *string `json:"advance"`
		Set     *string `json:"set"`
	}
	const example = `{"advance": "2h"} or {"set": "2026-01-15T12:00:00Z"}`
	if aerr := decodeStrict(c.body, &in, example, "advance or set"); aerr != nil {
		return nil, aerr
	}
	var err error
	switch {
	case (in.Advance == nil) == (in.Set == nil):
		return nil, badRequest("give exactly one of advance and set: send %s", example)
	case in.Advance != nil:
		d, perr := time.ParseDuration(*in.Advance)
		if perr != nil {
			return nil, badRequest("advance %s is not a duration: write e.g. \"90s\", \"2h\" or \"1h30m\"", quoteShort(*in.Advance))
		}
		_, err = s.advanceClock(d)
	default:
		t, perr := time.Parse(time.RFC3339Nano, *in.Set)
		if perr != nil {
			return nil, badRequest("set %s is not an RFC 3339 time: write e.g. \"2026-01-15T12:00:00Z\" (%s)", quoteShort(*in.Set), clockRange)
		}
		_, err = s.SetClock(t)
	}
	if err != nil {
		return nil, controlError(err)
	}
	return s.adminClock(c)
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

// articleCounts is the answer of the /_mock/articles endpoints; batch is
// what a POST added (0 and left out otherwise).
func (s *Server) articleCounts(batch int) any {
	return struct {
		State string `json:"state"`
		articleCountsBody
		Batch int `json:"added_now,omitempty"`
	}{"SUCCESS", s.counts(), batch}
}

// freeMemoryAfter is the size of an articles body after which the server
// hands the memory it took back to the system at once (a body of
// defaultMaxArticlesBody would otherwise stay in the process for minutes).
const freeMemoryAfter = 32 << 20

// articlesTooBig is the 413 message of POST /_mock/articles.
const articlesTooBig = "the articles are more than %d bytes: send them in several POST /_mock/articles calls"

// adminAddArticles answers POST /_mock/articles (add) and PUT (replace). It
// reads the body itself, in blocks (readBodyBlocks), one request at a
// time: AddArticles adds one batch at a time anyway, and several large
// bodies read at once would each hold memory up to the limit.
func (s *Server) adminAddArticles(c *adminCall) (any, *apiError) {
	select {
	case s.articlesBody <- struct{}{}:
		defer func() { <-s.articlesBody }()
	case <-c.r.Context().Done():
		return nil, &apiError{status: http.StatusServiceUnavailable, msg: "the request was cancelled while it waited " +
			"for another POST /_mock/articles to finish: send it again"}
	}
	v, read, aerr := s.addArticlesFromBody(c)
	if read >= freeMemoryAfter {
		debug.FreeOSMemory() // the body is garbage now, whether it was added or refused
	}
	return v, aerr
}

// addArticlesFromBody adds the articles of the body as it is read: it is
// never held whole, as AddArticles holds only the articles. It returns how
// many bytes it read.
func (s *Server) addArticlesFromBody(c *adminCall) (any, int64, *apiError) {
	tooBig := &apiError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf(articlesTooBig, s.maxArticlesBody)}
	if c.r.ContentLength > s.maxArticlesBody {
		c.w.Header().Set("Connection", "close")
		c.unread = true
		return nil, 0, tooBig
	}
	body := &countReader{r: http.MaxBytesReader(c.w, c.r.Body, s.maxArticlesBody)}
	add := s.AddArticles
	if c.r.Method == http.MethodPut {
		add = s.replaceArticles
	}
	n, err := add(body)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, body.n, tooBig
	case err != nil:
		return nil, body.n, badRequest("%s", strings.TrimPrefix(err.Error(), "mockserver: AddArticles: "))
	}
	return s.articleCounts(n), body.n, nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// settingsJSON is Settings on the wire, durations as Go durations ("1h0m0s").
type settingsJSON struct {
	PendingPolls int         `json:"pending_polls"`
	Pending      string      `json:"pending"`
	RateLimit    float64     `json:"rate_limit"`
	Burst        int         `json:"burst"`
	JobTTL       string      `json:"job_ttl"`
	MaxJobs      int         `json:"max_jobs"`
	Shape        AnswerShape `json:"shape"`
}

func (s *Server) adminSettings(*adminCall) (any, *apiError) {
	st := s.Settings()
	return struct {
		State    string       `json:"state"`
		Settings settingsJSON `json:"settings"`
	}{"SUCCESS", settingsJSON{st.PendingPolls, st.Pending.String(), st.RateLimit, st.Burst, st.JobTTL.String(), st.MaxJobs, st.Shape}}, nil
}

// adminPatchSettings answers PATCH /_mock/settings: the fields given
// change, the others stay.
func (s *Server) adminPatchSettings(c *adminCall) (any, *apiError) {
	var in struct {
		PendingPolls *int     `json:"pending_polls"`
		Pending      *string  `json:"pending"`
		RateLimit    *float64 `json:"rate_limit"`
		Burst        *int     `json:"burst"`
		JobTTL       *string  `json:"job_ttl"`
		MaxJobs      *int     `json:"max_jobs"`
		Shape        *struct {
			Results *string `json:"results"`
			Totals  *string `json:"totals"`
		} `json:"shape"`
	}
	const example = `{"pending": "10s", "pending_polls": 2}`
	if aerr := decodeStrict(c.body, &in, example, "pending_polls, pending, rate_limit, burst, job_ttl, max_jobs and shape"); aerr != nil {
		return nil, aerr
	}
	st := s.Settings()
	duration := func(name string, v *string, d *time.Duration) *apiError {
		if v == nil {
			return nil
		}
		p, err := time.ParseDuration(*v)
		if err != nil {
			return badRequest("%s %s is not a duration: write e.g. \"10s\" or \"1h30m\"", name, quoteShort(*v))
		}
		*d = p
		return nil
	}
	if aerr := cmp.Or(duration("pending", in.Pending, &st.Pending), duration("job_ttl", in.JobTTL, &st.JobTTL)); aerr != nil {
		return nil, aerr
	}
	set := func(v *int, to *int) {
		if v != nil {
			*to = *v
		}
	}
	set(in.PendingPolls, &st.PendingPolls)
	set(in.Burst, &st.Burst)
	set(in.MaxJobs, &st.MaxJobs)
	if in.RateLimit != nil {
		st.RateLimit = *in.RateLimit
		if *in.RateLimit == 0 {
			st.Burst = 0
		}
	}
	if in.Shape != nil {
		if in.Shape.Results != nil {
			st.Shape.Results = *in.Shape.Results
		}
		if in.Shape.Totals != nil {
			st.Shape.Totals = *in.Shape.Totals
		}
	}
	if err := s.SetSettings(st); err != nil {
		return nil, controlError(err)
	}
	return s.adminSettings(c)
}

func (s *Server) adminExpectations(*adminCall) (any, *apiError) {
	return struct {
		State        string              `json:"state"`
		Expectations []ExpectationStatus `json:"expectations"`
	}{"SUCCESS", s.expectations()}, nil
}

// adminAddExpectations answers POST /_mock/expectations: one expectation
// or an array of them, each {"endpoint", "body", "times" | "min", "max"}
// (no count: at least once). On error none is added.
func (s *Server) adminAddExpectations(c *adminCall) (any, *apiError) {
	const example = `{"endpoint": "query", "body": {"query": "election"}, "times": 1}`
	body := bytes.TrimSpace(c.body)
	var raws []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &raws) != nil {
			return nil, badRequest("the body is not a JSON array of expectations: send e.g. [%s]", example)
		}
	} else {
		raws = []json.RawMessage{body}
	}
	var es []Expectation
	for i, raw := range raws {
		var in struct {
			Endpoint string                     `json:"endpoint"`
			Body     map[string]json.RawMessage `json:"body"`
			Times    *int                       `json:"times"`
			Min      *int                       `json:"min"`
			Max      *int                       `json:"max"`
		}
		if aerr := decodeStrict(raw, &in, example, "endpoint, body, times, min and max"); aerr != nil {
			return nil, &apiError{status: aerr.status, msg: fmt.Sprintf("expectation %d: %s", i, aerr.msg)}
		}
		e := Expectation{Endpoint: in.Endpoint, Min: 1, Max: -1}
		switch {
		case in.Times != nil && (in.Min != nil || in.Max != nil):
			return nil, badRequest("expectation %d gives times with min or max: give times for an exact count, or min and max for bounds", i)
		case in.Times != nil:
			e.Min, e.Max = *in.Times, *in.Times
		case in.Min != nil || in.Max != nil:
			e.Min = 0
			set := func(v *int, to *int) {
				if v != nil {
					*to = *v
				}
			}
			set(in.Min, &e.Min)
			set(in.Max, &e.Max)
		}
		for name, v := range in.Body {
			if e.Body == nil {
				e.Body = map[string]string{}
			}
			var text string
			if json.Unmarshal(v, &text) != nil {
				text = string(bytes.TrimSpace(v)) // a number, true, false: as JSON text
			}
			e.Body[name] = text
		}
		if err := e.check(); err != nil {
			return nil, badRequest("expectation %d: %s", i, strings.TrimPrefix(err.Error(), "mockserver: expectation: "))
		}
		es = append(es, e)
	}
	for _, e := range es {
		_ = s.addExpectation(e) // checked above
	}
	return s.adminExpectations(c)
}

// adminVerify answers GET /_mock/verify: Verify as JSON, with its message.
func (s *Server) adminVerify(*adminCall) (any, *apiError) {
	out := struct {
		State           string              `json:"state"`
		Met             bool                `json:"met"`
		Message         string              `json:"message,omitempty"`
		Unmet           []ExpectationStatus `json:"unmet"`
		UnfiredFaults   []faultRuleJSON     `json:"unfired_faults"`
		Unexpected      []JournalEntry      `json:"unexpected"`
		UnexpectedCount int                 `json:"unexpected_count"`
	}{State: "SUCCESS", Met: true, Unmet: []ExpectationStatus{}, UnfiredFaults: []faultRuleJSON{}, Unexpected: []JournalEntry{}}
	var v *VerifyError
	if err := s.Verify(); errors.As(err, &v) {
		out.Met, out.Message = false, v.Error()
		out.Unmet = append(out.Unmet, v.Unmet...)
		out.Unexpected, out.UnexpectedCount = append(out.Unexpected, v.Unexpected...), v.UnexpectedCount
		for _, f := range v.UnfiredFaults {
			out.UnfiredFaults = append(out.UnfiredFaults, ruleJSON(f))
		}
	}
	return out, nil
}
