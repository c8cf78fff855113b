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

// Option configures a Client: NewClient takes Options. An Option that is
// also a CallOption configures a call too; see CallOption. The options that
// configure what every call shares are Options only, so the compiler
// refuses them in a call: WithAPIKey, WithBaseURL, WithHTTPClient,
// WithMiddleware, WithRateLimit and WithoutEnvironment (make one Client
// per key or service). A nil Option is ignored.
type Option interface {
	apply(*settings)
}

// CallOption is an Option that every method also takes, after its required
// arguments, to configure that call: given to NewClient, it sets the
// default of every call; given to a call, it overrides that default for
// the call. Options apply in order, a later one over an earlier one,
// except that WithHeader adds to the headers set before. The other With
// functions return CallOptions, and so do the three options structs:
// *PollOptions (how to wait for a job), *PageOptions (how to walk pages)
// and *RangeOptions (how to split a range). A call's PollOptions override
// the fields set before one by one; a PageOptions or RangeOptions replaces
// the one set before whole. A nil CallOption is ignored.
type CallOption interface {
	Option
	callOption()
}

// optionFunc is a CallOption.
type optionFunc func(*settings)

func (f optionFunc) apply(s *settings) { f(s) }
func (optionFunc) callOption()         {}

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
	httpSet    bool
	ignoreEnv  bool
	rate       float64
	burst      int
	rateSet    bool
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
	c := &settings{
		maxRetries:     s.maxRetries,
		waitMin:        s.waitMin,
		waitMax:        s.waitMax,
		logger:         s.logger,
		header:         s.header, // cloned on first change
		stall:          s.stall,
		attemptTimeout: s.attemptTimeout,
		attemptSet:     s.attemptSet,
		poll:           s.poll,
		page:           s.page,
		rng:            s.rng,
		into:           s.into,
	}
	return c
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

// responseSink is where a call stores its exchanges (WithResponseInto).
type responseSink struct {
	mu  sync.Mutex
	dst *Response
}

// WithAPIKey sets the API key sent with every request. It wins over the
// NEWSSEARCH_API_KEY environment variable. Surrounding white space is
// trimmed; an empty key counts as not given. NewClient only.
func WithAPIKey(key string) Option {
	return clientOption(func(s *settings) { s.apiKey = strings.TrimSpace(key) })
}

// WithBaseURL sets the base URL of the service, e.g. "https://app.runathena.com"
// or a proxy such as "http://127.0.0.1:8080/prefix". Endpoint paths
// ("/api/v2/query", ...) are appended to it; a trailing "/api/v2" is dropped,
// so pasting an endpoint root works too. It wins over the NEWSSEARCH_BASE_URL
// environment variable. An empty value counts as not given. NewClient only.
func WithBaseURL(baseURL string) Option {
	return clientOption(func(s *settings) { s.baseURL = strings.TrimSpace(baseURL) })
}

// WithoutEnvironment makes NewClient ignore the NEWSSEARCH_API_KEY and
// NEWSSEARCH_BASE_URL environment variables. NewClient only.
func WithoutEnvironment() Option {
	return clientOption(func(s *settings) { s.ignoreEnv = true })
}

// WithHTTPClient sets the HTTP client used for every attempt. The Client uses
// its Transport, Timeout, Jar and redirect policy and never modifies it, with
// one exception to the policy: a redirect to another scheme or host is never
// followed, since it would resend the request body, API key included,
// there; it becomes an *APIError. The Client never calls
// CloseIdleConnections on hc or its Transport, so a failed or cancelled call
// does not drop connections that the rest of the program shares. Without
// this option the Client uses a client with the default transport and
// bounds each attempt by DefaultAttemptTimeout (see WithAttemptTimeout); pass
// WithHTTPClient(http.DefaultClient) to follow a later replacement of
// http.DefaultTransport, such as httpmock.Activate after NewClient.
// NewClient only.
func WithHTTPClient(hc *http.Client) Option {
	return clientOption(func(s *settings) {
		if hc == nil {
			s.fail("WithHTTPClient", "the client is nil: pass a non-nil *http.Client or leave the option out")
			return
		}
		s.httpClient, s.httpSet = hc, true
	})
}

// WithRateLimit makes the Client send at most perSecond requests a second
// on average, with bursts of up to burst, across every goroutine and every
// method: each attempt (retries and polls included) waits for its turn,
// in the order the attempts asked, and stops waiting when its context is
// done. Set it to the service's quota to avoid 429 answers rather than
// retry them. Without it (or with perSecond 0) requests are not paced.
// A negative rate, or a burst below 1 with a positive rate, is rejected.
// NewClient only.
//
// The rate is a ceiling: a 429 answer lowers the rate in force by 10% (to
// no less than half of perSecond), since a service counting the same rate
// at arrival sees requests bunched by network jitter; each later answer
// wins back 0.1% of perSecond.
//
// Whether or not this option is given, a 429 Too Many Requests or 503
// Service Unavailable answer with a Retry-After header pauses the whole
// Client, not only the goroutine that got it, until the instant it names
// (at most the maximum of WithRetryWait away): no request of the Client
// starts before then.
func WithRateLimit(perSecond float64, burst int) Option {
	return clientOption(func(s *settings) {
		if math.IsNaN(perSecond) || math.IsInf(perSecond, 0) || perSecond < 0 || (perSecond > 0 && burst < 1) {
			s.fail("WithRateLimit", "("+strconv.FormatFloat(perSecond, 'g', -1, 64)+", "+strconv.Itoa(burst)+
				"): pass a rate of requests per second >= 0 (0 turns pacing off) and, with a positive rate, a burst >= 1")
			return
		}
		s.rate, s.burst, s.rateSet = perSecond, burst, true
	})
}

