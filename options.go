package newssearch

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Option configures a Client: NewClient takes Options. WithAPIKey,
// WithBaseURL, WithHTTPClient, WithMiddleware, WithRateLimit and
// WithoutEnvironment configure what every call shares and are Options
// only, so the compiler refuses them in a call (make one Client per key).
// Every other option is an Option too: given to NewClient, it is the
// default of every call that takes it. A nil Option is ignored.
type Option interface {
	apply(*settings)
}

// CallOption is an option every call takes, after its required arguments,
// overriding the Client's default for that call: the With functions other
// than the Options above return CallOptions. The compiler accepts the
// options structs only where they work: see PageOption, PollOption,
// ResultsOption and RangeOption.
//
// Options apply in order, a later one over an earlier one, except that
// WithHeader adds to the headers set before; a PollOptions overrides the
// fields set before one by one, a PageOptions or RangeOptions the one set
// before whole. A nil option is ignored.
type CallOption interface {
	PageOption
	PollOption
	ResultsOption
	RangeOption
}

// PageOption is an option of SearchAll: a CallOption or *PageOptions.
type PageOption interface {
	Option
	pageOption()
}

// PollOption is an option of Poll: a CallOption or *PollOptions.
type PollOption interface {
	Option
	pollOption()
}

// ResultsOption is an option of Results: a CallOption, *PollOptions or
// *PageOptions.
type ResultsOption interface {
	Option
	resultsOption()
}

// RangeOption is an option of SearchRange and SearchRangeSeq: a
// CallOption, *PollOptions, *PageOptions or *RangeOptions.
type RangeOption interface {
	Option
	rangeOption()
}

// optionFunc is a CallOption.
type optionFunc func(*settings)

func (f optionFunc) apply(s *settings) { f(s) }
func (optionFunc) pageOption()         {}
func (optionFunc) pollOption()         {}
func (optionFunc) resultsOption()      {}
func (optionFunc) rangeOption()        {}

// clientOption is an Option only NewClient takes.
type clientOption func(*settings)

func (f clientOption) apply(s *settings) { f(s) }

// settings is what the options ask for: the Client's, made by NewClient,
// and a copy of them for each call, over which the call's options apply.
type settings struct {
	problem *ValidationError // the first invalid option
	own     map[string]bool  // header names set at this level (client or call)

	// Accepted only by NewClient.
	apiKey     string
	baseURL    string
	httpClient *http.Client
	ignoreEnv  bool
	rate       float64
	burst      int
	middleware []func(http.RoundTripper) http.RoundTripper
	seeded     bool
	seed       [2]uint64

	// The Client's defaults, which a call may override.
	maxRetries     int
	waitMin        time.Duration
	waitMax        time.Duration
	logger         *slog.Logger
	header         http.Header
	stall          time.Duration
	attemptTimeout time.Duration // 0: none
	attemptSet     bool          // WithAttemptTimeout was given
	poll           *PollOptions  // nil: the defaults
	page           *PageOptions  // nil: the defaults
	rng            *RangeOptions // nil: the defaults

	// Only a call's.
	into *responseSink
}

// fail records the first invalid option.
func (s *settings) fail(field, problem string) {
	if s.problem == nil {
		s.problem = &ValidationError{Field: field, Problem: problem}
	}
}

// clientDefaults returns the settings of a Client given no option.
func clientDefaults() settings {
	return settings{
		maxRetries: DefaultMaxRetries,
		waitMin:    DefaultRetryWaitMin,
		waitMax:    DefaultRetryWaitMax,
		stall:      DefaultStallTimeout,
		header:     http.Header{"User-Agent": {"newssearch-go/" + Version}},
	}
}

// forCall returns a copy of s over which a call's options apply.
func (s *settings) forCall() *settings {
	c := *s                   // the header map is shared until WithHeader clones it
	c.own, c.apiKey = nil, "" // the key stays in the Client's config
	return &c
}

// Response describes the HTTP exchange behind a call; see WithResponseInto.
type Response struct {
	// StatusCode is the HTTP status of the response (2xx).
	StatusCode int
	// Header holds the response headers.
	Header http.Header
	// RequestID is the service's X-Request-Id (cleaned, at most 128 bytes).
	RequestID string
	// Attempts is the number of attempts the request took, from 1.
	Attempts int
}

// responseSink is where a call stores its exchanges (WithResponseInto).
type responseSink struct {
	mu  sync.Mutex
	dst *Response
}

