package newssearch

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

// rangeStart and rangeEnd bound a 90-day range: 13 windows of 7 days.
var (
	rangeStart = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	rangeEnd   = rangeStart.Add(90 * 24 * time.Hour)
)

// rangeArticles returns articles every 5 hours from a day before the range
// to a day after it, plus one on every window boundary.
func rangeArticles() []Article {
	articles := testArticles(24*92/5, rangeStart.Add(-24*time.Hour), 5*time.Hour)
	for k := 0; k <= 13; k++ {
		at := rangeStart.Add(time.Duration(k) * defaultRangeWindow)
		if at.After(rangeEnd) {
			at = rangeEnd
		}
		a := testArticles(1, at, 0)[0]
		a.ID = fmt.Sprintf("b%023x", k)
		a.URL = fmt.Sprintf("https://example.com/boundary/%d", k)
		articles = append(articles, a)
	}
	return articles
}

// rangeParams searches the 90-day range.
func rangeParams(order SortOrder) AsyncSearchParams {
	return AsyncSearchParams{SearchParams: SearchParams{Query: "cars", StartDate: rangeStart, EndDate: rangeEnd}, SortOrder: order}
}

// oneQuery drains a single job over the whole range.
func oneQuery(t *testing.T, c *Client, params AsyncSearchParams) []Article {
	t.Helper()
	got, err := collect(c.Results(t.Context(), submit(t, c, params), fastPoll))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestSearchRangeMatchesOneQuery(t *testing.T) {
	t.Parallel()
	for _, order := range []SortOrder{"", SortDatePublished} {
		t.Run(stringOr(string(order), "relevance"), func(t *testing.T) {
			t.Parallel()
			f := newFake(rangeArticles())
			f.pendingPolls = 1
			c := serve(t, f)
			want := oneQuery(t, c, rangeParams(order))
			got, err := c.SearchRange(t.Context(), rangeParams(order), fastPoll, &PageOptions{Prefetch: 2})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("SearchRange versus one query (-want +got):\n%s", diff)
			}
			// The boundary articles are held by two windows each, but come
			// back once; the ones outside the range not at all.
			ids := map[string]int{}
			for _, a := range got {
				ids[a.ID]++
				if a.DatePublished.Time.Before(rangeStart) || a.DatePublished.Time.After(rangeEnd) {
					t.Errorf("article %s of %v is outside the range", a.ID, a.DatePublished.Time)
				}
			}
			for id, n := range ids {
				if n != 1 {
					t.Errorf("article %s came back %d times", id, n)
				}
			}
			if ids[fmt.Sprintf("b%023x", 13)] != 1 || len(got) != 24*90/5+14 {
				t.Errorf("got %d articles, want %d with every boundary article", len(got), 24*90/5+14)
			}
			if n := f.count(pathQueryAsync); n != 1+13 {
				t.Errorf("jobs submitted = %d, want 1 + 13 windows", n)
			}
		})
	}
}

func TestSplitRange(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	windows, err := splitRange(rangeStart, rangeEnd, defaultRangeWindow)
	if err != nil {
		t.Fatal(err)
	}
	if len(windows) != 13 || windows[0] != (window{rangeStart, rangeStart.Add(7 * day)}) ||
		windows[1].start != windows[0].end || windows[12] != (window{rangeStart.Add(84 * day), rangeEnd}) {
		t.Errorf("90 days: %d windows %v; want 13 sharing their boundaries, the last of 6 days", len(windows), windows)
	}
	for _, tc := range []struct {
		span time.Duration
		want int
	}{{0, 1}, {time.Millisecond, 1}, {7 * day, 1}, {7*day + 999*time.Millisecond, 1}, {7*day + time.Second, 2}, {14 * day, 2}} {
		w, err := splitRange(rangeStart, rangeStart.Add(tc.span), defaultRangeWindow)
		if err != nil || len(w) != tc.want {
			t.Errorf("span %v: %d windows, %v; want %d", tc.span, len(w), err, tc.want)
		}
	}
	_, err = splitRange(rangeStart, rangeEnd, time.Minute)
	want := "newssearch: invalid RangeOptions.Window: a window of 1m0s cuts the range into more than 10000 windows: pass a larger window"
	if err == nil || err.Error() != want {
		t.Errorf("tiny window: error %v, want %q", err, want)
	}
}

