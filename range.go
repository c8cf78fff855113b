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

// RangeOptions configure SearchRange and SearchRangeSeq (docs/ranges.md).
// A zero field means the default.
type RangeOptions struct {
	// Window is the span of each window, at least a second; 0 means 7
	// days.
	Window time.Duration
	// Concurrency is the number of windows searched at once; 0 means 8. It
	// adapts to 429 answers.
	Concurrency int
	// Done lists the windows an earlier call with the same parameters
	// finished (RangeError.Finished, or the windows a SearchRangeSeq loop
	// received): they are not searched again.
	Done []WindowResult
	// OnProgress, when set, is called after each window finishes or fails,
	// on the caller's goroutine.
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
	// Articles counts the articles of the windows searched so far.
	Articles int
	// WindowsSkipped counts the windows of RangeOptions.Done.
	WindowsSkipped int
	// Concurrency is the number of windows allowed in flight now.
	Concurrency int
	// Throttled counts the 429 answers so far.
	Throttled int
	// Resubmitted counts the submissions made again after one whose outcome
	// was unknown.
	Resubmitted int
}

// RangeWindow is one window of a range search.
type RangeWindow struct {
	// Start and End bound the window; windows meet at whole seconds.
	Start, End time.Time
}

// String gives the window's bounds in the service's date format, in UTC.
func (w RangeWindow) String() string {
	return w.Start.UTC().Format(requestDateLayout) + " to " + w.End.UTC().Format(requestDateLayout)
}

// WindowResult is one window of a range search with the articles it owns:
// those whose datePublished, to the second, is at or after Start and
// before End (the newest window: up to End).
type WindowResult struct {
	RangeWindow
	// Articles are the window's articles.
	Articles []Article
}

// RangeError reports a range search that did not deliver every window.
// Unwrap returns Err, so errors.Is sees each window's cause.
type RangeError struct {
	// Windows is the number of windows of the range.
	Windows int
	// Finished lists the windows SearchRange delivered: pass it as
	// RangeOptions.Done to search only the missing ones.
	Finished []WindowResult
	// Missing lists the windows not delivered, in date order.
	Missing []RangeWindow
	// Err is the cause: the failed windows' errors and ctx's.
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

func (*RangeOptions) rangeOption() {}

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
	if o == nil {
		o = &RangeOptions{}
	}
	switch {
	case o.Window < 0 || (o.Window > 0 && o.Window < time.Second):
		return rangeConfig{}, &ValidationError{Field: "RangeOptions.Window", Problem: o.Window.String() +
			" is not a window: pass a span of at least 1s, e.g. 24*time.Hour, or 0 for the default of 7 days"}
	case o.Concurrency < 0:
		return rangeConfig{}, &ValidationError{Field: "RangeOptions.Concurrency", Problem: strconv.Itoa(o.Concurrency) +
			" is negative: pass the number of windows to search at once, or 0 for the default " + strconv.Itoa(defaultRangeConcurrency)}
	}
	return rangeConfig{window: cmp.Or(o.Window, defaultRangeWindow), concurrency: cmp.Or(o.Concurrency, defaultRangeConcurrency),
		onProgress: o.OnProgress, done: o.Done}, nil
}

// window is one slice of the range.
type window struct{ start, end time.Time }

// splitRange cuts [start, end] into windows of span w (at least a
// second) that meet at whole seconds, the precision of the dates the
// service shows; adjacent windows share their boundary, and the last
// takes what is left of a second.
func splitRange(start, end time.Time, w time.Duration) ([]window, error) {
	var out []window
	for s := start; ; {
		e := s.Add(w).Truncate(time.Second)
		if end.Sub(e) < time.Second {
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
	if err := params.validate("AsyncSearchParams"); err != nil {
		return nil, err
	}
	return splitRange(params.StartDate, params.EndDate, w)
}

// RangeWindows returns the windows, in date order, that the range searches
// cut params' range into with opts.Window.
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

// SearchRange searches [params.StartDate, params.EndDate] with one job per
// window, several at a time, and returns every article once, ordered as
// params.SortOrder asks. A range that did not deliver every window returns
// the windows it finished with a *RangeError; see docs/ranges.md.
func (c *Client) SearchRange(ctx context.Context, params AsyncSearchParams, opts ...RangeOption) ([]Article, error) {
	r, err := c.startRange(ctx, "SearchRange", params, opts)
	if err != nil {
		return nil, err
	}
	delivered := make([]bool, len(r.windows))
	var finished []WindowResult
	var failed []error // window errors, newest first
	var stop error     // the context's
	for w, err := range r.seq() {
		var re *RangeError
		var stopped *stoppedError
		switch {
		case err == nil:
			delivered[r.index(w.RangeWindow)] = true
			finished = append(finished, w)
		case errors.As(err, &re) && errors.As(re.Err, &stopped):
			stop = re.Err
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
	if len(failed) == 0 && stop == nil {
		return articles, nil
	}
	// Window errors in date order (they came newest first, whatever the
	// timing), the context's last.
	slices.Reverse(failed)
	if stop != nil {
		failed = append(failed, stop)
	}
	return articles, &RangeError{Windows: len(r.windows), Finished: finished, Missing: r.missing(delivered), Err: windowErrors(failed)}
}

// SearchRangeSeq is SearchRange as an iterator over the windows, newest
// first, holding about two windows in memory. A failed window is yielded
// with a *RangeError and the loop may go on; see docs/ranges.md.
func (c *Client) SearchRangeSeq(ctx context.Context, params AsyncSearchParams, opts ...RangeOption) iter.Seq2[WindowResult, error] {
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
		c = b.DatePublished.Time.Compare(a.DatePublished.Time) // the zero time, undated, is the oldest
	} else {
		c = cmp.Compare(b.Score, a.Score)
	}
	return cmp.Or(c, strings.Compare(a.ID, b.ID), strings.Compare(a.URL, b.URL))
}
