package newssearch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of RangeOptions.
const (
	// DefaultRangeWindow is the span of one window of SearchRange, as in
	// the service's own SDK.
	DefaultRangeWindow = 7 * 24 * time.Hour
	// DefaultRangeConcurrency is the number of windows SearchRange runs at
	// once. With it, 90 days (13 windows) take two rounds of jobs instead of
	// thirteen.
	DefaultRangeConcurrency = 8
)

// maxRangeWindows bounds the number of windows of one SearchRange call.
const maxRangeWindows = 10000

// RangeOptions configure Client.SearchRange. A nil *RangeOptions, and every
// zero field, means the default.
type RangeOptions struct {
	// Window is the span of each window, at least a millisecond; 0 means
	// DefaultRangeWindow.
	Window time.Duration
	// Concurrency is the number of windows searched at once, at least 1;
	// 0 means DefaultRangeConcurrency.
	Concurrency int
	// Prefetch is the number of pages of each window's job fetched ahead
	// concurrently (see PageOptions.Prefetch); 0 fetches one page at a time.
	Prefetch int
	// Poll configures the wait for each window's job; nil means the
	// defaults of PollOptions.
	Poll *PollOptions
	// KeepPartial makes SearchRange return the articles of the windows that
	// succeeded, with a *PartialRangeError naming the failed ones, instead
	// of failing as soon as one window fails.
	KeepPartial bool
	// OnProgress, when set, is called after each window finishes. Calls
	// never overlap; keep them quick, as they hold up the other windows'
	// progress reports.
	OnProgress func(RangeProgress)
	// Skip lists windows not to search, because an earlier call with the
	// same parameters and Window delivered them: pass the Finished windows
	// of its *RangeError (SearchRangeSeq) or *PartialRangeError
	// (SearchRange with KeepPartial) to resume it. Each must be one of the
	// call's windows (see RangeWindows), or the call fails with a
	// *ValidationError before any request.
	Skip []RangeWindow
}

// RangeProgress reports the progress of a SearchRange call.
type RangeProgress struct {
	// WindowsDone counts the windows finished, failed ones included.
	WindowsDone int
	// WindowsFailed counts the windows that failed (only with KeepPartial).
	WindowsFailed int
	// WindowsTotal is the number of windows of the call.
	WindowsTotal int
	// Articles counts the distinct articles found so far.
	Articles int
	// WindowsSkipped counts the windows passed over through
	// RangeOptions.Skip; they are not in WindowsDone.
	WindowsSkipped int
	// Concurrency is the number of windows allowed in flight now: it starts
	// at RangeOptions.Concurrency, halves (down to 1) when the service
	// answers 429 Too Many Requests, and grows by one per window finished
	// without a 429.
	Concurrency int
	// Throttled counts the 429 answers the call's requests got so far
	// (each retried by the client).
	Throttled int
	// Resubmitted counts the windows' queries submitted again after a
	// submission whose outcome was unknown (see Client.SearchRange); each
	// may have left an unread job on the service.
	Resubmitted int
}

// WindowError reports a window of SearchRange that failed. Err is the
// cause: an *APIError, a *JobFailedError, a *PollTimeoutError...
type WindowError struct {
	// Start and End are the window's bounds (both inclusive).
	Start, End time.Time
	// Err is the cause.
	Err error
}

// Error names the window and the cause.
func (e *WindowError) Error() string {
	return "newssearch: window " + e.Start.UTC().Format(requestDateLayout) + " to " +
		e.End.UTC().Format(requestDateLayout) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *WindowError) Unwrap() error { return e.Err }

// PartialRangeError is the error SearchRange returns with KeepPartial when
// some windows failed: the articles returned miss those windows. Unwrap
// returns the window errors, so errors.Is and errors.As see their causes.
type PartialRangeError struct {
	// Failed lists the failed windows in date order.
	Failed []*WindowError
	// Windows is the number of windows of the call.
	Windows int
	// Finished lists the windows whose articles were delivered, in date
	// order, skipped ones included: pass it as RangeOptions.Skip to search
	// only the failed windows again.
	Finished []RangeWindow
}

