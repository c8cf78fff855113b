package newssearch_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// fakeTimeRange is what a 90-day SearchRange against srv.Client(), with
// default settings and jobs pending 5 minutes, did inside a synctest
// bubble.
type fakeTimeRange struct {
	requests map[string]int // by path
	total    int
	articles int
	waited   time.Duration // on the bubble's clock
}

// rangeUnderSynctest runs a 90-day SearchRange of jobs pending 5 minutes
// against srv.Client() with default settings inside a synctest bubble.
func rangeUnderSynctest(t *testing.T) fakeTimeRange {
	var out fakeTimeRange
	synctest.Test(t, func(t *testing.T) {
		srv := mockserver.New(mockserver.WithoutListener(), mockserver.WithPendingDuration(5*time.Minute))
		defer srv.Close()
		var mu sync.Mutex
		byPath := map[string]int{}
		count := func(next http.RoundTripper) http.RoundTripper {
			return roundTrip(func(r *http.Request) (*http.Response, error) {
				mu.Lock()
				byPath[r.URL.Path]++
				mu.Unlock()
				return next.RoundTrip(r)
			})
		}
		client := srv.Client(newssearch.WithMiddleware(count))
		now := time.Now()
		got, err := client.SearchRange(t.Context(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
			Query: "election", StartDate: now.AddDate(0, 0, -90), EndDate: now}})
		if err != nil {
			t.Fatal(err)
		}
		out = fakeTimeRange{requests: byPath, articles: len(got), waited: time.Since(now)}
		for _, n := range byPath {
			out.total += n
		}
	})
	return out
}

// fakeTimeOut names a file TestFakeTimeIsCheap writes its figures to, as
// JSON, for BenchmarkFakeTimeRange.
const fakeTimeOut = "NEWSSEARCH_FAKETIME_OUT"

// TestFakeTimeIsCheap: under testing/synctest, a 90-day SearchRange whose
// jobs are pending 5 minutes costs a few requests per window, not one per
// 20 ms poll delay of the mock's client (195,052 before the mock told its
// client when a job is ready, and the SDK listened).
func TestFakeTimeIsCheap(t *testing.T) {
	start := time.Now()
	r := rangeUnderSynctest(t)
	wall := time.Since(start)
	t.Logf("%d requests (%v), %d articles, %v on the bubble's clock, %v wall", r.total, r.requests, r.articles, r.waited, wall)
	if r.total > 300 {
		t.Errorf("%d requests (%v), want at most 300", r.total, r.requests)
	}
	if r.articles == 0 {
		t.Error("no articles")
	}
	if r.waited < 5*time.Minute {
		t.Errorf("the range took %v on the bubble's clock, less than the 5 minutes its jobs are pending", r.waited)
	}
	if path := os.Getenv(fakeTimeOut); path != "" {
		b, _ := json.Marshal(map[string]int64{"requests": int64(r.total), "wall_ns": int64(wall)})
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkFakeTimeRange measures the requests and wall time of
// TestFakeTimeIsCheap's range (BENCHMARKS.md row 14). synctest.Test needs
// a *testing.T, so each iteration runs that test in a child process of
// this test binary and reads its figures; range-ms/op is the range alone,
// without the child's start-up. Run it with -benchtime=1x or a few x:
//
//	go test -run '^$' -bench BenchmarkFakeTimeRange -benchtime 3x .
func BenchmarkFakeTimeRange(b *testing.B) {
	out := filepath.Join(b.TempDir(), "figures.json")
	var requests, wall int64
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFakeTimeIsCheap$", "-test.count=1")
		cmd.Env = append(os.Environ(), fakeTimeOut+"="+out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, msg)
		}
		raw, err := os.ReadFile(out)
		if err != nil {
			b.Fatal(err)
		}
		var f map[string]int64
		if err := json.Unmarshal(raw, &f); err != nil {
			b.Fatal(err)
		}
		requests += f["requests"]
		wall += f["wall_ns"]
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
	b.ReportMetric(float64(wall)/float64(b.N)/1e6, "range-ms/op")
}
