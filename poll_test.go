package newssearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

// This file holds fakeService, the model of the service that the poll,
// page and range tests share, and the tests of Poll.

const (
	testKey  = "test-key-0123456789"
	basePath = "/base" // the fake serves behind this prefix
)

// fakeService models the service: synchronous search, and jobs that stay
// pending for a number of polls and/or a time, then serve their results
// in pages of PageSize from a fixed article set.
type fakeService struct {
	articles     []Article     // the corpus
	pendingPolls int           // get-results answers PENDING this many times per job
	readyAfter   time.Duration // ... and until this long after submission
	pendingState State         // the pending literal; "" is StatePending
	// failJob returns the failure message of a job, "" for none.
	failJob func(q fakeQuery) string
	// status forces an HTTP status on an endpoint ("/api/v2/query"...),
	// optionally only for one page (0: every page).
	status     map[string]int
	statusPage int
	// latency delays each answer (sleeps inside the handler).
	latency func(path string, page int) time.Duration
	// hold, when it reports true, keeps the request open until the client
	// gives up on it.
	hold func(path string, page int) bool
	// pendingPage, when set, is a page that answers PENDING even after the
	// job finished.
	pendingPage int
	// ignorePage makes the service answer page 1 whatever page is asked.
	ignorePage bool
	// noTotal leaves the counts out of answers.
	noTotal bool
	// totalFor, when set, gives the total reported with page n.
	totalFor func(n int) int

	mu     sync.Mutex
	jobs   map[string]*fakeJob
	nextID int
	calls  map[string]int // per endpoint path
	tagged map[string]int // per endpoint path and X-Test-Call header, "path|tag"
	log    []string       // one line per request, e.g. "get-results q1 2"
	sites  []string       // the page and sites of every request, e.g. "2 [bbc.co.uk]"
	memo   map[string][]Article
	onCall func(path string, page int)
}

// fakeQuery is a decoded search or get-results body.
type fakeQuery struct {
	APIKey    string   `json:"api_key"`
	Query     string   `json:"query"`
	Page      int      `json:"page"`
	Sites     []string `json:"sites"`
	StartDate string   `json:"start_date"`
	EndDate   string   `json:"end_date"`
	SortOrder string   `json:"sort_order"`
	QueryID   string   `json:"query_id"`
}

// fakeJob is a submitted asynchronous query.
type fakeJob struct {
	q       fakeQuery
	created time.Time
	polls   int
	failure string
}

// newFake returns a fake serving articles.
func newFake(articles []Article) *fakeService {
	return &fakeService{articles: articles, jobs: map[string]*fakeJob{}, calls: map[string]int{}}
}

// ServeHTTP answers the four endpoints under basePath.
func (f *fakeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path, ok := strings.CutPrefix(r.URL.Path, basePath)
	var q fakeQuery
	if !ok || r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&q) != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"state": "FAILED", "message": "bad request to " + r.URL.Path})
		return
	}
	page := max(q.Page, 1)
	f.mu.Lock()
	f.calls[path]++
	if tag := r.Header.Get(testCallHeader); tag != "" {
		if f.tagged == nil {
			f.tagged = make(map[string]int)
		}
		f.tagged[path+"|"+tag]++
	}
	f.log = append(f.log, fmt.Sprintf("%s %s %d", strings.TrimPrefix(path, "/api/v2/"), q.QueryID, page))
	f.sites = append(f.sites, fmt.Sprint(page, q.Sites))
	onCall := f.onCall
	f.mu.Unlock()
	if onCall != nil {
		onCall(path, page)
	}
	if f.latency != nil {
		time.Sleep(f.latency(path, page))
	}
	if f.hold != nil && f.hold(path, page) {
		<-r.Context().Done()
		return
	}
	f.mu.Lock()
	code := f.status[path]
	f.mu.Unlock()
	if code != 0 && (f.statusPage == 0 || f.statusPage == page) {
		writeJSON(w, code, map[string]any{"state": "FAILED", "message": "forced failure"})
		return
	}
	if q.APIKey != testKey {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"state": "FAILED", "message": "unknown api_key: pass your key"})
		return
	}
	switch path {
	case pathQuery:
		total, articles := f.page(q, page)
		writeJSON(w, 200, map[string]any{"results": map[string]any{"totalResults": total, "articles": articles}, "state": "SUCCESS"})
	case pathQueryAsync:
		f.mu.Lock()
		f.nextID++
		id := fmt.Sprintf("q%d", f.nextID)
		job := &fakeJob{q: q, created: time.Now()}
		if f.failJob != nil {
			job.failure = f.failJob(q)
		}
		f.jobs[id] = job
		f.mu.Unlock()
		writeJSON(w, 200, map[string]any{"query_id": id, "state": "SUCCESS"})
	case pathGetResults:
		f.getResults(w, q, page)
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"state": "FAILED", "message": "no endpoint " + path})
	}
}

