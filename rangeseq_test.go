package newssearch

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// byID returns the articles sorted by ID, for comparing sets.
func byID(articles []Article) []Article {
	out := slices.Clone(articles)
	slices.SortFunc(out, func(a, b Article) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// drain collects a range iterator's articles, window after window,
// returning those before the first error and the error.
func drain(seq iter.Seq2[WindowResult, error]) ([]Article, error) {
	var got []Article
	for w, err := range seq {
		if err != nil {
			return got, err
		}
		got = append(got, w.Articles...)
	}
	return got, nil
}

// untilError collects a range iterator's windows until its first error.
func untilError(seq iter.Seq2[WindowResult, error]) ([]WindowResult, error) {
	var got []WindowResult
	for w, err := range seq {
		if err != nil {
			return got, err
		}
		got = append(got, w)
	}
	return got, nil
}

// articlesOfWindows concatenates the windows' articles.
func articlesOfWindows(windows []WindowResult) []Article {
	var out []Article
	for _, w := range windows {
		out = append(out, w.Articles...)
	}
	return out
}

// withoutArticles returns the windows with nil Articles, as a streaming
// caller that wrote them elsewhere passes them to RangeOptions.Done.
func withoutArticles(windows []WindowResult) []WindowResult {
	out := make([]WindowResult, len(windows))
	for i, w := range windows {
		out[i] = WindowResult{RangeWindow: w.RangeWindow}
	}
	return out
}

func TestSearchRangeSeqDateOrderIsExact(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 3, 8} {
		f := newFake(rangeArticles())
		c := serve(t, f)
		params := rangeParams(SortDatePublished)
		want, err := c.SearchRange(t.Context(), params, fastPoll)
		if err != nil {
			t.Fatal(err)
		}
		var progress []RangeProgress
		got, err := drain(c.SearchRangeSeq(t.Context(), params, fastPoll, &PageOptions{Prefetch: 2}, &RangeOptions{Concurrency: conc,
			OnProgress: func(p RangeProgress) { progress = append(progress, p) }}))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("concurrency %d: SearchRangeSeq versus SearchRange (-want +got):\n%s", conc, diff)
		}
		wantLast := RangeProgress{WindowsDone: 13, WindowsTotal: 13, Articles: len(want), Concurrency: conc}
		if len(progress) != 13 || progress[12] != wantLast {
			t.Errorf("concurrency %d: %d progress reports, the last %+v; want 13 ending with %+v", conc, len(progress), progress[len(progress)-1], wantLast)
		}
	}
}

func TestSearchRangeSeqRelevance(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	c := serve(t, f)
	params := rangeParams("")
	want, err := c.SearchRange(t.Context(), params, fastPoll)
	if err != nil {
		t.Fatal(err)
	}
	windows, err := RangeWindows(params, nil)
	if err != nil {
		t.Fatal(err)
	}
	yielded, err := untilError(c.SearchRangeSeq(t.Context(), params, fastPoll))
	if err != nil {
		t.Fatal(err)
	}
	got := articlesOfWindows(yielded)
	// Every window once, newest first.
	var order []RangeWindow
	for _, w := range yielded {
		order = append(order, w.RangeWindow)
	}
	newestFirst := slices.Clone(windows)
	slices.Reverse(newestFirst)
	if diff := cmp.Diff(newestFirst, order); diff != "" {
		t.Errorf("windows yielded (-want +got):\n%s", diff)
	}
	// The same articles, each once...
	if diff := cmp.Diff(byID(want), byID(got)); diff != "" {
		t.Errorf("SearchRangeSeq's articles versus SearchRange's (-want +got):\n%s", diff)
	}
	// ... windows newest first, each by score. An article on a boundary
	// belongs to the newer window.
	var ordered []Article
	for w := len(windows) - 1; w >= 0; w-- {
		var mine []Article
		for _, a := range want {
			d := a.DatePublished.Time
			if !d.Before(windows[w].Start) && (d.Before(windows[w].End) || w == len(windows)-1) {
				mine = append(mine, a)
			}
		}
		// want is by score already, ties by ID and URL.
		ordered = append(ordered, mine...)
	}
	if diff := cmp.Diff(ordered, got); diff != "" {
		t.Errorf("SearchRangeSeq's order: windows newest first, each by score (-want +got):\n%s", diff)
	}
}

