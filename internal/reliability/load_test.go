package reliability

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// Load scenario sizes. See RELIABILITY.md.
const (
	// loadClients is the number of concurrent clients, each with its own
	// connection pool.
	loadClients = 64
	// loadRequests is the number of HTTP requests of TestLoad, with or
	// without the race detector (about 30 s under -race on two cores).
	loadRequests = 20_000
	// soakEnv names the environment variable that sets the number of
	// requests of TestLoad and of jobs of TestJobsHeapBounded, e.g.
	// NEWSSEARCH_SOAK=1000000.
	soakEnv = "NEWSSEARCH_SOAK"
)

// soakSize returns NEWSSEARCH_SOAK, or def when it is unset.
func soakSize(t *testing.T, def int) int {
	t.Helper()
	v := os.Getenv(soakEnv)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: set a positive number of requests, e.g. %s=1000000", soakEnv, v, soakEnv)
	}
	return n
}

// countingTransport counts the HTTP requests it sends.
type countingTransport struct {
	next http.RoundTripper
	n    *atomic.Int64
}

// RoundTrip counts r and sends it.
func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// logCounter is a slog.Handler that counts the mock's request records by
// status and injected fault.
type logCounter struct {
	mu       sync.Mutex
	records  int
	faults   int
	statuses map[int64]int
}

// Enabled accepts every level.
func (*logCounter) Enabled(context.Context, slog.Level) bool { return true }

// Handle counts one record.
func (l *logCounter) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records++
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "fault":
			l.faults++
		case "status":
			l.statuses[a.Value.Int64()]++
		}
		return true
	})
	return nil
}

// WithAttrs returns l: the mock adds no attributes.
func (l *logCounter) WithAttrs([]slog.Attr) slog.Handler { return l }

// WithGroup returns l: the mock uses no groups.
func (l *logCounter) WithGroup(string) slog.Handler { return l }

// loadFaults is the light fault mix of the load scenario; every fault is
// one the client retries, so no call may fail.
func loadFaults() []mockserver.FaultRule {
	// query-async gets 408 where the others get 503: a 503 there may
	// follow a forwarded request, so the client does not retry it.
	rules := []mockserver.FaultRule{
		{Endpoint: mockserver.EndpointQueryAsync, Probability: 0.03, Fault: mockserver.Fault{Status: http.StatusRequestTimeout}},
	}
	for _, ep := range []string{mockserver.EndpointQuery, mockserver.EndpointGetResults, mockserver.EndpointHeadlines} {
		rules = append(rules, mockserver.FaultRule{Endpoint: ep, Probability: 0.03, Fault: mockserver.Fault{Status: http.StatusServiceUnavailable}})
	}
	rules = append(rules,
		mockserver.FaultRule{Probability: 0.01, Fault: mockserver.Fault{Status: http.StatusTooManyRequests, RetryAfter: 1}},
		mockserver.FaultRule{Probability: 0.05, Fault: mockserver.Fault{Latency: 2 * time.Millisecond}})
	for _, ep := range []string{mockserver.EndpointQuery, mockserver.EndpointGetResults, mockserver.EndpointHeadlines} {
		rules = append(rules, mockserver.FaultRule{Endpoint: ep, Probability: 0.01, Fault: mockserver.Fault{Truncate: true}},
			mockserver.FaultRule{Endpoint: ep, Probability: 0.005, Fault: mockserver.Fault{Status: http.StatusBadGateway}})
	}
	return rules
}

// loadQueries are the searches of the load; over the whole corpus the
// last one matches nothing.
var loadQueries = []string{"election", "company", "market", "climate", "election market", "the company", "zzzyzx"}

