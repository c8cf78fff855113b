package mockserver

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	newssearch "github.com/newssearch/newssearch-go"
)

// crossSiteMsg is the 403 message for a request whose headers say "from".
func crossSiteMsg(from string) string {
	return "the mock takes no request from a web page of another site (this one has " + from + "), so that a page " +
		"open in your browser cannot change its faults, jobs, clock or articles, nor use its API: send requests from a " +
		"program or a test (curl, your test suite), which send neither header, or use the inspector the mock serves at /_mock/ui; " +
		"a proxy between a browser and the mock must pass on the browser's Host header"
}

// stateOf summarises what a refused request must not change: fault rules
// and their counters, jobs, the clock, the articles and the journal.
func stateOf(s *Server) string {
	var b strings.Builder
	for _, f := range s.Faults() {
		fmt.Fprintf(&b, "rule %s matched %d fired %d; ", f.FaultRule, f.Matched, f.Fired)
	}
	fmt.Fprintf(&b, "jobs %d; clock %v; articles %+v; journal %d", len(s.Jobs()), s.Now(), s.counts(), len(s.Journal()))
	return b.String()
}

// TestCrossSiteRequestsRefused: a request whose Origin or Sec-Fetch-Site
// says it comes from a page of another site is a 403 that changes nothing,
// on the control endpoints and the API alike; same-origin requests, user
// navigations and programs (no header) pass, and so do GETs of the
// inspector and the OpenAPI document, which a person may open from a link.
func TestCrossSiteRequestsRefused(t *testing.T) {
	t.Parallel()
	s := start(t, WithManualClock(t0))
	job := submitPlain(t, s)
	if err := s.SetFaults(FaultRule{Endpoint: EndpointQueryAsync, Times: 1, Fault: Fault{Status: 503}}); err != nil {
		t.Fatal(err)
	}
	before := stateOf(s)
	evil := crossSiteMsg(`Origin: "http://evil.example", not this server's "mockserver.invalid"`)
	u := s.URL()
	asyncBody := `{"api_key": "` + s.APIKey() + `", "query": "cars"}`
	for _, tc := range []struct {
		name, method, path, body string
		headers                  []string
		msg                      string
	}{
		{"faults POST, JSON", "POST", "/_mock/faults", `{"fault": {"status": 500}}`, []string{"Origin", "http://evil.example", "Content-Type", "application/json"}, evil},
		{"faults POST, text/plain", "POST", "/_mock/faults", "status=500", []string{"Origin", "http://evil.example", "Content-Type", "text/plain"}, evil},
		{"faults PUT", "PUT", "/_mock/faults", `[]`, []string{"Origin", "http://evil.example"}, evil},
		{"faults DELETE", "DELETE", "/_mock/faults", "", []string{"Origin", "http://evil.example"}, evil},
		{"reset, form", "POST", "/_mock/reset", "a=b", []string{"Origin", "http://evil.example", "Content-Type", "application/x-www-form-urlencoded"}, evil},
		{"clock", "POST", "/_mock/clock", `{"advance": "2h"}`, []string{"Sec-Fetch-Site", "cross-site", "Content-Type", "application/json"}, crossSiteMsg(`Sec-Fetch-Site: "cross-site"`)},
		{"clock, same site", "POST", "/_mock/clock", `{"advance": "2h"}`, []string{"Sec-Fetch-Site", "same-site", "Origin", "http://localhost:3000", "Content-Type", "application/json"}, crossSiteMsg(`Sec-Fetch-Site: "same-site"`)},
		{"job force", "POST", "/_mock/jobs/" + job, `{"state": "FAILED"}`, []string{"Origin", "null", "Content-Type", "application/json"}, crossSiteMsg("Origin: null, a page whose origin is hidden")},
		{"job expire", "DELETE", "/_mock/jobs/" + job, "", []string{"Sec-Fetch-Site", "cross-site"}, crossSiteMsg(`Sec-Fetch-Site: "cross-site"`)},
		{"articles", "DELETE", "/_mock/articles", "", []string{"Origin", "https://mockserver.invalid.evil.example"},
			crossSiteMsg(`Origin: "https://mockserver.invalid.evil.example", not this server's "mockserver.invalid"`)},
		{"journal read", "GET", "/_mock/journal", "", []string{"Sec-Fetch-Site", "cross-site"}, crossSiteMsg(`Sec-Fetch-Site: "cross-site"`)},
		{"unknown Sec-Fetch-Site", "GET", "/_mock/jobs", "", []string{"Sec-Fetch-Site", "elsewhere"}, crossSiteMsg(`Sec-Fetch-Site: "elsewhere"`)},
		{"query-async, text/plain", "POST", "/api/v2/query-async", asyncBody, []string{"Origin", "http://evil.example", "Content-Type", "text/plain"}, evil},
		{"query-async, JSON", "POST", "/api/v2/query-async", asyncBody, []string{"Sec-Fetch-Site", "cross-site", "Content-Type", "application/json"}, crossSiteMsg(`Sec-Fetch-Site: "cross-site"`)},
		{"headlines", "POST", "/api/v2/headlines", `{"api_key": "k"}`, []string{"Sec-Fetch-Site", "same-site"}, crossSiteMsg(`Sec-Fetch-Site: "same-site"`)},
		{"inspector POST", "POST", UIPath, "", []string{"Sec-Fetch-Site", "cross-site"}, crossSiteMsg(`Sec-Fetch-Site: "cross-site"`)},
	} {
		r := do(t, s, tc.method, u+tc.path, tc.body, tc.headers...)
		wantFailure(t, tc.name, r, http.StatusForbidden, tc.msg)
		if got := r.Header.Get("X-Request-Id"); !strings.HasPrefix(got, "mock-") {
			t.Errorf("%s: X-Request-Id %q, want mock-N (a refused API request takes no request number)", tc.name, got)
		}
	}
	if after := stateOf(s); after != before {
		t.Errorf("refused requests changed the server:\nbefore %s\nafter  %s", before, after)
	}

	// Allowed: the same origin, a person's own navigation, a program (no
	// header), and the two pages a link may open.
	for _, tc := range []struct {
		name, method, path string
		headers            []string
	}{
		{"same origin by Sec-Fetch-Site", "GET", "/_mock/jobs", []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://evil.example"}},
		{"typed into the address bar", "GET", "/_mock/journal", []string{"Sec-Fetch-Site", "none"}},
		{"same origin by Origin", "GET", "/_mock/faults", []string{"Origin", "http://mockserver.invalid"}},
		{"Origin in other case", "GET", "/_mock/health", []string{"Origin", "http://MockServer.Invalid"}},
		{"no header", "GET", "/_mock/clock", nil},
		{"inspector from a link", "GET", UIPath, []string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate"}},
		{"inspector script", "GET", UIPath + "/inspector.js", []string{"Sec-Fetch-Site", "cross-site"}},
		{"OpenAPI document from a link", "GET", OpenAPIPath, []string{"Sec-Fetch-Site", "same-site"}},
		{"OpenAPI document HEAD", "HEAD", OpenAPIPath, []string{"Origin", "http://evil.example"}},
	} {
		if r := do(t, s, tc.method, u+tc.path, "", tc.headers...); r.Status != http.StatusOK {
			t.Errorf("%s: %s %s answered %d %s, want 200", tc.name, tc.method, tc.path, r.Status, r.Body)
		}
	}
	r := do(t, s, "POST", u+"/api/v2/query-async", asyncBody, "Sec-Fetch-Site", "same-origin", "Content-Type", "application/json")
	wantFailure(t, "query-async from the same origin, meeting the fault rule", r, http.StatusServiceUnavailable,
		"injected fault (rule 0): the mock server was told to answer 503 Service Unavailable; retry, or remove the fault")
}

// submitPlain submits a job as a program would and returns its id.
func submitPlain(t *testing.T, s *Server) string {
	t.Helper()
	id, err := s.Client().SubmitQuery(t.Context(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "cars"}})
	if err != nil {
		t.Fatal(err)
	}
	return id.QueryID
}

// TestPreflightGrantsNothing: a CORS preflight, from another site or from
// no site, gets no Access-Control-Allow-* header, so a browser sends no
// request that needs one (a JSON POST, a PUT, a DELETE, a custom header).
func TestPreflightGrantsNothing(t *testing.T) {
	t.Parallel()
	s := New() // on a socket, as a browser meets it
	t.Cleanup(s.Close)
	for _, path := range []string{"/_mock/faults", "/_mock/reset", "/_mock/articles", "/api/v2/query-async", UIPath, OpenAPIPath} {
		for _, origin := range []string{"http://evil.example", ""} {
			headers := []string{"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type, x-newsmock-control"}
			if origin != "" {
				headers = append(headers, "Origin", origin, "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors")
			}
			r := do(t, s, http.MethodOptions, s.URL()+path, "", headers...)
			for name := range r.Header {
				if strings.HasPrefix(strings.ToLower(name), "access-control-") {
					t.Errorf("OPTIONS %s (Origin %q): header %s: %q", path, origin, name, r.Header[name])
				}
			}
			want := http.StatusMethodNotAllowed
			if origin != "" {
				want = http.StatusForbidden
			}
			if r.Status != want {
				t.Errorf("OPTIONS %s (Origin %q): %d %s, want %d", path, origin, r.Status, r.Body, want)
			}
		}
	}
	if n := len(s.Journal()); n != 1 { // the one OPTIONS /api/v2/query-async without Origin: a 405 like any wrong method
		t.Errorf("the journal holds %d entries, want 1: %+v", n, s.Journal())
	}
}

// controlTypeMsg is the 415 message of a control POST to path whose body
// type is described by got.
func controlTypeMsg(path, got string) string {
	msg := "POST " + path + " needs Content-Type: application/json (this request has " + got + "): the mock takes control " +
		"requests only in a form that a web page cannot send it, so that a page open in your browser cannot change it; " +
		"with curl add -H 'Content-Type: application/json'"
	switch path {
	case "/_mock/faults":
		msg += "; to send a rule in newsmock's -fault text syntax, send the header X-Newsmock-Control: 1 with it"
	case "/_mock/articles":
		msg += " (or application/x-ndjson for JSON Lines)"
	}
	return msg
}

// TestControlPostNeedsJSON: a POST to a control endpoint must carry a body
// type a web page cannot send to another site without a preflight: JSON
// (or JSON Lines), or any type with X-Newsmock-Control. The types a page
// can send (text/plain, a form, none) are a 415 that changes nothing,
// whatever the body says, even from a program.
func TestControlPostNeedsJSON(t *testing.T) {
	t.Parallel()
	s := start(t, WithManualClock(t0))
	job := submitPlain(t, s)
	before := stateOf(s)
	u := s.URL()
	article := `{"_id": "6a1c0a9e3b2d4c6e8f7a1b2c", "title": "Harbour bridge reopens", "url": "https://example.org/1", "site": "example.org", "datePublished": "2026-01-15 09:30:00"}`
	for _, tc := range []struct {
		path, body, contentType, got string
	}{
		{"/_mock/faults", "endpoint=query;status=503", "text/plain", `Content-Type "text/plain"`},
		{"/_mock/faults", `{"fault": {"status": 503}}`, "text/plain;charset=UTF-8", `Content-Type "text/plain;charset=UTF-8"`},
		{"/_mock/faults", `{"fault": {"status": 503}}`, "", "no Content-Type"},
		{"/_mock/faults", `{"fault": {"status": 503}}`, "text/plain; application/json", `Content-Type "text/plain; application/json"`},
		{"/_mock/faults", `{"fault": {"status": 503}}`, "application/json, text/plain", `Content-Type "application/json, text/plain"`},
		{"/_mock/reset", "", "", "no Content-Type"},
		{"/_mock/reset", "x=1", "application/x-www-form-urlencoded", `Content-Type "application/x-www-form-urlencoded"`},
		{"/_mock/clock", `{"advance": "2h"}`, "multipart/form-data; boundary=x", `Content-Type "multipart/form-data; boundary=x"`},
		{"/_mock/jobs/" + job, `{"state": "FAILED"}`, "text/plain", `Content-Type "text/plain"`},
		{"/_mock/articles", article, "text/plain", `Content-Type "text/plain"`},
	} {
		var headers []string
		if tc.contentType != "" {
			headers = []string{"Content-Type", tc.contentType}
		}
		r := do(t, s, http.MethodPost, u+tc.path, tc.body, headers...)
		path := tc.path
		if strings.HasPrefix(path, "/_mock/jobs/") {
			path = "/_mock/jobs/" + job
		}
		wantFailure(t, "POST "+tc.path+" as "+tc.got, r, http.StatusUnsupportedMediaType, controlTypeMsg(path, tc.got))
	}
	r := do(t, s, http.MethodPost, u+"/_mock/reset", "", "Content-Type", "text/plain", "Content-Type", "application/json")
	wantFailure(t, "two Content-Type headers", r, http.StatusUnsupportedMediaType, controlTypeMsg("/_mock/reset", "2 Content-Type headers"))
	if after := stateOf(s); after != before {
		t.Errorf("refused POSTs changed the server:\nbefore %s\nafter  %s", before, after)
	}

	// Accepted: JSON, with parameters or a +json type, JSON Lines, and any
	// type with X-Newsmock-Control (the fault-rule text syntax).
	for _, tc := range []struct {
		path, body string
		headers    []string
	}{
		{"/_mock/faults", `{"endpoint": "headlines", "every": 1000, "fault": {"status": 500}}`, []string{"Content-Type", "application/json"}},
		{"/_mock/faults", `"endpoint=headlines;every=1000;status=501"`, []string{"Content-Type", "application/json; charset=utf-8"}},
		{"/_mock/faults", "endpoint=headlines;every=1000;status=502", []string{"Content-Type", "text/plain", ControlHeader, "1"}},
		{"/_mock/faults", "endpoint=headlines;every=1000;status=503", []string{ControlHeader, "1"}},
		{"/_mock/clock", `{"advance": "1m"}`, []string{"Content-Type", "application/merge-patch+json"}},
		{"/_mock/articles", article + "\n", []string{"Content-Type", "application/x-ndjson"}},
		{"/_mock/jobs/" + job, `{"state": "FAILED"}`, []string{"Content-Type", "Application/JSON"}},
		{"/_mock/reset", "", []string{"Content-Type", "application/json"}},
	} {
		if r := do(t, s, http.MethodPost, u+tc.path, tc.body, tc.headers...); r.Status != http.StatusOK {
			t.Errorf("POST %s %v: %d %s, want 200", tc.path, tc.headers, r.Status, r.Body)
		}
		if tc.path == "/_mock/faults" && strings.HasPrefix(tc.body, "endpoint=") && len(s.Faults()) == 0 {
			t.Errorf("POST %s %v: the text rule was not added", tc.path, tc.headers)
		}
	}
	// PUT and DELETE need a preflight whatever their body: any type passes.
	if r := do(t, s, http.MethodPut, u+"/_mock/faults", "endpoint=query;every=1000;status=503\n", "Content-Type", "text/plain"); r.Status != http.StatusOK {
		t.Errorf("PUT /_mock/faults as text/plain: %d %s", r.Status, r.Body)
	}
	if r := do(t, s, http.MethodDelete, u+"/_mock/articles", ""); r.Status != http.StatusOK {
		t.Errorf("DELETE /_mock/articles without a body or type: %d %s", r.Status, r.Body)
	}
	// The API keeps taking any type: the real service's clients send what
	// they send, and a page's request is refused by its Origin.
	if r := do(t, s, http.MethodPost, u+"/api/v2/query", `{"api_key": "k", "query": "cars"}`, "Content-Type", "application/x-www-form-urlencoded"); r.Status != http.StatusOK {
		t.Errorf("POST /api/v2/query as a form: %d %s", r.Status, r.Body)
	}
}

// hostMsg is the 421 message for a Host header.
func hostMsg(host, name string) string {
	return "the Host header " + strconv.Quote(host) + " is not a name this mock answers to: it answers to localhost, *.localhost, " +
		"IP addresses and the names given to newsmock -allow-host (mockserver.WithAllowedHosts in Go), so that a web page " +
		"whose domain is made to resolve to this machine (DNS rebinding) cannot reach it; if you reach the mock by this " +
		"name on purpose, start newsmock with -allow-host " + name
}

// TestHostCheck: a request arriving on a socket whose Host is not an IP
// address, localhost, *.localhost or an allowed name is a 421 (DNS
// rebinding); the in-process transport serves any host.
func TestHostCheck(t *testing.T) {
	t.Parallel()
	s := New(WithAllowedHosts("Mock.Internal", "*.example.test"))
	t.Cleanup(s.Close)
	port := s.URL()[strings.LastIndexByte(s.URL(), ':')+1:]
	type hostCase struct {
		host string
		ok   bool
	}
	cases := []hostCase{
		{"attacker.example:" + port, false},
		{"attacker.example", false},
		{"localhost.attacker.example:" + port, false},
		{"example.test:" + port, false},
		{"127.0.0.1.nip.io:" + port, false},
		{"localhost:" + port, true},
		{"LOCALHOST.:" + port, true},
		{"app.localhost:" + port, true},
		{"127.0.0.1:" + port, true},
		{"127.0.0.2", true},
		{"[::1]:" + port, true},
		{"10.1.2.3:" + port, true}, // an address cannot be rebound
		{"mock.internal:" + port, true},
		{"MOCK.INTERNAL", true},
		{"a.example.test:" + port, true},
		{"b.a.example.test", true},
	}
	// Twice, so that each refused Host also comes after allowed ones (the
	// server remembers the last Host it allowed).
	for _, tc := range slices.Concat(cases, cases) {
		r := do(t, s, http.MethodPost, s.URL()+"/api/v2/query-async", `{"api_key": "k", "query": "cars"}`,
			"Host", tc.host, "Content-Type", "application/json")
		switch {
		case tc.ok && r.Status != http.StatusOK:
			t.Errorf("Host %s: %d %s, want 200", tc.host, r.Status, r.Body)
		case !tc.ok:
			name := strings.ToLower(tc.host)
			if h, _, err := net.SplitHostPort(name); err == nil {
				name = h
			}
			wantFailure(t, "Host "+tc.host, r, http.StatusMisdirectedRequest, hostMsg(tc.host, name))
		}
	}
	if jobs, allowed := len(s.Jobs()), 22; jobs != allowed || len(s.Journal()) != allowed {
		t.Errorf("%d jobs and %d journal entries, want %d of each: refused requests must change nothing", jobs, len(s.Journal()), allowed)
	}
	// The control endpoints and the inspector are checked too.
	for _, path := range []string{"/_mock/health", UIPath, OpenAPIPath} {
		wantFailure(t, "GET "+path, do(t, s, http.MethodGet, s.URL()+path, "", "Host", "attacker.example:"+port),
			http.StatusMisdirectedRequest, hostMsg("attacker.example:"+port, "attacker.example"))
	}

	// "*" allows any name.
	any := New(WithAllowedHosts("*"))
	t.Cleanup(any.Close)
	if r := do(t, any, http.MethodGet, any.URL()+"/_mock/health", "", "Host", "attacker.example"); r.Status != http.StatusOK {
		t.Errorf(`WithAllowedHosts("*"), Host attacker.example: %d %s`, r.Status, r.Body)
	}

	// In process, any host: the transport never meets a browser.
	inproc := start(t)
	if r := do(t, inproc, http.MethodGet, "https://app.runathena.com/_mock/health", "", "Host", "attacker.example"); r.Status != http.StatusOK {
		t.Errorf("Transport, Host attacker.example: %d %s", r.Status, r.Body)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "http://attacker.example/_mock/health", nil)
	inproc.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Errorf("Handler called directly, Host attacker.example: %d %s", rec.Code, rec.Body)
	}
}