// getResults answers a poll or a page of a job.
func (f *fakeService) getResults(w http.ResponseWriter, q fakeQuery, page int) {
	f.mu.Lock()
	job := f.jobs[q.QueryID]
	pending := false
	if job != nil {
		job.polls++
		pending = job.polls <= f.pendingPolls || time.Since(job.created) < f.readyAfter || page == f.pendingPage
	}
	f.mu.Unlock()
	switch {
	case job == nil:
		writeJSON(w, http.StatusNotFound, map[string]any{"state": "FAILED", "message": "unknown query_id: submit the query again"})
	case pending:
		writeJSON(w, 200, map[string]any{"query_id": q.QueryID, "state": stringOr(string(f.pendingState), string(StatePending))})
	case job.failure != "":
		writeJSON(w, 200, map[string]any{"query_id": q.QueryID, "state": "FAILED", "message": job.failure})
	default:
		total, articles := f.page(job.q, page)
		if f.ignorePage {
			page = 1
		}
		body := map[string]any{"query_id": q.QueryID, "page": page, "articles": articles, "state": "SUCCESS"}
		if !f.noTotal {
			body["totalResults"], body["totalArticles"] = total, total
		}
		writeJSON(w, 200, body)
	}
}

// page returns the total and page n of the articles matching q, in the
// order q asks for.
func (f *fakeService) page(q fakeQuery, n int) (int, []Article) {
	hits := f.hits(q)
	if f.ignorePage {
		n = 1
	}
	lo := min((n-1)*PageSize, len(hits))
	total := len(hits)
	switch {
	case f.noTotal:
		total = 0
	case f.totalFor != nil:
		total = f.totalFor(n)
	}
	return total, slices.Clone(hits[lo:min(lo+PageSize, len(hits))])
}

// hits returns the articles matching q in the order q asks for, computed
// once per distinct range and order.
func (f *fakeService) hits(q fakeQuery) []Article {
	key := q.StartDate + "|" + q.EndDate + "|" + q.SortOrder
	f.mu.Lock()
	defer f.mu.Unlock()
	if hits, ok := f.memo[key]; ok {
		return hits
	}
	start, _ := time.Parse(time.RFC3339Nano, q.StartDate)
	end, _ := time.Parse(time.RFC3339Nano, q.EndDate)
	var hits []Article
	for _, a := range f.articles {
		t := a.DatePublished.Time
		if (q.StartDate == "" || !t.Before(start)) && (q.EndDate == "" || !t.After(end)) {
			hits = append(hits, a)
		}
	}
	slices.SortFunc(hits, func(a, b Article) int {
		switch {
		case q.SortOrder == string(SortDatePublished) && !a.DatePublished.Time.Equal(b.DatePublished.Time):
			return b.DatePublished.Time.Compare(a.DatePublished.Time)
		case q.SortOrder != string(SortDatePublished) && a.Score != b.Score:
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	if f.memo == nil {
		f.memo = make(map[string][]Article)
	}
	f.memo[key] = hits
	return hits
}

// count returns the number of requests to an endpoint so far.
func (f *fakeService) count(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[path]
}

// testCallHeader names the calls of one test step (WithHeader): requests a
// cancelled earlier step sent can reach the handler after that step
// returned, so counts taken before and after a step cannot tell whose
// requests they were.
const testCallHeader = "X-Test-Call"

// countTagged returns the number of requests to an endpoint whose
// testCallHeader was tag.
func (f *fakeService) countTagged(path, tag string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tagged[path+"|"+tag]
}

// requests returns the request log so far.
func (f *fakeService) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.log)
}

// sitesSent returns the page and sites of every request so far and forgets
// them.
func (f *fakeService) sitesSent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.sites
	f.sites = nil
	return out
}

