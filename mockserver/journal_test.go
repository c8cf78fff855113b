package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestJournal(t *testing.T) {
	t.Parallel()
	s := start(t, WithSeed(3))
	id := submit(t, s, map[string]any{"query": "cars", "page": 1})
	poll(t, s, s.APIKey(), id)
	call(t, s, http.MethodGet, "/api/v2/query", "")
	call(t, s, http.MethodGet, "/_mock/health", "") // not journaled
	want := []JournalEntry{
		{Seq: 1, Time: t0, RequestID: s.ids.request(1), Method: "POST", Path: "/api/v2/query-async", Status: 200, QueryID: id,
			Body: json.RawMessage(`{"api_key":"[redacted]","page":1,"query":"cars"}`), World: "default"},
		{Seq: 2, Time: t0, RequestID: s.ids.request(2), Method: "POST", Path: "/api/v2/get-results", Status: 200, QueryID: id,
			Body: json.RawMessage(`{"api_key":"[redacted]","query_id":"` + id + `"}`), World: "default"},
		{Seq: 3, Time: t0, RequestID: s.ids.request(3), Method: "GET", Path: "/api/v2/query", Status: 405, World: "default"},
	}
	if diff := cmp.Diff(want, s.Journal()); diff != "" {
		t.Fatalf("Journal (-want +got):\n%s", diff)
	}
	var overHTTP struct {
		State   string         `json:"state"`
		Entries []JournalEntry `json:"entries"`
	}
	if err := json.Unmarshal(call(t, s, http.MethodGet, "/_mock/journal", "").Body, &overHTTP); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, overHTTP.Entries); diff != "" || overHTTP.State != "SUCCESS" {
		t.Fatalf("GET /_mock/journal: state %q (-want +got):\n%s", overHTTP.State, diff)
	}
}

func TestJournalSize(t *testing.T) {
	t.Parallel()
	s := start(t, WithJournalSize(2))
	for range 5 {
		post(t, s, "/api/v2/headlines", nil)
	}
	var seqs []uint64
	for _, e := range s.Journal() {
		seqs = append(seqs, e.Seq)
	}
	if diff := cmp.Diff([]uint64{4, 5}, seqs); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	off := start(t, WithJournalSize(0))
	post(t, off, "/api/v2/headlines", nil)
	if n := len(off.Journal()); n != 0 {
		t.Fatalf("WithJournalSize(0) kept %d entries", n)
	}
}

func TestResetAndAdminEndpoints(t *testing.T) {
	t.Parallel()
	s := start(t)
	first := post(t, s, "/api/v2/query-async", map[string]any{"query": "*"})
	id := submit(t, s, map[string]any{"query": "*"})
	health := call(t, s, http.MethodGet, "/_mock/health", "")
	wantHealth := fmt.Sprintf(`{"state":"SUCCESS","articles":%d,"jobs":2,"date_shift_seconds":%d,"worlds":1}`, s.Corpus().Len(), int64(s.DateShift().Seconds()))
	if diff := cmp.Diff(wantHealth, string(health.Body)); diff != "" || health.Header.Get("X-Request-Id") != "mock-1" {
		t.Fatalf("health, X-Request-Id %q (-want +got):\n%s", health.Header.Get("X-Request-Id"), diff)
	}
	reset := call(t, s, http.MethodPost, "/_mock/reset", "")
	if diff := cmp.Diff(`{"state":"SUCCESS"}`, string(reset.Body)); diff != "" {
		t.Fatalf("reset (-want +got):\n%s", diff)
	}
	if n := len(s.Journal()); n != 0 || s.jobs.Len() != 0 {
		t.Fatalf("after reset: %d journal entries, %d jobs", n, s.jobs.Len())
	}
	if r := poll(t, s, s.APIKey(), id); r.Status != http.StatusNotFound {
		t.Fatalf("job survived reset: %d", r.Status)
	}
	s.Reset()
	again := post(t, s, "/api/v2/query-async", map[string]any{"query": "*"})
	if again.Header.Get("X-Request-Id") != first.Header.Get("X-Request-Id") {
		t.Fatalf("after Reset the first request id is %s, want %s again", again.Header.Get("X-Request-Id"), first.Header.Get("X-Request-Id"))
	}
	// Query ids are never issued twice: the first job after a reset gets a
	// new id, and the ids from before it stay unknown.
	firstID, againID := decode[resultsReply](t, first).QueryID, decode[resultsReply](t, again).QueryID
	if againID == firstID || againID == id {
		t.Fatalf("after Reset the first job got query_id %s again (before: %s, %s)", againID, firstID, id)
	}
	for _, old := range []string{firstID, id} {
		if r := poll(t, s, s.APIKey(), old); r.Status != http.StatusNotFound {
			t.Fatalf("query_id %s from before the reset: status %d %s, want 404", old, r.Status, r.Body)
		}
	}
}

func TestKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	const canary = "CANARY-0f9e8d7c-do-not-print"
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	accepting := start(t, WithAPIKeys(canary), WithLogger(logger), WithRateLimit(1, 1))
	rejecting := start(t, WithAPIKeys("another-key"), WithLogger(logger))
	var bodies []string
	send := func(s *Server, path, body string, headers ...string) {
		r, _ := tryCall(s, http.MethodPost, path, body, headers...) // truncate makes an error
		bodies = append(bodies, string(r.Body), fmt.Sprint(r.Header))
	}
	for _, s := range []*Server{accepting, rejecting} {
		send(s, "/api/v2/query", `{"api_key":"`+canary+`","query":"*"}`)
		send(s, "/api/v2/query", `{"api_key":"`+canary+`","query":"*"}`) // rate limited on the first
		send(s, "/api/v2/query", `{"API_KEY":"`+canary+`","query":"*","page":0}`)
		send(s, "/api/v2/query", `{"api_key":"`+canary+`","query":}`)
		send(s, "/api/v2/query", `{"api_key":"`+canary+`"`)
		send(s, "/api/v2/query-async", `{"api_key":"`+canary+`","query":"*"}`, FaultHeader, "job=fail")
		send(s, "/api/v2/get-results", `{"api_key":"`+canary+`","query_id":"nope"}`)
		send(s, "/api/v2/headlines", `{"api_key":"`+canary+`"}`, FaultHeader, "status=503")
		send(s, "/api/v2/headlines", `{"api_key":"`+canary+`"}`, FaultHeader, "truncate;status=500")
		send(s, "/api/v2/headlines", `{"api_key":"`+canary+`", "nested": {"api_key": "`+canary+`"}}`)
		send(s, "/api/v2/headlines", `{"api_key":["`+canary+`"]}`)
		send(s, "/api/v2/nowhere", `{"api_key":"`+canary+`"}`)
		bodies = append(bodies, string(call(t, s, http.MethodGet, "/_mock/journal", "").Body))
		j, err := json.Marshal(s.Journal())
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(j), fmt.Sprintf("%v %+v %#v %s", s, s, s, s))
	}
	for i, b := range append(bodies, logs.String()) {
		if strings.Contains(b, canary) {
			t.Errorf("text %d contains the key: %s", i, b)
		}
	}
	if !strings.Contains(logs.String(), `"status":429`) || !strings.Contains(logs.String(), "mockserver request") {
		t.Errorf("the log is missing requests: %s", logs.String())
	}
	if n := len(accepting.Journal()); n != 12 {
		t.Errorf("journal has %d entries, want 12", n)
	}
}

func TestPanicBecomesLogged500(t *testing.T) {
	t.Parallel()
	var boom atomic.Bool
	clock := func() time.Time {
		if boom.Load() {
			panic("clock exploded")
		}
		return t0
	}
	var logs syncBuffer
	s := start(t, WithClock(clock), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	boom.Store(true)
	r := post(t, s, "/api/v2/headlines", nil)
	want := failure{"FAILED", "internal error in the mock server (request " + s.ids.request(1) +
		"): this is a bug in mockserver, not in your request; the server's log has the panic and its stack under this request id " +
		"(newsmock: its standard error; Go: the logger given to WithLogger), please report it; the server goes on serving"}
	if diff := cmp.Diff(want, decode[failure](t, r)); diff != "" || r.Status != http.StatusInternalServerError {
		t.Fatalf("status %d (-want +got):\n%s", r.Status, diff)
	}
	if !strings.Contains(logs.String(), "recovered from a panic") || !strings.Contains(logs.String(), "clock exploded") {
		t.Fatalf("log: %s", logs.String())
	}
	// The plain handler recovers too.
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v2/headlines", strings.NewReader(`{"api_key":"k"}`)))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("Handler: %d", rec.Code)
	}
	boom.Store(false)
	if r := post(t, s, "/api/v2/headlines", nil); r.Status != http.StatusOK {
		t.Fatalf("after the panic: %d", r.Status)
	}
	if got := s.Journal()[0].Status; got != http.StatusInternalServerError {
		t.Fatalf("journal status %d", got)
	}
}

