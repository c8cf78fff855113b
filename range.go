package newssearch

import (
	"cmp"
	"context"
	"errors"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults of RangeOptions.
const (
	// defaultRangeWindow is the span of one window, as in the service's own
	// SDK.
	defaultRangeWindow = 7 * 24 * time.Hour
	// defaultRangeConcurrency is the number of windows searched at once.
	// With it, 90 days (13 windows) take two rounds of jobs instead of
	// thirteen.
	defaultRangeConcurrency = 8
)

// maxRangeWindows bounds the number of windows of one range.
const maxRangeWindows = 10000

// RangeOptions configure SearchRange and SearchRangeSeq. Pass one to
// NewClient (as every range's default) or to a call: it replaces any given
// before whole. A nil *RangeOptions, and every zero field, means the
// default. How each window's job is waited for and paged is set by the
// call's PollOptions and PageOptions.
type RangeOptions struct {
	// Window is the span of each window, at least a millisecond; 0 means
	// 7 days.
	Window time.Duration
	// Concurrency is the number of windows searched at once, at least 1;
	// 0 means 8. It adapts to the service's rate limit: see
	// RangeProgress.Concurrency.
	Concurrency int
	// Done lists windows an earlier call with the same parameters and
	// Window finished, with the articles it delivered for each (a
	// SearchRange's RangeError.Finished, or the WindowResults a
	// SearchRangeSeq loop received). They are not searched again:
	// SearchRangeSeq yields each in its turn as given, without a request,
	// and SearchRange returns their articles with the others. A caller
	// that keeps the articles elsewhere, such as a stream written to disk,
	// may leave Articles nil. Each must be one of the call's windows (see
	// RangeWindows), or the call fails with a *ValidationError before any
	// request.
	Done []WindowResult
	// OnProgress, when set, is called after each window searched by the
	// call finishes or fails, on the goroutine ranging over SearchRangeSeq
	// (or the one calling SearchRange). Calls never overlap; keep them
	// quick.
	OnProgress func(RangeProgress)
}

// RangeProgress reports the progress of a range search.
type RangeProgress struct {
	// WindowsDone counts the windows finished, failed ones included.
	WindowsDone int
	// WindowsFailed counts the windows that failed.
	WindowsFailed int
	// WindowsTotal is the number of windows of the call.
	WindowsTotal int
	// Articles counts the articles delivered so far by the windows the
	// call searched (not those of RangeOptions.Done).
	Articles int
	// WindowsSkipped counts the windows given in RangeOptions.Done; they
	// are not in WindowsDone.
	WindowsSkipped int
	// Concurrency is the number of windows allowed in flight now: it starts
	// at RangeOptions.Concurrency, halves (down to 1) when a burst of 429
	// Too Many Requests answers comes, and grows by one per window finished
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

// RangeWindow is one window of a range search: both bounds are inclusive,
// and adjacent windows share their boundary instant. RangeWindows lists
// the windows of a call.
type RangeWindow struct {
	// Start and End bound the window, both inclusive.
	Start, End time.Time
}

// String gives the window's bounds in the service's date format, in UTC.
func (w RangeWindow) String() string {
	return w.Start.UTC().Format(requestDateLayout) + " to " + w.End.UTC().Format(requestDateLayout)
}

// WindowResult is one window of a range search with the articles it owns:
// those published after its start (on or after it, for the first window)
// and up to its end, so that an article on a boundary instant belongs to
// the older window, and those without a date that no newer window
// delivered. They are ordered as the call's SortOrder asks (see
// SearchRange).
type WindowResult struct {
	RangeWindow
	// Articles are the window's articles.
	Articles []Article
}

// RangeError reports a range search that did not deliver every window;
// errors.As finds it in the error of SearchRange and of SearchRangeSeq.
// Unwrap returns Err, so errors.Is and errors.As also see each failed
// window's cause (ErrJobFailed, a *PollTimeoutError, context.Canceled...).
type RangeError struct {
	// Windows is the number of windows of the range.
	Windows int
	// Finished lists, for SearchRange, the windows it delivered, in date
	// order, with their articles, RangeOptions.Done included: pass it as
	// RangeOptions.Done to a later call with the same parameters to search
	// only the missing windows and get the whole range. It is nil in the
	// errors of SearchRangeSeq, whose loop received those windows.
	Finished []WindowResult
	// Missing lists the windows not delivered, in date order: those that
	// failed and, when the call was stopped, those it did not finish. In
	// a SearchRangeSeq error for one failed window, it is that window.
	Missing []RangeWindow
	// Err is the cause: the error of a failed window, or of every failed
	// window (each naming its window, earliest first), and the context's
	// error when the call was stopped.
	Err error
}

// Error names the missing windows and the causes.
func (e *RangeError) Error() string {
	cause := strings.TrimPrefix(e.Err.Error(), "newssearch: ")
	if _, many := e.Err.(windowErrors); !many && len(e.Missing) == 1 {
		return "newssearch: window " + e.Missing[0].String() + ": " + cause
	}
	return "newssearch: " + strconv.Itoa(len(e.Missing)) + " of " + strconv.Itoa(e.Windows) +
		" windows missing (pass RangeError.Finished as RangeOptions.Done to search only those): " + cause
}

// Unwrap returns the cause.
func (e *RangeError) Unwrap() error { return e.Err }

// windowError is the error of one window, in a RangeError of several.
type windowError struct {
	w   RangeWindow
	err error
}

func (e *windowError) Error() string {
	return "window " + e.w.String() + ": " + strings.TrimPrefix(e.err.Error(), "newssearch: ")
}

func (e *windowError) Unwrap() error { return e.err }

// windowErrors are the errors of a range's failed windows (and the
// context's), in date order.
type windowErrors []error

func (e windowErrors) Error() string {
	parts := make([]string, len(e))
	for i, err := range e {
		parts[i] = strings.TrimPrefix(err.Error(), "newssearch: ")
	}
	return strings.Join(parts, "; ")
}

func (e windowErrors) Unwrap() []error { return e }

// rangeConfig is a resolved and validated RangeOptions.
type rangeConfig struct {
	window      time.Duration
	concurrency int
	prefetch    int
	poll        pollConfig
	onProgress  func(RangeProgress)
	done        []WindowResult
}

func (*RangeOptions) callOption() {}

// apply makes o a CallOption: it replaces the range settings given before.
func (o *RangeOptions) apply(s *settings) {
	if o == nil {
		return
	}
	m := *o
	s.rng = &m
}

// resolve applies the defaults to o and validates the result (without
// the poll and page settings, which the call resolves).
func (o *RangeOptions) resolve() (rangeConfig, error) {
	cfg := rangeConfig{window: defaultRangeWindow, concurrency: defaultRangeConcurrency}
	if o == nil {
		return cfg, nil
	}
	switch {
	case o.Window < 0 || (o.Window > 0 && o.Window < time.Millisecond):
		return cfg, &ValidationError{Field: "RangeOptions.Window", Problem: o.Window.String() +
			" is not a window: pass a span of at least 1ms, e.g. 24*time.Hour, or 0 for the default of 7 days"}
	case o.Concurrency < 0:
		return cfg, &ValidationError{Field: "RangeOptions.Concurrency", Problem: strconv.Itoa(o.Concurrency) +
			" is negative: pass the number of windows to search at once, or 0 for the default " + strconv.Itoa(defaultRangeConcurrency)}
	}
	if o.Window > 0 {
		cfg.window = o.Window
	}
	if o.Concurrency > 0 {
		cfg.concurrency = o.Concurrency
	}
	cfg.onProgress, cfg.done = o.OnProgress, o.Done
	return cfg, nil
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

// doneWindows maps each window of done to its index in windows. Every
// window of done must be one of windows, once.
func doneWindows(windows []window, done []WindowResult) (map[int]*WindowResult, error) {
	out := make(map[int]*WindowResult, len(done))
	for i := range done {
		s := done[i].RangeWindow
		k, found := slices.BinarySearchFunc(windows, s.Start, func(w window, t time.Time) int { return w.start.Compare(t) })
		if !found || !windows[k].end.Equal(s.End) {
			return nil, &ValidationError{Field: "RangeOptions.Done[" + strconv.Itoa(i) + "]", Problem: "window " + s.String() +
				" is not one of this range's windows: resume with the same StartDate, EndDate and Window as the call that finished it"}
		}
		if _, twice := out[k]; twice {
			return nil, &ValidationError{Field: "RangeOptions.Done[" + strconv.Itoa(i) + "]", Problem: "window " + s.String() +
				" is listed twice: list each finished window once"}
		}
		out[k] = &done[i]
	}
	return out, nil
}

// SearchRange searches [params.StartDate, params.EndDate] (both required,
// both inclusive) with one asynchronous job per window of the range (see
// RangeOptions), several windows at a time, pages every job to the end,
// and returns the articles of every window, each once. It collects what
// SearchRangeSeq yields: the two run the same engine.
//
// Each article comes back once, even when adjacent windows both hold it
// (they share their boundary instant, which belongs to the older window;
// articles are the same when their IDs are, or, without IDs, their URLs).
// The articles are ordered as params.SortOrder asks: by Score, highest
// first (SortRelevance, the default), or by DatePublished, newest first and
// undated last (SortDatePublished); ties are ordered by ID, then URL, so
// the order is total.
//
// A window whose submission fails in a way that leaves unknown whether the
// job exists (a connection reset, a 5xx from a proxy) is submitted again,
// up to the call's retry count (WithMaxRetries), since the lost job's
// results are never read (see the retry policy on Client and
// RangeProgress.Resubmitted). Any other failure
// of a window (after the client's own retries; see Client) does not stop
// the others.
//
// A range that did not deliver every window returns the articles of the
// windows it finished together with a *RangeError naming the missing
// windows, in date order, and their causes, earliest window first (the
// same whatever the timing): never nothing. That includes a cancelled ctx,
// which stops the call at once. Pass RangeError.Finished as
// RangeOptions.Done to search only the missing windows later. Invalid
// parameters or options fail with a *ValidationError before any request.
// SearchRange returns only after every goroutine it started has ended.
func (c *Client) SearchRange(ctx context.Context, params AsyncSearchParams, opts ...CallOption) ([]Article, error) {
	r, err := c.startRange(ctx, "SearchRange", params, opts)
	if err != nil {
		return nil, err
	}
	delivered := make([]bool, len(r.windows))
	var finished []WindowResult
	var failed []error
	for w, err := range r.seq() {
		var re *RangeError
		switch {
		case err == nil:
			delivered[r.index(w.RangeWindow)] = true
			finished = append(finished, w)
		case errors.As(err, &re) && r.stopped(err):
			failed = append(failed, re.Err)
		case errors.As(err, &re):
			failed = append(failed, &windowError{w: re.Missing[0], err: re.Err})
		default:
			return nil, err
		}
	}
	slices.Reverse(finished) // date order
	n := 0
	for _, w := range finished {
		n += len(w.Articles)
	}
	articles := make([]Article, 0, n)
	for _, w := range finished {
		articles = append(articles, w.Articles...)
	}
	slices.SortStableFunc(articles, func(a, b Article) int { return r.compare(&a, &b) })
	if len(failed) == 0 {
		return articles, nil
	}
	var missing []RangeWindow
	for i, w := range r.windows {
		if !delivered[i] {
			missing = append(missing, RangeWindow{Start: w.start, End: w.end})
		}
	}
	// Window errors in date order (they came newest first), the context's
	// last.
	slices.SortStableFunc(failed, func(a, b error) int {
		var wa, wb *windowError
		switch okA, okB := errors.As(a, &wa), errors.As(b, &wb); {
		case okA && okB:
			return wa.w.Start.Compare(wb.w.Start)
		case okA:
			return -1
		case okB:
			return 1
		}
		return 0
	})
	return articles, &RangeError{Windows: len(r.windows), Finished: finished, Missing: missing, Err: windowErrors(failed)}
}

// SearchRangeSeq is the streaming form of SearchRange: it searches the same
// windows the same way and yields each window, with the articles it owns
// (see WindowResult), as it arrives, newest window first, rather than
// holding the whole range. Up to RangeOptions.Concurrency windows run at
// once, but only the window being yielded and the next one fetch all their
// pages; the others submit their job, poll it and hold its first page
// until their turn. So memory holds about two windows' articles, whatever
// the concurrency and the range. Windows of RangeOptions.Done are yielded
// in their turn as given.
//
// Order. Each window's articles come as params.SortOrder asks. With
// SortDatePublished, the windows' articles one after the other are
// SearchRange's order, except that undated articles come at the end of
// their window rather than at the end of the range. With SortRelevance (the
// default) the range as a whole is not sorted by Score: a later window may
// hold higher scores. Each article is yielded once, as with SearchRange.
//
// Errors. A failed window is yielded as (WindowResult{RangeWindow: w},
// *RangeError naming w and its cause); the loop may go on to the next
// windows, or stop. A cancelled ctx ends the loop with one final
// (WindowResult{}, *RangeError) naming the windows not yielded. The
// windows the loop received are the finished ones: pass them (their
// Articles may be nil) as RangeOptions.Done to resume. Validation errors
// are yielded once, before any request, as a *ValidationError. Leaving the
// loop early cancels the windows in flight and waits for them.
func (c *Client) SearchRangeSeq(ctx context.Context, params AsyncSearchParams, opts ...CallOption) iter.Seq2[WindowResult, error] {
	r, err := c.startRange(ctx, "SearchRangeSeq", params, opts)
	if err != nil {
		return func(yield func(WindowResult, error) bool) { yield(WindowResult{}, err) }
	}
	return r.seq()
}

// compareArticles orders articles as SearchRange does: by score, highest
// first, or with byDate by publication, newest first and undated last;
// ties by ID, then URL.
func compareArticles(a, b *Article, byDate bool) int {
	var c int
	if byDate {
		c = compareNewestFirst(a.DatePublished.Time, b.DatePublished.Time)
	} else {
		c = cmp.Compare(b.Score, a.Score)
	}
	return cmp.Or(c, strings.Compare(a.ID, b.ID), strings.Compare(a.URL, b.URL))
}

// compareNewestFirst orders later times first and zero times last.
func compareNewestFirst(a, b time.Time) int {
	switch {
	case a.IsZero() && b.IsZero():
		return 0
	case a.IsZero():
		return 1
	case b.IsZero():
		return -1
	}
	return b.Compare(a)
}
