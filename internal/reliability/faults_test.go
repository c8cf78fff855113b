package reliability

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// faultMix is the fault mix of the nothing-lost scenario, drawn from the
// server's seed. Rules are tried in order and the first that fires
// applies, so the shares of all requests are: on the read-only endpoints
// 5% truncated and 4.75% dropped; of the rest, 30% answered 503 (408 on
// query-async, the status that proves no job was created: a 503 there is
// not retried, since a proxy may send it after forwarding the request),
// then 10% of all 429 with Retry-After: 1; and about a third of what is
// left delayed by 1 or 4 ms. query-async gets only faults that prove the
// job was not created, since nothing may be lost.
func faultMix() []mockserver.FaultRule {
	var rules []mockserver.FaultRule
	for _, ep := range []string{mockserver.EndpointQuery, mockserver.EndpointGetResults, mockserver.EndpointHeadlines} {
		rules = append(rules,
			mockserver.FaultRule{Endpoint: ep, Probability: 0.05, Fault: mockserver.Fault{Truncate: true}},
			mockserver.FaultRule{Endpoint: ep, Probability: 0.05, Fault: mockserver.Fault{Drop: true}})
	}
	// 30% of the other requests to every endpoint get a status the client
	// retries there: 503 for the read-only endpoints, 408 for query-async
	// (a 503 there may follow a forwarded request, so it is not retried).
	for _, ep := range []string{mockserver.EndpointQuery, mockserver.EndpointGetResults, mockserver.EndpointHeadlines} {
		rules = append(rules, mockserver.FaultRule{Endpoint: ep, Probability: 0.30, Fault: mockserver.Fault{Status: http.StatusServiceUnavailable}})
	}
	return append(rules,
		mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Probability: 0.30, Fault: mockserver.Fault{Status: http.StatusRequestTimeout}},
		mockserver.FaultRule{Probability: 0.10 / 0.70, Fault: mockserver.Fault{Status: http.StatusTooManyRequests, RetryAfter: 1}},
		mockserver.FaultRule{Probability: 0.2, Fault: mockserver.Fault{Latency: time.Millisecond}},
		mockserver.FaultRule{Probability: 0.2, Fault: mockserver.Fault{Latency: 4 * time.Millisecond}})
}

// figures summarises a server's journal.
type figures struct {
	requests int
	faults   map[string]int // by kind: 503, 408, 429, truncate, drop, latency
	jobs     int            // query-async requests answered 200: jobs created
}

// summarise counts the requests, injected faults and created jobs of a
// journal.
func summarise(entries []mockserver.JournalEntry) figures {
	f := figures{requests: len(entries), faults: map[string]int{}}
	for _, e := range entries {
		if e.Path == "/api/v2/query-async" && e.Status == http.StatusOK {
			f.jobs++
		}
		switch _, action, _ := strings.Cut(e.Fault, ": "); {
		case action == "":
		case strings.Contains(action, "status=503"):
			f.faults["503"]++
		case strings.Contains(action, "status=408"):
			f.faults["408"]++
		case strings.Contains(action, "status=429"):
			f.faults["429"]++
		case strings.Contains(action, "truncate"):
			f.faults["truncate"]++
		case strings.Contains(action, "drop"):
			f.faults["drop"]++
		case strings.Contains(action, "latency"):
			f.faults["latency"]++
		default:
			f.faults[action]++
		}
	}
	return f
}

// String reports the figures on one line.
func (f figures) String() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(f.faults)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, f.faults[k]))
	}
	return fmt.Sprintf("%d requests, %d jobs created, faults injected: %s", f.requests, f.jobs, strings.Join(parts, " "))
}

// injected is the number of requests that got a fault.
func (f figures) injected() int {
	n := 0
	for _, v := range f.faults {
		n += v
	}
	return n
}

// jobsPerBody counts, per redacted query-async body, the jobs created.
func jobsPerBody(entries []mockserver.JournalEntry) map[string]int {
	out := map[string]int{}
	for _, e := range entries {
		if e.Path == "/api/v2/query-async" && e.Status == http.StatusOK {
			out[string(e.Body)]++
		}
	}
	return out
}

// faultQueries are the searches of the nothing-lost scenario: over the
// last 60 days, 275, 257, 148 and 123 articles (11, 11, 6 and 5 pages).
var faultQueries = []string{"million", "bank", "storm", "police"}