// writeJSON writes v with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Request-Id", "req-1")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// testArticles returns n articles published step apart from first, with
// repeating scores so that ties occur.
func testArticles(n int, first time.Time, step time.Duration) []Article {
	out := make([]Article, n)
	for i := range out {
		t := first.Add(time.Duration(i) * step).UTC().Truncate(time.Second)
		out[i] = Article{
			ID:            fmt.Sprintf("%024x", i+1),
			Title:         fmt.Sprintf("Article %d", i+1),
			URL:           fmt.Sprintf("https://example.com/a/%d", i+1),
			Site:          "example.com",
			Language:      "en",
			DatePublished: Timestamp{Time: t, raw: t.Format(http.TimeFormat)},
			Score:         float64((i*37)%50) / 4,
		}
	}
	return out
}

// serve starts an httptest server for h (a fakeService, or another fake
// service) and returns a client for it. The server and its connections are
// closed at the end of the test.
func serve(t testing.TB, h http.Handler, opts ...Option) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return newTestClient(t, srv.URL, srv.Client(), opts...)
}

// inProcess returns a client whose requests call f directly, with no
// socket, for tests inside a synctest bubble.
func inProcess(t testing.TB, f *fakeService, opts ...Option) *Client {
	t.Helper()
	return newTestClient(t, "http://fake.invalid", &http.Client{Transport: handlerTransport{f}}, opts...)
}