// Error lists the failed windows.
func (e *PartialRangeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "newssearch: %d of %d windows failed, their articles are missing: search those windows again", len(e.Failed), e.Windows)
	for _, w := range e.Failed {
		b.WriteString("; " + strings.TrimPrefix(w.Error(), "newssearch: "))
	}
	return b.String()
}

// Unwrap returns the window errors.
func (e *PartialRangeError) Unwrap() []error {
	errs := make([]error, len(e.Failed))
	for i, w := range e.Failed {
		errs[i] = w
	}
	return errs
}

// rangeConfig is a resolved and validated RangeOptions.
type rangeConfig struct {
	window      time.Duration
	concurrency int
	prefetch    int
	poll        pollConfig
	keepPartial bool
	onProgress  func(RangeProgress)
	skip        []RangeWindow
}

// apply makes o an Option: it replaces the range settings given before;
// its Poll, if set, applies as a *PollOptions would.
func (o *RangeOptions) apply(s *settings) {
	if o == nil {
		return
	}
	m := *o
	s.rng = &m
	o.Poll.apply(s)
}

// resolve applies the defaults to o and validates the result (without
// the poll settings, which the call resolves).
func (o *RangeOptions) resolve() (rangeConfig, error) {
	cfg := rangeConfig{window: DefaultRangeWindow, concurrency: DefaultRangeConcurrency}
	if o == nil {
		return cfg, nil
	}
	switch {
	case o.Window < 0 || (o.Window > 0 && o.Window < time.Millisecond):
		return cfg, &ValidationError{Field: "RangeOptions.Window", Problem: o.Window.String() +
			" is not a window: pass a span of at least 1ms, e.g. 24*time.Hour, or 0 for the default of 7 days"}
	case o.Concurrency < 0:
		return cfg, &ValidationError{Field: "RangeOptions.Concurrency", Problem: strconv.Itoa(o.Concurrency) +
			" is negative: pass the number of windows to search at once, or 0 for the default " + strconv.Itoa(DefaultRangeConcurrency)}
	}
	if err := checkPrefetch("RangeOptions.Prefetch", o.Prefetch); err != nil {
		return cfg, err
	}
	if o.Window > 0 {
		cfg.window = o.Window
	}
	if o.Concurrency > 0 {
		cfg.concurrency = o.Concurrency
	}
	cfg.prefetch, cfg.keepPartial, cfg.onProgress, cfg.skip = o.Prefetch, o.KeepPartial, o.OnProgress, o.Skip
	return cfg, nil
}

// resolveRange resolves a range call's settings.
func resolveRange(cs *settings) (rangeConfig, error) {
	cfg, err := cs.rng.resolve()
	if err != nil {
		return cfg, err
	}
	cfg.poll, err = cs.poll.resolve()
	return cfg, err
}

// window is one slice of the range.
type window struct{ start, end time.Time }

// splitRange cuts [start, end] into windows of span w; adjacent windows
// share their boundary instant, as the service's bounds are inclusive.
func splitRange(start, end time.Time, w time.Duration) ([]window, error) {
	var out []window
	for s := start; ; {
		e := s.Add(w)
		if !e.Before(end) {
			return append(out, window{s, end}), nil
		}
		out = append(out, window{s, e})
		if len(out) >= maxRangeWindows {
			return nil, &ValidationError{Field: "RangeOptions.Window", Problem: "a window of " + w.String() +
				" cuts the range into more than " + strconv.Itoa(maxRangeWindows) + " windows: pass a larger window"}
		}
		s = e
	}
}

