package newssearch

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// retryPolicy says which failures of an endpoint may be retried.
type retryPolicy int

const (
	// readOnly endpoints (query, get-results, headlines) change nothing on the
	// service, so any transient failure is retried.
	readOnly retryPolicy = iota
	// createsJob endpoints (query-async) create a job; they are retried only
	// where the request provably was not processed.
	createsJob
)

// maxBody caps a successful response body; a larger one is an error.
const maxBody = 32 << 20

// errBodyTooLarge reports a 2xx body over maxBody. It is never retried.
var errBodyTooLarge = errors.New("response body exceeds 32 MiB: refusing to read further; this is not a response the service sends, check the base URL")

// bodyReadError reports a response body that broke off while being read.
type bodyReadError struct{ err error }

// Error names the read failure.
func (e *bodyReadError) Error() string { return "reading response body: " + e.err.Error() }

// Unwrap returns the read failure, e.g. io.ErrUnexpectedEOF.
func (e *bodyReadError) Unwrap() error { return e.err }

// call holds the state of one logical call across its attempts.
type call struct {
	cfg      *config
	ctx      context.Context // the call's, for its log records
	logger   *slog.Logger    // the call's; nil: no logging
	endpoint string
	policy   retryPolicy
	attempt  int            // 1-based number of the current attempt
	lastErr  error          // transport error of the last attempt, for the log
	lastResp *http.Response // the last answer seen, so that a 429 counts once
	waitMax  time.Duration  // the call's cap on any wait
	// retries counts the retries charged to WithMaxRetries; those of an
	// outage ridden out (see outage) are not.
	retries    int
	maxRetries int
	// outage is the budget for riding out an outage (nil: none), and
	// outageStart the time of the first of the current run of transport
	// failures (zero: none).
	outage      *outage
	outageStart time.Time
}

// outage is the outage budget of a call that waits on its caller's behalf
// (Poll, paging, a range), shared by all the requests it makes. It applies
// only once the service has answered one of them: a call that never
// reached the service fails as Search does.
type outage struct {
	budget   time.Duration
	answered atomic.Bool
}

// pageOutageBudget is the outage SearchAll rides out once a page came.
const pageOutageBudget = 10 * time.Minute

// outageKey is the context key of an *outage.
type outageKey struct{}

// withOutageBudget returns ctx marking its requests as made by a call that
// rides out an outage of up to budget once the service answered it: see
// docs/retries.md. A budget ctx already carries (an outer call's) stays.
func withOutageBudget(ctx context.Context, budget time.Duration) context.Context {
	if ctx == nil || budget <= 0 || ctx.Value(outageKey{}) != nil {
		return ctx
	}
	return context.WithValue(ctx, outageKey{}, &outage{budget: budget})
}