// WithAPIKey sets the API key sent with every request, over
// NEWSSEARCH_API_KEY. Surrounding white space is trimmed; "" counts as not
// given.
func WithAPIKey(key string) Option {
	return clientOption(func(s *settings) { s.apiKey = strings.TrimSpace(key) })
}

// WithBaseURL sets the service's base URL, over NEWSSEARCH_BASE_URL, e.g.
// a proxy "http://127.0.0.1:8080/prefix" (a trailing "/api/v2" is
// dropped). "" counts as not given.
func WithBaseURL(baseURL string) Option {
	return clientOption(func(s *settings) { s.baseURL = strings.TrimSpace(baseURL) })
}

// WithoutEnvironment makes NewClient ignore NEWSSEARCH_API_KEY and
// NEWSSEARCH_BASE_URL.
func WithoutEnvironment() Option {
	return clientOption(func(s *settings) { s.ignoreEnv = true })
}

// WithHTTPClient sets the HTTP client of every attempt. The Client never
// modifies it, closes its idle connections, or follows a redirect to
// another host (it would resend the API key there). Without
// it, the Client uses the default transport and DefaultAttemptTimeout;
// pass http.DefaultClient to follow a later replacement of
// http.DefaultTransport (httpmock.Activate).
func WithHTTPClient(hc *http.Client) Option {
	return clientOption(func(s *settings) {
		if hc == nil {
			s.fail("WithHTTPClient", "the client is nil: pass a non-nil *http.Client or leave the option out")
			return
		}
		s.httpClient = hc
	})
}

// WithRateLimit paces every attempt of the Client (retries and polls
// included) to perSecond a second on average, in bursts of up to burst;
// 0 turns pacing off. A 429 lowers the rate in force for a while; see
// docs/retries.md.
func WithRateLimit(perSecond float64, burst int) Option {
	return clientOption(func(s *settings) {
		if math.IsNaN(perSecond) || math.IsInf(perSecond, 0) || perSecond < 0 || (perSecond > 0 && burst < 1) {
			s.fail("WithRateLimit", "("+strconv.FormatFloat(perSecond, 'g', -1, 64)+", "+strconv.Itoa(burst)+
				"): pass a rate of requests per second >= 0 (0 turns pacing off) and, with a positive rate, a burst >= 1")
			return
		}
		s.rate, s.burst = perSecond, burst
	})
}

// WithMiddleware wraps every HTTP attempt in mw, for tracing or metrics
// (otelhttp.NewTransport: see examples/otel); the first given is the
// outermost. The request body carries the API key: never log bodies.
func WithMiddleware(mw func(next http.RoundTripper) http.RoundTripper) Option {
	return clientOption(func(s *settings) {
		if mw == nil {
			s.fail("WithMiddleware", "middleware "+strconv.Itoa(len(s.middleware)+1)+" is nil: pass a function that wraps the next http.RoundTripper")
			return
		}
		s.middleware = append(s.middleware, mw)
	})
}

// withJitterSeed makes the jitter source deterministic (tests only).
func withJitterSeed(a, b uint64) Option {
	return clientOption(func(s *settings) { s.seed, s.seeded = [2]uint64{a, b}, true })
}

// WithMaxRetries sets how many times a failed attempt is retried (default
// DefaultMaxRetries; 0 disables retries).
func WithMaxRetries(n int) CallOption {
	return optionFunc(func(s *settings) {
		if n < 0 {
			s.fail("WithMaxRetries", strconv.Itoa(n)+" is negative: pass 0 to disable retries")
			return
		}
		s.maxRetries = n
	})
}

// WithRetryWait sets the wait before the first retry and the cap on any
// wait (defaults DefaultRetryWaitMin and DefaultRetryWaitMax).
func WithRetryWait(min, max time.Duration) CallOption {
	return optionFunc(func(s *settings) {
		switch {
		case min < 0 || max < 0:
			s.fail("WithRetryWait", "("+min.String()+", "+max.String()+"): waits must not be negative: pass durations >= 0")
		case min > max:
			s.fail("WithRetryWait", "("+min.String()+", "+max.String()+"): min is greater than max: pass min <= max")
		default:
			s.waitMin, s.waitMax = min, max
		}
	})
}

// WithLogger logs each attempt (Debug) and retry (Info) to l: method,
// endpoint, attempt, wait and status, never a body or the key.
func WithLogger(l *slog.Logger) CallOption {
	return optionFunc(func(s *settings) { s.logger = l })
}