// SearchRange searches [params.StartDate, params.EndDate] (both required,
// both inclusive) with one asynchronous job per window of the range (see
// RangeOptions), several windows at a time, pages every job to the end,
// and returns the merged articles.
//
// Each article comes back once, even when adjacent windows both hold it
// (they share their boundary instant): articles are the same when their
// IDs are, or, without IDs, their URLs; the copy from the earliest window
// is kept. The articles are ordered as params.SortOrder asks: by Score,
// highest first (SortRelevance, the default), or by DatePublished, newest
// first and undated last (SortDatePublished); ties are ordered by ID, then
// URL, so the order is total.
//
// A window whose submission fails in a way that leaves unknown whether
// the job exists (a connection reset, a 5xx from a proxy) is submitted again, up to the client's retry count
// (WithMaxRetries); see RangeProgress.Resubmitted. When a window fails, the
// call fails with a *WindowError naming the earliest failed window (the
// windows after it are cancelled, the ones before it finish, so the window
// named does not depend on timing), unless RangeOptions.KeepPartial is set:
// then it returns the articles of the other windows and a
// *PartialRangeError.
// When ctx is cancelled SearchRange returns ctx's error, wrapped, and no
// articles. It returns only after every goroutine it started has ended.
func (c *Client) SearchRange(ctx context.Context, params AsyncSearchParams, opts ...Option) ([]Article, error) {
	if err := c.checkCall(ctx, "SearchRange"); err != nil {
		return nil, err
	}
	ctx, cs, err := c.begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	cfg, err := resolveRange(cs)
	if err != nil {
		return nil, err
	}
	windows, err := rangeWindows(&params, cfg.window)
	if err != nil {
		return nil, err
	}
	todo, err := skipWindows(windows, cfg.skip)
	if err != nil {
		return nil, err
	}
	params.Sites = slices.Clone(params.Sites)
	r := &rangeRun{c: c, logger: cs.logger, cfg: &cfg, params: params, windows: windows, todo: todo, skipped: len(windows) - len(todo),
		gate:  newAIMD(cfg.concurrency),
		found: make([][]Article, len(windows)), errs: make([]error, len(windows)), seen: make(map[articleKey]struct{})}
	r.run(ctx)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("newssearch: SearchRange stopped: %w", err)
	}
	var failed []*WindowError
	for _, e := range r.errs {
		if we, ok := e.(*WindowError); ok {
			failed = append(failed, we)
		}
	}
	if len(failed) > 0 && !cfg.keepPartial {
		return nil, failed[0]
	}
	articles := mergeArticles(r.found, params.SortOrder)
	if len(failed) > 0 {
		var finished []RangeWindow
		for i, w := range windows {
			if r.errs[i] == nil {
				finished = append(finished, RangeWindow{Start: w.start, End: w.end})
			}
		}
		return articles, &PartialRangeError{Failed: failed, Windows: len(windows), Finished: finished}
	}
	return articles, nil
}

// rangeWindows validates the range parameters and splits the range.
func rangeWindows(params *AsyncSearchParams, w time.Duration) ([]window, error) {
	switch {
	case params.StartDate.IsZero() || params.EndDate.IsZero():
		return nil, &ValidationError{Field: "AsyncSearchParams.StartDate", Problem: "SearchRange needs both StartDate and EndDate: set both bounds of the range"}
	case params.Page > 1:
		return nil, &ValidationError{Field: "AsyncSearchParams.Page", Problem: "SearchRange pages every window itself: leave Page at 0"}
	}
	if err := params.validateAsync(); err != nil {
		return nil, err
	}
	return splitRange(params.StartDate, params.EndDate, w)
}

// rangeRun is the state of one SearchRange call.
type rangeRun struct {
	c       *Client
	logger  *slog.Logger // the call's
	cfg     *rangeConfig
	params  AsyncSearchParams
	windows []window
	found   [][]Article // per window, in page order
	errs    []error     // per window: a *WindowError, or a cancellation

	gate    *aimd // adapts the windows in flight to 429 answers
	todo    []int // indices of the windows to search (not skipped)
	skipped int

	mu        sync.Mutex // guards the progress state below
	done      int
	failures  int
	resubmits int
	seen      map[articleKey]struct{}
}