// TestLazyRedactionNeverShowsTheKey checks the journal's lazy redaction:
// requests keep their raw body until the journal is first read, so every
// way of reading it (Journal, GET /_mock/journal, while requests are still
// arriving, after the ring wrapped, for bodies above lazyRedactMax that are
// redacted at once) must see only redacted bodies, with exactly the text
// eager redaction gives, and nothing raw may stay behind once read.
func TestLazyRedactionNeverShowsTheKey(t *testing.T) {
	t.Parallel()
	const canary = "CANARY-7a3c-lazy-journal-do-not-print"
	s := start(t, WithJournalSize(40))
	big := `{"api_key":"` + canary + `","query":"` + strings.Repeat("x", lazyRedactMax) + `"}`
	bodies := []string{
		`{"api_key":"` + canary + `","query":"*"}`,
		`{"Api_Key":"` + canary + `","query":"*","page":2}`,
		`{"api\u005fkey":"` + canary + `","query":"*"}`,
		`{"query":"*","nested":{"api_key":["` + canary + `"]},"api_key":"` + canary + `"}`,
		`{"api_key":"` + canary + `"`, // not JSON: only its length is stored
		big,                           // redacted at once
	}
	var readers sync.WaitGroup
	stop := make(chan struct{})
	var seen []string
	var seenMu sync.Mutex
	read := func(text string) {
		seenMu.Lock()
		defer seenMu.Unlock()
		seen = append(seen, text)
	}
	for range 2 { // read while requests arrive
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				j, err := json.Marshal(s.Journal())
				if err != nil {
					t.Error(err)
					return
				}
				read(string(j))
				r, err := tryCall(s, http.MethodGet, "/_mock/journal", "")
				if err != nil {
					t.Error(err)
					return
				}
				read(string(r.Body))
				if j, err = json.Marshal(s.Jobs()); err != nil { // job bodies are redacted lazily too
					t.Error(err)
					return
				}
				read(string(j))
				if r, err = tryCall(s, http.MethodGet, "/_mock/jobs", ""); err != nil {
					t.Error(err)
					return
				}
				read(string(r.Body))
			}
		})
	}
	var writers sync.WaitGroup
	for g := range 4 {
		writers.Go(func() {
			for i := range 30 { // 120 requests wrap the 40-entry ring three times
				path := "/api/v2/query"
				if i%2 == 1 {
					path = "/api/v2/query-async" // a job keeps the body it was submitted with
				}
				if _, err := tryCall(s, http.MethodPost, path, bodies[(g+i)%len(bodies)]); err != nil {
					t.Error(err)
				}
			}
		})
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	entries := s.Journal()
	if len(entries) != 40 {
		t.Fatalf("journal has %d entries, want 40", len(entries))
	}
	for _, e := range entries {
		read(string(e.Body))
	}
	for i, text := range seen {
		if strings.Contains(text, canary) {
			t.Fatalf("reading %d of the journal shows the key: %.300s", i, text)
		}
	}
	// Each stored body is exactly what eager redaction gives.
	want := map[string]bool{}
	for _, b := range bodies {
		want[journalRedact(b)] = true
	}
	for _, e := range entries {
		if !want[string(e.Body)] {
			t.Errorf("journal body %.200q is none of the redacted bodies sent", e.Body)
		}
	}
	jobList := s.Jobs()
	if len(jobList) < 4*15/len(bodies) { // at least the four valid bodies' share of the 60 submissions
		t.Fatalf("%d jobs, want one per valid query-async request", len(jobList))
	}
	for _, j := range jobList {
		if strings.Contains(j.Body, canary) {
			t.Fatalf("job %s shows the key: %.300s", j.QueryID, j.Body)
		}
		if !want[j.Body] {
			t.Errorf("job %s body %.200q is none of the redacted bodies sent", j.QueryID, j.Body)
		}
	}
	// Once read, no record holds a raw body any more.
	s.journal.SnapshotDropped()
	recs, _ := s.journal.SnapshotDropped()
	for _, rec := range recs {
		if rec.body != nil {
			t.Fatalf("record %d kept its raw body after a read", rec.entry.Seq)
		}
	}
}

// journalRedact is the eager redaction the journal did before it was lazy.
func journalRedact(body string) string {
	return string(redactBody([]byte(body)))
}