func TestSearchRangeSeqResumeAfterFailure(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	f := newFake(rangeArticles())
	c := serve(t, f)
	params := rangeParams(SortDatePublished)
	want, err := c.SearchRange(t.Context(), params, fastPoll)
	if err != nil {
		t.Fatal(err)
	}
	// The window of 2025-02-19 fails: a loop that stops at the first error
	// has the four newer ones (the article on the boundary it shares with
	// the next one is the next one's).
	f.mu.Lock()
	f.failJob = failWindows(49 * day)
	f.mu.Unlock()
	first, err := untilError(c.SearchRangeSeq(t.Context(), params, fastPoll, &RangeOptions{Concurrency: 2}))
	var re *RangeError
	if !errors.As(err, &re) || !errors.Is(err, ErrJobFailed) {
		t.Fatalf("error = %v, want a *RangeError wrapping a *JobFailedError", err)
	}
	failed := RangeWindow{rangeStart.Add(49 * day), rangeStart.Add(56 * day)}
	if diff := cmp.Diff([]RangeWindow{failed}, re.Missing); diff != "" || re.Windows != 13 || re.Finished != nil {
		t.Errorf("RangeError %+v: want window 49 missing, of 13, and no Finished list (-want +got):\n%s", re, diff)
	}
	var finished []RangeWindow
	for _, w := range first {
		finished = append(finished, w.RangeWindow)
	}
	wantFinished := []RangeWindow{
		{rangeStart.Add(84 * day), rangeEnd},
		{rangeStart.Add(77 * day), rangeStart.Add(84 * day)},
		{rangeStart.Add(70 * day), rangeStart.Add(77 * day)},
		{rangeStart.Add(63 * day), rangeStart.Add(70 * day)},
		{rangeStart.Add(56 * day), rangeStart.Add(63 * day)},
	}
	if diff := cmp.Diff(wantFinished, finished); diff != "" {
		t.Errorf("windows yielded before the error (-want +got):\n%s", diff)
	}
	wantMsg := `newssearch: window 2025-02-19T00:00:00.000Z to 2025-02-26T00:00:00.000Z: query job "`
	if !strings.HasPrefix(err.Error(), wantMsg) {
		t.Errorf("error = %q, want it to start with %q", err, wantMsg)
	}
	// Resume once the service recovers, passing the windows received, with
	// their articles: the resumed loop yields the whole range, in order,
	// each article once, searching only the 8 other windows.
	f.mu.Lock()
	f.failJob = nil
	f.mu.Unlock()
	var progress []RangeProgress
	all, err := drain(c.SearchRangeSeq(t.Context(), params, fastPoll, WithHeader(testCallHeader, "resumed"), &RangeOptions{Done: first,
		OnProgress: func(p RangeProgress) { progress = append(progress, p) }}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("resumed call versus one SearchRange (-want +got):\n%s", diff)
	}
	if n := f.countTagged(pathQueryAsync, "resumed"); n != 8 {
		t.Errorf("the resumed call submitted %d jobs, want 8", n)
	}
	if last := progress[len(progress)-1]; len(progress) != 8 || last.WindowsSkipped != 5 || last.WindowsDone != 8 {
		t.Errorf("resumed progress: %d reports ending with %+v; want 8 with 5 windows skipped", len(progress), last)
	}
	// A streaming caller that wrote the articles away passes the windows
	// alone: what the first loop yielded plus what the resumed one yields
	// is the whole range.
	rest, err := drain(c.SearchRangeSeq(t.Context(), params, fastPoll, &RangeOptions{Done: withoutArticles(first)}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, append(articlesOfWindows(first), rest...)); diff != "" {
		t.Errorf("first loop + resumed loop versus one SearchRange (-want +got):\n%s", diff)
	}
}

func TestSearchRangeSeqResumeAfterCancel(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	c := serve(t, f)
	params := rangeParams(SortDatePublished)
	want, err := c.SearchRange(t.Context(), params, fastPoll)
	if err != nil {
		t.Fatal(err)
	}
	for _, stopAfter := range []int{1, 3, 6, 12} {
		ctx, cancel := context.WithCancel(t.Context())
		var first []WindowResult
		var stop error
		for w, err := range c.SearchRangeSeq(ctx, params, fastPoll, &RangeOptions{Concurrency: 4}) {
			if err != nil {
				stop = err
				break
			}
			if first = append(first, w); len(first) == stopAfter {
				cancel() // as Ctrl-C would: the window received is kept
			}
		}
		cancel()
		var re *RangeError
		if !errors.As(stop, &re) || !errors.Is(stop, context.Canceled) || len(re.Missing) != 13-stopAfter {
			t.Fatalf("after %d windows: error = %v, want a *RangeError wrapping context.Canceled with %d windows missing", stopAfter, stop, 13-stopAfter)
		}
		rest, err := drain(c.SearchRangeSeq(t.Context(), params, fastPoll, &RangeOptions{Done: withoutArticles(first)}))
		if err != nil {
			t.Fatal(err)
		}
		// A window counts as finished once the loop received it, so the
		// two calls together yield every article once, in order.
		if diff := cmp.Diff(want, append(articlesOfWindows(first), rest...)); diff != "" {
			t.Errorf("after %d windows: first call + resumed call (-want +got):\n%s", stopAfter, diff)
		}
	}
}

func TestSearchRangeDoneValidation(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	c := serve(t, f)
	week := WindowResult{RangeWindow: RangeWindow{rangeStart, rangeStart.Add(7 * 24 * time.Hour)}}
	for _, tc := range []struct {
		done []WindowResult
		want string
	}{
		{[]WindowResult{week, {RangeWindow: RangeWindow{rangeStart, rangeStart.Add(24 * time.Hour)}}},
			`newssearch: invalid RangeOptions.Done[1]: window 2025-01-01T00:00:00.000Z to 2025-01-02T00:00:00.000Z is not one of this range's windows: resume with the same StartDate, EndDate and Window as the call that finished it`},
		{[]WindowResult{week, week},
			`newssearch: invalid RangeOptions.Done[1]: window 2025-01-01T00:00:00.000Z to 2025-01-08T00:00:00.000Z is listed twice: list each finished window once`},
	} {
		_, err := c.SearchRange(t.Context(), rangeParams(""), &RangeOptions{Done: tc.done})
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrBadRequest) {
			t.Errorf("SearchRange error = %v, want %q", err, tc.want)
		}
		_, err = drain(c.SearchRangeSeq(t.Context(), rangeParams(""), &RangeOptions{Done: tc.done}))
		if err == nil || err.Error() != tc.want {
			t.Errorf("SearchRangeSeq error = %v, want %q", err, tc.want)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// TestSearchRangeSeqGoesOnPastFailedWindows: a loop that goes on after a
// failed window's error receives every other window.
func TestSearchRangeSeqGoesOnPastFailedWindows(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	f := newFake(rangeArticles())
	c := serve(t, f)
	want, err := c.SearchRange(t.Context(), rangeParams(SortDatePublished), fastPoll)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.failJob = failWindows(7*day, 35*day)
	f.mu.Unlock()
	var got []Article
	var missing []RangeWindow
	windows := 0
	for w, err := range c.SearchRangeSeq(t.Context(), rangeParams(SortDatePublished), fastPoll) {
		windows++
		var re *RangeError
		if err != nil {
			if !errors.As(err, &re) || len(re.Missing) != 1 || re.Missing[0] != w.RangeWindow || w.Articles != nil {
				t.Fatalf("window %v: error %v, want a *RangeError naming it", w.RangeWindow, err)
			}
			missing = append(missing, re.Missing...)
			continue
		}
		got = append(got, w.Articles...)
	}
	wantMissing := []RangeWindow{{rangeStart.Add(35 * day), rangeStart.Add(42 * day)}, {rangeStart.Add(7 * day), rangeStart.Add(14 * day)}}
	if diff := cmp.Diff(wantMissing, missing); diff != "" || windows != 13 {
		t.Errorf("%d windows yielded, missing (-want +got):\n%s", windows, diff)
	}
	if diff := cmp.Diff(ownedBy(want, 7*day, 35*day), got); diff != "" {
		t.Errorf("articles of the other windows (-want +got):\n%s", diff)
	}
}

func TestRangeWindows(t *testing.T) {
	t.Parallel()
	got, err := RangeWindows(rangeParams(""), &RangeOptions{Window: 30 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	want := []RangeWindow{
		{rangeStart, rangeStart.Add(30 * 24 * time.Hour)},
		{rangeStart.Add(30 * 24 * time.Hour), rangeStart.Add(60 * 24 * time.Hour)},
		{rangeStart.Add(60 * 24 * time.Hour), rangeEnd},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RangeWindows (-want +got):\n%s", diff)
	}
	if s := got[0].String(); s != "2025-01-01T00:00:00.000Z to 2025-01-31T00:00:00.000Z" {
		t.Errorf("String = %q", s)
	}
	_, err = RangeWindows(AsyncSearchParams{SearchParams: SearchParams{Query: "x"}}, nil)
	if want := "newssearch: invalid AsyncSearchParams.StartDate: SearchRange needs both StartDate and EndDate: set both bounds of the range"; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

// TestSearchRangeSeqStagesPages: of the windows in flight, only the one
// being yielded and the next fetch pages beyond the first; the others stop
// at their first page until their turn, so memory holds about two windows.
func TestSearchRangeSeqStagesPages(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	// 12 weekly windows of 100 articles (4 pages each).
	f := newFake(testArticles(12*100, start.Add(time.Second), defaultRangeWindow/100))
	c := serve(t, f)
	params := AsyncSearchParams{SearchParams: SearchParams{Query: "cars", StartDate: start, EndDate: start.Add(12 * defaultRangeWindow)},
		SortOrder: SortDatePublished}
	// jobs returns the query ids asked for page 1 once finished, and those
	// asked for a later page.
	jobs := func() (first, later map[string]bool) {
		first, later = map[string]bool{}, map[string]bool{}
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, line := range f.log {
			var id string
			var page int
			if _, err := fmt.Sscanf(line, "get-results %s %d", &id, &page); err != nil {
				continue
			}
			if page == 1 {
				first[id] = true
			} else {
				later[id] = true
			}
		}
		return first, later
	}
	n, windows := 0, 0
	for w, err := range c.SearchRangeSeq(t.Context(), params, fastPoll, &RangeOptions{Concurrency: 8}) {
		if err != nil {
			t.Fatal(err)
		}
		n += len(w.Articles)
		if windows++; windows > 1 {
			continue
		}
		// The first window is being yielded: wait until all 8 windows in
		// flight have polled their job, then give them time to fetch more.
		deadline := time.Now().Add(10 * time.Second)
		for first, _ := jobs(); len(first) < 8 && time.Now().Before(deadline); first, _ = jobs() {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
		first, later := jobs()
		if len(first) < 8 || len(later) > 2 {
			t.Errorf("while the first window is yielded: %d jobs polled, %d fetched pages past the first; want 8 and at most 2", len(first), len(later))
		}
	}
	if n != 1200 {
		t.Errorf("streamed %d articles, want 1200", n)
	}
}
