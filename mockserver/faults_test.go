package mockserver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// startSocket returns a server listening on loopback, closed when the test
// ends.
func startSocket(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := Start(append([]Option{WithClock(func() time.Time { return t0 })}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func statuses(t *testing.T, s *Server, path string, n int, headers ...string) []int {
	t.Helper()
	out := make([]int, n)
	for i := range out {
		out[i] = post(t, s, path, map[string]any{"query": "*"}, headers...).Status
	}
	return out
}

func TestFaultRuleEveryNth(t *testing.T) {
	t.Parallel()
	s := start(t, WithFaults(FaultRule{Endpoint: "/api/v2/query", Every: 3, Fault: Fault{Status: 503}}))
	if diff := cmp.Diff([]int{200, 200, 503, 200, 200, 503, 200}, statuses(t, s, "/api/v2/query", 7)); diff != "" {
		t.Fatalf("query (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{200, 200, 200}, statuses(t, s, "/api/v2/headlines", 3)); diff != "" {
		t.Fatalf("headlines (-want +got):\n%s", diff)
	}
	post(t, s, "/api/v2/query", map[string]any{"query": "*"})      // the 8th
	r := post(t, s, "/api/v2/query", map[string]any{"query": "*"}) // the 9th fires
	want := failure{"FAILED", "injected fault (rule 0): the mock server was told to answer 503 Service Unavailable; retry, or remove the fault"}
	if diff := cmp.Diff(want, decode[failure](t, r)); diff != "" || r.Status != 503 {
		t.Fatalf("status %d (-want +got):\n%s", r.Status, diff)
	}
}

func TestFaultRuleTimesLetsRetriesThrough(t *testing.T) {
	t.Parallel()
	s := start(t, WithFaults(FaultRule{Times: 2, Fault: Fault{Status: 502}}))
	if diff := cmp.Diff([]int{502, 502, 200, 200}, statuses(t, s, "/api/v2/query", 4)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	// The SDK's retries get through.
	c := s.Client()
	s.Reset()
	if _, err := c.Headlines(context.Background()); err != nil {
		t.Fatalf("Headlines after two 502s: %v", err)
	}
	var got []int
	for _, e := range s.Journal() {
		got = append(got, e.Status)
	}
	if diff := cmp.Diff([]int{502, 502, 200}, got); diff != "" {
		t.Fatalf("attempts (-want +got):\n%s", diff)
	}
}

func TestFaultProbabilityIsSeeded(t *testing.T) {
	t.Parallel()
	rule := FaultRule{Probability: 0.3, Fault: Fault{Status: 500}}
	run := func(seed uint64) []int {
		return statuses(t, start(t, WithSeed(seed), WithFaults(rule)), "/api/v2/headlines", 120)
	}
	a, b, other := run(7), run(7), run(8)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different faults (-first +second):\n%s", diff)
	}
	if cmp.Equal(a, other) {
		t.Fatal("seeds 7 and 8 gave the same faults")
	}
	n := 0
	for _, st := range a {
		if st == 500 {
			n++
		}
	}
	if n < 15 || n > 60 {
		t.Fatalf("%d of 120 requests failed with probability 0.3", n)
	}
}

func TestFaultHeader(t *testing.T) {
	t.Parallel()
	s := start(t, WithFaults(FaultRule{Fault: Fault{Status: 500}})) // the header wins over rules
	tests := []struct {
		header     string
		status     int
		retryAfter string
		message    string
	}{
		{"status=503", 503, "", "injected fault (header): the mock server was told to answer 503 Service Unavailable; retry, or remove the fault"},
		{"status=429;retry-after=2", 429, "2", "injected fault (header): the mock server was told to answer 429 Too Many Requests; retry, or remove the fault"},
		{"status=429", 429, "1", "injected fault (header): the mock server was told to answer 429 Too Many Requests; retry, or remove the fault"},
		{"latency=1ms;status=504", 504, "", "injected fault (header): the mock server was told to answer 504 Gateway Timeout; retry, or remove the fault"},
		{"status=5xx", 400, "", `X-Mock-Fault header: status="5xx" is not a whole number; write e.g. status=503; accepted syntax: ` + faultSyntax},
		{"explode", 400, "", `X-Mock-Fault header: unknown item "explode"; accepted syntax: ` + faultSyntax},
	}
	for _, tt := range tests {
		r := post(t, s, "/api/v2/headlines", nil, FaultHeader, tt.header)
		if r.Status != tt.status || r.Header.Get("Retry-After") != tt.retryAfter {
			t.Errorf("%q: status %d, Retry-After %q", tt.header, r.Status, r.Header.Get("Retry-After"))
		}
		if diff := cmp.Diff(failure{"FAILED", tt.message}, decode[failure](t, r)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.header, diff)
		}
	}
	if r := post(t, s, "/api/v2/headlines", nil, FaultHeader, "latency=1ms"); r.Status != 200 {
		t.Errorf("latency only: %d", r.Status)
	}
	var faults []string
	for _, e := range s.Journal() {
		faults = append(faults, e.Fault)
	}
	want := []string{"header: status=503", "header: status=429;retry-after=2", "header: status=429", "header: latency=1ms;status=504", "", "", "header: latency=1ms"}
	if diff := cmp.Diff(want, faults); diff != "" {
		t.Errorf("journal faults (-want +got):\n%s", diff)
	}
}

const faultSyntax = `items separated by ";": status=<400-599>, retry-after=<seconds>, latency=<duration, e.g. 150ms>, drop, truncate, job=fail, job=stuck, job=refuse, results=nested|top-level, totals=both|totalResults|totalArticles; e.g. "status=429;retry-after=2" or "latency=150ms;truncate"`

func TestDropAndTruncateOverSocket(t *testing.T) {
	t.Parallel()
	s := startSocket(t)
	req := func(header string) (*http.Response, error) {
		r, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v2/query", strings.NewReader(`{"api_key":"k","query":"*"}`))
		r.Header.Set(FaultHeader, header)
		return s.HTTPClient().Do(r)
	}
	if resp, err := req("drop"); err == nil {
		resp.Body.Close()
		t.Fatalf("drop: got a response %d", resp.StatusCode)
	}
	resp, err := req("truncate")
	if err != nil {
		t.Fatalf("truncate: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncate: reading the body gave %v after %d bytes", err, len(body))
	}
	if resp.StatusCode != 200 || resp.ContentLength != int64(2*len(body)) && resp.ContentLength != int64(2*len(body)+1) {
		t.Fatalf("truncate: status %d, Content-Length %d, got %d bytes", resp.StatusCode, resp.ContentLength, len(body))
	}
	// The server still works, and the journal has both.
	if r := post(t, s, "/api/v2/headlines", nil); r.Status != 200 {
		t.Fatalf("after faults: %d", r.Status)
	}
	j := s.Journal()
	if len(j) != 3 || j[0].Status != 0 || j[0].Fault != "header: drop" || j[1].Status != 200 || j[1].Fault != "header: truncate" {
		t.Fatalf("journal %+v", j)
	}
}

func TestDropAndTruncateWithoutSocket(t *testing.T) {
	t.Parallel()
	s := start(t, WithFaults(FaultRule{Endpoint: "headlines", Fault: Fault{Drop: true}}, FaultRule{Endpoint: "query", Fault: Fault{Status: 503, Truncate: true}}))
	_, err := s.HTTPClient().Post(s.URL()+"/api/v2/headlines", "application/json", strings.NewReader(`{"api_key":"k"}`))
	if !errors.Is(err, ErrDropped) || !errors.Is(err, io.EOF) {
		t.Fatalf("drop: %v", err)
	}
	resp, err := s.HTTPClient().Post(s.URL()+"/api/v2/query", "application/json", strings.NewReader(`{"api_key":"k","query":"*"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	full := `{"state":"FAILED","message":"injected fault (rule 1): the mock server was told to answer 503 Service Unavailable; retry, or remove the fault"}`
	if !errors.Is(err, io.ErrUnexpectedEOF) || string(body) != full[:len(full)/2] || resp.StatusCode != 503 || resp.ContentLength != int64(len(full)) {
		t.Fatalf("truncate: %d, length %d, %q, %v", resp.StatusCode, resp.ContentLength, body, err)
	}
}

func TestLatencyRespectsCancellation(t *testing.T) {
	t.Parallel()
	s := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/api/v2/headlines", strings.NewReader(`{"api_key":"k"}`))
	req.Header.Set(FaultHeader, "latency=5m")
	_, err := s.HTTPClient().Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
	j := s.Journal()
	if len(j) != 1 || j[0].Status != 0 || j[0].Fault != "header: latency=5m0s (request cancelled during the latency)" {
		t.Fatalf("journal %+v", j)
	}
}

func TestCloseEndsLatency(t *testing.T) {
	t.Parallel()
	s, err := Start(WithClock(func() time.Time { return t0 }))
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v2/headlines", strings.NewReader(`{"api_key":"k"}`))
		req.Header.Set(FaultHeader, "latency=5m")
		close(started)
		resp, err := s.HTTPClient().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-started
	for len(s.Journal()) == 0 && !inFlight(s) {
		time.Sleep(time.Millisecond)
	}
	s.Close() // returns only once the request has ended
	if err := <-done; err == nil {
		t.Fatal("the request survived Close")
	}
}

// inFlight reports whether a request is being served.
func inFlight(s *Server) bool { return s.reqSeq.Load() > 0 }

func TestSetFaults(t *testing.T) {
	t.Parallel()
	s := start(t)
	if err := s.SetFaults(FaultRule{Endpoint: "query", Fault: Fault{Status: 503}}); err != nil {
		t.Fatal(err)
	}
	if st := statuses(t, s, "/api/v2/query", 1)[0]; st != 503 {
		t.Fatalf("status %d", st)
	}
	err := s.SetFaults(FaultRule{Endpoint: "search", Fault: Fault{Drop: true}})
	want := `mockserver: fault rule 0: Endpoint "search" is unknown: use "query", "query-async", "get-results", "headlines" or "" for all`
	if err == nil || err.Error() != want {
		t.Fatalf("bad endpoint: %v", err)
	}
	if st := statuses(t, s, "/api/v2/query", 1)[0]; st != 503 {
		t.Fatalf("after a rejected SetFaults: %d", st)
	}
	if err := s.SetFaults(); err != nil {
		t.Fatal(err)
	}
	if st := statuses(t, s, "/api/v2/query", 1)[0]; st != 200 {
		t.Fatalf("after clearing: %d", st)
	}
}

func TestFaultRuleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule FaultRule
		want string
	}{
		{FaultRule{Endpoint: "get-results", Fault: Fault{Job: JobFail}},
			`mockserver: fault rule 0: a job fault applies only to "query-async": set Endpoint to it or leave it empty`},
		{FaultRule{Every: 2, Probability: 0.5, Fault: Fault{Status: 500}},
			"mockserver: fault rule 0: fields Every and Probability are both set: set one of them"},
		{FaultRule{}, "mockserver: fault rule 0: the rule has no action: set a latency, status, drop, truncate, job outcome or answer shape (results, totals)"},
		{FaultRule{Fault: Fault{Status: 200}}, "mockserver: fault rule 0: status 200 is out of range: use an HTTP error status from 400 to 599"},
	}
	for _, tt := range tests {
		_, err := Start(WithoutListener(), WithFaults(tt.rule))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%+v: %v, want %q", tt.rule, err, tt.want)
		}
	}
}

func TestParseFaultAndRule(t *testing.T) {
	t.Parallel()
	f, err := ParseFault("status=429; retry-after=3")
	if err != nil || f != (Fault{Status: 429, RetryAfter: 3}) || f.String() != "status=429;retry-after=3" {
		t.Fatalf("ParseFault: %+v %v", f, err)
	}
	_, err = ParseFault("boom")
	if want := `mockserver: fault "boom": unknown item "boom"; accepted syntax: ` + faultSyntax; err == nil || err.Error() != want {
		t.Fatalf("ParseFault(boom): %v", err)
	}
	r, err := ParseFaultRule("endpoint=query-async;every=3;times=2;latency=20ms;job=stuck")
	want := FaultRule{Endpoint: "query-async", Every: 3, Times: 2, Fault: Fault{Latency: 20 * time.Millisecond, Job: JobStuck}}
	if err != nil || !cmp.Equal(r, want) {
		t.Fatalf("ParseFaultRule: %+v %v", r, err)
	}
	if _, err := ParseFaultRule("every=often;drop"); err == nil || err.Error() !=
		`mockserver: fault rule "every=often;drop": every="often" is not a number: write e.g. every=3, probability=0.25, times=2` {
		t.Fatalf("ParseFaultRule(every=often): %v", err)
	}
	if _, err := ParseFaultRule("endpoint=nowhere;drop"); err == nil {
		t.Fatal("ParseFaultRule accepted an unknown endpoint")
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	clock := newTestClock(t0)
	s := start(t, WithClock(clock.Now), WithRateLimit(0.5, 2), WithAPIKeys("a-key", "b-key"))
	hit := func(key string) reply { return post(t, s, "/api/v2/headlines", map[string]any{"api_key": key}) }
	var got []int
	for range 3 {
		got = append(got, hit("a-key").Status)
	}
	if diff := cmp.Diff([]int{200, 200, 429}, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	r := hit("a-key")
	want := failure{"FAILED", "rate limit exceeded: this key may make 0.5 requests per second in bursts of up to 2; retry after 2 s (see Retry-After)"}
	if diff := cmp.Diff(want, decode[failure](t, r)); diff != "" || r.Header.Get("Retry-After") != "2" {
		t.Fatalf("Retry-After %q (-want +got):\n%s", r.Header.Get("Retry-After"), diff)
	}
	if st := hit("b-key").Status; st != 200 {
		t.Fatalf("another key: %d", st)
	}
	clock.Advance(time.Second)
	if r := hit("a-key"); r.Status != 429 || r.Header.Get("Retry-After") != "1" {
		t.Fatalf("after 1 s: %d, Retry-After %q", r.Status, r.Header.Get("Retry-After"))
	}
	clock.Advance(time.Second)
	if st := hit("a-key").Status; st != 200 {
		t.Fatalf("after 2 s: %d", st)
	}
	s.Reset()
	if st := hit("a-key").Status; st != 200 {
		t.Fatalf("after Reset: %d", st)
	}
}

// TestShapeRuleWaitsForItsAnswer: a rule that only reshapes answers is not
// used up by requests whose answers it cannot reshape. Submitting a job,
// reading headlines and polling keep a once-only results=top-level rule
// for the next query; a once-only totals rule waits for get-results.
func TestShapeRuleWaitsForItsAnswer(t *testing.T) {
	t.Parallel()
	s := start(t, WithPendingPolls(0), WithFaults(
		FaultRule{Times: 1, Fault: Fault{Shape: AnswerShape{Results: "top-level"}}},
		FaultRule{Times: 1, Fault: Fault{Shape: AnswerShape{Totals: "totalArticles"}}},
	))
	key := s.APIKey()
	id := submit(t, s, map[string]any{"query": "*"})
	call(t, s, "POST", "/api/v2/headlines", `{"api_key":"`+key+`"}`)
	r := call(t, s, "POST", "/api/v2/query", `{"api_key":"`+key+`","query":"*"}`)
	if !bytes.HasPrefix(r.Body, []byte(`{"totalResults":`)) {
		t.Errorf("the query after query-async and headlines: %.80s; want the top-level shape of rule 0", r.Body)
	}
	r = call(t, s, "POST", "/api/v2/get-results", `{"api_key":"`+key+`","query_id":"`+id+`"}`)
	if bytes.Contains(r.Body, []byte(`"totalResults"`)) || !bytes.Contains(r.Body, []byte(`"totalArticles"`)) {
		t.Errorf("get-results: %.120s; want totalArticles alone (rule 1)", r.Body)
	}
	for _, st := range s.Faults() {
		if st.Fired != 1 || st.Matched != 1 || st.Remaining != 0 {
			t.Errorf("rule %d: fired %d, matched %d, remaining %d; want each rule matched and fired once, by its own endpoint", st.Index, st.Fired, st.Matched, st.Remaining)
		}
	}
	r = call(t, s, "POST", "/api/v2/query", `{"api_key":"`+key+`","query":"*"}`)
	if !bytes.HasPrefix(r.Body, []byte(`{"results":`)) {
		t.Errorf("the second query: %.80s; want the nested shape again, rule 0 used up", r.Body)
	}
}