// TestHostCheckUnderYourOwnServer: Handler mounted in a server of your own
// on loopback keeps working by its URL, and refuses other names.
func TestHostCheckUnderYourOwnServer(t *testing.T) {
	t.Parallel()
	s := start(t)
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	c := s.Client(newssearch.WithBaseURL(hs.URL), newssearch.WithHTTPClient(hs.Client()))
	if _, err := c.Search(t.Context(), newssearch.SearchParams{Query: "cars"}); err != nil {
		t.Fatalf("Search through httptest.NewServer(srv.Handler()): %v", err)
	}
	req, err := http.NewRequest(http.MethodGet, hs.URL+"/_mock/health", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "rebound.example"
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	wantFailure(t, "Host rebound.example", reply{resp.StatusCode, resp.Header, b}, http.StatusMisdirectedRequest,
		hostMsg("rebound.example", "rebound.example"))
}

// TestAllowedHostsOption: WithAllowedHosts refuses what is not a host name,
// saying why.
func TestAllowedHostsOption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		hosts []string
		want  string
	}{
		{nil, `mockserver: WithAllowedHosts(): give at least one host name, such as "mock.internal", or leave the option out`},
		{[]string{" "}, `mockserver: WithAllowedHosts(" "): the host is blank`},
		{[]string{"http://mock.internal"}, `mockserver: WithAllowedHosts("http://mock.internal"): the host is a URL, not a host name`},
		{[]string{"mock.internal:8080"}, `mockserver: WithAllowedHosts("mock.internal:8080"): the host has a port: give the name alone (every port is allowed)`},
		{[]string{"ok.test", "*.*.test"}, `mockserver: WithAllowedHosts("*.*.test"): the host is not a host name: give a name such as "mock.internal", "*.example.test" for every name under it, or "*" for any`},
	} {
		_, err := Start(WithoutListener(), WithAllowedHosts(tc.hosts...))
		if err == nil || err.Error() != tc.want {
			t.Errorf("WithAllowedHosts(%q): %v\nwant %s", tc.hosts, err, tc.want)
		}
	}
	for _, ok := range []string{"*", "[::1]", "10.0.0.1", "Mock.Internal.", "*.example.test"} {
		if _, err := Start(WithoutListener(), WithAllowedHosts(ok)); err != nil {
			t.Errorf("WithAllowedHosts(%q): %v", ok, err)
		}
	}
}