// exchange sends payload to endpoint, retrying as policy allows, and returns
// the final 2xx response with its body fully read into a pooled buffer that
// the caller must Close. Any other outcome is an error: an *APIError for a
// non-2xx response, a wrapped transport or context error otherwise.
func (c *Client) exchange(ctx context.Context, endpoint string, policy retryPolicy, payload any) (*http.Response, *pooledBody, error) {
	if c == nil || c.cfg == nil {
		return nil, nil, errNoClient
	}
	if ctx == nil {
		return nil, nil, fmt.Errorf("newssearch: POST %s: nil context: pass context.Background() or a request context", endpoint)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, transportError(endpoint, 0, err)
	}
	cfg := c.cfg
	// encoding/json encodes into a pooled buffer and returns one exact copy,
	// which the request owns: the transport may still read a request body
	// after the response arrived, so the bytes must not return to a pool.
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, nil, fmt.Errorf("newssearch: POST %s: encoding request: %w", endpoint, err)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, cfg.endpoints[endpoint], body)
	if err != nil {
		return nil, nil, fmt.Errorf("newssearch: POST %s: building request: %w", endpoint, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if policy == readOnly {
		// A nil Idempotency-Key is not sent, but lets net/http transparently
		// resend the request on a keep-alive connection the server closed.
		req.Header["Idempotency-Key"] = nil
	}
	cs := callFrom(ctx)
	if cs == nil {
		cs = &cfg.defaults
	}
	for name, values := range cs.header {
		// A copy: the values are shared by every call of the Client, and
		// a middleware may add to the request's.
		req.Header[name] = slices.Clone(values)
	}
	req.SetResponseHandler(bufferBody)

	cl := &call{cfg: cfg, ctx: ctx, endpoint: endpoint, policy: policy, logger: cs.logger, maxRetries: cs.maxRetries, waitMax: cs.waitMax}
	retryMax := cs.maxRetries
	if cl.outage, _ = ctx.Value(outageKey{}).(*outage); cl.outage != nil && cs.maxRetries > 0 {
		// checkRetry counts the retries that are not an outage's.
		retryMax = math.MaxInt32
	}
	rc := &retryablehttp.Client{
		HTTPClient:     cfg.httpClient,
		Logger:         nil, // silenced: logging goes through the call's logger
		RetryWaitMin:   cs.waitMin,
		RetryWaitMax:   cs.waitMax,
		RetryMax:       retryMax,
		CheckRetry:     cl.checkRetry,
		Backoff:        cl.backoff,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
		RequestLogHook: cl.countAttempt,
	}
	if cs.logger != nil {
		rc.ResponseLogHook = cl.logResponse
	}
	resp, err := rc.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		var paused *pauseError
		switch ctxErr := ctx.Err(); {
		case errors.As(err, &paused):
			return nil, nil, &APIError{StatusCode: http.StatusTooManyRequests, Endpoint: endpoint, RetryAfter: paused.left,
				Message: "not sent: the Client is paused for " + paused.left.String() + " by an earlier Retry-After, longer than this call may wait; retry after it"}
		case ctxErr != nil && cl.lastErr != nil && !errors.Is(cl.lastErr, ctxErr):
			// The caller's deadline ended the retries: name their cause.
			err = fmt.Errorf("%w; the last attempt failed: %w", ctxErr, cl.lastErr)
		case ctxErr != nil && !errors.Is(err, ctxErr):
			err = ctxErr
		case ctxErr == nil && errors.Is(err, context.DeadlineExceeded):
			// Not the caller's deadline: the *http.Client's Timeout.
			err = clientTimeoutError(err)
		}
		return nil, nil, transportError(endpoint, cl.attempt, err)
	}
	pb, ok := resp.Body.(*pooledBody)
	if !ok {
		// The last attempt ended with a retryable status, so the response
		// handler did not run.
		if err := bufferBody(resp); err != nil {
			return nil, nil, transportError(endpoint, cl.attempt, err)
		}
		pb = resp.Body.(*pooledBody)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := c.newAPIError(endpoint, resp, pb.bytes())
		pb.Close()
		return nil, nil, apiErr
	}
	cs.record(resp, cl.attempt, c.scrub, cfg.requestID)
	return resp, pb, nil
}

// countAttempt runs before every attempt.
func (cl *call) countAttempt(_ retryablehttp.Logger, _ *http.Request, retry int) {
	cl.attempt = retry + 1
}

// logResponse logs the status of every attempt that got a response.
func (cl *call) logResponse(_ retryablehttp.Logger, resp *http.Response) {
	cl.logger.LogAttrs(cl.ctx, slog.LevelDebug, "newssearch: response",
		slog.String("method", http.MethodPost),
		slog.String("endpoint", cl.endpoint),
		slog.Int("attempt", cl.attempt),
		slog.Int("status", resp.StatusCode))
}

