package newssearch

import (
	cryptorand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/internal/redact"
)

// Version is the version of this SDK. It is part of the default User-Agent
// header, "newssearch-go/" + Version.
const Version = "0.1.0"

// DefaultBaseURL is the base URL of the production service, used when neither
// WithBaseURL nor the NEWSSEARCH_BASE_URL environment variable gives one.
const DefaultBaseURL = "https://app.runathena.com"

// Environment variables NewClient reads unless WithoutEnvironment is given.
const (
	// EnvAPIKey names the environment variable holding the API key.
	EnvAPIKey = "NEWSSEARCH_API_KEY"
	// EnvBaseURL names the environment variable holding the base URL.
	EnvBaseURL = "NEWSSEARCH_BASE_URL"
)

// Defaults of the retry policy (docs/retries.md).
const (
	// DefaultMaxRetries is the number of retries after the first attempt.
	DefaultMaxRetries = 3
	// DefaultRetryWaitMin is the wait before the first retry.
	DefaultRetryWaitMin = 500 * time.Millisecond
	// DefaultRetryWaitMax caps every wait between attempts.
	DefaultRetryWaitMax = 8 * time.Second
	// DefaultAttemptTimeout bounds one attempt of a Client made without
	// WithHTTPClient.
	DefaultAttemptTimeout = 2 * time.Minute
)

// Endpoint paths, relative to the base URL.
const (
	pathQuery      = "/api/v2/query"
	pathQueryAsync = "/api/v2/query-async"
	pathGetResults = "/api/v2/get-results"
	pathHeadlines  = "/api/v2/headlines"
)

// Client calls the news search service. Create one with NewClient and share
// it: it is safe for concurrent use.
//
// A failed attempt is retried, up to WithMaxRetries times, when retrying
// cannot repeat an effect: reads (Search, GetResults, Headlines) after a
// transport failure, 408, 429 or a 5xx but 501; SubmitQuery only where no
// job can have been made (never after a 503 or a reset). Waits grow from
// the minimum of WithRetryWait to its maximum, with jitter; Retry-After
// replaces the wait and pauses the whole Client, and a call that may not
// wait that long (the maximum, or its deadline) ends at once with the 429.
// Once the service has answered them, the calls that walk pages or wait for
// a job ride out transport failures (docs/retries.md).
//
// Printing a Client (with any fmt verb) never shows the API key.
type Client struct {
	cfg *config
}

// config is the immutable configuration of a Client plus its lock-protected
// jitter source. It lives behind a pointer so that printing a Client with
// reflection-based verbs can never reach the API key.
type config struct {
	// apiKey sits behind a second pointer: fmt prints a pointer nested in
	// a value as an address, so even a reflection-based print of a config
	// (a bad verb on a struct holding a Client) cannot show the key.
	apiKey     *string
	baseURL    string // validated, without trailing slash
	endpoints  map[string]string
	httpClient *http.Client
	// defaults are the settings of a call given no option, without the
	// API key.
	defaults settings
	now      func() time.Time
	// lim paces attempts (WithRateLimit) and holds them during a
	// Retry-After pause; clientTransport consults it.
	lim *limiter
	// red removes the API key from what errors, logs and Responses show.
	red *redact.Redactor

	mu  sync.Mutex
	rng *rand.Rand
}

// NewClient returns a Client configured by opts. The key and base URL fall
// back to NEWSSEARCH_API_KEY and NEWSSEARCH_BASE_URL, and the base URL to
// DefaultBaseURL. A bad option is a *ValidationError; NewClient never
// panics.
func NewClient(opts ...Option) (*Client, error) {
	s := clientDefaults()
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&s)
		}
	}
	if s.problem != nil {
		return nil, s.problem
	}
	if !s.ignoreEnv {
		if s.apiKey == "" {
			s.apiKey = strings.TrimSpace(os.Getenv(EnvAPIKey))
		}
		if s.baseURL == "" {
			s.baseURL = strings.TrimSpace(os.Getenv(EnvBaseURL))
		}
	}
	if s.baseURL == "" {
		s.baseURL = DefaultBaseURL
	}
	base, err := s.validate()
	if err != nil {
		return nil, err
	}
	hc := s.httpClient
	if hc == nil {
		// DefaultAttemptTimeout is applied per attempt by attemptGuard
		// rather than as the http.Client's Timeout, so that
		// WithAttemptTimeout can replace it.
		hc = defaultHTTPClient()
		if !s.attemptSet {
			s.attemptTimeout = DefaultAttemptTimeout
		}
	}
	// An attempt goes through the limiter (clientTransport), the attempt's
	// timer (attemptGuard), the middleware and the HTTP client's own
	// transport, in that order.
	var next http.RoundTripper = baseTransport{}
	if hc.Transport != nil {
		next = hc.Transport
	}
	for i := len(s.middleware) - 1; i >= 0; i-- {
		if next = s.middleware[i](next); next == nil {
			return nil, &ValidationError{Field: "WithMiddleware", Problem: fmt.Sprintf("middleware %d of %d returned a nil http.RoundTripper: return the next transport, wrapped", i+1, len(s.middleware))}
		}
	}
	apiKey := s.apiKey
	lim := newLimiter(time.Now, s.rate, s.burst)
	cfg := &config{
		lim:       lim,
		apiKey:    &apiKey,
		baseURL:   base,
		now:       time.Now,
		endpoints: make(map[string]string, 4),
	}
	for _, p := range []string{pathQuery, pathQueryAsync, pathGetResults, pathHeadlines} {
		cfg.endpoints[p] = base + p
	}
	if s.seeded {
		cfg.rng = rand.New(rand.NewPCG(s.seed[0], s.seed[1]))
	} else {
		// Seeded from crypto/rand so that many clients do not retry in lock
		// step; tests pass an explicit seed instead.
		var seed [16]byte
		_, _ = cryptorand.Read(seed[:]) // never fails (see crypto/rand.Read)
		cfg.rng = rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))
	}
	lim.spread = cfg.spread
	cfg.red = redact.New(apiKey).WithMark(redacted).Glued(minGluedKey)
	cfg.defaults = *s.forCall()
	cfg.httpClient = safeHTTPClient(hc, &clientTransport{lim: lim, defaults: &cfg.defaults,
		next: &attemptGuard{next: next, defaults: &cfg.defaults}})
	return &Client{cfg: cfg}, nil
}

