package newssearch_test

import (
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// longTests skips t unless NEWSSEARCH_LONG_TESTS=1 (and not in -short).
func longTests(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv("NEWSSEARCH_LONG_TESTS") != "1" {
		t.Skip("a minute or more against a rate-limited mock: set NEWSSEARCH_LONG_TESTS=1 to run it")
	}
}

// statusCounter is a middleware counting attempts by status.
type statusCounter struct {
	mu     sync.Mutex
	status map[int]int
	total  int
}

func (s *statusCounter) middleware(next http.RoundTripper) http.RoundTripper {
	return roundTrip(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.status == nil {
			s.status = map[int]int{}
		}
		s.total++
		if err == nil {
			s.status[resp.StatusCode]++
		}
		return resp, err
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// year is the last 365 days of the default corpus, by date, unshifted.
func year() newssearch.AsyncSearchParams {
	newest := mockserver.DefaultCorpus().Newest()
	return newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "election", StartDate: newest.AddDate(-1, 0, 0), EndDate: newest},
		SortOrder:    newssearch.SortDatePublished,
	}
}

// TestSearchRangeUnderRateLimit runs a default SearchRange over 365 days
// against a mock limited to 5 requests a second (bursts of 5), with the
// client's own WithRateLimit(5, 5), and compares it with an unlimited run.
func TestSearchRangeUnderRateLimit(t *testing.T) {
	longTests(t)
	t.Parallel()
	free := mockserver.New(mockserver.WithoutDateShift())
	defer free.Close()
	want, err := free.Client().SearchRange(t.Context(), year(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		client []newssearch.Option
	}{
		{"client WithRateLimit(5, 5)", []newssearch.Option{newssearch.WithRateLimit(5, 5)}},
		// Without a client limit, every call paused by a Retry-After starts
		// again at the same instant, so a burst meets 429s round after round
		// and one request can see four in a row (it failed CI that way with
		// the default 3 retries); the range must still complete, exactly.
		{"no client limit, AIMD and Retry-After pauses only", []newssearch.Option{newssearch.WithMaxRetries(10)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mockserver.New(mockserver.WithoutDateShift(), mockserver.WithRateLimit(5, 5))
			defer srv.Close()
			var counts statusCounter
			// The SDK's defaults (retry waits, polls), not the mock's fast
			// test waits of srv.Client.
			opts := append([]newssearch.Option{
				newssearch.WithoutEnvironment(),
				newssearch.WithBaseURL(srv.URL()),
				newssearch.WithAPIKey(srv.APIKey()),
				newssearch.WithHTTPClient(srv.HTTPClient()),
				newssearch.WithMiddleware(counts.middleware),
			}, tc.client...)
			c, err := newssearch.NewClient(opts...)
			if err != nil {
				t.Fatal(err)
			}
			var last newssearch.RangeProgress
			minConc := 8 // the default RangeOptions.Concurrency
			start := time.Now()
			got, err := c.SearchRange(t.Context(), year(), &newssearch.RangeOptions{OnProgress: func(p newssearch.RangeProgress) {
				last = p
				minConc = min(minConc, p.Concurrency)
			}})
			wall := time.Since(start)
			if err != nil {
				t.Fatalf("SearchRange: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rate-limited run versus unlimited run (-want +got):\n%s", diff)
			}
			counts.mu.Lock()
			defer counts.mu.Unlock()
			throttled := counts.status[http.StatusTooManyRequests]
			share := float64(throttled) / float64(counts.total)
			ideal := time.Duration(float64(counts.total) / 5 * float64(time.Second))
			t.Logf("%d windows, %d articles, %d requests, %d answered 429 (%.1f%%; RangeProgress.Throttled %d), lowest concurrency %d; wall %v, requests/5 per second %v, ratio %.2f",
				last.WindowsTotal, len(got), counts.total, throttled, 100*share, last.Throttled, minConc, wall.Round(time.Millisecond), ideal.Round(time.Millisecond), wall.Seconds()/ideal.Seconds())
			if strings.HasPrefix(tc.name, "client WithRateLimit") && share > 0.05 {
				t.Errorf("%d of %d requests (%.1f%%) were answered 429, want at most 5%%", throttled, counts.total, 100*share)
			}
			if last.Throttled != throttled {
				t.Errorf("RangeProgress.Throttled = %d, want the %d 429s the middleware saw", last.Throttled, throttled)
			}
		})
	}
}
