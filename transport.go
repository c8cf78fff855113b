package newssearch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// DefaultStallTimeout is the default of WithStallTimeout.
const DefaultStallTimeout = 15 * time.Second

// ErrAttemptTimeout matches the error of an attempt the client gave up on
// (stall or attempt timeout); such an attempt is retried. It never matches
// context.DeadlineExceeded, which means the caller's own deadline.
var ErrAttemptTimeout = errors.New("newssearch: attempt timed out")

// attemptTimeoutError reports an attempt ended by the client's own limits.
// It deliberately does not unwrap to the context or net/http error behind
// it, so that it never matches context.DeadlineExceeded.
type attemptTimeoutError struct {
	what string // what did not arrive, or which limit ran out
}

// Error says what timed out and how to change the limit.
func (e *attemptTimeoutError) Error() string { return e.what }

// Is makes errors.Is(err, ErrAttemptTimeout) hold.
func (e *attemptTimeoutError) Is(target error) bool { return target == ErrAttemptTimeout }

// Timeout reports true, as net.Error timeouts do.
func (e *attemptTimeoutError) Timeout() bool { return true }

// clientTimeoutError builds the error of an attempt that outlasted the
// *http.Client's Timeout while the caller's context was still live.
func clientTimeoutError(err error) error {
	return &attemptTimeoutError{what: "the attempt outlasted the HTTP client's Timeout (" + err.Error() +
		"): raise http.Client.Timeout, or pass a context deadline instead"}
}

// attemptGuard is the one timer of an attempt: it sends the attempt
// through next (the middleware chain and the HTTP client's own transport)
// and ends it, with an error matching ErrAttemptTimeout, when the service
// stays silent for the stall timeout (waiting for the headers, then between
// reads of the body: WithStallTimeout) or when the attempt as a whole
// outlasts the attempt timeout (WithAttemptTimeout, else
// DefaultAttemptTimeout for a Client made without WithHTTPClient), whichever
// comes first. Both come from the call's settings, else the Client's.
//
// Like clientTransport in front of it, it has no CloseIdleConnections
// method, so that go-retryablehttp, which calls
// http.Client.CloseIdleConnections after every failed or cancelled call,
// can never close the idle connections of the caller's transport, shared
// with the rest of the program.
type attemptGuard struct {
	next     http.RoundTripper
	defaults *settings // the Client's, for a request without call settings
}

// RoundTrip sends r under the call's limits.
func (g *attemptGuard) RoundTrip(r *http.Request) (*http.Response, error) {
	cs := callFrom(r.Context())
	if cs == nil {
		cs = g.defaults
	}
	if cs.stall <= 0 && cs.attemptTimeout <= 0 {
		return g.next.RoundTrip(r)
	}
	ctx, cancel := context.WithCancelCause(r.Context())
	w := &watch{cancel: cancel, stall: cs.stall, what: "response headers"}
	if cs.stall > 0 {
		w.stallTimer = time.AfterFunc(cs.stall, w.stalled)
	}
	if d := cs.attemptTimeout; d > 0 {
		limit := "DefaultAttemptTimeout, the limit of a Client made without WithHTTPClient): pass WithAttemptTimeout to allow the call longer attempts"
		if cs.attemptSet {
			limit = "WithAttemptTimeout): raise it, or leave it out to keep the client's limits"
		}
		err := &attemptTimeoutError{what: "the attempt outlasted " + d.String() + " (" + limit}
		w.totalTimer = time.AfterFunc(d, func() { w.fire(err) })
	}
	resp, err := g.next.RoundTrip(r.WithContext(ctx))
	if err != nil {
		w.stop()
		return nil, w.translate(ctx, r.Context(), err)
	}
	w.progress("response body")
	resp.Body = &guardedBody{body: resp.Body, w: w, ctx: ctx, parent: r.Context()}
	return resp, nil
}

// watch ends an attempt that shows no progress for stall, or outlasts its
// total, by cancelling its context with the reason.
type watch struct {
	cancel     context.CancelCauseFunc
	stall      time.Duration
	stallTimer *time.Timer // nil: no stall limit
	totalTimer *time.Timer // nil: no total limit

	mu   sync.Mutex
	what string // what the attempt waits for now
	err  error  // set when a limit ran out
}

// stalled ends the attempt for its silence.
func (w *watch) stalled() {
	w.mu.Lock()
	what := w.what
	w.mu.Unlock()
	w.fire(&attemptTimeoutError{what: "no " + what + " for " + w.stall.String() +
		" (the client's stall timeout): the service or a proxy on the way stopped answering; raise it with newssearch.WithStallTimeout"})
}

// fire cancels the attempt with err, unless a limit ran out already.
func (w *watch) fire(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	err = w.err
	w.mu.Unlock()
	w.cancel(err)
}

// progress restarts the stall clock: the attempt now waits for what.
func (w *watch) progress(what string) {
	if w.stallTimer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.what = what
	if w.err == nil {
		w.stallTimer.Reset(w.stall)
	}
}

// stop ends the watch and releases the attempt's context.
func (w *watch) stop() {
	if w.stallTimer != nil {
		w.stallTimer.Stop()
	}
	if w.totalTimer != nil {
		w.totalTimer.Stop()
	}
	w.cancel(context.Canceled)
}

// translate replaces the error of an attempt the watch cancelled (while
// the caller's context parent is live) by the limit's error.
func (w *watch) translate(ctx, parent context.Context, err error) error {
	if err == nil || parent.Err() != nil {
		return err
	}
	var ate *attemptTimeoutError
	if cause := context.Cause(ctx); errors.As(cause, &ate) {
		return cause
	}
	return err
}

// guardedBody restarts the stall clock on every read that brings data and
// reports a limit running out during a read as such.
type guardedBody struct {
	body   io.ReadCloser
	w      *watch
	ctx    context.Context
	parent context.Context
}

// Read reads from the body.
func (b *guardedBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if n > 0 {
		b.w.progress("response body")
	}
	if err != nil && err != io.EOF {
		err = b.w.translate(b.ctx, b.parent, err)
	}
	return n, err
}

// Close closes the body and ends the watch.
func (b *guardedBody) Close() error {
	err := b.body.Close()
	b.w.stop()
	return err
}