// failWindows makes the jobs of the windows starting at these offsets from
// rangeStart fail.
func failWindows(offsets ...time.Duration) func(fakeQuery) string {
	return func(q fakeQuery) string {
		for _, o := range offsets {
			if q.StartDate == rangeStart.Add(o).Format(requestDateLayout) {
				return "index shard unavailable: retry the query"
			}
		}
		return ""
	}
}

// ownedBy keeps the articles of all that the windows starting at these
// offsets from rangeStart do not own: an article belongs to the window it
// was published in, and one on a boundary to the newer window.
func ownedBy(all []Article, offsets ...time.Duration) []Article {
	var out []Article
	for _, a := range all {
		mine := false
		for _, o := range offsets {
			d := a.DatePublished.Time
			mine = mine || !d.Before(rangeStart.Add(o)) && d.Before(rangeStart.Add(o+defaultRangeWindow))
		}
		if !mine {
			out = append(out, a)
		}
	}
	return out
}

// TestSearchRangeWindowFails: a failed window does not stop the others;
// SearchRange returns their articles with a *RangeError naming it, whose
// Finished windows resume the range. Not parallel, for goleak.
func TestSearchRangeWindowFails(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	day := 24 * time.Hour
	f := newFake(rangeArticles())
	f.failJob = failWindows(14 * day)
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := newTestClient(t, srv.URL, srv.Client())
	got, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll, &RangeOptions{Concurrency: 3})
	var re *RangeError
	if !errors.As(err, &re) || !errors.Is(err, ErrJobFailed) {
		t.Fatalf("error = %v, want a *RangeError wrapping a *JobFailedError", err)
	}
	third := RangeWindow{rangeStart.Add(14 * day), rangeStart.Add(21 * day)}
	if diff := cmp.Diff([]RangeWindow{third}, re.Missing); diff != "" {
		t.Errorf("missing windows (-want +got):\n%s", diff)
	}
	var failed *JobFailedError
	if !errors.As(err, &failed) {
		t.Fatalf("error = %v, want a *JobFailedError inside", err)
	}
	want := `newssearch: 1 of 13 windows missing (pass RangeError.Finished as RangeOptions.Done to search only those): window 2025-01-15T00:00:00.000Z to 2025-01-22T00:00:00.000Z: query job "` + failed.QueryID +
		`" ended in state "FAILED": index shard unavailable: retry the query: waiting cannot help; check the query and submit it again`
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	// The other windows' articles come back, never nothing.
	whole := oneQuery(t, c, rangeParams(""))
	if diff := cmp.Diff(ownedBy(whole, 14*day), got); diff != "" {
		t.Errorf("articles of the other windows (-want +got):\n%s", diff)
	}
	if len(re.Finished) != 12 || re.Windows != 13 {
		t.Errorf("%d of %d windows finished, want 12 of 13", len(re.Finished), re.Windows)
	}
	// Resumed once the service recovers: one more job, the whole range.
	f.mu.Lock()
	f.failJob = nil
	f.mu.Unlock()
	before := f.count(pathQueryAsync)
	all, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll, &RangeOptions{Done: re.Finished})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole, all); diff != "" {
		t.Errorf("resumed range versus one query (-want +got):\n%s", diff)
	}
	if n := f.count(pathQueryAsync) - before; n != 1 {
		t.Errorf("the resumed range submitted %d jobs, want 1 (the missing window)", n)
	}
}

