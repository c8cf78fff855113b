package mockserver

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// countingUpstream answers every request with a search answer of one new
// article, and keeps what it received.
type countingUpstream struct {
	*httptest.Server
	mu       sync.Mutex
	received []string // "path body"
	headers  []http.Header
}

func newCountingUpstream(t *testing.T) *countingUpstream {
	t.Helper()
	u := &countingUpstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.received = append(u.received, r.URL.Path+" "+string(b))
		u.headers = append(u.headers, r.Header.Clone())
		n := len(u.received)
		u.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"articles":[{"_id":"%024x","title":"Story %d","url":"https://up.example/%d","site":"up.example",`+
			`"datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","bodyText":"%s"}],"totalArticles":1,"query_id":"%032x","state":"SUCCESS"}`,
			n, n, n, strings.Repeat("words ", 200), n)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *countingUpstream) hits() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.received)
}

// TestRecordWithAPIKeys: with WithAPIKeys a recording server passes on only
// requests whose every api_key member is an accepted key; any other is
// answered 401, as the mock answers it, and nothing reaches the upstream.
func TestRecordWithAPIKeys(t *testing.T) {
	t.Parallel()
	const good, other = "accepted-key-0001", "accepted-key-0002"
	up := newCountingUpstream(t)
	path := filepath.Join(t.TempDir(), "news.jsonl")
	rec := listening(t, WithRecord(RecordOptions{Upstream: up.URL, CorpusPath: path}), WithAPIKeys(good, other))
	if rec.APIKey() != good {
		t.Errorf("APIKey() = %q, want the first accepted key", rec.APIKey())
	}
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		message                  string
	}{
		{"wrong key", "POST", "/api/v2/query", `{"api_key":"wrong-key-99999","query":"x"}`, 401, "api_key is not accepted by this mock server:"},
		{"no key", "POST", "/api/v2/query", `{"query":"x"}`, 401, "api_key is missing: put your API key in the JSON body"},
		{"a key that is not a string", "POST", "/api/v2/query", `{"api_key":7}`, 401, "api_key is missing:"},
		{"an accepted key and another", "POST", "/api/v2/query", `{"api_key":"` + good + `","API_KEY":"wrong-key-99999"}`, 401, "api_key is not accepted"},
		{"a body cut short", "POST", "/api/v2/query", `{"query":"x",`, 401, "api_key is missing:"},
		{"another path", "GET", "/robots.txt", ``, 401, "api_key is missing:"},
		{"accepted", "POST", "/api/v2/query", `{"api_key":"` + good + `","query":"x"}`, 200, ""},
		{"the other accepted key, malformed body", "POST", "/api/v2/query", `{"api_key":"` + other + `","query":}`, 200, ""},
	} {
		before := up.hits()
		r := call(t, rec, tc.method, tc.path, tc.body)
		if r.Status != tc.status {
			t.Errorf("%s: %d %s; want %d", tc.name, r.Status, r.Body, tc.status)
			continue
		}
		forwarded := up.hits() - before
		if tc.status == 401 {
			if forwarded != 0 {
				t.Errorf("%s: refused, yet passed to the upstream", tc.name)
			}
			if msg := decode[failure](t, r).Message; !strings.HasPrefix(msg, tc.message) || strings.Contains(msg, "wrong-key") {
				t.Errorf("%s: message %q; want it to begin %q, without the key", tc.name, msg, tc.message)
			}
		} else if forwarded != 1 {
			t.Errorf("%s: passed to the upstream %d times, want once", tc.name, forwarded)
		}
	}
	s := rec.RecordSummary()
	if diff := cmp.Diff(map[string]int{"key refused": 6, "200": 2}, s.Outcomes); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if s.ArticlesRecorded != 2 || s.RefusedRecorded != 0 {
		t.Errorf("%d articles and %d refused exchanges recorded; want 2 and none (the recorder's own 401s are not the upstream's)", s.ArticlesRecorded, s.RefusedRecorded)
	}
	if j := rec.Journal(); len(j) != 8 || j[0].Status != 401 || j[6].Status != 200 || strings.Contains(string(j[0].Body), "wrong-key") {
		t.Errorf("journal: %+v", j)
	}
}

// TestRecordWithFaults: fault rules apply to a recording server's answers
// as to the mock's own: a status or a drop answers without reaching the
// upstream, a latency delays the request before it goes, truncate cuts
// the upstream's answer short (which is recorded whole); the fault comes
// before the key check, as in the mock. The X-Mock-Fault header is not
// read but passed on. A rule with a job outcome is refused at Start and,
// set later, never fires.
func TestRecordWithFaults(t *testing.T) {
	t.Parallel()
	const key = "fault-rec-key-123"
	up := newCountingUpstream(t)
	path := filepath.Join(t.TempDir(), "news.jsonl")
	rec := listening(t, WithRecord(RecordOptions{Upstream: up.URL, CorpusPath: path}), WithAPIKeys(key), WithFaults(
		FaultRule{Endpoint: EndpointHeadlines, Fault: Fault{Status: 503, RetryAfter: 2}},
		FaultRule{Endpoint: EndpointGetResults, Fault: Fault{Drop: true}},
		FaultRule{Endpoint: EndpointQuery, Times: 1, Fault: Fault{Truncate: true}},
		FaultRule{Endpoint: EndpointQueryAsync, Fault: Fault{Latency: 60 * time.Millisecond}},
	))
	k := `{"api_key":"` + key + `"}`

	r := call(t, rec, "POST", "/api/v2/headlines", k)
	if msg := decode[failure](t, r).Message; r.Status != 503 || r.Header.Get("Retry-After") != "2" ||
		msg != "injected fault (rule 0): the recording mock server was told to answer 503 Service Unavailable, without passing the request on; retry, or remove the fault" {
		t.Errorf("headlines: %d (Retry-After %q) %q", r.Status, r.Header.Get("Retry-After"), msg)
	}
	if r := call(t, rec, "POST", "/api/v2/headlines", `{"api_key":"wrong-key-99999"}`); r.Status != 503 {
		t.Errorf("headlines with a wrong key: %d; want the fault's 503, which comes before the key check", r.Status)
	}
	if _, err := tryCall(rec, "POST", "/api/v2/get-results", k); err == nil {
		t.Error("get-results: answered; want the connection dropped")
	}
	if up.hits() != 0 {
		t.Fatalf("the upstream got %d requests; faults that answer must keep them", up.hits())
	}
	if _, err := tryCall(rec, "POST", "/api/v2/query", k); err == nil {
		t.Error("query: answered whole; want it cut short")
	}
	if r := call(t, rec, "POST", "/api/v2/query", k); r.Status != 200 {
		t.Errorf("query after the truncate rule ran out: %d", r.Status)
	}
	began := time.Now()
	if r := call(t, rec, "POST", "/api/v2/query-async", k, FaultHeader, "status=418"); r.Status != 200 || time.Since(began) < 60*time.Millisecond {
		t.Errorf("query-async: %d after %v; want the upstream's 200 after the 60 ms latency (the header passed on, not applied)", r.Status, time.Since(began))
	}
	if up.hits() != 3 {
		t.Fatalf("the upstream got %d requests, want 3", up.hits())
	}
	if got := up.headers[2].Get(FaultHeader); got != "status=418" {
		t.Errorf("the upstream received %s: %q; want the client's header passed on", FaultHeader, got)
	}
	c, err := LoadCorpusFile(path)
	if err != nil || c.Len() != 2 {
		t.Fatalf("the corpus holds %d articles (%v); want the 2 of the query answers, the truncated one's included", c.Len(), err)
	}

	var faults []string
	for _, e := range rec.Journal() {
		faults = append(faults, fmt.Sprintf("%d %s", e.Status, e.Fault))
	}
	want := []string{"503 rule 0: status=503;retry-after=2", "503 rule 0: status=503;retry-after=2", "0 rule 1: drop", "200 rule 2: truncate", "200 ", "200 rule 3: latency=60ms"}
	if diff := cmp.Diff(want, faults); diff != "" {
		t.Errorf("journal statuses and faults (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"fault": 3, "200": 3}, rec.RecordSummary().Outcomes); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}

	// Job outcomes cannot apply to a recorder: refused at Start, and
	// never firing when set later.
	_, err = Start(WithoutListener(), WithRecord(RecordOptions{Upstream: up.URL, CorpusPath: filepath.Join(t.TempDir(), "x.jsonl")}), WithFaults(FaultRule{Fault: Fault{Job: JobStuck}}))
	if err == nil || err.Error() != "mockserver: WithRecord: fault rule 0 (job=stuck) sets the fate of a job, but a recording server's jobs are the upstream's: leave job outcomes out of its rules, or give them to a mock upstream" {
		t.Errorf("Start with a job rule: %v", err)
	}
	if err := rec.SetFaults(FaultRule{Fault: Fault{Job: JobFail}}); err != nil {
		t.Fatal(err)
	}
	if r := call(t, rec, "POST", "/api/v2/query-async", k); r.Status != 200 || !strings.Contains(string(r.Body), `"query_id"`) {
		t.Errorf("query-async under a job rule: %d %s", r.Status, r.Body)
	}
}