// newTestClient builds a client for the fake at baseURL.
func newTestClient(t testing.TB, baseURL string, hc *http.Client, opts ...Option) *Client {
	t.Helper()
	all := append([]Option{WithAPIKey(testKey), WithBaseURL(baseURL + basePath), WithoutEnvironment(),
		WithHTTPClient(hc), WithMaxRetries(0), withJitterSeed(1, 2)}, opts...)
	c, err := NewClient(all...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// handlerTransport serves requests with a handler in the calling goroutine.
type handlerTransport struct{ h http.Handler }

// RoundTrip records the handler's answer.
func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	if err := r.Context().Err(); err != nil {
		// The client gave up on the request, as a real transport reports.
		return nil, err
	}
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// fastPoll polls every millisecond or two, for tests on real time.
var fastPoll = &PollOptions{MinDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}

// submit starts a job on c and returns its ID.
func submit(t testing.TB, c *Client, params AsyncSearchParams) string {
	t.Helper()
	job, err := c.SubmitQuery(t.Context(), params)
	if err != nil {
		t.Fatal(err)
	}
	return job.QueryID
}

func TestPollPendingThenSuccess(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(30, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Hour))
	f.pendingPolls = 3
	c := serve(t, f)
	id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	var events []PollEvent
	opts := *fastPoll
	opts.OnPoll = func(e PollEvent) { events = append(events, e) }
	page, err := c.Poll(t.Context(), id, &opts)
	if err != nil {
		t.Fatal(err)
	}
	_, want := f.page(fakeQuery{}, 1)
	if diff := cmp.Diff(&Page{QueryID: id, Number: 1, TotalResults: 30, Articles: want, State: StateSuccess}, page); diff != "" {
		t.Errorf("Poll page (-want +got):\n%s", diff)
	}
	var got []string
	for _, e := range events {
		if e.QueryID != id || e.Elapsed < 0 || (e.Next > 0) != (e.State == StatePending) {
			t.Errorf("event %+v: wrong query ID, elapsed or next wait", e)
		}
		got = append(got, fmt.Sprintf("%d %s", e.Attempt, e.State))
	}
	if diff := cmp.Diff([]string{"1 PENDING", "2 PENDING", "3 PENDING", "4 SUCCESS"}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if n := f.count(pathGetResults); n != 4 {
		t.Errorf("get-results requests = %d, want 4", n)
	}
}

func TestPollJobFailed(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	f.pendingPolls = 2
	f.failJob = func(fakeQuery) string { return "the query cannot be parsed: check the key_phrases syntax" }
	c := serve(t, f)
	id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	page, err := c.Poll(t.Context(), id, fastPoll)
	if page != nil {
		t.Errorf("Poll returned a page for a failed job: %+v", page)
	}
	var failed *JobFailedError
	if !errors.As(err, &failed) {
		t.Fatalf("Poll error = %v, want a *JobFailedError", err)
	}
	if failed.QueryID != id || failed.State != StateFailed || failed.Message != "the query cannot be parsed: check the key_phrases syntax" {
		t.Errorf("JobFailedError = %+v", failed)
	}
	want := `newssearch: query job "q1" ended in state "FAILED": the query cannot be parsed: check the key_phrases syntax: waiting cannot help; check the query and submit it again`
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	var apiErr *APIError
	if !errors.Is(err, ErrJobFailed) || !errors.As(err, &apiErr) || apiErr.RequestID != "req-1" {
		t.Errorf("error %v: want ErrJobFailed and the *APIError with the request id", err)
	}
	if n := f.count(pathGetResults); n != 3 {
		t.Errorf("get-results requests = %d, want 3", n)
	}
}

func TestPollPendingHook(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		state   State // the pending literal the service sends
		pending func(State) bool
		wantErr string
	}{
		{"default treats RUNNING as failure", "RUNNING", nil,
			`newssearch: query job "q1" ended in state "RUNNING": waiting cannot help; check the query and submit it again`},
		{"hook keeps polling through RUNNING", "RUNNING", func(s State) bool { return s.IsPending() || s == "RUNNING" }, ""},
		{"hook rejects PENDING", StatePending, func(State) bool { return false },
			`newssearch: query job "q1" ended in state "PENDING": waiting cannot help; check the query and submit it again`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(testArticles(3, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Hour))
			f.pendingPolls, f.pendingState = 2, tc.state
			c := serve(t, f)
			id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
			opts := *fastPoll
			opts.Pending = tc.pending
			page, err := c.Poll(t.Context(), id, &opts)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr || !errors.Is(err, ErrJobFailed) {
					t.Fatalf("Poll error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(page.Articles) != 3 || f.count(pathGetResults) != 3 {
				t.Fatalf("Poll = %v, %v after %d requests; want 3 articles after 3 requests", page, err, f.count(pathGetResults))
			}
		})
	}
}

func TestPollMaxWait(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFake(nil)
		f.readyAfter = time.Hour
		c := inProcess(t, f)
		id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
		start := time.Now()
		_, err := c.Poll(t.Context(), id, &PollOptions{MaxWait: 10 * time.Second, Jitter: -1})
		var timeout *PollTimeoutError
		if !errors.As(err, &timeout) {
			t.Fatalf("Poll error = %v, want a *PollTimeoutError", err)
		}
		// Without jitter: polls at 0.1, 0.4, 1.3, 4, 6.9, 9.8 and 9.9 s;
		// the last wait leaves the last request MinDelay (0.1 s) to be
		// answered, and with no more than that left the poll ends.
		want := &PollTimeoutError{QueryID: id, Waited: 9900 * time.Millisecond, Attempts: 7, LastState: StatePending}
		if diff := cmp.Diff(want, timeout); diff != "" {
			t.Errorf("PollTimeoutError (-want +got):\n%s", diff)
		}
		if got := time.Since(start); got != 9900*time.Millisecond {
			t.Errorf("Poll returned after %v, want 9.9s", got)
		}
		wantMsg := `newssearch: query job "q1" still in state "PENDING" after 9.9s and 7 polls: call Poll again with this query ID to keep waiting, or raise PollOptions.MaxWait`
		if diff := cmp.Diff(wantMsg, err.Error()); diff != "" {
			t.Errorf("error (-want +got):\n%s", diff)
		}
		if !errors.Is(err, ErrPollTimeout) || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v: want ErrPollTimeout and not context.DeadlineExceeded", err)
		}
	})
}

func TestPollCancelMidWait(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFake(nil)
		f.readyAfter = time.Hour
		c := inProcess(t, f)
		id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
		ctx, cancel := context.WithCancel(t.Context())
		var cancelledAt time.Time
		go func() {
			time.Sleep(5 * time.Second) // in the middle of the 4 s to 6.9 s wait
			cancelledAt = time.Now()
			cancel()
		}()
		_, err := c.Poll(ctx, id, &PollOptions{Jitter: -1})
		if got := time.Since(cancelledAt); got != 0 {
			t.Errorf("Poll returned %v after the cancellation, want at once", got)
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Poll error = %#v, want context.Canceled, wrapped", err)
		}
		want := `newssearch: polling query job "q1" stopped after 4 requests: context canceled (the job may still be running: call Poll with this query ID and a live context to resume)`
		if diff := cmp.Diff(want, err.Error()); diff != "" {
			t.Errorf("error (-want +got):\n%s", diff)
		}
	})
}