// TestLoad makes loadClients clients send a mixed load of requests to all
// four endpoints (async jobs polled to the end and paged) to one mock
// server over loopback sockets, under light retried faults, and requires
// that no call fails. The race detector, when on, checks the whole run.
func TestLoad(t *testing.T) {
	long(t)
	t.Parallel()
	total := int64(soakSize(t, loadRequests))
	logs := &logCounter{statuses: map[int64]int{}}
	srv := newServer(t, mockserver.WithSeed(99), mockserver.WithFaults(loadFaults()...), mockserver.WithPendingPolls(1),
		mockserver.WithLogger(slog.New(logs)))
	ctx := testContext(t)
	if os.Getenv(soakEnv) != "" {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(context.Background()) // a soak may take hours
		defer cancel()
	}

	var sent, ops atomic.Int64
	var mu sync.Mutex
	var failures []string
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	var wg sync.WaitGroup
	for w := range loadClients {
		transport := &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 8,
			IdleConnTimeout:     30 * time.Second,
		}
		defer transport.CloseIdleConnections()
		// Waits up to 2 s: a 429 says Retry-After: 1, and a call that may not
		// wait that long ends at once with the 429.
		c := srv.Client(newssearch.WithHTTPClient(&http.Client{Transport: countingTransport{transport, &sent}}),
			newssearch.WithMaxRetries(10), newssearch.WithRetryWait(time.Millisecond, 2*time.Second))
		rng := rand.New(rand.NewPCG(99, uint64(w)))
		wg.Go(func() {
			for sent.Load() < total && ctx.Err() == nil {
				ops.Add(1)
				if err := loadOp(ctx, c, rng); err != nil {
					fail("client %d: %v", w, err)
				}
			}
		})
	}
	wg.Wait()

	logs.mu.Lock()
	defer logs.mu.Unlock()
	t.Logf("%d clients, %d operations, %d HTTP requests sent, %d answered (%d with an injected fault); statuses %v",
		loadClients, ops.Load(), sent.Load(), logs.records, logs.faults, logs.statuses)
	for _, f := range failures {
		t.Error(f)
	}
	if logs.faults == 0 {
		t.Error("no fault was injected: the scenario did not exercise retries")
	}
	if n := logs.statuses[500] + logs.statuses[504]; n > 0 {
		t.Errorf("%d answers of 500 or 504, which no fault asked for", n)
	}
	if n, dropped := len(srv.Journal()), srv.JournalDropped(); n > 1_000 || dropped > 0 && n != 1_000 {
		t.Errorf("the journal holds %d entries and dropped %d; want at most its default size 1,000, and all of it once it drops", n, dropped)
	}
}

// loadOp runs one operation of the mixed load and checks its answer.
func loadOp(ctx context.Context, c *newssearch.Client, rng *rand.Rand) error {
	query := loadQueries[rng.IntN(len(loadQueries))]
	switch p := rng.IntN(100); {
	case p < 45: // one page of a synchronous search
		page := 1 + rng.IntN(4)
		resp, err := c.Search(ctx, newssearch.SearchParams{Query: query, Page: page})
		if err != nil {
			return fmt.Errorf("Search(%q, page %d): %w", query, page, err)
		}
		if want := min(max(resp.TotalResults-(page-1)*newssearch.PageSize, 0), newssearch.PageSize); len(resp.Articles) != want {
			return fmt.Errorf("Search(%q, page %d): %d articles of %d, want %d", query, page, len(resp.Articles), resp.TotalResults, want)
		}
	case p < 55:
		resp, err := c.Headlines(ctx)
		if err != nil {
			return fmt.Errorf("Headlines: %w", err)
		}
		if len(resp.Headlines) == 0 {
			return fmt.Errorf("Headlines: no clusters")
		}
	case p < 80: // submit, poll to the end, fetch page 2
		params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: query}}
		if rng.IntN(2) == 0 {
			params.SortOrder = newssearch.SortDatePublished
			params.KeyPhrases = "('vote' or 'election') and not 'zzzyzx'"
		}
		job, err := c.SubmitQuery(ctx, params)
		if err != nil {
			return fmt.Errorf("SubmitQuery(%q): %w", query, err)
		}
		first, err := c.Poll(ctx, job.QueryID, fastPoll)
		if err != nil {
			return fmt.Errorf("Poll(%q): %w", query, err)
		}
		page, err := c.GetResults(ctx, first.QueryID, 2)
		if err != nil {
			return fmt.Errorf("GetResults(%q, 2): %w", query, err)
		}
		if page.TotalResults != first.TotalResults {
			return fmt.Errorf("GetResults(%q, 2): total %d, page 1 said %d", query, page.TotalResults, first.TotalResults)
		}
	default: // every page of a job, then of a synchronous search, limited
		job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
			Query: query, StartDate: clock.Add(-10 * 24 * time.Hour), EndDate: clock}})
		if err != nil {
			return fmt.Errorf("SubmitQuery(%q): %w", query, err)
		}
		got, err := collect(c.Results(ctx, job.QueryID, &newssearch.PageOptions{Prefetch: 2}, fastPoll))
		if err != nil {
			return fmt.Errorf("Results(%q): %w", query, err)
		}
		if dups := duplicateIDs(got); len(dups) > 0 {
			return fmt.Errorf("Results(%q): duplicated IDs %v", query, dups)
		}
		n := 0
		for _, err := range c.SearchAll(ctx, newssearch.SearchParams{Query: query}, &newssearch.PageOptions{Prefetch: 1}) {
			if err != nil {
				return fmt.Errorf("SearchAll(%q): %w", query, err)
			}
			if n++; n == 2*newssearch.PageSize {
				break
			}
		}
	}
	return nil
}