// TestNothingLostUnderFaults runs SearchAll, Results and SearchRange
// against the mock without faults, then again (sequentially and with
// concurrency) under faultMix, and requires exactly the same articles in
// the same order, with no duplicates and one job per submission.
func TestNothingLostUnderFaults(t *testing.T) {
	long(t)
	t.Parallel()
	srv := newServer(t, mockserver.WithSeed(20260115), mockserver.WithJournalSize(20_000), mockserver.WithPendingPolls(2))
	// Waits up to 2 s: faultMix's 429 says Retry-After: 1.
	c := srv.Client(newssearch.WithMaxRetries(25), newssearch.WithRetryWait(time.Millisecond, 2*time.Second))
	ctx := testContext(t)
	paramsFor := func(query string) newssearch.AsyncSearchParams {
		return newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
			Query: query, StartDate: clock.Add(-60 * 24 * time.Hour), EndDate: clock}}
	}
	searchAll := func(query string, prefetch int) ([]newssearch.Article, error) {
		return collect(c.SearchAll(ctx, paramsFor(query).SearchParams, &newssearch.PageOptions{Prefetch: prefetch}))
	}
	results := func(query string, prefetch int) ([]newssearch.Article, error) {
		job, err := c.SubmitQuery(ctx, paramsFor(query))
		if err != nil {
			return nil, err
		}
		return collect(c.Results(ctx, job.QueryID, &newssearch.PageOptions{Prefetch: prefetch}, fastPoll))
	}
	searchRange := func(query string, concurrency int) ([]newssearch.Article, error) {
		return c.SearchRange(ctx, paramsFor(query), &newssearch.RangeOptions{Concurrency: concurrency}, &newssearch.PageOptions{Prefetch: 2}, fastPoll)
	}
	const windows = 9 // 60 days in 7-day windows

	for _, tc := range []struct {
		name string
		run  func(query string) ([]newssearch.Article, error)
		jobs int // jobs one run creates
	}{
		{"SearchAll", func(q string) ([]newssearch.Article, error) { return searchAll(q, 0) }, 0},
		{"SearchAll/prefetch4", func(q string) ([]newssearch.Article, error) { return searchAll(q, 4) }, 0},
		{"Results", func(q string) ([]newssearch.Article, error) { return results(q, 0) }, 1},
		{"Results/prefetch4", func(q string) ([]newssearch.Article, error) { return results(q, 4) }, 1},
		{"SearchRange/sequential", func(q string) ([]newssearch.Article, error) { return searchRange(q, 1) }, windows},
		{"SearchRange/concurrent", func(q string) ([]newssearch.Article, error) { return searchRange(q, 0) }, windows},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total := figures{faults: map[string]int{}}
			compared := 0
			wants := make([][]newssearch.Article, len(faultQueries))
			for i, query := range faultQueries {
				srv.Reset() // the start-up state: no fault rules
				want, err := tc.run(query)
				if err != nil {
					t.Fatalf("%q without faults: %v", query, err)
				}
				if len(want) < 4*newssearch.PageSize {
					t.Fatalf("%q without faults: only %d articles; the scenario needs several pages", query, len(want))
				}
				if dups := duplicateIDs(want); len(dups) > 0 {
					t.Fatalf("%q without faults: duplicated IDs %v", query, dups)
				}
				wants[i] = want
			}

			// One mix for all the queries, so that its rules draw along the
			// whole scenario rather than from their first match for each query.
			srv.Reset() // Reset puts back the start-up rules, so the mix is set after it
			if err := srv.SetFaults(faultMix()...); err != nil {
				t.Fatal(err)
			}
			for i, query := range faultQueries {
				want, before := wants[i], len(srv.Journal())
				got, err := tc.run(query)
				if err != nil {
					t.Fatalf("%q under faults: %v", query, err)
				}
				entries := srv.Journal()[before:]
				fig := summarise(entries)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%q: under faults the articles differ from a fault-free run (-want +got):\n%s", query, diff)
				}
				if dups := duplicateIDs(got); len(dups) > 0 {
					t.Errorf("%q under faults: duplicated IDs %v", query, dups)
				}
				if fig.jobs != tc.jobs {
					t.Errorf("%q: %d jobs created, want %d (one per submission)", query, fig.jobs, tc.jobs)
				}
				for body, n := range jobsPerBody(entries) {
					if n != 1 {
						t.Errorf("%d jobs created for the query-async body %s, want 1", n, body)
					}
				}
				compared += len(want)
				total.add(fig)
			}
			t.Logf("%s: %d articles compared; %v", tc.name, compared, total)
			if total.injected() < 30 || total.faults["503"] == 0 || total.faults["429"] == 0 || total.faults["drop"] == 0 ||
				(tc.name != "SearchAll" && tc.name != "SearchAll/prefetch4" && total.faults["truncate"] == 0) {
				t.Errorf("only %v: the scenario did not exercise the faults", total)
			}
		})
	}
}

// add accumulates g into f.
func (f *figures) add(g figures) {
	f.requests += g.requests
	f.jobs += g.jobs
	for k, v := range g.faults {
		f.faults[k] += v
	}
}

// countJobs asks the server how many jobs it holds.
func countJobs(t *testing.T, srv *mockserver.Server) int {
	t.Helper()
	resp, err := srv.HTTPClient().Get(srv.URL() + "/_mock/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var health struct {
		Jobs int `json:"jobs"`
	}
	if err := decodeJSON(resp.Body, &health); err != nil {
		t.Fatal(err)
	}
	return health.Jobs
}

// submissions returns the query-async entries of the journal.
func submissions(srv *mockserver.Server) []mockserver.JournalEntry {
	var out []mockserver.JournalEntry
	for _, e := range srv.Journal() {
		if e.Path == "/api/v2/query-async" {
			out = append(out, e)
		}
	}
	return out
}

