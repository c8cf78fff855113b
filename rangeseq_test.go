package newssearch

import (
	"context"
	"errors"
	"fmt"
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

// drain collects an article iterator, returning the articles before the
// error and the error.
func drain(seq func(func(Article, error) bool)) ([]Article, error) {
	var got []Article
	for a, err := range seq {
		if err != nil {
			return got, err
		}
		got = append(got, a)
	}
	return got, nil
}

func TestSearchRangeSeqDateOrderIsExact(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 3, 8} {
		f := newFake(rangeArticles())
		c := serve(t, f)
		params := rangeParams(SortDatePublished)
		want, err := c.SearchRange(t.Context(), params, &RangeOptions{Poll: fastPoll})
		if err != nil {
			t.Fatal(err)
		}
		var progress []RangeProgress
		got, err := drain(c.SearchRangeSeq(t.Context(), params, &RangeOptions{Poll: fastPoll, Prefetch: 2, Concurrency: conc,
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
	want, err := c.SearchRange(t.Context(), params, &RangeOptions{Poll: fastPoll})
	if err != nil {
		t.Fatal(err)
	}
	windows, err := RangeWindows(params, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := drain(c.SearchRangeSeq(t.Context(), params, &RangeOptions{Poll: fastPoll}))
	if err != nil {
		t.Fatal(err)
	}
	// The same articles, each once...
	if diff := cmp.Diff(byID(want), byID(got)); diff != "" {
		t.Errorf("SearchRangeSeq's articles versus SearchRange's (-want +got):\n%s", diff)
	}
	// ... windows newest first, each by score. An article on a boundary
	// belongs to the older window.
	var ordered []Article
	for w := len(windows) - 1; w >= 0; w-- {
		var mine []Article
		for _, a := range want {
			d := a.DatePublished.Time
			if (d.After(windows[w].Start) || w == 0) && !d.After(windows[w].End) {
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
	want, err := c.SearchRange(t.Context(), params, &RangeOptions{Poll: fastPoll})
	if err != nil {
		t.Fatal(err)
	}
	// The window of 2025-02-19 fails: the four newer ones are finished
	// (the article on the boundary it shares with the next one is its own).
	f.mu.Lock()
	f.failJob = failWindows(49 * day)
	f.mu.Unlock()
	first, err := drain(c.SearchRangeSeq(t.Context(), params, &RangeOptions{Poll: fastPoll, Concurrency: 2}))
	var re *RangeError
	if !errors.As(err, &re) || !errors.Is(err, ErrJobFailed) {
		t.Fatalf("error = %v, want a *RangeError wrapping a *JobFailedError", err)
	}
	var we *WindowError
	if !errors.As(err, &we) || !we.Start.Equal(rangeStart.Add(49*day)) {
		t.Fatalf("error = %v, want the window of day 49 named", err)
	}
	wantFinished := []RangeWindow{
		{rangeStart.Add(56 * day), rangeStart.Add(63 * day)},
		{rangeStart.Add(63 * day), rangeStart.Add(70 * day)},
		{rangeStart.Add(70 * day), rangeStart.Add(77 * day)},
		{rangeStart.Add(77 * day), rangeStart.Add(84 * day)},
		{rangeStart.Add(84 * day), rangeEnd},
	}
	if diff := cmp.Diff(wantFinished, re.Finished); diff != "" {
		t.Errorf("finished windows (-want +got):\n%s", diff)
	}
	if re.Windows != 13 {
		t.Errorf("Windows = %d, want 13", re.Windows)
	}
	wantMsg := `newssearch: range stopped with 5 of 13 windows finished (pass RangeError.Finished as RangeOptions.Skip to resume): window 2025-02-19T00:00:00.000Z to 2025-02-26T00:00:00.000Z: newssearch: query job "`
	if !strings.HasPrefix(err.Error(), wantMsg) {
		t.Errorf("error = %q, want it to start with %q", err, wantMsg)
	}
	// Resume once the service recovers: what the first call yielded plus
	// what the second yields is the whole range, in order, each once.
	f.mu.Lock()
	f.failJob = nil
	f.mu.Unlock()
	var progress []RangeProgress
	rest, err := drain(c.SearchRangeSeq(t.Context(), params, &RangeOptions{Poll: fastPoll, Skip: re.Finished,
		OnProgress: func(p RangeProgress) { progress = append(progress, p) }}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, append(first, rest...)); diff != "" {
		t.Errorf("first call + resumed call versus one SearchRange (-want +got):\n%s", diff)
	}
	if last := progress[len(progress)-1]; len(progress) != 8 || last.WindowsSkipped != 5 || last.WindowsDone != 8 {
		t.Errorf("resumed progress: %d reports ending with %+v; want 8 with 5 windows skipped", len(progress), last)
	}
}

func TestSearchRangeSeqResumeAfterCancel(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	c := serve(t, f)
	params := rangeParams(SortDatePublished)
	want, err := c.SearchRange(t.Context(), params, &RangeOptions{Poll: fastPoll})
	if err != nil {
		t.Fatal(err)
	}
	for _, stopAfter := range []int{1, 40, 100, 200} {
		ctx, cancel := context.WithCancel(t.Context())
		var first []Article
		var stop error
		for a, err := range c.SearchRangeSeq(ctx, params, &RangeOptions{Poll: fastPoll, Concurrency: 4}) {
			if err != nil {
				stop = err
				break
			}
			if first = append(first, a); len(first) == stopAfter {
				cancel()
			}
		}
		cancel()
		var re *RangeError
		if !errors.As(stop, &re) || !errors.Is(stop, context.Canceled) {
			t.Fatalf("after %d articles: error = %v, want a *RangeError wrapping context.Canceled", stopAfter, stop)
		}
		rest, err := drain(c.SearchRangeSeq(t.Context(), params, &RangeOptions{Poll: fastPoll, Skip: re.Finished}))
		if err != nil {
			t.Fatal(err)
		}
		// A window counts as finished once its last article was yielded,
		// so the two calls together yield every article once, in order.
		if diff := cmp.Diff(want, append(first, rest...)); diff != "" {
			t.Errorf("after %d articles, %d windows finished: first call's finished part + resumed call (-want +got):\n%s", stopAfter, len(re.Finished), diff)
		}
	}
}

func TestSearchRangeSkipValidation(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	c := serve(t, f)
	bad := []RangeWindow{{rangeStart, rangeStart.Add(7 * 24 * time.Hour)}, {rangeStart, rangeStart.Add(24 * time.Hour)}}
	want := `newssearch: invalid RangeOptions.Skip[1]: window 2025-01-01T00:00:00.000Z to 2025-01-02T00:00:00.000Z is not one of this range's windows: resume with the same StartDate, EndDate and Window as the call that reported it finished`
	_, err := c.SearchRange(t.Context(), rangeParams(""), &RangeOptions{Skip: bad})
	if err == nil || err.Error() != want || !errors.Is(err, ErrBadRequest) {
		t.Errorf("SearchRange error = %v, want %q", err, want)
	}
	_, err = drain(c.SearchRangeSeq(t.Context(), rangeParams(""), &RangeOptions{Skip: bad}))
	if err == nil || err.Error() != want {
		t.Errorf("SearchRangeSeq error = %v, want %q", err, want)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

func TestSearchRangeKeepPartialResume(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	f := newFake(rangeArticles())
	c := serve(t, f)
	want, err := c.SearchRange(t.Context(), rangeParams(""), &RangeOptions{Poll: fastPoll})
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.failJob = failWindows(7*day, 35*day)
	f.mu.Unlock()
	got, err := c.SearchRange(t.Context(), rangeParams(""), &RangeOptions{Poll: fastPoll, KeepPartial: true})
	var partial *PartialRangeError
	if !errors.As(err, &partial) || len(partial.Finished) != 11 {
		t.Fatalf("error = %v, want a *PartialRangeError with 11 windows finished", err)
	}
	for _, w := range partial.Finished {
		if w.Start.Equal(rangeStart.Add(7*day)) || w.Start.Equal(rangeStart.Add(35*day)) {
			t.Errorf("failed window %v listed as finished", w)
		}
	}
	f.mu.Lock()
	f.failJob = nil
	f.mu.Unlock()
	rest, err := c.SearchRange(t.Context(), rangeParams(""), &RangeOptions{Poll: fastPoll, Skip: partial.Finished})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(byID(want), byID(append(got, rest...))); diff != "" {
		t.Errorf("partial + resumed versus whole (-want +got):\n%s", diff)
	}
	// The streaming form reports failed windows at the end.
	f.mu.Lock()
	f.failJob = failWindows(7 * day)
	f.mu.Unlock()
	streamed, err := drain(c.SearchRangeSeq(t.Context(), rangeParams(SortDatePublished), &RangeOptions{Poll: fastPoll, KeepPartial: true}))
	var re *RangeError
	if !errors.As(err, &re) || !errors.As(err, &partial) || len(re.Finished) != 12 || len(partial.Failed) != 1 {
		t.Fatalf("error = %v, want a *RangeError around a *PartialRangeError, 12 windows finished", err)
	}
	if len(streamed) == 0 {
		t.Error("KeepPartial streamed no articles")
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
	f := newFake(testArticles(12*100, start.Add(time.Second), DefaultRangeWindow/100))
	c := serve(t, f)
	params := AsyncSearchParams{SearchParams: SearchParams{Query: "cars", StartDate: start, EndDate: start.Add(12 * DefaultRangeWindow)},
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
	n := 0
	for _, err := range c.SearchRangeSeq(t.Context(), params, &RangeOptions{Poll: fastPoll, Concurrency: 8}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n > 1 {
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