// validate checks what the options cannot check alone and returns the
// normalised base URL.
func (s *settings) validate() (string, error) {
	if s.apiKey == "" {
		if s.ignoreEnv {
			return "", errors.New("newssearch: no API key: pass newssearch.WithAPIKey(key)")
		}
		return "", errors.New("newssearch: no API key: pass newssearch.WithAPIKey(key) or set " + EnvAPIKey)
	}
	if err := s.checkStructs(); err != nil {
		return "", err
	}
	return normaliseBaseURL(s.baseURL)
}

// normaliseBaseURL validates raw and returns it without a trailing slash or
// trailing "/api/v2".
func normaliseBaseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("newssearch: base URL %q cannot be parsed: pass an absolute http or https URL such as %q", raw, DefaultBaseURL)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("newssearch: base URL %q has scheme %q: pass an absolute http or https URL such as %q", raw, u.Scheme, DefaultBaseURL)
	}
	if u.Host == "" {
		return "", fmt.Errorf("newssearch: base URL %q has no host: pass an absolute http or https URL such as %q", raw, DefaultBaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", fmt.Errorf("newssearch: base URL %q has a query or fragment: pass only scheme, host and an optional path prefix", raw)
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/api/v2")
	u.RawPath = ""
	return strings.TrimRight(u.String(), "/"), nil
}

// String describes the Client without revealing the API key.
func (c *Client) String() string {
	if c == nil || c.cfg == nil {
		return "newssearch.Client{unconfigured: use newssearch.NewClient}"
	}
	return fmt.Sprintf("newssearch.Client{BaseURL: %q, APIKey: [REDACTED], MaxRetries: %d}", c.cfg.baseURL, c.cfg.defaults.maxRetries)
}

// GoString is used by the %#v verb; like String it never reveals the API key.
func (c *Client) GoString() string { return c.String() }

// errNoClient reports a Client that was not made by NewClient.
var errNoClient = errors.New("newssearch: the Client was not created by NewClient: use newssearch.NewClient")

// defaultHTTPClient is the HTTP client of a Client built without
// WithHTTPClient. It has no Timeout: the Client bounds each attempt by
// DefaultAttemptTimeout itself, unless WithAttemptTimeout replaces it.
//
// Its transport is chosen once, here: a copy of http.DefaultTransport with
// enough idle connections per host for the most pages PageOptions.Prefetch
// fetches at once (net/http keeps only 2, so concurrent paging would redial
// for most pages), or, when the program has replaced http.DefaultTransport
// by something else (httpmock.Activate does), that replacement as it is. A
// program that replaces http.DefaultTransport after NewClient and wants the
// Client to follow passes WithHTTPClient(http.DefaultClient), whose nil
// Transport net/http resolves on every request.
func defaultHTTPClient() *http.Client {
	rt := http.DefaultTransport
	if t, ok := rt.(*http.Transport); ok {
		own := t.Clone()
		own.MaxIdleConnsPerHost = maxPrefetch
		rt = own
	}
	return &http.Client{Transport: rt}
}

// safeHTTPClient returns a copy of hc (hc itself is never modified) whose
// transport is rt and which does not follow a redirect to another scheme
// or host. A 307 or 308 redirect resends a POST body, and the API key
// travels in the body, so following one would hand the key to whatever
// host the response named. Such a response becomes an *APIError instead.
// Redirects within the same origin follow hc's own policy.
func safeHTTPClient(hc *http.Client, rt http.RoundTripper) *http.Client {
	safe := *hc
	safe.Transport = rt
	next := hc.CheckRedirect
	safe.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if origin := via[0].URL; req.URL.Scheme != origin.Scheme || req.URL.Host != origin.Host {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &safe
}