// WithMiddleware wraps every HTTP attempt of the Client in mw, for tracing,
// metrics or logging: mw receives the next http.RoundTripper and returns
// the one the Client uses, such as otelhttp.NewTransport (see the
// examples/otel module). Several WithMiddleware options nest in order: the
// first given is the outermost. Middleware sees each attempt separately,
// after the client's rate limit and pause, and before the HTTP client's
// transport. The request body carries the API key: a middleware must not
// log or record bodies. A nil mw, or a mw returning nil, is rejected by
// NewClient. NewClient only.
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

// WithMaxRetries sets how many times a failed attempt is retried (0 disables
// retries); a negative count is rejected. The default is DefaultMaxRetries.
// Which failures are retried is the retry policy described on Client.
// Given to a call, it bounds that call's retries (and SearchRange's
// resubmissions).
func WithMaxRetries(n int) CallOption {
	return optionFunc(func(s *settings) {
		if n < 0 {
			s.fail("WithMaxRetries", strconv.Itoa(n)+" is negative: pass 0 to disable retries")
			return
		}
		s.maxRetries = n
	})
}

// WithRetryWait sets the wait before the first retry (min) and the cap on any
// wait (max); see Client for the retry policy. The defaults are
// DefaultRetryWaitMin and DefaultRetryWaitMax. Zero waits are allowed
// (retry at once); negative ones, or min above max, are rejected.
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

// WithLogger makes the Client (or the call) log each attempt's outcome
// (Debug) and each retry with its wait (Info) to l. Log records carry the
// method, endpoint path, attempt number, wait and HTTP status; never a body
// or the API key. A nil logger (the default) disables logging.
func WithLogger(l *slog.Logger) CallOption {
	return optionFunc(func(s *settings) { s.logger = l })
}

// WithHeader adds a header to every request, of the Client or of the call,
// e.g. WithHeader("X-Mock-Fault", "status=429") against the mock server
// (see the example), a tracing
// header, or WithHeader("User-Agent", "myapp/1.0") (the default User-Agent is
// "newssearch-go/" + Version). A header the client sets itself
// (Content-Type, Accept, User-Agent) is replaced, and so is a header of
// the same name set by the Client, when a call sets it; several WithHeader
// of one name at one level add values. Host, Content-Length,
// Transfer-Encoding and Connection cannot be set. An invalid name or value
// is rejected with a *ValidationError before any request; the message never
// repeats the value.
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

// WithStallTimeout sets how long one attempt may wait for the service's
// next sign of life: first the response headers, then each read of the
// body. An attempt that waits longer is abandoned with an error matching
// ErrAttemptTimeout (never context.DeadlineExceeded) and retried as the
// retry policy on Client says. It applies with or without WithHTTPClient, and with
// WithAttemptTimeout; 0 turns it off and a negative value is rejected. The
// default is DefaultStallTimeout.
//
// It is a limit on silence, not on the length of an attempt: a large
// response that keeps arriving is never cut by it. WithAttemptTimeout
// bounds the whole attempt; bound a whole call with a context deadline.
func WithStallTimeout(d time.Duration) CallOption {
	return optionFunc(func(s *settings) {
		if d < 0 {
			s.fail("WithStallTimeout", d.String()+" is negative: pass a duration such as 30*time.Second, or 0 to turn it off")
			return
		}
		s.stall = d
	})
}

// WithAttemptTimeout bounds each attempt (sending, waiting and reading the
// whole response) to d; an attempt that runs out reports ErrAttemptTimeout
// and is retried as the retry policy on Client says. It does not bound the
// waits between attempts or the call as a whole (use ctx for that). A d of
// 0 or less is rejected with a *ValidationError.
//
// d replaces DefaultAttemptTimeout, the limit of a Client made without
// WithHTTPClient; given to NewClient with WithHTTPClient, it bounds every
// call's attempts too. The stall timeout (WithStallTimeout) still applies:
// an attempt ends at whichever runs out first, so to let an attempt stay
// silent longer, raise that too. The Timeout of an *http.Client given with
// WithHTTPClient also applies, since the Client never changes that client.
func WithAttemptTimeout(d time.Duration) CallOption {
	return optionFunc(func(s *settings) {
		if d <= 0 {
			s.fail("WithAttemptTimeout", d.String()+" is not a timeout: pass a positive duration such as 10*time.Second")
			return
		}
		s.attemptTimeout, s.attemptSet = d, true
	})
}

// WithResponseInto makes the call store in *dst the status, headers,
// request ID and attempt count of its successful HTTP exchange. A method
// making several requests (Poll, the iterators, the range searches) stores
// each successful one in turn, so after the call *dst describes the last to
// complete. A call that fails before any request succeeds leaves *dst
// unchanged. Given to NewClient, every call stores there (the last exchange
// to complete wins; read *dst when no call runs). A nil dst stores nothing.
func WithResponseInto(dst *Response) CallOption {
	return optionFunc(func(s *settings) {
		if dst == nil {
			s.into = nil
			return
		}
		s.into = &responseSink{dst: dst}
	})
}

// callKey is the context key of a call's settings.
type callKey struct{}

// begin applies a method's options over the Client's settings (or, for a
// method called by another, over the outer call's) and returns ctx
// carrying them. A nil ctx is returned as it is, for exchange to report.
func (c *Client) begin(ctx context.Context, opts []CallOption) (context.Context, *settings, error) {
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
		if o != nil {
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