// TestPollCancelLeavesNothing cancels a poll on a real socket and checks
// that no goroutine is left behind. It is not parallel, for goleak.
func TestPollCancelLeavesNothing(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f := newFake(nil)
	f.readyAfter = time.Hour
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := newTestClient(t, srv.URL, srv.Client())
	id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	polled := make(chan struct{}, 1)
	opts := &PollOptions{MinDelay: time.Millisecond, MaxDelay: time.Hour, Multiplier: 1e6,
		OnPoll: func(PollEvent) { polled <- struct{}{} }}
	done := make(chan error, 1)
	go func() {
		_, err := c.Poll(ctx, id, opts)
		done <- err
	}()
	<-polled // the poll now waits for an hour
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Poll error = %v, want context.Canceled", err)
	}
	if n := f.count(pathGetResults); n != 1 {
		t.Errorf("get-results requests = %d, want 1", n)
	}
}

func TestPollErrorsEndAtOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		status   int
		queryID  string
		sentinel error
		want     string
	}{
		{"401", http.StatusUnauthorized, "", ErrUnauthorized,
			`newssearch: polling query job "q1" stopped after 1 request: POST /api/v2/get-results: 401 Unauthorized: forced failure (request id req-1)`},
		{"404 unknown job", 0, "nope", ErrNotFound,
			`newssearch: polling query job "nope" stopped after 1 request: POST /api/v2/get-results: 404 Not Found: unknown query_id: submit the query again (request id req-1)`},
		{"503 after retries", http.StatusServiceUnavailable, "", ErrServer,
			`newssearch: polling query job "q1" stopped after 1 request: POST /api/v2/get-results: 503 Service Unavailable: forced failure (request id req-1)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(nil)
			f.pendingPolls = 5
			f.status = map[string]int{pathGetResults: tc.status}
			c := serve(t, f)
			id := stringOr(tc.queryID, submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}}))
			_, err := c.Poll(t.Context(), id, fastPoll)
			var apiErr *APIError
			if !errors.As(err, &apiErr) || !errors.Is(err, tc.sentinel) {
				t.Fatalf("Poll error = %v, want an *APIError matching %v", err, tc.sentinel)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if n := f.count(pathGetResults); n != 1 {
				t.Errorf("get-results requests = %d, want 1", n)
			}
		})
	}
}

func TestPollValidation(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	c := serve(t, f)
	for _, tc := range []struct {
		opts    *PollOptions
		queryID string
		want    string
	}{
		{&PollOptions{MinDelay: -1}, "q", "newssearch: invalid PollOptions.MinDelay: -1ns is negative: pass a positive wait, or 0 for the default 100ms"},
		{&PollOptions{MaxDelay: -time.Second}, "q", "newssearch: invalid PollOptions.MaxDelay: -1s is negative: pass a positive cap, or 0 for the default 2.9s"},
		{&PollOptions{MaxWait: -time.Second}, "q", "newssearch: invalid PollOptions.MaxWait: -1s is negative: pass a positive limit, or 0 for the default 10m0s"},
		{&PollOptions{Multiplier: 0.5}, "q", "newssearch: invalid PollOptions.Multiplier: 0.5 is not a growth factor: pass a number from 1 (constant waits) to 1e6, or 0 for the default"},
		{&PollOptions{Multiplier: math.NaN()}, "q", "newssearch: invalid PollOptions.Multiplier: NaN is not a growth factor: pass a number from 1 (constant waits) to 1e6, or 0 for the default"},
		{&PollOptions{Jitter: 1}, "q", "newssearch: invalid PollOptions.Jitter: 1 is not a fraction below 1: pass e.g. 0.2 for ±20%, 0 for the default, or a negative value for no jitter"},
		{&PollOptions{MinDelay: 5 * time.Second}, "q", "newssearch: invalid PollOptions.MinDelay: the first wait 5s exceeds the cap MaxDelay 2.9s: set MaxDelay at or above MinDelay"},
		{nil, " ", "newssearch: invalid queryID: the query ID is empty: pass the QueryID of the job SubmitQuery returned"},
	} {
		_, err := c.Poll(t.Context(), tc.queryID, tc.opts)
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrBadRequest) {
			t.Errorf("Poll(%+v) error = %v, want %q", tc.opts, err, tc.want)
		}
	}
	if got := f.requests(); len(got) != 0 {
		t.Errorf("requests sent despite invalid input: %q", got)
	}
	//lint:ignore SA1012 checking the nil-context guard
	if _, err := c.Poll(nil, "q", nil); err == nil || err.Error() != "newssearch: Poll: nil context: pass context.Background() or a request context" {
		t.Errorf("Poll(nil ctx) error = %v", err)
	}
	var zero Client
	if _, err := zero.Poll(t.Context(), "q", nil); !errors.Is(err, errNoClient) {
		t.Errorf("Poll on a zero Client: error = %v, want %v", err, errNoClient)
	}
	if _, err := (*Client)(nil).Poll(t.Context(), "q", nil); !errors.Is(err, errNoClient) {
		t.Errorf("Poll on a nil Client: error = %v, want %v", err, errNoClient)
	}
}

// TestSubmitThenPoll: the route from a query to its first page is
// SubmitQuery then Poll, one submission and the polls, page 1 fetched once.
func TestSubmitThenPoll(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(40, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Hour))
	f.pendingPolls = 2
	c := serve(t, f)
	id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}, SortOrder: SortDatePublished})
	page, err := c.Poll(t.Context(), id, fastPoll)
	if err != nil {
		t.Fatal(err)
	}
	_, want := f.page(fakeQuery{SortOrder: string(SortDatePublished)}, 1)
	if diff := cmp.Diff(&Page{QueryID: "q1", Number: 1, TotalResults: 40, Articles: want, State: StateSuccess}, page); diff != "" {
		t.Errorf("Poll page (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"query-async  1", "get-results q1 1", "get-results q1 1", "get-results q1 1"}, f.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestJobFailedSameTypeEverywhere: a failed job is a *JobFailedError
// whichever call sees it, unwrapping to the service's *APIError (HTTP 200).
func TestJobFailedSameTypeEverywhere(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(40, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Hour))
	f.failJob = func(fakeQuery) string { return "index shard unavailable" }
	c := serve(t, f)
	id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	_, getErr := c.GetResults(t.Context(), id, 1)
	_, pollErr := c.Poll(t.Context(), id, fastPoll)
	_, resultsErr := collect(c.Results(t.Context(), id, fastPoll))
	for name, err := range map[string]error{"GetResults": getErr, "Poll": pollErr, "Results": resultsErr} {
		var failed *JobFailedError
		var apiErr *APIError
		if !errors.As(err, &failed) || failed.QueryID != id || failed.State != StateFailed || failed.Message != "index shard unavailable" ||
			!errors.Is(err, ErrJobFailed) || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusOK {
			t.Errorf("%s: error %#v, want a *JobFailedError for %s around the 200 *APIError", name, err, id)
		}
	}
}

func TestPollDelays(t *testing.T) {
	t.Parallel()
	cfg, err := (*PollOptions)(nil).resolve()
	if err != nil {
		t.Fatal(err)
	}
	var got []time.Duration
	for n := 1; n <= 6; n++ {
		got = append(got, cfg.delay(n, 0))
	}
	want := []time.Duration{100 * time.Millisecond, 300 * time.Millisecond, 900 * time.Millisecond, 2700 * time.Millisecond, 2900 * time.Millisecond, 2900 * time.Millisecond}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("default waits without jitter (-want +got):\n%s", diff)
	}
	// Jitter spreads each wait by ±20% and never passes the cap.
	if lo, hi := cfg.delay(2, -1), cfg.delay(2, 1); lo != 240*time.Millisecond || hi != 360*time.Millisecond {
		t.Errorf("second wait spans %v..%v, want 240ms..360ms", lo, hi)
	}
	if d := cfg.delay(4, 1); d != cfg.maxDelay {
		t.Errorf("fourth wait with the largest jitter = %v, want the cap %v", d, cfg.maxDelay)
	}
	if d := cfg.delay(1000, 1); d != cfg.maxDelay {
		t.Errorf("wait 1000 = %v, want the cap %v", d, cfg.maxDelay)
	}
	// The client's seeded jitter source draws within [-1, 1).
	c, err := NewClient(WithAPIKey(testKey), WithoutEnvironment(), withJitterSeed(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if u := c.jitterDraw(&cfg); u < -1 || u >= 1 {
			t.Fatalf("jitter draw %v outside [-1, 1)", u)
		}
	}
	off := cfg
	off.jitter = 0
	if u := c.jitterDraw(&off); u != 0 {
		t.Errorf("jitter draw without jitter = %v, want 0", u)
	}
}

// worstSchedule returns, for a job that becomes ready at ready after Poll
// starts, the worst delay between readiness and the poll that sees it, and
// the most requests Poll can make, over every jitter draw. rtt is the time
// one request takes.
func worstSchedule(cfg *pollConfig, ready, rtt time.Duration) (late time.Duration, requests int) {
	var lo, hi time.Duration // earliest and latest time of poll n
	for n := 1; lo < ready; n++ {
		short, long := cfg.delay(n, -1), cfg.delay(n, 1)
		// Poll n is the first to see the job when poll n-1 came just
		// before readiness; the wait before poll n is then at most long.
		late = max(late, min(hi, ready)+long+rtt-ready)
		lo, hi = lo+short+rtt, hi+long+rtt
		requests = n
	}
	return late, requests
}

// TestPollScheduleBounds checks the promise of the default schedule: a job
// ready after 300 ms is seen within 250 ms, and one ready after 60 s is
// seen within 3 s and after at most 24 polls (25 requests with the
// submission), whatever the jitter draws. The vendor's SDK, polling every
// second, needs up to 1 s and 61 polls.
func TestPollScheduleBounds(t *testing.T) {
	t.Parallel()
	cfg, err := (*PollOptions)(nil).resolve()
	if err != nil {
		t.Fatal(err)
	}
	const rtt = 5 * time.Millisecond
	for _, tc := range []struct {
		ready       time.Duration
		maxLate     time.Duration
		maxRequests int
	}{
		{300 * time.Millisecond, 250 * time.Millisecond, 2},
		{60 * time.Second, 3 * time.Second, 24},
	} {
		late, requests := worstSchedule(&cfg, tc.ready, rtt)
		if late > tc.maxLate || requests > tc.maxRequests {
			t.Errorf("job ready after %v: seen up to %v late after up to %d polls, want at most %v and %d",
				tc.ready, late, requests, tc.maxLate, tc.maxRequests)
		}
	}
}

// TestPollDefaultsSimulated runs the default schedule against jobs pending
// 300 ms and 60 s, in a bubble with a fake clock, for many jitter seeds.
func TestPollDefaultsSimulated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ready       time.Duration
		maxLate     time.Duration
		maxRequests int // submission included
	}{
		{300 * time.Millisecond, 250 * time.Millisecond, 3},
		{60 * time.Second, 3 * time.Second, 25},
	} {
		var worstLate time.Duration
		worstRequests := 0
		for seed := range uint64(50) {
			synctest.Test(t, func(t *testing.T) {
				f := newFake(testArticles(3, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Hour))
				f.readyAfter = tc.ready
				f.latency = func(string, int) time.Duration { return time.Millisecond }
				c := inProcess(t, f, withJitterSeed(seed, seed+1))
				start := time.Now()
				job, err := c.SubmitQuery(t.Context(), AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
				if err != nil {
					t.Fatal(err)
				}
				page, err := c.Poll(t.Context(), job.QueryID, nil)
				if err != nil || len(page.Articles) != 3 {
					t.Fatalf("Poll = %v, %v", page, err)
				}
				late := time.Since(start) - tc.ready
				requests := len(f.requests())
				if late > tc.maxLate || requests > tc.maxRequests {
					t.Errorf("seed %d, job ready after %v: result %v late after %d requests, want at most %v and %d",
						seed, tc.ready, late, requests, tc.maxLate, tc.maxRequests)
				}
				worstLate, worstRequests = max(worstLate, late), max(worstRequests, requests)
			})
		}
		t.Logf("job ready after %v: at worst %v late, %d requests (submission included)", tc.ready, worstLate, worstRequests)
	}
}

// stringOr returns s, or def when s is empty.
func stringOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