// TestSearchRangePageFails: a page that fails in every window fails every
// window; the error names them all, the earliest first, and every window
// was tried (a failed window does not stop the others).
func TestSearchRangePageFails(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	f.status, f.statusPage = map[string]int{pathGetResults: 500}, 2
	c := serve(t, f)
	got, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll, &RangeOptions{Concurrency: 1})
	var re *RangeError
	if len(got) != 0 || !errors.As(err, &re) || !errors.Is(err, ErrServer) || len(re.Missing) != 13 || len(re.Finished) != 0 {
		t.Fatalf("SearchRange = %d articles, %v; want every window's page 2 to fail with ErrServer", len(got), err)
	}
	want := "newssearch: 13 of 13 windows missing (pass RangeError.Finished as RangeOptions.Done to search only those): window 2025-01-01T00:00:00.000Z to 2025-01-08T00:00:00.000Z: POST /api/v2/get-results: 500 Internal Server Error: forced failure (request id req-"
	if !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), "; window ") != 12 {
		t.Errorf("error = %q, want it to start %q and name 13 windows", err, want)
	}
	if n := f.count(pathQueryAsync); n != 13 {
		t.Errorf("jobs submitted = %d, want 13: every window is tried", n)
	}
}

func TestSearchRangePartial(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	f := newFake(rangeArticles())
	f.failJob = failWindows(35*day, 7*day)
	c := serve(t, f)
	var progress []RangeProgress
	opts := &RangeOptions{Concurrency: 1, OnProgress: func(p RangeProgress) { progress = append(progress, p) }}
	got, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll, opts)
	var re *RangeError
	if !errors.As(err, &re) || len(re.Missing) != 2 || re.Windows != 13 || !errors.Is(err, ErrJobFailed) {
		t.Fatalf("error = %v, want a *RangeError for 2 of 13 windows", err)
	}
	wantMsg := regexp.MustCompile(`^newssearch: 2 of 13 windows missing \(pass RangeError.Finished as RangeOptions.Done to search only those\): ` +
		`window 2025-01-08T00:00:00.000Z to 2025-01-15T00:00:00.000Z: query job "q\d+" ended in state "FAILED": index shard unavailable: retry the query: waiting cannot help; check the query and submit it again; ` +
		`window 2025-02-05T00:00:00.000Z to 2025-02-12T00:00:00.000Z: query job "q\d+" ended in state "FAILED": index shard unavailable: retry the query: waiting cannot help; check the query and submit it again$`)
	if !wantMsg.MatchString(err.Error()) {
		t.Errorf("error = %q, want it to match %s", err, wantMsg)
	}
	// The articles are those of the other windows: the failed windows'
	// own articles are missing, including the one on each failed window's
	// start, which it owns; the one on its end belongs to the newer window.
	if diff := cmp.Diff(ownedBy(oneQuery(t, c, rangeParams("")), 7*day, 35*day), got); diff != "" {
		t.Errorf("partial articles (-want +got):\n%s", diff)
	}
	last := progress[len(progress)-1]
	if len(progress) != 13 || last != (RangeProgress{WindowsDone: 13, WindowsFailed: 2, WindowsTotal: 13, Articles: len(got), Concurrency: 1}) {
		t.Errorf("progress: %d reports ending with %+v", len(progress), last)
	}
}