// TestJournalInArrivalOrder: a slow request that arrived first is listed
// first, although it finished last (issue 11, defect 5).
func TestJournalInArrivalOrder(t *testing.T) {
	t.Parallel()
	s := start(t)
	slow := make(chan reply, 1)
	go func() {
		r, _ := tryCall(s, http.MethodPost, "/api/v2/headlines", `{"api_key":"k"}`, FaultHeader, "latency=300ms")
		slow <- r
	}()
	for s.reqSeq.Load() < 1 { // the slow request has its Seq
		time.Sleep(time.Millisecond)
	}
	post(t, s, "/api/v2/headlines", nil)
	if r := <-slow; r.Status != http.StatusOK {
		t.Fatalf("slow request: status %d", r.Status)
	}
	var seqs []uint64
	for _, e := range s.Journal() {
		seqs = append(seqs, e.Seq)
	}
	if diff := cmp.Diff([]uint64{1, 2}, seqs); diff != "" {
		t.Fatalf("Journal seqs (-want +got):\n%s", diff)
	}
}

// journalDropped is GET /_mock/journal with the dropped count.
type journalDropped struct {
	State   string         `json:"state"`
	Dropped uint64         `json:"dropped"`
	Count   *int           `json:"count"`
	Entries []JournalEntry `json:"entries"`
}

// TestJournalCountsDropped: past its size the journal keeps the newest
// requests and counts the others, in JournalDropped and GET /_mock/journal
// (with and without count, whatever the filters); DELETE /_mock/journal,
// Reset and ResetToStart set the count back to 0; with the journal off
// every request counts.
func TestJournalCountsDropped(t *testing.T) {
	t.Parallel()
	s := start(t, WithJournalSize(3))
	query := func(n int) {
		for range n {
			post(t, s, "/api/v2/query", map[string]any{"query": "cars"})
		}
	}
	get := func(q string) journalDropped {
		t.Helper()
		r := call(t, s, http.MethodGet, "/_mock/journal"+q, "")
		if r.Status != http.StatusOK {
			t.Fatalf("GET /_mock/journal%s: %d %s", q, r.Status, r.Body)
		}
		return decode[journalDropped](t, r)
	}
	query(2)
	if got := get(""); got.Dropped != 0 || len(got.Entries) != 2 || s.JournalDropped() != 0 {
		t.Fatalf("2 requests, size 3: %+v, JournalDropped %d", got, s.JournalDropped())
	}
	query(5)
	got := get("")
	var seqs []uint64
	for _, e := range got.Entries {
		seqs = append(seqs, e.Seq)
	}
	if got.Dropped != 4 || !slices.Equal(seqs, []uint64{5, 6, 7}) || s.JournalDropped() != 4 {
		t.Fatalf("7 requests, size 3: dropped %d, seqs %v, JournalDropped %d; want 4, [5 6 7], 4", got.Dropped, seqs, s.JournalDropped())
	}
	if got := get("?count=true"); got.Count == nil || *got.Count != 3 || got.Dropped != 4 {
		t.Fatalf("?count=true: %+v", got)
	}
	if got := get("?path=headlines&count"); got.Count == nil || *got.Count != 0 || got.Dropped != 4 {
		t.Fatalf("?path=headlines&count: %+v, want count 0 and the journal's dropped 4", got)
	}
	r := call(t, s, http.MethodGet, "/_mock/journal?count", "")
	if want := `{"state":"SUCCESS","count":3,"dropped":4}`; string(r.Body) != want {
		t.Fatalf("?count: %s, want %s", r.Body, want)
	}
	if r := call(t, s, http.MethodDelete, "/_mock/journal", ""); r.Status != http.StatusOK {
		t.Fatalf("DELETE /_mock/journal: %d %s", r.Status, r.Body)
	}
	if got := get(""); got.Dropped != 0 || len(got.Entries) != 0 || s.JournalDropped() != 0 {
		t.Fatalf("after DELETE /_mock/journal: %+v", got)
	}
	query(4)
	if s.JournalDropped() != 1 {
		t.Fatalf("4 requests after the clear: JournalDropped %d, want 1", s.JournalDropped())
	}
	s.Reset()
	if s.JournalDropped() != 0 {
		t.Fatalf("after Reset: JournalDropped %d", s.JournalDropped())
	}
	query(4)
	if r := call(t, s, http.MethodPost, "/_mock/reset", ""); r.Status != http.StatusOK || s.JournalDropped() != 0 {
		t.Fatalf("after POST /_mock/reset: %d, JournalDropped %d", r.Status, s.JournalDropped())
	}

	off := start(t, WithJournalSize(0))
	for range 3 {
		post(t, off, "/api/v2/headlines", nil)
	}
	r = call(t, off, http.MethodGet, "/_mock/journal", "")
	if want := `{"state":"SUCCESS","dropped":3,"entries":[]}`; string(r.Body) != want || off.JournalDropped() != 3 {
		t.Fatalf("journal off: %s, JournalDropped %d; want %s", r.Body, off.JournalDropped(), want)
	}
}