// checkRetry decides whether an attempt is retried. It never retries once
// ctx is done, nor before a Retry-After the call cannot wait for, and
// passes every error on unchanged. go-retryablehttp may ask twice about
// one answer: a 429 counts once.
func (cl *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	cl.lastErr = err
	if resp != nil && resp != cl.lastResp {
		cl.lastResp = resp
		if cl.outage != nil {
			cl.outage.answered.Store(true)
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			observeThrottle(ctx)
		}
	}
	var retry bool
	if err != nil {
		retry = cl.retryableError(err)
		if retry && cl.maxRetries > 0 && cl.outage != nil && cl.outage.answered.Load() {
			// An outage: retried for as long as the budget lasts,
			// whatever the count.
			now := cl.cfg.now()
			if cl.outageStart.IsZero() {
				cl.outageStart = now
			}
			if now.Sub(cl.outageStart) < cl.outage.budget {
				return true, nil
			}
		}
	} else {
		cl.outageStart = time.Time{}
		retry = cl.retryableStatus(resp.StatusCode)
		if d, ok := retryAfter(resp, cl.cfg.now()); retry && ok && tooLong(ctx, d, cl.waitMax, cl.cfg.now()) {
			return false, nil // the call ends now with the answer
		}
	}
	if retry {
		cl.retries++
		retry = cl.retries <= cl.maxRetries
	}
	return retry, nil
}

// tooLong reports whether a wait of d exceeds the call's cap waitMax or
// ends after ctx's deadline.
func tooLong(ctx context.Context, d, waitMax time.Duration, now time.Time) bool {
	dl, ok := ctx.Deadline()
	return d > waitMax || ok && now.Add(d).After(dl)
}

// retryAfter returns the wait the Retry-After header of a 429 or 503
// answer asks for; ok is false for another answer or no readable header.
func retryAfter(resp *http.Response, now time.Time) (d time.Duration, ok bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0, false
	}
	return parseRetryAfter(resp.Header.Get("Retry-After"), now)
}

// retryableStatus reports whether a response status is worth another
// attempt. 501 Not Implemented is permanent and never retried.
func (cl *call) retryableStatus(code int) bool {
	if cl.policy == createsJob {
		// Only statuses that prove no job was created: 408 (the request
		// was not received whole) and 429 (turned away before any work).
		// A 503 may come from a proxy that already forwarded the request.
		return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests
	}
	return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests ||
		(code >= 500 && code <= 599 && code != http.StatusNotImplemented)
}

// retryableError reports whether a transport error is worth another
// attempt.
func (cl *call) retryableError(err error) bool {
	if errors.Is(err, errBodyTooLarge) || isCertificateError(err) {
		return false
	}
	// Only a failure to connect proves the service never saw a job's request.
	return cl.policy != createsJob || neverSent(err)
}

// neverSent reports a failure to connect (refused, unknown host): the
// request never reached the service.
func neverSent(err error) bool {
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// isCertificateError reports a TLS verification failure, which retrying
// cannot fix.
func isCertificateError(err error) bool {
	var (
		verr  *tls.CertificateVerificationError
		uaerr x509.UnknownAuthorityError
		herr  x509.HostnameError
		cerr  x509.CertificateInvalidError
	)
	return errors.As(err, &verr) || errors.As(err, &uaerr) || errors.As(err, &herr) || errors.As(err, &cerr)
}

// backoff returns the wait before the next attempt and logs the retry.
func (cl *call) backoff(min, max time.Duration, retry int, resp *http.Response) time.Duration {
	wait := cl.cfg.backoff(min, max, retry, resp)
	if l := cl.logger; l != nil {
		attrs := []slog.Attr{
			slog.String("method", http.MethodPost),
			slog.String("endpoint", cl.endpoint),
			slog.Int("attempt", cl.attempt),
			slog.Duration("wait", wait),
		}
		if resp != nil {
			attrs = append(attrs, slog.Int("status", resp.StatusCode))
		}
		if cl.lastErr != nil {
			attrs = append(attrs, slog.String("error", cl.lastErr.Error()))
		}
		l.LogAttrs(cl.ctx, slog.LevelInfo, "newssearch: retrying", attrs...)
	}
	return wait
}

// backoff computes the wait before retry number retry+1: the Retry-After of
// a 429 or 503 response (checkRetry stops a call that cannot wait that
// long) lengthened by up to a tenth (at most 1 s) of random jitter, else
// min doubled retry times, capped at max, minus up to 25% random jitter.
func (cfg *config) backoff(min, max time.Duration, retry int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := retryAfter(resp, cfg.now()); ok {
			// Spread beyond the header, never before it, so that the
			// calls it paused do not all retry at one instant.
			return cfg.spread(d)
		}
	}
	d := min
	for i := 0; i < retry && d < max; i++ {
		d *= 2
	}
	d = clampDuration(d, 0, max)
	if quarter := int64(d / 4); quarter > 0 {
		cfg.mu.Lock()
		j := cfg.rng.Int64N(quarter + 1)
		cfg.mu.Unlock()
		d -= time.Duration(j)
	}
	return d
}