// TestSubmitQueryNotRepeated: when a query-async request may have been
// processed (its answer broke off, or the service failed with 500, 502,
// 503 or 504, or the connection dropped), SubmitQuery (alone, or followed
// by Poll) does not send it again, so no second job appears; 408 and 429, which prove
// the job was not created, are retried and create exactly one job.
func TestSubmitQueryNotRepeated(t *testing.T) {
	t.Parallel()
	async := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election"}}
	for _, tc := range []struct {
		name     string
		fault    mockserver.Fault
		requests int // query-async requests the server sees
		jobs     int // jobs it holds afterwards
		check    func(error) bool
	}{
		{"truncate", mockserver.Fault{Truncate: true}, 1, 1, func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }},
		{"500", mockserver.Fault{Status: 500}, 1, 0, isStatus(500)},
		{"502", mockserver.Fault{Status: 502}, 1, 0, isStatus(502)},
		{"504", mockserver.Fault{Status: 504}, 1, 0, isStatus(504)},
		{"drop", mockserver.Fault{Drop: true}, 1, 0, func(err error) bool { return err != nil }},
		{"503", mockserver.Fault{Status: 503}, 1, 0, isStatus(503)},
		{"408 retried", mockserver.Fault{Status: 408}, 2, 1, func(err error) bool { return err == nil }},
		{"429 retried", mockserver.Fault{Status: 429, RetryAfter: 1}, 2, 1, func(err error) bool { return err == nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rule := mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Times: 1, Fault: tc.fault}
			for _, call := range []struct {
				name string
				run  func(context.Context, *newssearch.Client) error
			}{
				{"SubmitQuery", func(ctx context.Context, c *newssearch.Client) error {
					_, err := c.SubmitQuery(ctx, async)
					return err
				}},
				{"SubmitQuery+Poll", func(ctx context.Context, c *newssearch.Client) error {
					job, err := c.SubmitQuery(ctx, async)
					if err != nil {
						return err
					}
					_, err = c.Poll(ctx, job.QueryID, fastPoll)
					return err
				}},
			} {
				srv := newServer(t, mockserver.WithFaults(rule))
				// Waits up to 2 s: the 429 says Retry-After: 1.
				err := call.run(testContext(t), srv.Client(newssearch.WithMaxRetries(5), newssearch.WithRetryWait(time.Millisecond, 2*time.Second)))
				if !tc.check(err) {
					t.Errorf("%s: error %v", call.name, err)
				}
				if n := len(submissions(srv)); n != tc.requests {
					t.Errorf("%s: the server saw %d query-async requests, want %d", call.name, n, tc.requests)
				}
				if n := countJobs(t, srv); n != tc.jobs {
					t.Errorf("%s: the server holds %d jobs, want %d", call.name, n, tc.jobs)
				}
			}
		})
	}
}

// isStatus returns a check that err is an *APIError with status code.
func isStatus(code int) func(error) bool {
	return func(err error) bool {
		var apiErr *newssearch.APIError
		return errors.As(err, &apiErr) && apiErr.StatusCode == code
	}
}

// TestSearchRangeResubmitsLostWindow: when the third window's submission
// is truncated (so its job exists but its id was lost), SearchRange submits
// that window again, counts it in RangeProgress.Resubmitted, and returns
// exactly the articles of a run without the fault: the lost job is never
// read. No other window is submitted twice.
func TestSearchRangeResubmitsLostWindow(t *testing.T) {
	t.Parallel()
	params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
		Query: "election", StartDate: clock.Add(-60 * 24 * time.Hour), EndDate: clock}}
	clean := newServer(t)
	want, err := clean.Client().SearchRange(testContext(t), params, fastPoll)
	if err != nil {
		t.Fatal(err)
	}
	for _, concurrency := range []int{1, 4} {
		t.Run(fmt.Sprint("concurrency", concurrency), func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, mockserver.WithFaults(mockserver.FaultRule{
				Endpoint: mockserver.EndpointQueryAsync, Every: 3, Times: 1, Fault: mockserver.Fault{Truncate: true}}))
			c := srv.Client(newssearch.WithMaxRetries(5))
			var resubmitted int
			got, err := c.SearchRange(testContext(t), params, fastPoll, &newssearch.RangeOptions{Concurrency: concurrency,
				OnProgress: func(p newssearch.RangeProgress) { resubmitted = p.Resubmitted }})
			if err != nil {
				t.Fatalf("SearchRange with one truncated submission: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("articles versus a run without faults (-want +got):\n%s", diff)
			}
			if resubmitted != 1 {
				t.Errorf("RangeProgress.Resubmitted = %d, want 1", resubmitted)
			}
			seen := map[string]int{}
			for _, e := range submissions(srv) {
				seen[string(e.Body)]++
			}
			twice := 0
			for body, n := range seen {
				switch {
				case n == 2:
					twice++
				case n > 2:
					t.Errorf("the window %s was submitted %d times", body, n)
				}
			}
			if twice != 1 {
				t.Errorf("%d windows submitted twice, want exactly 1 (the truncated one)", twice)
			}
		})
	}
}