// TestSearchRangeCancel cancels the call after the first window: it
// returns that window's articles and a *RangeError naming the others.
// It is not parallel, for goleak.
func TestSearchRangeCancel(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f := newFake(rangeArticles())
	f.pendingPolls = 3
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := newTestClient(t, srv.URL, srv.Client())
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	got, err := c.SearchRange(ctx, rangeParams(""), fastPoll, &RangeOptions{Concurrency: 2,
		OnProgress: func(RangeProgress) { cancel() }})
	var re *RangeError
	if !errors.As(err, &re) || !errors.Is(err, context.Canceled) || len(re.Finished) != 1 || len(re.Missing) != 12 {
		t.Fatalf("SearchRange = %d articles, %v; want a *RangeError wrapping context.Canceled, 1 window finished", len(got), err)
	}
	if diff := cmp.Diff(re.Finished[0].Articles, got); diff != "" {
		t.Errorf("articles returned versus the finished window's (-want +got):\n%s", diff)
	}
	if want := "newssearch: 12 of 13 windows missing (pass RangeError.Finished as RangeOptions.Done to search only those): range stopped: context canceled"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestSearchRangeProgress(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	c := serve(t, f)
	var mu sync.Mutex
	inside := false
	var reports []RangeProgress
	got, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll, &RangeOptions{OnProgress: func(p RangeProgress) {
		mu.Lock()
		overlap := inside
		inside = true
		mu.Unlock()
		if overlap {
			t.Error("OnProgress calls overlap")
		}
		reports = append(reports, p)
		mu.Lock()
		inside = false
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range reports {
		if p.WindowsDone != i+1 || p.WindowsTotal != 13 || p.WindowsFailed != 0 || (i > 0 && p.Articles < reports[i-1].Articles) {
			t.Errorf("report %d = %+v", i, p)
		}
	}
	if len(reports) != 13 || reports[12].Articles != len(got) {
		t.Errorf("%d reports, the last %+v; want 13 ending with %d articles", len(reports), reports[len(reports)-1], len(got))
	}
}

func TestSearchRangeValidation(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	c := serve(t, f)
	p := rangeParams("")
	noEnd := p
	noEnd.EndDate = time.Time{}
	paged := p
	paged.Page = 2
	backwards := p
	backwards.StartDate, backwards.EndDate = p.EndDate, p.StartDate
	for _, tc := range []struct {
		params AsyncSearchParams
		opts   RangeOption
		want   string
	}{
		{noEnd, nil, "newssearch: invalid AsyncSearchParams.StartDate: SearchRange needs both StartDate and EndDate: set both bounds of the range"},
		{paged, nil, "newssearch: invalid AsyncSearchParams.Page: SearchRange pages every window itself: leave Page at 0"},
		{backwards, nil, "newssearch: invalid AsyncSearchParams.EndDate: EndDate 2025-01-01T00:00:00.000Z is before StartDate 2025-04-01T00:00:00.000Z: pass an EndDate at or after StartDate"},
		{p, &RangeOptions{Window: -time.Hour}, "newssearch: invalid RangeOptions.Window: -1h0m0s is not a window: pass a span of at least 1s, e.g. 24*time.Hour, or 0 for the default of 7 days"},
		{p, &RangeOptions{Concurrency: -1}, "newssearch: invalid RangeOptions.Concurrency: -1 is negative: pass the number of windows to search at once, or 0 for the default 8"},
		{p, &PageOptions{Prefetch: 99}, "newssearch: invalid PageOptions.Prefetch: 99 is outside 0..32: pass 0 to fetch one page at a time, or e.g. newssearch.DefaultPrefetch"},
		{p, &PollOptions{MaxWait: -1}, "newssearch: invalid PollOptions.MaxWait: -1ns is negative: pass a positive limit, or 0 for the default 10m0s"},
	} {
		got, err := c.SearchRange(t.Context(), tc.params, tc.opts)
		if got != nil || err == nil || err.Error() != tc.want || !errors.Is(err, ErrBadRequest) {
			t.Errorf("SearchRange(%+v) = %v, %v; want %q", tc.opts, got, err, tc.want)
		}
	}
	//lint:ignore SA1012 checking the nil-context guard
	if _, err := c.SearchRange(nil, p, nil); err == nil || err.Error() != "newssearch: SearchRange: nil context: pass context.Background() or a request context" {
		t.Errorf("SearchRange(nil ctx) error = %v", err)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestSearchRangeCopiesParams(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	c := serve(t, f)
	params := rangeParams(SortDatePublished)
	params.Sites = []string{"example.com"}
	want := rangeParams(SortDatePublished)
	want.Sites = []string{"example.com"}
	if _, err := c.SearchRange(t.Context(), params, fastPoll, &RangeOptions{Window: 30 * 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, params); diff != "" {
		t.Errorf("params after SearchRange (-want +got):\n%s", diff)
	}
	jobs := 0
	for _, s := range f.sitesSent() {
		if s == "1 [example.com]" {
			jobs++
		}
	}
	if jobs != 3 {
		t.Errorf("%d requests carried the sites, want the 3 submissions", jobs)
	}
}

func TestCompareArticles(t *testing.T) {
	t.Parallel()
	at := func(s string) Timestamp {
		ts, _ := ParseTimestamp(s)
		return ts
	}
	a := Article{ID: "a", Score: 2, DatePublished: at("2025-01-02")}
	b := Article{ID: "b", Score: 2, DatePublished: at("2025-01-03")}
	c := Article{ID: "c", Score: 5}
	u1 := Article{URL: "https://x/1", Score: 1, DatePublished: at("2025-01-03")}
	anon := Article{Title: "no id, no url"}
	sorted := func(byDate bool) []Article {
		out := []Article{b, anon, a, u1, c}
		slices.SortStableFunc(out, func(x, y Article) int { return compareArticles(&x, &y, byDate) })
		return out
	}
	if diff := cmp.Diff([]Article{c, a, b, u1, anon}, sorted(false)); diff != "" {
		t.Errorf("by relevance (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Article{u1, b, a, anon, c}, sorted(true)); diff != "" {
		t.Errorf("by date (-want +got):\n%s", diff)
	}
}

// TestSearchRangeSpeedSimulated searches 90 days whose jobs are pending
// 200 ms each, on a fake clock: the default concurrency must take at most
// 0.35 times as long as one window at a time.
func TestSearchRangeSpeedSimulated(t *testing.T) {
	t.Parallel()
	run := func(concurrency int) (time.Duration, int) {
		var took time.Duration
		var n int
		synctest.Test(t, func(t *testing.T) {
			f := newFake(rangeArticles())
			f.readyAfter = 200 * time.Millisecond
			f.latency = func(string, int) time.Duration { return 2 * time.Millisecond }
			c := inProcess(t, f)
			start := time.Now()
			got, err := c.SearchRange(t.Context(), rangeParams(""), &RangeOptions{Concurrency: concurrency})
			if err != nil {
				t.Fatal(err)
			}
			took, n = time.Since(start), len(got)
		})
		return took, n
	}
	sequential, n1 := run(1)
	concurrent, n2 := run(0)
	t.Logf("90 days, jobs pending 200 ms: %v one window at a time, %v with %d at once (%.2fx)",
		sequential, concurrent, defaultRangeConcurrency, float64(concurrent)/float64(sequential))
	if n1 != n2 || n1 != 24*90/5+14 {
		t.Errorf("articles: %d sequential, %d concurrent; want %d", n1, n2, 24*90/5+14)
	}
	if float64(concurrent) > 0.35*float64(sequential) {
		t.Errorf("concurrent windows took %v, more than 0.35 x %v", concurrent, sequential)
	}
}

// BenchmarkSearchRange searches 90 days (13 windows) whose jobs are pending
// 200 ms each on a local server, one window at a time and with the default
// concurrency. Run it with -benchtime=1x: one sequential pass takes seconds.
func BenchmarkSearchRange(b *testing.B) {
	for _, concurrency := range []int{1, defaultRangeConcurrency} {
		b.Run(fmt.Sprintf("concurrency=%d", concurrency), func(b *testing.B) {
			f := newFake(rangeArticles())
			f.readyAfter = 200 * time.Millisecond
			c := serve(b, f)
			for b.Loop() {
				got, err := c.SearchRange(b.Context(), rangeParams(""), &RangeOptions{Concurrency: concurrency})
				if err != nil || len(got) != 24*90/5+14 {
					b.Fatalf("SearchRange = %d articles, %v", len(got), err)
				}
			}
		})
	}
}