// TestListenBeyondLoopback: WithAddr on an address other machines can
// reach needs WithAllowRemote, and the error says so.
func TestListenBeyondLoopback(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		_, err := Start(WithAddr(addr))
		want := fmt.Sprintf("mockserver: WithAddr(%q) listens beyond this machine, where anyone who can reach the port "+
			"could change the server through its /_mock/ endpoints: listen on a loopback address such as \"127.0.0.1:0\", "+
			"or add mockserver.WithAllowRemote() if other machines must reach it", addr)
		if err == nil || err.Error() != want {
			t.Errorf("WithAddr(%q): %v\nwant %s", addr, err, want)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "127.0.0.5:0"} {
		s, err := Start(WithAddr(addr))
		if err != nil {
			t.Errorf("WithAddr(%q): %v", addr, err)
			continue
		}
		s.Close()
	}
	s, err := Start(WithAddr("0.0.0.0:0"), WithAllowRemote())
	if err != nil {
		t.Fatalf("WithAddr(0.0.0.0:0), WithAllowRemote(): %v", err)
	}
	t.Cleanup(s.Close)
	port := s.URL()[strings.LastIndexByte(s.URL(), ':')+1:]
	if r := do(t, s, http.MethodGet, "http://127.0.0.1:"+port+"/_mock/health", ""); r.Status != http.StatusOK {
		t.Errorf("GET /_mock/health on 0.0.0.0: %d %s", r.Status, r.Body)
	}
	// The Host check still holds on every interface.
	wantFailure(t, "Host attacker.example on 0.0.0.0", do(t, s, http.MethodGet, "http://127.0.0.1:"+port+"/_mock/health", "", "Host", "attacker.example"),
		http.StatusMisdirectedRequest, hostMsg("attacker.example", "attacker.example"))
}
