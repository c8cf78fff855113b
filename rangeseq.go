package newssearch

import (
	"context"
	"errors"
	"iter"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The range engine: SearchRangeSeq is it, SearchRange collects it, and the
// CLI's range command is built on the two.

// rangeCall is a validated range call, the same for every loop over its
// iterator.
type rangeCall struct {
	c *Client
	// ctx is the call's context, carrying its settings; each loop over
	// the iterator runs under it.
	ctx     context.Context
	logger  *slog.Logger // the call's
	cfg     rangeConfig
	params  AsyncSearchParams
	windows []window
	done    map[int]*WindowResult // RangeOptions.Done, by window index
	byDate  bool
}

// startRange validates a range call.
func (c *Client) startRange(ctx context.Context, method string, params AsyncSearchParams, opts []RangeOption) (*rangeCall, error) {
	if err := c.checkCall(ctx, method); err != nil {
		return nil, err
	}
	ctx, cs, err := begin(c, ctx, opts)
	if err != nil {
		return nil, err
	}
	cfg, _ := cs.rng.resolve() // begin validated both
	cfg.poll, _ = cs.poll.resolve()
	cfg.prefetch = cs.page.prefetch()
	windows, err := rangeWindows(&params, cfg.window)
	if err != nil {
		return nil, err
	}
	done, err := doneWindows(windows, cfg.done)
	if err != nil {
		return nil, err
	}
	params.Sites = slices.Clone(params.Sites)
	ctx = withOutageBudget(ctx, cfg.poll.maxWait)
	return &rangeCall{c: c, ctx: ctx, logger: cs.logger, cfg: cfg, params: params, windows: windows, done: done,
		byDate: strings.EqualFold(string(params.SortOrder), string(SortDatePublished))}, nil
}

// seq returns the call's iterator; each loop runs the range afresh.
func (rc *rangeCall) seq() iter.Seq2[WindowResult, error] {
	return func(yield func(WindowResult, error) bool) {
		r := &rangeRun{call: rc, gate: newAIMD(rc.cfg.concurrency, 1), seen: make(map[articleKey]struct{})}
		r.run(rc.ctx, yield)
	}
}

// index returns the index of window w of the call.
func (rc *rangeCall) index(w RangeWindow) int {
	k, _ := slices.BinarySearchFunc(rc.windows, w.Start, func(w window, t time.Time) int { return w.start.Compare(t) })
	return k
}

// missing lists the windows not marked in delivered, in date order.
func (rc *rangeCall) missing(delivered []bool) (out []RangeWindow) {
	for i, w := range rc.windows {
		if !delivered[i] {
			out = append(out, RangeWindow{Start: w.start, End: w.end})
		}
	}
	return out
}

// compare orders articles as the call's sort order asks.
func (rc *rangeCall) compare(a, b *Article) int { return compareArticles(a, b, rc.byDate) }

// stoppedError is the cause in the RangeError of a range stopped by its
// context.
type stoppedError struct{ err error }

func (e *stoppedError) Error() string { return "range stopped: " + e.err.Error() }

func (e *stoppedError) Unwrap() error { return e.err }

// streamFetchAhead is how many windows after the one being yielded the
// engine lets fetch all their pages; the other windows in flight hold only
// their first page. 1 keeps the next window's pages arriving while the
// loop handles the current one, and the memory at about two windows'
// articles whatever the concurrency.
const streamFetchAhead = 1

// rangeRun is one loop over a range call's iterator.
type rangeRun struct {
	call *rangeCall
	gate *aimd // adapts the windows in flight to 429 answers

	// Only the loop's goroutine uses these.
	seen     map[articleKey]struct{} // undated articles and those near a boundary, delivered
	accepted int

	mu        sync.Mutex // guards the counts below
	finished  int
	failures  int
	resubmits int
}

// windowOutcome is what one window's goroutine hands to the loop.
type windowOutcome struct {
	articles []Article
	err      error
}

// run drives the windows, newest first, and yields them.
func (r *rangeRun) run(parent context.Context, yield func(WindowResult, error) bool) {
	rc := r.call
	ctx, cancel := context.WithCancel(parent)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	var todo []int // the windows to search, newest first
	for i := len(rc.windows) - 1; i >= 0; i-- {
		if rc.done[i] == nil {
			todo = append(todo, i)
		}
	}
	yielded := make([]bool, len(rc.windows))
	stop := func(err error) {
		yield(WindowResult{}, &RangeError{Windows: len(rc.windows), Missing: rc.missing(yielded), Err: &stoppedError{err}})
	}
	outcomes := make([]chan windowOutcome, len(todo))
	ready := make([]chan struct{}, len(todo))
	launched, opened, k := 0, 0, 0
	for i := len(rc.windows) - 1; i >= 0; i-- {
		w := RangeWindow{Start: rc.windows[i].start, End: rc.windows[i].end}
		if d := rc.done[i]; d != nil {
			for j := range d.Articles { // so that no other window delivers them again
				r.fresh(i, &d.Articles[j])
			}
			yielded[i] = true
			if !yield(*d, nil) {
				return
			}
			continue
		}
		// At most Concurrency windows are launched and not yet yielded.
		for ; launched < len(todo) && launched < k+rc.cfg.concurrency; launched++ {
			ch := make(chan windowOutcome, 1)
			outcomes[launched] = ch
			ready[launched] = make(chan struct{})
			wi, rd := todo[launched], ready[launched]
			wg.Go(func() {
				articles, err := r.searchGated(ctx, wi, rd)
				ch <- windowOutcome{articles, err}
			})
		}
		// Of those, the one yielded next and streamFetchAhead after it fetch
		// all their pages; the others stop at their first page until then.
		for ; opened < launched && opened <= k+streamFetchAhead; opened++ {
			close(ready[opened])
		}
		if err := parent.Err(); err != nil {
			stop(err) // at once, even if this window's results are in
			return
		}
		out := <-outcomes[k]
		outcomes[k] = nil
		k++
		if out.err != nil {
			if err := parent.Err(); err != nil {
				stop(err)
				return
			}
			if o, _ := parent.Value(outageKey{}).(*outage); o != nil && !o.answered.Load() && neverSent(out.err) {
				stop(out.err) // the service was never reached: fail fast
				return
			}
			r.report(true)
			if !yield(WindowResult{RangeWindow: w}, &RangeError{Windows: len(rc.windows), Missing: []RangeWindow{w}, Err: out.err}) {
				return
			}
			continue
		}
		batch := r.accept(i, out.articles)
		r.report(false)
		yielded[i] = true
		if !yield(WindowResult{RangeWindow: w, Articles: batch}, nil) {
			return
		}
	}
}

// searchGated searches window wi once the adaptive gate lets it start,
// and feeds the 429s its requests meet back to the gate. The window
// submits its job and polls it to its first page, then gives its place
// under the gate back and waits for ready before fetching the other pages,
// under the gate again: the windows ahead of the one being yielded hold
// one page each, not all their articles.
func (r *rangeRun) searchGated(ctx context.Context, wi int, ready <-chan struct{}) ([]Article, error) {
	w := r.call.windows[wi]
	var throttled atomic.Bool // a 429 in either phase: the window does not raise the limit
	gen, err := r.gate.acquire(ctx)
	if err != nil {
		return nil, err
	}
	observed := func(gen int) context.Context {
		return withThrottleObserver(ctx, func() {
			throttled.Store(true)
			r.gate.throttle(gen)
		})
	}
	first, err := r.submit(observed(gen), w)
	if err == nil {
		// Wait for its turn outside the gate (a window waiting must not
		// keep an earlier one from starting), then take a place again.
		r.gate.release(false)
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if gen, err = r.gate.acquire(ctx); err != nil {
			return nil, err
		}
	}
	var articles []Article
	if err == nil {
		articles, err = r.pages(observed(gen), first)
	}
	r.gate.release(err == nil && !throttled.Load())
	return articles, err
}

// owns reports whether window wi owns an article published at d as the
// service shows it, in whole seconds: from its start's second on and
// before its end (the newest window: up to its end). Windows meet at whole
// seconds (splitRange), so each dated article of the range has exactly one
// window, the one whose job found it however the service shows fractions
// or widens bounds, whatever windows fail, are done already or are
// resumed; an article outside the range has none.
func (rc *rangeCall) owns(wi int, d time.Time) bool {
	w, s := rc.windows[wi], d.Truncate(time.Second)
	return !s.Before(w.start.Truncate(time.Second)) && (s.Before(w.end) || wi == len(rc.windows)-1 && !s.After(w.end))
}

// nearBoundary reports whether d lies within a second of a boundary
// between two windows.
func (rc *rangeCall) nearBoundary(d time.Time) bool {
	i, _ := slices.BinarySearchFunc(rc.windows, d, func(w window, t time.Time) int { return w.start.Compare(t) })
	return i > 0 && i < len(rc.windows) && rc.windows[i].start.Sub(d) <= time.Second ||
		i > 1 && d.Sub(rc.windows[i-1].start) <= time.Second
}

// submit runs the job of one window and polls it to its first page.
//
// A submission whose outcome is unknown (see ambiguous: a connection reset,
// a 503 from a proxy) is submitted again, up to the call's retry count
// (WithMaxRetries): the first submission may have created a job, but its
// results are never read, so the duplicate costs the service some work and
// never the caller a wrong result. Every resubmission is counted in
// RangeProgress.Resubmitted and logged. A submission the service refused
// (a 4xx) is never repeated.
func (r *rangeRun) submit(ctx context.Context, w window) (*Page, error) {
	rc := r.call
	p := rc.params
	p.StartDate, p.EndDate = w.start, w.end
	var job *QueryJob
	for attempt := 0; ; attempt++ {
		var err error
		job, err = rc.c.SubmitQuery(ctx, p)
		if err == nil {
			break
		}
		cs := callFrom(ctx)
		if attempt >= cs.maxRetries || ctx.Err() != nil || !ambiguous(err) {
			return nil, err
		}
		wait := rc.c.cfg.backoff(cs.waitMin, cs.waitMax, attempt, nil)
		r.resubmitting(w, attempt+1, wait, err)
		if err := sleepContext(ctx, wait); err != nil {
			return nil, err
		}
	}
	return rc.c.poll(ctx, job.QueryID, 1, &rc.cfg.poll, true)
}

// pages reads a finished window job from its first page to the last.
func (r *rangeRun) pages(ctx context.Context, first *Page) ([]Article, error) {
	// Sized from the total, so the slice is not regrown (and its old
	// arrays left for the collector) page after page; a total beyond
	// maxWindowPrealloc grows as needed.
	out := make([]Article, 0, min(max(first.TotalResults, len(first.Articles)), maxWindowPrealloc))
	pages := r.call.c.jobPages(ctx, first.QueryID, r.call.cfg.prefetch, func(context.Context) (*Page, error) { return first, nil })
	for page, err := range pages {
		if err != nil {
			return nil, err
		}
		out = append(out, page.Articles...)
	}
	return out, nil
}

// maxWindowPrealloc bounds the articles a window's slice is sized for
// before they arrive, whatever total the service claims.
const maxWindowPrealloc = 10000

// ambiguous reports whether a SubmitQuery error leaves it unknown whether
// a job was created: a transport failure with no usable answer (a
// connection reset or closed, a body that broke off, a stall), or a 5xx
// status other than 501 (which a proxy may send after forwarding the
// request). The caller's context, a *ValidationError and any other answer
// of the service are not ambiguous.
func ambiguous(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, errBodyTooLarge) || isCertificateError(err) || errors.Is(err, errNoClient) {
		return false
	}
	var ve *ValidationError
	if errors.As(err, &ve) || neverSent(err) {
		return false
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.cause == nil && apiErr.StatusCode >= 500 && apiErr.StatusCode <= 599 && apiErr.StatusCode != 501
	}
	return true
}

