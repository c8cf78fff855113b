package newssearch

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

// march2025 is the first publication time of the test articles.
var march2025 = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)

// collect drains an article iterator; it stops at the first error.
func collect(seq iter.Seq2[Article, error]) ([]Article, error) {
	var out []Article
	for a, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, a)
	}
	return out, nil
}

// pageNumbers drains the article iterator run makes with page options of
// the given prefetch, returning the page numbers PageOptions.OnPage saw
// and the articles.
func pageNumbers(run func(*PageOptions) iter.Seq2[Article, error], prefetch int) ([]int, []Article, error) {
	var numbers []int
	o := &PageOptions{Prefetch: prefetch, OnPage: func(p *Page) { numbers = append(numbers, p.Number) }}
	articles, err := collect(run(o))
	return numbers, articles, err
}

// allPages returns every page of the fake's answer to q, concatenated.
func allPages(f *fakeService, q fakeQuery) []Article {
	var out []Article
	for n := 1; ; n++ {
		_, page := f.page(q, n)
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
	}
}

func TestSearchAll(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(60, march2025, time.Hour))
	c := serve(t, f)
	got, err := collect(c.SearchAll(t.Context(), SearchParams{Query: "cars"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(allPages(f, fakeQuery{}), got); diff != "" {
		t.Errorf("SearchAll (-want +got):\n%s", diff)
	}
	// Three pages cover the 60 results: no request for an empty fourth.
	if diff := cmp.Diff([]string{"query  1", "query  2", "query  3"}, f.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestSearchAllShowsPages: SearchAll starts at params.Page, and OnPage
// shows each page, on the loop's goroutine, before its articles.
func TestSearchAllShowsPages(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(60, march2025, time.Hour))
	c := serve(t, f)
	var got []string
	onPage := func(p *Page) {
		got = append(got, fmt.Sprintf("page %d of %d: %d articles, total %d, job %q", p.Number, p.TotalPages(), len(p.Articles), p.TotalResults, p.QueryID))
	}
	n := 0
	for _, err := range c.SearchAll(t.Context(), SearchParams{Query: "cars", Page: 2}, &PageOptions{Prefetch: 2, OnPage: onPage}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 1 || n == 26 {
			got = append(got, fmt.Sprintf("article %d", n))
		}
	}
	want := []string{`page 2 of 3: 25 articles, total 60, job ""`, "article 1", `page 3 of 3: 10 articles, total 60, job ""`, "article 26"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages and articles, in order (-want +got):\n%s", diff)
	}
}

func TestSearchAllEmpty(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	c := serve(t, f)
	for a, err := range c.SearchAll(t.Context(), SearchParams{Query: "cars"}, &PageOptions{Prefetch: DefaultPrefetch}) {
		t.Errorf("yielded %v, %v for an empty result", a, err)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestSearchAllWithoutTotal(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(60, march2025, time.Hour))
	f.noTotal = true
	c := serve(t, f)
	job := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	got, err := collect(c.Results(t.Context(), job, &PageOptions{Prefetch: 4}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(allPages(f, fakeQuery{}), got); diff != "" {
		t.Errorf("Results without a total (-want +got):\n%s", diff)
	}
	// Without a total, a short page ends the walk and nothing is prefetched.
	if diff := cmp.Diff([]string{"query-async  1", "get-results q1 1", "get-results q1 2", "get-results q1 3"}, f.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestResultsPollsFirst(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(70, march2025, time.Hour))
	f.pendingPolls = 2
	c := serve(t, f)
	job := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	numbers, got, err := pageNumbers(func(o *PageOptions) iter.Seq2[Article, error] { return c.Results(t.Context(), job, o, fastPoll) }, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(allPages(f, fakeQuery{}), got); diff != "" {
		t.Errorf("Results articles (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 2, 3}, numbers); diff != "" {
		t.Errorf("page numbers (-want +got):\n%s", diff)
	}
	want := []string{"query-async  1", "get-results q1 1", "get-results q1 1", "get-results q1 1", "get-results q1 2", "get-results q1 3"}
	if diff := cmp.Diff(want, f.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	// A poll's error ends the iteration.
	for a, err := range c.Results(t.Context(), "unknown", nil) {
		if !errors.Is(err, ErrNotFound) || a.ID != "" {
			t.Errorf("Results(unknown) yielded %v, %v; want ErrNotFound", a, err)
		}
	}
}

// countingTransport counts the requests the client starts, and those
// still in progress.
type countingTransport struct {
	base   http.RoundTripper
	n      atomic.Int64
	active atomic.Int64
}

// RoundTrip counts r and passes it on.
func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	t.active.Add(1)
	defer t.active.Add(-1)
	return t.base.RoundTrip(r)
}

// TestIteratorBreakEarly leaves the loop on page 2 and counts the requests
// the client started. It is not parallel, for goleak.
func TestIteratorBreakEarly(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f := newFake(testArticles(500, march2025, time.Hour))
	// Prefetched pages past the second stay in flight until cancelled.
	f.hold = func(_ string, page int) bool { return page > 2 }
	srv := httptest.NewServer(f)
	defer srv.Close()
	counter := &countingTransport{base: srv.Client().Transport}
	c := newTestClient(t, srv.URL, &http.Client{Transport: counter})
	job := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	for _, tc := range []struct {
		name     string
		seq      func(*PageOptions) iter.Seq2[Article, error]
		prefetch int
	}{
		{"SearchAll", func(o *PageOptions) iter.Seq2[Article, error] {
			return c.SearchAll(t.Context(), SearchParams{Query: "cars"}, o)
		}, 0},
		{"Results", func(o *PageOptions) iter.Seq2[Article, error] { return c.Results(t.Context(), job, o) }, 0},
		{"SearchAll prefetch", func(o *PageOptions) iter.Seq2[Article, error] {
			return c.SearchAll(t.Context(), SearchParams{Query: "cars"}, o)
		}, 6},
		{"Results prefetch", func(o *PageOptions) iter.Seq2[Article, error] { return c.Results(t.Context(), job, o) }, 6},
	} {
		before := counter.n.Load()
		seen, atBreak := 0, int64(0)
		for _, err := range tc.seq(&PageOptions{Prefetch: tc.prefetch}) {
			if err != nil {
				t.Fatal(err)
			}
			if seen++; seen == 30 { // on page 2
				atBreak = counter.n.Load() - before
				break
			}
		}
		after := counter.n.Load() - before
		switch {
		case tc.prefetch == 0 && (atBreak != 2 || after != 2):
			t.Errorf("%s: %d requests at the break, %d after it; want 2 and 2", tc.name, atBreak, after)
		case after > int64(2+tc.prefetch):
			// Prefetching asks for pages ahead, at most prefetch of them.
			t.Errorf("%s: %d requests after the break, want at most %d", tc.name, after, 2+tc.prefetch)
		}
		// Leaving the loop cancelled the prefetches and waited for them.
		if active := counter.active.Load(); active != 0 {
			t.Errorf("%s: %d requests still in flight after the loop returned", tc.name, active)
		}
	}
}

// TestPrefetchMatchesSequential drains 40 pages with and without
// prefetching from a service whose answers arrive out of order.
func TestPrefetchMatchesSequential(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(1000, march2025, time.Minute))
	f.latency = func(_ string, page int) time.Duration { return time.Duration(page*7%5) * time.Millisecond }
	c := serve(t, f)
	job := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	type run struct {
		numbers  []int
		articles []Article
	}
	for _, name := range []string{"SearchAll", "Results"} {
		articles := func(o *PageOptions) iter.Seq2[Article, error] {
			if name == "SearchAll" {
				return c.SearchAll(t.Context(), SearchParams{Query: "cars"}, o)
			}
			return c.Results(t.Context(), job, o)
		}
		drain := func(prefetch int) run {
			numbers, articles, err := pageNumbers(articles, prefetch)
			if err != nil {
				t.Fatal(err)
			}
			return run{numbers, articles}
		}
		sequential := drain(0)
		if len(sequential.numbers) != 40 || len(sequential.articles) != 1000 {
			t.Fatalf("%s: %d pages, %d articles; want 40 and 1000", name, len(sequential.numbers), len(sequential.articles))
		}
		for _, prefetch := range []int{1, DefaultPrefetch, maxPrefetch} {
			got := drain(prefetch)
			if diff := cmp.Diff(sequential, got, cmp.AllowUnexported(run{})); diff != "" {
				t.Errorf("%s with prefetch %d (-sequential +prefetched):\n%s", name, prefetch, diff)
			}
		}
	}
}

// TestPrefetchSpeedSimulated drains a finished job of 100 pages whose
// answers each take 20 ms, on a fake clock: DefaultPrefetch must take at
// most 0.4 times as long as fetching one page at a time.
func TestPrefetchSpeedSimulated(t *testing.T) {
	t.Parallel()
	drain := func(prefetch int) time.Duration {
		var took time.Duration
		synctest.Test(t, func(t *testing.T) {
			f := newFake(testArticles(2500, march2025, time.Minute))
			f.latency = func(string, int) time.Duration { return 20 * time.Millisecond }
			c := inProcess(t, f)
			job := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
			start := time.Now()
			got, err := collect(c.Results(t.Context(), job, &PageOptions{Prefetch: prefetch}))
			if err != nil || len(got) != 2500 {
				t.Fatalf("drained %d articles, error %v; want 2500", len(got), err)
			}
			took = time.Since(start)
		})
		return took
	}
	sequential, prefetched := drain(0), drain(DefaultPrefetch)
	t.Logf("100 pages of 20 ms: %v one at a time, %v with prefetch %d (%.2fx)", sequential, prefetched, DefaultPrefetch,
		float64(prefetched)/float64(sequential))
	if float64(prefetched) > 0.4*float64(sequential) {
		t.Errorf("prefetch %d took %v, more than 0.4 x %v", DefaultPrefetch, prefetched, sequential)
	}
}

func TestSearchAllCopiesParams(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(60, march2025, time.Hour))
	c := serve(t, f)
	params := SearchParams{Query: "cars", Sites: []string{"bbc.co.uk", "example.com"}}
	want := SearchParams{Query: "cars", Sites: []string{"bbc.co.uk", "example.com"}}
	if _, err := collect(c.SearchAll(t.Context(), params, &PageOptions{Prefetch: 2})); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, params); diff != "" {
		t.Errorf("params after the walk (-want +got):\n%s", diff)
	}
	f.sitesSent()
	// The caller may reuse its slice during the loop: the walk has a copy.
	for _, err := range c.SearchAll(t.Context(), params, &PageOptions{OnPage: func(*Page) { params.Sites[0] = "changed.example" }}) {
		if err != nil {
			t.Fatal(err)
		}
		params.Sites[0] = "changed.example"
	}
	if diff := cmp.Diff([]string{"1 [bbc.co.uk example.com]", "2 [bbc.co.uk example.com]", "3 [bbc.co.uk example.com]"}, f.sitesSent()); diff != "" {
		t.Errorf("pages and sites sent (-want +got):\n%s", diff)
	}
}

func TestRepeatingPages(t *testing.T) {
	t.Parallel()
	const sameStart = "newssearch: inconsistent pages: page 2 starts with the same article (00000000000000000000001c) as page 1: the service seems to ignore the page number; stopping instead of looping; report this to the service"
	for _, tc := range []struct {
		name        string
		async       bool
		prefetch    int
		totalFor    func(int) int
		want        string
		minRequests int // requests to the page endpoint
		maxRequests int
	}{
		{"sync ignores page", false, 0, nil, sameStart, 2, 2},
		{"sync ignores page, prefetch", false, 4, nil, sameStart, 2, 5},
		{"async echoes page 1", true, 0, nil,
			"newssearch: inconsistent pages: asked for page 2, the service answered page 1: it may ignore the page number; report this to the service", 2, 2},
		{"total grows with every page", false, 0, func(n int) int { return n*PageSize + 1 },
			"newssearch: inconsistent pages: stopping after page 4: the total grew to 101 articles, past twice the first page's (or there is none); report this to the service", 4, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(testArticles(500, march2025, time.Hour))
			f.ignorePage = tc.totalFor == nil
			f.totalFor = tc.totalFor
			c := serve(t, f)
			seq := c.SearchAll(t.Context(), SearchParams{Query: "cars"}, &PageOptions{Prefetch: tc.prefetch})
			path := pathQuery
			if tc.async {
				seq = c.Results(t.Context(), submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}}), nil)
				path = pathGetResults
			}
			var errs []error
			for _, err := range seq {
				if err != nil {
					errs = append(errs, err)
				}
			}
			if len(errs) != 1 || !errors.Is(errs[0], ErrInconsistentPages) {
				t.Fatalf("errors = %v, want one ErrInconsistentPages", errs)
			}
			if diff := cmp.Diff(tc.want, errs[0].Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if n := f.count(path); n < tc.minRequests || n > tc.maxRequests {
				t.Errorf("requests = %d, want %d to %d", n, tc.minRequests, tc.maxRequests)
			}
		})
	}
}

func TestPageErrorYieldedOnce(t *testing.T) {
	t.Parallel()
	for _, prefetch := range []int{0, 3} {
		f := newFake(testArticles(100, march2025, time.Hour))
		f.status, f.statusPage = map[string]int{pathQuery: http.StatusBadGateway}, 2
		c := serve(t, f)
		var got []string
		for a, err := range c.SearchAll(t.Context(), SearchParams{Query: "cars"}, &PageOptions{Prefetch: prefetch}) {
			if err != nil {
				got = append(got, err.Error())
				continue
			}
			if a.ID == "" {
				t.Errorf("yielded an empty article without an error")
			}
		}
		want := []string{"newssearch: POST /api/v2/query: 502 Bad Gateway: forced failure (request id req-1)"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("prefetch %d: errors (-want +got):\n%s", prefetch, diff)
		}
	}
}

func TestPageIteratorValidation(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	c := serve(t, f)
	for _, tc := range []struct {
		seq  iter.Seq2[Article, error]
		want string
	}{
		{c.SearchAll(t.Context(), SearchParams{Query: "cars"}, &PageOptions{Prefetch: -1}),
			"newssearch: invalid PageOptions.Prefetch: -1 is outside 0..32: pass 0 to fetch one page at a time, or e.g. newssearch.DefaultPrefetch"},
		{c.Results(t.Context(), "q1", &PageOptions{Prefetch: 33}),
			"newssearch: invalid PageOptions.Prefetch: 33 is outside 0..32: pass 0 to fetch one page at a time, or e.g. newssearch.DefaultPrefetch"},
		{c.SearchAll(t.Context(), SearchParams{Query: "cars", Page: -2}, nil),
			"newssearch: invalid SearchParams.Page: page -2 is negative: pages start at 1; pass 0 or 1 for the first page"},
		{c.Results(t.Context(), "q1", &PollOptions{Jitter: 2}),
			"newssearch: invalid PollOptions.Jitter: 2 is not a fraction below 1: pass e.g. 0.2 for ±20%, 0 for the default, or a negative value for no jitter"},
		{c.Results(t.Context(), "", nil),
			"newssearch: invalid queryID: the query ID is empty: pass the QueryID of the job SubmitQuery returned"},
		{(*Client)(nil).SearchAll(t.Context(), SearchParams{}, nil), errNoClient.Error()},
		{(*Client)(nil).Results(t.Context(), "q1", nil), errNoClient.Error()},
		//lint:ignore SA1012 checking the nil-context guard
		{c.Results(nil, "q1", nil), "newssearch: Results: nil context: pass context.Background() or a request context"},
	} {
		var got []string
		for _, err := range tc.seq {
			got = append(got, fmt.Sprint(err))
		}
		if diff := cmp.Diff([]string{tc.want}, got); diff != "" {
			t.Errorf("yielded errors (-want +got):\n%s", diff)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

// TestPagesCancelled checks that a cancelled context ends a prefetching
// walk with the context's error and leaves no goroutine behind.
func TestPagesCancelled(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f := newFake(testArticles(500, march2025, time.Hour))
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := newTestClient(t, srv.URL, srv.Client())
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var errs []error
	articles := 0
	for _, err := range c.SearchAll(ctx, SearchParams{Query: "cars"}, &PageOptions{Prefetch: DefaultPrefetch}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if articles++; articles == PageSize {
			cancel()
		}
	}
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Errorf("errors = %v, want one context.Canceled", errs)
	}
	if articles < PageSize || articles%PageSize != 0 {
		t.Errorf("yielded %d articles, want whole pages", articles)
	}
}

func TestPagesFor(t *testing.T) {
	t.Parallel()
	got := []int{pagesFor(-1), pagesFor(0), pagesFor(1), pagesFor(25), pagesFor(26), pagesFor(2500)}
	if diff := cmp.Diff([]int{0, 0, 1, 1, 2, 100}, got); diff != "" {
		t.Errorf("pagesFor (-want +got):\n%s", diff)
	}
}

func TestResultsLaterPagePending(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(60, march2025, time.Hour))
	f.pendingPage = 2
	c := serve(t, f)
	job := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	got, err := collect(c.Results(t.Context(), job, nil))
	want := `newssearch: inconsistent pages: page 2 of query job "q1" is in state "PENDING" although page 1 was ready: fetch the results again later`
	if err == nil || err.Error() != want || !errors.Is(err, ErrInconsistentPages) || len(got) != PageSize {
		t.Errorf("Results = %d articles, %v; want %d and %q", len(got), err, PageSize, want)
	}
}

// BenchmarkResultsDrain drains a finished job of 2,500 results (100 pages)
// from a local server that takes 2 ms per answer, one page at a time and
// with DefaultPrefetch.
func BenchmarkResultsDrain(b *testing.B) {
	f := newFake(testArticles(2500, march2025, time.Minute))
	f.latency = func(string, int) time.Duration { return 2 * time.Millisecond }
	c := serve(b, f)
	job := submit(b, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}})
	for _, prefetch := range []int{0, DefaultPrefetch} {
		b.Run(fmt.Sprintf("prefetch=%d", prefetch), func(b *testing.B) {
			for b.Loop() {
				n := 0
				for _, err := range c.Results(b.Context(), job, &PageOptions{Prefetch: prefetch}) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != 2500 {
					b.Fatalf("drained %d articles, want 2500", n)
				}
			}
		})
	}
}