// WithHeader adds a header to every request, e.g. "X-Mock-Fault" against
// the mock or your own "User-Agent" (the default is "newssearch-go/" +
// Version). A call's header replaces the Client's of the same name. Host,
// Content-Length, Transfer-Encoding and Connection cannot be set.
func WithHeader(name, value string) CallOption {
	return optionFunc(func(s *settings) {
		canon := http.CanonicalHeaderKey(strings.TrimSpace(name))
		switch {
		case !validHeaderName(canon):
			s.fail("WithHeader", "header name "+strconv.Quote(name)+
				" is not a valid HTTP header name: use letters, digits and hyphens, e.g. \"X-Trace-Id\"")
		case strings.ContainsAny(value, "\r\n\x00"):
			s.fail("WithHeader", "the value of header "+canon+" holds a line break or NUL byte: pass a value on one line")
		case canon == "Host" || canon == "Content-Length" || canon == "Transfer-Encoding" || canon == "Connection":
			s.fail("WithHeader", "header "+canon+" is managed by net/http and cannot be set: leave it out")
		default:
			if !s.own[canon] {
				// The first value of this name at this level replaces the
				// inherited ones; the map is shared with the level above
				// until then.
				s.header = s.header.Clone()
				if s.header == nil {
					s.header = make(http.Header)
				}
				s.header.Del(canon)
				if s.own == nil {
					s.own = make(map[string]bool)
				}
				s.own[canon] = true
			}
			s.header.Add(canon, value)
		}
	})
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

// WithStallTimeout bounds how long one attempt waits for the service's
// next sign of life (headers, then each read of the body); default
// DefaultStallTimeout, 0 turns it off. It never cuts a response that
// keeps arriving.
func WithStallTimeout(d time.Duration) CallOption {
	return optionFunc(func(s *settings) {
		if d < 0 {
			s.fail("WithStallTimeout", d.String()+" is negative: pass a duration such as 30*time.Second, or 0 to turn it off")
			return
		}
		s.stall = d
	})
}

// WithAttemptTimeout bounds each attempt as a whole, replacing
// DefaultAttemptTimeout. An attempt that runs out reports ErrAttemptTimeout
// and is retried; bound a whole call with ctx.
func WithAttemptTimeout(d time.Duration) CallOption {
	return optionFunc(func(s *settings) {
		if d <= 0 {
			s.fail("WithAttemptTimeout", d.String()+" is not a timeout: pass a positive duration such as 10*time.Second")
			return
		}
		s.attemptTimeout, s.attemptSet = d, true
	})
}

// WithResponseInto stores in *dst the status, headers, request ID and
// attempts of the call's last successful exchange (the key scrubbed).
// Given to NewClient, every call stores there.
func WithResponseInto(dst *Response) CallOption {
	return optionFunc(func(s *settings) {
		s.into = nil
		if dst != nil {
			s.into = &responseSink{dst: dst}
		}
	})
}

// callKey is the context key of a call's settings.
type callKey struct{}

// begin applies a method's options over the Client's settings (or, for a
// method called by another, over the outer call's) and returns ctx
// carrying them. A nil ctx is returned as it is, for exchange to report.
func begin[O Option](c *Client, ctx context.Context, opts []O) (context.Context, *settings, error) {
	if c == nil || c.cfg == nil {
		return ctx, nil, errNoClient
	}
	base := callFrom(ctx)
	if base != nil && len(opts) == 0 {
		return ctx, base, nil
	}
	if base == nil {
		base = &c.cfg.defaults
	}
	s := base.forCall()
	for _, o := range opts {
		if any(o) != nil {
			o.apply(s)
		}
	}
	if s.problem != nil {
		return ctx, nil, s.problem
	}
	if err := s.checkStructs(); err != nil {
		return ctx, nil, err
	}
	if ctx == nil {
		return ctx, s, nil
	}
	return context.WithValue(ctx, callKey{}, s), s, nil
}

// checkStructs validates the options structs given, so that an invalid
// one fails any call, polling or not, before any request.
func (s *settings) checkStructs() error {
	if _, err := s.poll.resolve(); err != nil {
		return err
	}
	if err := s.page.check(); err != nil {
		return err
	}
	_, err := s.rng.resolve()
	return err
}

// callFrom returns the call settings ctx carries, or nil.
func callFrom(ctx context.Context) *settings {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(callKey{}).(*settings)
	return s
}

// record stores a successful exchange in the call's Response, if asked.
// scrub removes the API key from every header value and the request ID.
func (s *settings) record(resp *http.Response, attempts int, scrub func(string) string, requestID func(*http.Response) string) {
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
		RequestID:  requestID(resp),
		Attempts:   attempts,
	}
	s.into.mu.Lock()
	*s.into.dst = r
	s.into.mu.Unlock()
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