// searchGated runs search once the adaptive gate lets the window start,
// and feeds the 429s its requests meet back to the gate.
//
// With a ready channel (SearchRangeSeq), the window submits its job and
// polls it to its first page, then gives its place under the gate back
// and waits for ready before fetching the other pages, under the gate
// again: the windows ahead of the one being yielded hold one page each,
// not all their articles.
func (r *rangeRun) searchGated(ctx context.Context, wi int, ready <-chan struct{}) ([]Article, error) {
	w := r.windows[wi]
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
	if err == nil && ready != nil {
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
	return r.owned(wi, articles), err
}

// owned keeps the articles window wi owns. Adjacent windows share their
// boundary instant, and an article published on it belongs to the older
// window, the one it ends: so each dated article has exactly one window,
// whatever windows fail, are skipped or are resumed.
func (r *rangeRun) owned(wi int, articles []Article) []Article {
	if wi == 0 {
		return articles
	}
	start := r.windows[wi].start
	return slices.DeleteFunc(articles, func(a Article) bool {
		d := a.DatePublished.Time
		return !d.IsZero() && !d.After(start)
	})
}

// progressLocked builds a progress report; r.mu must be held.
func (r *rangeRun) progressLocked(articles int) RangeProgress {
	limit, throttled := r.gate.state()
	return RangeProgress{WindowsDone: r.done, WindowsFailed: r.failures, WindowsTotal: len(r.windows),
		Articles: articles, WindowsSkipped: r.skipped, Concurrency: limit, Throttled: throttled, Resubmitted: r.resubmits}
}

// run searches every window with bounded concurrency. Windows start in
// date order. Without KeepPartial, a failed window cancels the windows
// after it, but the windows before it run on: one of them may fail too,
// and the call reports the earliest failed window, whatever the timing.
func (r *rangeRun) run(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var (
		next        atomic.Int64
		wg          sync.WaitGroup
		mu          sync.Mutex // guards firstFailed and cancels
		firstFailed = len(r.windows)
		cancels     = make([]context.CancelFunc, len(r.windows))
	)
	// start registers window i, or reports false when an earlier window
	// has failed, so that i cannot change the outcome.
	start := func(i int) (context.Context, bool) {
		mu.Lock()
		defer mu.Unlock()
		if i > firstFailed {
			return nil, false
		}
		wctx, wcancel := context.WithCancel(ctx)
		cancels[i] = wcancel
		return wctx, true
	}
	finish := func(i int, failed bool) {
		mu.Lock()
		defer mu.Unlock()
		cancels[i]()
		cancels[i] = nil
		if failed && i < firstFailed {
			firstFailed = i
			for _, c := range cancels[i+1:] {
				if c != nil {
					c()
				}
			}
		}
	}
	for range min(r.cfg.concurrency, len(r.todo)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= len(r.todo) || ctx.Err() != nil {
					return
				}
				i := r.todo[k]
				wctx, ok := start(i)
				if !ok {
					return
				}
				articles, err := r.searchGated(wctx, i, nil)
				if err != nil && wctx.Err() != nil && errors.Is(err, context.Canceled) {
					r.errs[i] = err // cancelled: not the window's fault
					finish(i, false)
					continue
				}
				if err != nil {
					r.errs[i] = &WindowError{Start: r.windows[i].start, End: r.windows[i].end, Err: err}
					if !r.cfg.keepPartial {
						finish(i, true)
						continue
					}
				}
				finish(i, false)
				r.found[i] = articles
				r.progress(articles, err != nil)
			}
		})
	}
	wg.Wait()
}