// resubmitting counts and logs the resubmission of a window's query.
func (r *rangeRun) resubmitting(w window, n int, wait time.Duration, cause error) {
	r.mu.Lock()
	r.resubmits++
	r.mu.Unlock()
	if l := r.call.logger; l != nil {
		l.LogAttrs(r.call.ctx, slog.LevelWarn, "newssearch: resubmitting a window's query; the failed submission may have created a job whose results will not be read",
			slog.String("window_start", w.start.UTC().Format(requestDateLayout)),
			slog.String("window_end", w.end.UTC().Format(requestDateLayout)),
			slog.Int("resubmission", n),
			slog.Duration("wait", wait),
			slog.String("error", cause.Error()))
	}
}

// articleKey identifies an article for de-duplication.
type articleKey struct {
	byURL bool
	value string
}

// keyOf returns the article's identity: its ID, else its URL; false when it
// has neither.
func keyOf(a *Article) (articleKey, bool) {
	switch {
	case a.ID != "":
		return articleKey{value: a.ID}, true
	case a.URL != "":
		return articleKey{byURL: true, value: a.URL}, true
	}
	return articleKey{}, false
}

// fresh reports whether window wi delivers article a: it owns a, and no
// window delivered a already. Only an undated article, or one shown with
// another second by another window, can come from two windows: the keys
// of undated articles and of those near a boundary are remembered, the
// others need not be.
func (r *rangeRun) fresh(wi int, a *Article) bool {
	d := a.DatePublished.Time
	if !d.IsZero() && !r.call.owns(wi, d) {
		return false
	}
	k, ok := keyOf(a)
	if !ok || !d.IsZero() && !r.call.nearBoundary(d) {
		return true
	}
	_, dup := r.seen[k]
	r.seen[k] = struct{}{}
	return !dup
}

// accept keeps the articles window wi delivers and returns them in the
// call's order.
func (r *rangeRun) accept(wi int, articles []Article) []Article {
	batch := slices.DeleteFunc(articles, func(a Article) bool { return !r.fresh(wi, &a) })
	r.accepted += len(batch)
	slices.SortStableFunc(batch, func(a, b Article) int { return r.call.compare(&a, &b) })
	return batch
}

// report counts a window searched by the loop and calls OnProgress.
func (r *rangeRun) report(failed bool) {
	rc := r.call
	limit, throttled := r.gate.state()
	r.mu.Lock()
	r.finished++
	if failed {
		r.failures++
	}
	p := RangeProgress{WindowsDone: r.finished, WindowsFailed: r.failures, WindowsTotal: len(rc.windows),
		Articles: r.accepted, WindowsSkipped: len(rc.done), Concurrency: limit, Throttled: throttled, Resubmitted: r.resubmits}
	r.mu.Unlock()
	if rc.cfg.onProgress != nil {
		rc.cfg.onProgress(p)
	}
}
