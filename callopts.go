package newssearch

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CallOption configures one call of a Client method (Search, SubmitQuery,
// GetResults, Headlines, Poll, SearchAsync, the page and article iterators,
// SearchRange, SearchRangeSeq), for every request that call makes. It is
// given as a trailing argument; a nil CallOption is ignored. Options are
// applied in order; a later one overrides an earlier one, except that
// headers accumulate.
type CallOption func(*callSettings)

// callSettings is what a call's options ask for.
type callSettings struct {
	header         http.Header
	maxRetries     int // -1: the client's
	attemptTimeout time.Duration
	into           *Response
	intoMu         sync.Mutex
	problem        *ValidationError
}

// Response describes the HTTP exchange behind a call; see WithResponseInto.
// It never holds the request body, where the API key travels.
type Response struct {
	// StatusCode is the HTTP status of the response (2xx).
	StatusCode int
	// Header holds the response headers.
	Header http.Header
	// RequestID is the service's X-Request-Id, if it sent one, cleaned of
	// control characters and cut at 128 bytes.
	RequestID string
	// Attempts is the number of attempts the request took, from 1 (more
	// when it was retried).
	Attempts int
}

// WithHeader adds a header to every request of the call, e.g.
// WithHeader("X-Mock-Fault", "429") against the mock server, or a tracing
// header. A header the client sets itself (Content-Type, Accept,
// User-Agent) is replaced; Host, Content-Length, Transfer-Encoding and
// Connection cannot be set. An invalid name or value fails the call with a
// *ValidationError before any request; the message never repeats the value.
func WithHeader(name, value string) CallOption {
	return func(s *callSettings) {
		if s.problem != nil {
			return
		}
		canon := http.CanonicalHeaderKey(strings.TrimSpace(name))
		switch {
		case !validHeaderName(canon):
			s.problem = &ValidationError{Field: "WithHeader", Problem: "header name " + strconv.Quote(name) +
				" is not a valid HTTP header name: use letters, digits and hyphens, e.g. \"X-Trace-Id\""}
		case strings.ContainsAny(value, "\r\n\x00"):
			s.problem = &ValidationError{Field: "WithHeader", Problem: "the value of header " + canon +
				" holds a line break or NUL byte: pass a value on one line"}
		case canon == "Host" || canon == "Content-Length" || canon == "Transfer-Encoding" || canon == "Connection":
			s.problem = &ValidationError{Field: "WithHeader", Problem: "header " + canon +
				" is managed by net/http and cannot be set per call: leave it out"}
		default:
			if s.header == nil {
				s.header = make(http.Header)
			}
			s.header.Add(canon, value)
		}
	}
}

// validHeaderName reports whether name is an HTTP token.
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r >= 0x7f || r <= ' ' || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return true
}

// WithCallMaxRetries sets how many times a failed attempt of the call's
// requests is retried (0 disables retries), overriding the client's
// WithMaxRetries for this call. A negative count fails the call with a
// *ValidationError.
func WithCallMaxRetries(n int) CallOption {
	return func(s *callSettings) {
		if s.problem == nil && n < 0 {
			s.problem = &ValidationError{Field: "WithCallMaxRetries", Problem: strconv.Itoa(n) +
				" is negative: pass 0 to disable retries for the call"}
			return
		}
		s.maxRetries = n
	}
}

// WithAttemptTimeout bounds each attempt of the call's requests (sending,
// waiting and reading the whole response) to d; an attempt that runs out is
// retried like a transport failure and reports ErrAttemptTimeout. It does
// not bound the waits between attempts or the call as a whole (use ctx for
// that). A d of 0 or less fails the call with a *ValidationError.
//
// For the call, d replaces the Client's own limits on an attempt: the stall
// timeout (WithStallTimeout) and, for a Client made without WithHTTPClient,
// DefaultHTTPTimeout. The attempt may stay silent for as long as d lasts,
// and ends when d runs out, sooner or later than those would have ended it.
// The Timeout of an *http.Client given with WithHTTPClient still applies on
// top, since the Client never changes that client.
func WithAttemptTimeout(d time.Duration) CallOption {
	return func(s *callSettings) {
		if s.problem == nil && d <= 0 {
			s.problem = &ValidationError{Field: "WithAttemptTimeout", Problem: d.String() +
				" is not a timeout: pass a positive duration such as 10*time.Second"}
			return
		}
		s.attemptTimeout = d
	}
}