// submit runs the job of one window and polls it to its first page.
//
// A submission whose outcome is unknown (see ambiguous: a connection reset,
// a 503 from a proxy) is submitted again, up to the client's retry count:
// the first submission may have created a job, but its results are never
// read, so the duplicate costs the service some work and never the caller
// a wrong result. WithMaxRetries, given to the range call, bounds the
// resubmissions as it bounds retries. Every resubmission is counted in
// RangeProgress.Resubmitted and logged. A submission the service refused
// (a 4xx) is never repeated.
func (r *rangeRun) submit(ctx context.Context, w window) (*Page, error) {
	p := r.params
	p.StartDate, p.EndDate = w.start, w.end
	var job *QueryJob
	for attempt := 0; ; attempt++ {
		var err error
		job, err = r.c.SubmitQuery(ctx, p)
		if err == nil {
			break
		}
		cs := callFrom(ctx)
		if attempt >= cs.maxRetries || ctx.Err() != nil || !ambiguous(err) {
			return nil, err
		}
		wait := r.c.cfg.backoff(cs.waitMin, cs.waitMax, attempt, nil)
		r.resubmitting(w, attempt+1, wait, err)
		if err := sleepContext(ctx, wait); err != nil {
			return nil, err
		}
	}
	return r.c.poll(ctx, job.QueryID, 1, &r.cfg.poll, true)
}

// pages reads a finished window job from its first page to the last.
func (r *rangeRun) pages(ctx context.Context, first *Page) ([]Article, error) {
	// Sized from the total, so the slice is not regrown (and its old
	// arrays left for the collector) page after page; a total beyond
	// maxWindowPrealloc grows as needed.
	out := make([]Article, 0, min(max(first.TotalResults, len(first.Articles)), maxWindowPrealloc))
	pages := r.c.jobPages(ctx, first.QueryID, r.cfg.prefetch, func(context.Context) (*Page, error) { return first, nil })
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
	if errors.As(err, &ve) {
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
	if l := r.logger; l != nil {
		l.LogAttrs(context.Background(), slog.LevelWarn, "newssearch: resubmitting a window's query; the failed submission may have created a job whose results will not be read",
			slog.String("window_start", w.start.UTC().Format(requestDateLayout)),
			slog.String("window_end", w.end.UTC().Format(requestDateLayout)),
			slog.Int("resubmission", n),
			slog.Duration("wait", wait),
			slog.String("error", cause.Error()))
	}
}

// progress records a finished window and reports it.
func (r *rangeRun) progress(articles []Article, failed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	if failed {
		r.failures++
	}
	for i := range articles {
		if k, ok := keyOf(&articles[i]); ok {
			r.seen[k] = struct{}{}
		}
	}
	if r.cfg.onProgress != nil {
		r.cfg.onProgress(r.progressLocked(len(r.seen)))
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

// mergeArticles concatenates the windows' articles in window order, drops
// repeats (keeping the first) and sorts the rest as order asks.
func mergeArticles(windows [][]Article, order SortOrder) []Article {
	seen := make(map[articleKey]struct{})
	var out []Article
	for _, articles := range windows {
		for _, a := range articles {
			if k, ok := keyOf(&a); ok {
				if _, dup := seen[k]; dup {
					continue
				}
				seen[k] = struct{}{}
			}
			out = append(out, a)
		}
	}
	byDate := strings.EqualFold(string(order), string(SortDatePublished))
	slices.SortStableFunc(out, func(a, b Article) int {
		var c int
		if byDate {
			c = compareNewestFirst(a.DatePublished.Time, b.DatePublished.Time)
		} else {
			c = cmp.Compare(b.Score, a.Score)
		}
		return cmp.Or(c, strings.Compare(a.ID, b.ID), strings.Compare(a.URL, b.URL))
	})
	return out
}

// compareNewestFirst orders later times first and zero times last.
func compareNewestFirst(a, b time.Time) int {
	switch {
	case a.IsZero() || b.IsZero():
		return cmp.Compare(boolInt(a.IsZero()), boolInt(b.IsZero()))
	}
	return b.Compare(a)
}

// boolInt returns 1 for true and 0 for false.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
