package newssearch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// DefaultStallTimeout is the longest the client waits, within one attempt,
// for the service's next sign of life: the response headers, then each read
// of the body. See WithStallTimeout.
//
// With it and the default retries, a connection that stalls for ever costs
// a call about a minute (four attempts of 15 s and the waits between them)
// instead of blocking it until the caller's deadline.
const DefaultStallTimeout = 15 * time.Second

// ErrAttemptTimeout matches the error of an attempt the client itself gave
// up on: the service stayed silent for longer than the stall timeout (see
// WithStallTimeout), or the attempt outlasted the call's WithAttemptTimeout,
// DefaultHTTPTimeout (without WithHTTPClient) or the Timeout of the
// *http.Client given with WithHTTPClient. Such an attempt
// is retried like any transport failure, except by SubmitQuery (see
// Client).
//
// It never matches context.DeadlineExceeded, which is kept for the deadline
// of the caller's own context: errors.Is(err, context.DeadlineExceeded)
// means "your deadline", errors.Is(err, ErrAttemptTimeout) "the service did
// not answer in time".
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

// stalledHeaders and stalledBody build the errors of a stalled attempt.
func stalledError(limit time.Duration, what string) error {
	return &attemptTimeoutError{what: "no " + what + " for " + limit.String() +
		" (the client's stall timeout): the service or a proxy on the way stopped answering; raise it with newssearch.WithStallTimeout"}
}

// clientTimeoutError builds the error of an attempt that outlasted the
// *http.Client's Timeout while the caller's context was still live.
func clientTimeoutError(err error) error {
	return &attemptTimeoutError{what: "the attempt outlasted the HTTP client's Timeout (" + err.Error() +
		"): raise http.Client.Timeout, or pass a context deadline instead"}
}

// sdkTransport is the RoundTripper of every Client's HTTP client. It
//
//   - sends each attempt through next (http.DefaultTransport, read when the
//     attempt starts, when next is nil, as net/http does for a client
//     without a Transport);
//   - bounds the wait for headers and for every body read by stall,
//     except in a call with WithAttemptTimeout, whose limit replaces it;
//   - has no CloseIdleConnections method, so that go-retryablehttp, which
//     calls http.Client.CloseIdleConnections after every failed or
//     cancelled call, can never close the idle connections of the caller's
//     transport, shared with the rest of the program.
type sdkTransport struct {
	next  http.RoundTripper
	stall time.Duration // 0: no stall limit
}

// RoundTrip sends r, watching it for stalls.
func (t *sdkTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	stall := t.stall
	if cs := callFrom(r.Context()); cs != nil {
		stall = cs.stall
	}
	if stall <= 0 || callFrom(r.Context()).hasAttemptTimeout() {
		return next.RoundTrip(r) // no limit, or the call's own replaces it
	}
	ctx, cancel := context.WithCancelCause(r.Context())
	w := &watchdog{cancel: cancel, limit: stall, what: "response headers"}
	w.timer = time.AfterFunc(stall, w.fire)
	resp, err := next.RoundTrip(r.WithContext(ctx))
	if err != nil {
		w.stop()
		return nil, w.translate(ctx, r.Context(), err)
	}
	w.progress("response body")
	resp.Body = &watchedBody{body: resp.Body, w: w, ctx: ctx, parent: r.Context()}
	return resp, nil
}

// watchdog cancels an attempt that shows no progress for limit.
type watchdog struct {
	cancel context.CancelCauseFunc
	limit  time.Duration

	mu    sync.Mutex
	what  string // what the attempt waits for now
	timer *time.Timer
	err   error // set when the watchdog fired
}

// fire cancels the attempt.
func (w *watchdog) fire() {
	w.mu.Lock()
	if w.err == nil {
		w.err = stalledError(w.limit, w.what)
	}
	err := w.err
	w.mu.Unlock()
	w.cancel(err)
}

// progress restarts the clock: the attempt now waits for what.
func (w *watchdog) progress(what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.what = what
	if w.err == nil {
		w.timer.Reset(w.limit)
	}
}

// stop ends the watch and releases the attempt's context.
func (w *watchdog) stop() {
	w.timer.Stop()
	w.cancel(context.Canceled)
}

// translate replaces the error of an attempt the watchdog cancelled (while
// the caller's context parent is live) by the stall error.
func (w *watchdog) translate(ctx, parent context.Context, err error) error {
	if err == nil || parent.Err() != nil {
		return err
	}
	var ate *attemptTimeoutError
	if cause := context.Cause(ctx); errors.As(cause, &ate) {
		return cause
	}
	return err
}

// watchedBody restarts the watchdog on every read that brings data.
type watchedBody struct {
	body   io.ReadCloser
	w      *watchdog
	ctx    context.Context
	parent context.Context
}

// Read reads from the body, reporting a stall as such.
func (b *watchedBody) Read(p []byte) (int, error) {
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
func (b *watchedBody) Close() error {
	err := b.body.Close()
	b.w.stop()
	return err
}
