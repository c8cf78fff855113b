package newssearch

import (
	"cmp"
	"context"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RangeWindow is one window of a range search (SearchRange,
// SearchRangeSeq): both bounds are inclusive, and adjacent windows share
// their boundary instant. RangeWindows lists the windows of a call;
// RangeError.Finished reports the ones a stopped call delivered, and
// RangeOptions.Skip takes them back to resume.
type RangeWindow struct {
	// Start and End bound the window, both inclusive.
	Start, End time.Time
}

// String gives the window's bounds in the service's date format, in UTC.
func (w RangeWindow) String() string {
	return w.Start.UTC().Format(requestDateLayout) + " to " + w.End.UTC().Format(requestDateLayout)
}

// RangeWindows returns the windows, in date order, that SearchRange and
// SearchRangeSeq split params' range into with opts (only opts.Window
// matters). A resume file can list them to show what is left to do. It
// returns a *ValidationError for the parameters those calls would reject.
func RangeWindows(params AsyncSearchParams, opts *RangeOptions) ([]RangeWindow, error) {
	cfg, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	windows, err := rangeWindows(&params, cfg.window)
	if err != nil {
		return nil, err
	}
	out := make([]RangeWindow, len(windows))
	for i, w := range windows {
		out[i] = RangeWindow{Start: w.start, End: w.end}
	}
	return out, nil
}

// skipWindows returns the indices of the windows not listed in skip, in
// date order. Every window of skip must be one of windows.
func skipWindows(windows []window, skip []RangeWindow) ([]int, error) {
	done := make([]bool, len(windows))
	for i, s := range skip {
		k, found := slices.BinarySearchFunc(windows, s.Start, func(w window, t time.Time) int { return w.start.Compare(t) })
		if !found || !windows[k].end.Equal(s.End) {
			return nil, &ValidationError{Field: "RangeOptions.Skip[" + strconv.Itoa(i) + "]", Problem: "window " + s.String() +
				" is not one of this range's windows: resume with the same StartDate, EndDate and Window as the call that reported it finished"}
		}
		done[k] = true
	}
	var todo []int
	for i := range windows {
		if !done[i] {
			todo = append(todo, i)
		}
	}
	return todo, nil
}

// RangeError is the error SearchRangeSeq yields when it stops before every
// window was delivered: a window failed, or ctx was cancelled. Finished
// lists the windows whose every article was yielded before it stopped;
// give them to a later call as RangeOptions.Skip (with the same parameters
// and Window) to fetch only the rest. Unwrap returns Err, so errors.Is and
// errors.As see the cause (a *WindowError, context.Canceled...).
type RangeError struct {
	// Finished lists the windows whose articles were all delivered, in date
	// order, windows skipped through RangeOptions.Skip included.
	Finished []RangeWindow
	// Windows is the number of windows of the range.
	Windows int
	// Err is the cause: the *WindowError of the first failed window in
	// delivery order, the context's error, or, with KeepPartial, a
	// *PartialRangeError naming every failed window.
	Err error
}

// Error says how far the range got and why it stopped.
func (e *RangeError) Error() string {
	return "newssearch: range stopped with " + strconv.Itoa(len(e.Finished)) + " of " + strconv.Itoa(e.Windows) +
		" windows finished (pass RangeError.Finished as RangeOptions.Skip to resume): " +
		strings.TrimPrefix(e.Err.Error(), "newssearch: ")
}

// Unwrap returns the cause.
func (e *RangeError) Unwrap() error { return e.Err }

// failedArticles is an article iterator that yields err once.
func failedArticles(err error) iter.Seq2[Article, error] {
	return func(yield func(Article, error) bool) { yield(Article{}, err) }
}

// SearchRangeSeq is the streaming form of SearchRange: it searches the same
// windows the same way (see RangeOptions) but yields the articles window by
// window as they arrive. Up to RangeOptions.Concurrency windows run at
// once, but only the window being yielded and the next one fetch all their
// pages; the others submit their job, poll it and hold its first page
// until their turn. So memory holds about two windows' articles, whatever
// the concurrency and the range, rather than every article of the range.
//
// Order. Windows are delivered newest first. With SortDatePublished the
// articles come newest first in exactly SearchRange's order (windows are
// disjoint in time; articles on a shared boundary instant are held back
// until the older window arrives, and undated articles until the end).
// With SortRelevance (the default) each window's articles come by Score,
// highest first, but the range as a whole is not sorted by Score: a later
// window may hold higher scores. Use SearchRange when a global relevance
// order matters more than memory.
//
// Each article is yielded once, even when adjacent windows both hold it,
// as with SearchRange (this relies on the service returning only articles
// inside each window's bounds, as it does).
//
// Errors. A failed window (unless KeepPartial is set) or a cancelled ctx
// ends the loop with one final (Article{}, *RangeError); its Finished field
// lists the windows delivered in full, which RangeOptions.Skip takes to
// resume. With KeepPartial, failed windows are passed over and reported at
// the end in a *RangeError wrapping a *PartialRangeError. Validation
// errors are yielded once before any request. Leaving the loop early
// cancels the windows in flight and waits for them; OnProgress is called
// on the loop's goroutine after each window arrives.
func (c *Client) SearchRangeSeq(ctx context.Context, params AsyncSearchParams, opts ...Option) iter.Seq2[Article, error] {
	if err := c.checkCall(ctx, "SearchRangeSeq"); err != nil {
		return failedArticles(err)
	}
	ctx, cs, err := c.begin(ctx, opts)
	if err != nil {
		return failedArticles(err)
	}
	cfg, err := resolveRange(cs)
	if err != nil {
		return failedArticles(err)
	}
	windows, err := rangeWindows(&params, cfg.window)
	if err != nil {
		return failedArticles(err)
	}
	todo, err := skipWindows(windows, cfg.skip)
	if err != nil {
		return failedArticles(err)
	}
	params.Sites = slices.Clone(params.Sites)
	slices.Reverse(todo) // newest first
	return func(yield func(Article, error) bool) {
		s := &rangeStream{
			r:      &rangeRun{c: c, logger: cs.logger, cfg: &cfg, params: params, windows: windows, skipped: len(windows) - len(todo)},
			todo:   todo,
			byDate: strings.EqualFold(string(params.SortOrder), string(SortDatePublished)),
			stray:  make(map[articleKey]struct{}),
		}
		s.run(ctx, yield)
	}
}

// streamFetchAhead is how many windows after the one being yielded
// SearchRangeSeq lets fetch all their pages; the other windows in flight
// hold only their first page. 1 keeps the next window's pages arriving
// while the loop yields the current one, and the memory at about two
// windows' articles whatever the concurrency.
const streamFetchAhead = 1

// rangeStream is the state of one SearchRangeSeq loop.
type rangeStream struct {
	r      *rangeRun
	todo   []int // window indices in delivery order
	byDate bool

	undated  []heldArticle // with date order: undated articles, yielded last
	stray    map[articleKey]struct{}
	finished []bool
	failed   []*WindowError
	accepted int
}

// heldArticle is an article waiting to be yielded, with its window.
type heldArticle struct {
	a    Article
	from int
}

// windowOutcome is what one window's goroutine hands to the loop.
type windowOutcome struct {
	articles []Article
	err      error
}

// run drives the windows and yields their articles.
func (s *rangeStream) run(parent context.Context, yield func(Article, error) bool) {
	r := s.r
	ctx, cancel := context.WithCancel(parent)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	r.gate = newAIMD(r.cfg.concurrency)
	s.finished = make([]bool, len(r.windows))
	for i := range r.windows {
		s.finished[i] = true
	}
	for _, i := range s.todo {
		s.finished[i] = false
	}
	outcomes := make([]chan windowOutcome, len(s.todo))
	ready := make([]chan struct{}, len(s.todo))
	launched, opened := 0, 0
	for k, wi := range s.todo {
		// At most Concurrency windows are launched and not yet yielded.
		for ; launched < len(s.todo) && launched < k+r.cfg.concurrency; launched++ {
			ch := make(chan windowOutcome, 1)
			outcomes[launched] = ch
			ready[launched] = make(chan struct{})
			i, rd := s.todo[launched], ready[launched]
			wg.Go(func() {
				articles, err := r.searchGated(ctx, i, rd)
				ch <- windowOutcome{articles, err}
			})
		}
		// Of those, the one yielded next and streamFetchAhead after it fetch
		// all their pages; the others stop at their first page until then.
		for ; opened < launched && opened <= k+streamFetchAhead; opened++ {
			close(ready[opened])
		}
		if err := parent.Err(); err != nil {
			// Stop at once, even if this window's results are in.
			yield(Article{}, s.stopped(err))
			return
		}
		out := <-outcomes[k]
		outcomes[k] = nil
		if out.err != nil {
			if err := parent.Err(); err != nil {
				yield(Article{}, s.stopped(err))
				return
			}
			we := &WindowError{Start: r.windows[wi].start, End: r.windows[wi].end, Err: out.err}
			if !r.cfg.keepPartial {
				yield(Article{}, s.stopped(we))
				return
			}
			s.failed = append(s.failed, we)
			r.reportStream(s, true)
			continue
		}
		batch := s.accept(wi, out.articles)
		r.reportStream(s, false)
		for _, a := range batch {
			if !yield(a, nil) {
				return
			}
		}
		if !slices.ContainsFunc(s.undated, func(h heldArticle) bool { return h.from == wi }) {
			s.finished[wi] = true
		}
	}
	if len(s.undated) > 0 {
		slices.SortStableFunc(s.undated, func(a, b heldArticle) int { return s.compare(&a.a, &b.a) })
		for _, h := range s.undated {
			if !yield(h.a, nil) {
				return
			}
		}
		for _, h := range s.undated {
			if !slices.ContainsFunc(s.failed, func(w *WindowError) bool { return w.Start.Equal(r.windows[h.from].start) }) {
				s.finished[h.from] = true
			}
		}
	}
	if len(s.failed) > 0 {
		slices.SortFunc(s.failed, func(a, b *WindowError) int { return a.Start.Compare(b.Start) })
		yield(Article{}, s.stopped(&PartialRangeError{Failed: s.failed, Windows: len(r.windows), Finished: s.finishedWindows()}))
	}
}

// stopped builds the loop's final error.
func (s *rangeStream) stopped(cause error) *RangeError {
	return &RangeError{Finished: s.finishedWindows(), Windows: len(s.r.windows), Err: cause}
}

// finishedWindows lists the finished windows in date order.
func (s *rangeStream) finishedWindows() []RangeWindow {
	var out []RangeWindow
	for i, done := range s.finished {
		if done {
			out = append(out, RangeWindow{Start: s.r.windows[i].start, End: s.r.windows[i].end})
		}
	}
	return out
}

// compare orders articles as the call's sort order asks, ties by ID, then
// URL, as SearchRange does.
func (s *rangeStream) compare(a, b *Article) int {
	var c int
	if s.byDate {
		c = compareNewestFirst(a.DatePublished.Time, b.DatePublished.Time)
	} else {
		c = cmp.Compare(b.Score, a.Score)
	}
	return cmp.Or(c, strings.Compare(a.ID, b.ID), strings.Compare(a.URL, b.URL))
}

// accept takes the articles window wi owns (see rangeRun.owned) and
// returns them in order, to be yielded now. With date order, undated
// articles are held back for the end.
func (s *rangeStream) accept(wi int, articles []Article) []Article {
	w := s.r.windows[wi]
	batch := articles[:0]
	for _, a := range articles {
		d := a.DatePublished.Time
		if k, ok := keyOf(&a); ok && (d.IsZero() || d.Before(w.start) || d.After(w.end)) {
			// Only an article outside the window's bounds can come from
			// another window too; the others need no memory.
			if _, dup := s.stray[k]; dup {
				continue
			}
			s.stray[k] = struct{}{}
		}
		s.accepted++
		if s.byDate && d.IsZero() {
			s.undated = append(s.undated, heldArticle{a: a, from: wi})
			continue
		}
		batch = append(batch, a)
	}
	slices.SortStableFunc(batch, func(a, b Article) int { return s.compare(&a, &b) })
	return batch
}

// reportStream calls OnProgress for the stream.
func (r *rangeRun) reportStream(s *rangeStream, failed bool) {
	r.mu.Lock()
	r.done++
	if failed {
		r.failures++
	}
	p := r.progressLocked(s.accepted)
	r.mu.Unlock()
	if r.cfg.onProgress != nil {
		r.cfg.onProgress(p)
	}
}