// clampDuration limits d to [lo, hi].
func clampDuration(d, lo, hi time.Duration) time.Duration {
	return min(max(d, lo), hi)
}

// maxRetryAfter saturates an absurd Retry-After instead of overflowing.
const maxRetryAfter = time.Duration(1<<63 - 1)

// parseRetryAfter reads a Retry-After header: delay seconds or an HTTP date
// (relative to now). It saturates instead of overflowing and reports false
// for an absent or unreadable header.
func parseRetryAfter(h string, now time.Time) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if h[0] >= '0' && h[0] <= '9' {
		secs, err := strconv.ParseUint(h, 10, 63)
		if err != nil {
			var numErr *strconv.NumError
			if errors.As(err, &numErr) && numErr.Err == strconv.ErrRange {
				return maxRetryAfter, true
			}
			return 0, false
		}
		if secs > uint64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(h)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// pooledBody is a fully read response body in a pooled buffer. Close
// returns the buffer to the pool; the bytes must not be used after that.
// Only the buffer is pooled, never the pooledBody, so a second Close is
// harmless.
type pooledBody struct {
	buf *bytes.Buffer
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept in the pool.
const maxPooled = 4 << 20

// maxPreGrow caps the buffer space reserved from a Content-Length header.
const maxPreGrow = 1 << 20

// Read reads from the buffered body.
func (pb *pooledBody) Read(p []byte) (int, error) {
	if pb.buf == nil {
		return 0, io.EOF
	}
	return pb.buf.Read(p)
}

// bytes returns the unread body.
func (pb *pooledBody) bytes() []byte { return pb.buf.Bytes() }

// Close returns the buffer to the pool; it is safe to call twice.
func (pb *pooledBody) Close() error {
	b := pb.buf
	if b == nil {
		return nil
	}
	pb.buf = nil
	if b.Cap() <= maxPooled {
		b.Reset()
		bufPool.Put(b)
	}
	return nil
}

// bufferBody reads resp.Body fully into a pooled buffer inside the retry
// loop, so a body that breaks off is a (retryable) attempt error rather than
// a decoding error later. A 2xx body over maxBody is an error; any other body
// is cut at maxErrorBody.
func bufferBody(resp *http.Response) error {
	limit := int64(maxErrorBody + errorBodySlack)
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	if ok {
		limit = maxBody
	}
	pb := &pooledBody{buf: bufPool.Get().(*bytes.Buffer)}
	if n := resp.ContentLength; n > 0 {
		// Trust the declared length only so far: a hostile server could
		// declare 32 MiB and send nothing.
		pb.buf.Grow(int(min(n, limit, maxPreGrow) + bytes.MinRead))
	}
	_, err := pb.buf.ReadFrom(io.LimitReader(resp.Body, limit+1))
	resp.Body.Close()
	switch {
	case err != nil:
		err = &bodyReadError{err: err}
	case int64(pb.buf.Len()) > limit && ok:
		err = errBodyTooLarge
	case int64(pb.buf.Len()) > limit:
		pb.buf.Truncate(int(limit))
	}
	if err != nil {
		pb.Close()
		resp.Body = http.NoBody
		return err
	}
	resp.Body = pb
	return nil
}