// WithResponseInto makes the call store in *dst the status, headers,
// request ID and attempt count of its successful HTTP exchange. A method
// making several requests (Poll, SearchAsync, the iterators, the range
// searches) stores each successful one in turn, so after the call *dst
// describes the last to complete. A call that fails before any request
// succeeds leaves *dst unchanged. A nil dst is ignored.
func WithResponseInto(dst *Response) CallOption {
	return func(s *callSettings) { s.into = dst }
}

// callKey is the context key of a call's settings.
type callKey struct{}

// resolveCallOptions applies opts; it returns nil when there are none.
func resolveCallOptions(opts []CallOption) (*callSettings, error) {
	var s *callSettings
	for _, o := range opts {
		if o == nil {
			continue
		}
		if s == nil {
			s = &callSettings{maxRetries: -1}
		}
		o(s)
	}
	if s != nil && s.problem != nil {
		return nil, s.problem
	}
	return s, nil
}

// attach returns ctx carrying s; a nil s (no options) or a nil ctx leaves
// ctx as it is.
func (s *callSettings) attach(ctx context.Context) context.Context {
	if s == nil || ctx == nil {
		return ctx
	}
	return context.WithValue(ctx, callKey{}, s)
}

// withCall applies a method's call options to ctx.
func withCall(ctx context.Context, opts []CallOption) (context.Context, error) {
	if len(opts) == 0 {
		return ctx, nil
	}
	s, err := resolveCallOptions(opts)
	if err != nil {
		return ctx, err
	}
	return s.attach(ctx), nil
}

// callFrom returns the call settings ctx carries, or nil.
func callFrom(ctx context.Context) *callSettings {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(callKey{}).(*callSettings)
	return s
}

// hasAttemptTimeout reports whether the call set WithAttemptTimeout (s may
// be nil: no call options).
func (s *callSettings) hasAttemptTimeout() bool { return s != nil && s.attemptTimeout > 0 }

// record stores a successful exchange in the call's Response, if asked.
// scrub removes the API key from every header value and the request ID.
func (s *callSettings) record(resp *http.Response, attempts int, scrub func(string) string) {
	if s == nil || s.into == nil {
		return
	}
	h := resp.Header.Clone()
	for _, vs := range h {
		for i, v := range vs {
			vs[i] = scrub(v)
		}
	}
	r := Response{
		StatusCode: resp.StatusCode,
		Header:     h,
		RequestID:  scrub(cleanRequestID(resp.Header.Get("X-Request-Id"))),
		Attempts:   attempts,
	}
	s.intoMu.Lock()
	*s.into = r
	s.intoMu.Unlock()
}

// throttleKey is the context key of a 429 observer.
type throttleKey struct{}

// withThrottleObserver makes every 429 answer to a request made with ctx
// call fn, then the observer ctx already had, if any (the range searches
// adapt their windows in flight, and page walks their prefetch depth).
func withThrottleObserver(ctx context.Context, fn func()) context.Context {
	if outer, ok := ctx.Value(throttleKey{}).(func()); ok {
		inner := fn
		fn = func() { inner(); outer() }
	}
	return context.WithValue(ctx, throttleKey{}, fn)
}

// observeThrottle reports a 429 answer to ctx's observer, if any.
func observeThrottle(ctx context.Context) {
	if fn, ok := ctx.Value(throttleKey{}).(func()); ok {
		fn()
	}
}
