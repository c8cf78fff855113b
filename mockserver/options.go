package mockserver

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
)

// DefaultAPIKey is the key Client and APIKey use when WithAPIKeys is not
// given. Without WithAPIKeys the server accepts any non-empty key.
const DefaultAPIKey = "mockserver-test-key"

// Defaults of the options, each described by its option or Limits field.
const (
	defaultPendingPolls     = 1
	defaultJobTTL           = time.Hour
	defaultMaxJobs          = 10_000
	defaultJournalSize      = 1_000
	defaultHeadlineClusters = 20
	defaultHeadlineArticles = 5
	defaultMaxArticlesBody  = 256 << 20
	defaultAddr             = "127.0.0.1:0"
	// noListenerURL is the URL of a server started WithoutListener.
	noListenerURL = "http://mockserver.invalid"
)

// Fixed limits of the service the mock imitates.
const (
	// pageSize is the number of articles per page of results.
	pageSize = 25
	// MaxBodyBytes is the largest request body accepted (1 MiB); a larger
	// one is answered 413.
	MaxBodyBytes = 1 << 20
	// HeadlineWindow is how far back /api/v2/headlines looks from the
	// server clock's now.
	HeadlineWindow = 48 * time.Hour
	// maxJournalBody is how many bytes of each (redacted) request body the
	// journal keeps.
	maxJournalBody = 8 << 10
)

// Limits bound what a server holds. A zero field takes its default.
type Limits struct {
	// JobTTL is how long a query_id lives after its last use (submission or
	// get-results poll), on the server clock (default 1 hour).
	JobTTL time.Duration
	// MaxJobs is how many jobs the server holds at most; beyond it the
	// least recently used job is forgotten (default 10,000).
	MaxJobs int
	// MaxArticlesBody is the largest body POST /_mock/articles accepts, in
	// bytes; a larger one is a 413 (default 256 MiB, some 100,000 articles
	// of the embedded corpus's size: send more in several calls).
	MaxArticlesBody int64
	// HeadlineClusters is the most clusters /api/v2/headlines lists
	// (default 20).
	HeadlineClusters int
	// HeadlineArticles is the most articles listed per headline cluster;
	// the cluster's count stays the true count (default 5).
	HeadlineArticles int
	// MaxWorlds is how many worlds besides the default one the server
	// holds (see World); making one more drops the least recently used,
	// with a log line (default 1,000). Each world holds at most MaxJobs
	// jobs and its journal, so a server's memory is bounded by MaxWorlds+1
	// times a world's, plus the articles added.
	MaxWorlds int
}

// WithLimits sets the limits whose fields are not zero; the others keep
// their defaults (see Limits). A negative field is an error.
func WithLimits(l Limits) Option {
	return func(c *config) {
		bad := func(field string, v any, want string) {
			c.fail("WithLimits: %s is %v: pass %s, or 0 for the default", field, v, want)
		}
		switch {
		case l.JobTTL < 0:
			bad("JobTTL", l.JobTTL, "a positive duration")
		case l.MaxJobs < 0:
			bad("MaxJobs", l.MaxJobs, "1 or more")
		case l.MaxArticlesBody < 0:
			bad("MaxArticlesBody", l.MaxArticlesBody, "a size in bytes of 1 or more")
		case l.HeadlineClusters < 0:
			bad("HeadlineClusters", l.HeadlineClusters, "1 or more")
		case l.HeadlineArticles < 0:
			bad("HeadlineArticles", l.HeadlineArticles, "1 or more")
		case l.MaxWorlds < 0:
			bad("MaxWorlds", l.MaxWorlds, "1 or more")
		default:
			c.settings.JobTTL = cmp.Or(l.JobTTL, c.settings.JobTTL)
			c.settings.MaxJobs = cmp.Or(l.MaxJobs, c.settings.MaxJobs)
			c.maxArticlesBody = cmp.Or(l.MaxArticlesBody, c.maxArticlesBody)
			c.headlineClusters = cmp.Or(l.HeadlineClusters, c.headlineClusters)
			c.headlineArticles = cmp.Or(l.HeadlineArticles, c.headlineArticles)
			c.maxWorlds = cmp.Or(l.MaxWorlds, c.maxWorlds)
		}
	}
}

// Option configures a Server. Options apply in order; a later one overrides
// an earlier one. A nil Option is ignored.
type Option func(*config)

// config is what the options ask for; Start validates it.
type config struct {
	keys             []string
	corpus           *Corpus
	clock            func() time.Time
	wallClock        bool         // clock is time.Now: neither WithClock nor WithManualClock
	manual           *manualClock // set by WithManualClock
	settings         Settings     // pending, rate limit, job TTL and cap, shape
	seed             uint64
	faults           []FaultRule
	logger           *slog.Logger
	noDateShift      bool
	journalSize      int
	maxArticlesBody  int64
	noListener       bool
	addr             string
	allowRemote      bool     // WithAllowRemote
	allowedHosts     []string // WithAllowedHosts, lower case
	headlineClusters int
	headlineArticles int
	maxWorlds        int
	worldPerKey      bool          // WithWorldPerKey
	record           RecordOptions // WithRecord
	headlines        *Headlines    // replay.go
	errs             []error
}

func defaultConfig() config {
	return config{
		clock:            time.Now,
		wallClock:        true,
		settings:         Settings{PendingPolls: defaultPendingPolls, JobTTL: defaultJobTTL, MaxJobs: defaultMaxJobs},
		journalSize:      defaultJournalSize,
		maxArticlesBody:  defaultMaxArticlesBody,
		addr:             defaultAddr,
		headlineClusters: defaultHeadlineClusters,
		headlineArticles: defaultHeadlineArticles,
		maxWorlds:        defaultMaxWorlds,
	}
}

func (c *config) fail(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("mockserver: "+format, args...))
}

// WithAPIKeys makes the server accept only these API keys (401 for any
// other). Client and APIKey use the first. Without this option any non-empty
// key is accepted and Client uses DefaultAPIKey. The server keeps only the
// first key in memory as given (for Client); the others are kept as hashes.
func WithAPIKeys(keys ...string) Option {
	return func(c *config) {
		if len(keys) == 0 {
			c.fail("WithAPIKeys(): give at least one key, or leave the option out to accept any key")
			return
		}
		for i, k := range keys {
			if strings.TrimSpace(k) == "" {
				c.fail("WithAPIKeys: key %d is blank: give non-empty keys", i)
				return
			}
		}
		c.keys = append([]string(nil), keys...)
	}
}

// WithCorpus serves the given corpus instead of the default one. The
// corpus's search index is built on first use and cached on the *Corpus, so
// reuse one *Corpus across servers.
func WithCorpus(corpus *Corpus) Option {
	return func(c *config) {
		if corpus == nil {
			c.fail("WithCorpus(nil): pass a corpus from LoadCorpus or LoadCorpusFile, or leave the option out")
			return
		}
		c.corpus = corpus
	}
}

// WithClock sets the server clock (default time.Now). It drives the date
// shift, the headline window, job pending times and TTLs, rate limiting and
// journal times. Latency faults always wait in real time. A later
// WithClock replaces WithManualClock and the other way round.
//
// The clock must read within 1970-01-01 to 9700-01-01: New refuses one that
// reads outside the range at start, and a control endpoint that writes a
// time read outside it (GET /_mock/clock, /_mock/journal, /_mock/jobs)
// cannot encode it and answers 500.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now == nil {
			c.fail("WithClock(nil): pass a func() time.Time, or leave the option out for time.Now")
			return
		}
		c.clock, c.manual, c.wallClock = now, nil, false
	}
}

// WithPendingPolls sets how many get-results polls of a job answer PENDING
// before it is ready (default 1: every client sees PENDING once and the
// second poll succeeds; 0 = ready at the first poll). A job is ready once both this and WithPendingDuration are satisfied.
func WithPendingPolls(n int) Option {
	return func(c *config) {
		if n < 0 {
			c.fail("WithPendingPolls(%d): pass 0 or more polls", n)
			return
		}
		c.settings.PendingPolls = n
	}
}

// WithPendingDuration sets how long after submission, on the server clock, a
// job stays pending at the least (default 0).
func WithPendingDuration(d time.Duration) Option {
	return func(c *config) {
		if d < 0 {
			c.fail("WithPendingDuration(%v): pass a duration of 0 or more", d)
			return
		}
		c.settings.Pending = d
	}
}

// WithSeed sets the seed of every generated value: request ids, query ids
// and probabilistic faults (default 0). Two servers with the same seed,
// corpus and clock give byte-identical answers to the same requests.
func WithSeed(seed uint64) Option {
	return func(c *config) { c.seed = seed }
}

// WithRateLimit limits each API key to perSecond requests per second with
// bursts of up to burst requests (a token bucket on the server clock). A
// request over the limit is answered 429 with a Retry-After header. Without
// this option there is no limit.
func WithRateLimit(perSecond float64, burst int) Option {
	return func(c *config) {
		if !(perSecond > 0) || burst < 1 {
			c.fail("WithRateLimit(%v, %d): pass a positive rate and a burst of 1 or more", perSecond, burst)
			return
		}
		c.settings.RateLimit, c.settings.Burst = perSecond, burst
	}
}

// WithFaults installs fault rules (see FaultRule); SetFaults replaces them
// at run time. A fault asked for by a request's X-Mock-Fault header takes
// precedence over the rules.
func WithFaults(rules ...FaultRule) Option {
	return func(c *config) { c.faults = append([]FaultRule(nil), rules...) }
}

// WithLogger makes the server log each API request (Info: method, path,
// status, request id, fault, query id, duration) and any recovered panic
// (Error). It never logs API keys or bodies. The default logs nothing.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithoutDateShift serves corpus dates as they are. By default every date is
// shifted by a fixed amount so the newest article is about the server clock's
// now at New (the shift is whole seconds; see Server.DateShift).
func WithoutDateShift() Option {
	return func(c *config) { c.noDateShift = true }
}

// WithJournalSize sets how many requests the journal keeps, newest last
// (default 1,000); 0 turns the journal off. Server.JournalDropped counts the
// requests a full journal no longer holds.
func WithJournalSize(n int) Option {
	return func(c *config) {
		if n < 0 {
			c.fail("WithJournalSize(%d): pass 0 (no journal) or more", n)
			return
		}
		c.journalSize = n
	}
}

// WithoutListener starts no socket: the server is reached only in process,
// through Transport, HTTPClient, Client and Handler (and the
// mockserver/withhttpmock package, which registers it with
// github.com/jarcoal/httpmock), and URL returns
// "http://mockserver.invalid".
func WithoutListener() Option {
	return func(c *config) { c.noListener = true }
}

// WithWorldPerKey gives every API key a world of its own at its first
// request (or its first control call with KeyHeader): its own fault rules
// and counters, clock, articles, jobs and journal (see World). Parallel
// tests then share one server, each with a key of its own, without seeing
// each other. Without it every key uses the default world, but the keys
// given a world by World or POST /_mock/worlds. It is newsmock's
// -world-per-key.
func WithWorldPerKey() Option {
	return func(c *config) { c.worldPerKey = true }
}

// WithAddr sets the TCP address New listens on (default "127.0.0.1:0", a free
// loopback port). An address beyond this machine (every interface, as
// ":8080" or "0.0.0.0:0", or a network address) lets anyone who can reach
// it change the server through its /_mock/ endpoints: it also needs
// WithAllowRemote, and Start fails without it. A host name given here, such
// as "mock.internal:8080", is allowed in the Host header of requests (see
// WithAllowedHosts).
func WithAddr(addr string) Option {
	return func(c *config) {
		if strings.TrimSpace(addr) == "" {
			c.fail("WithAddr(%q): pass a host:port such as %q", addr, defaultAddr)
			return
		}
		c.addr = addr
	}
}

// WithAllowRemote lets WithAddr listen on an address other machines can
// reach, such as "0.0.0.0:8080" in a container. Anyone who can reach it can
// then use the server and change it through its /_mock/ endpoints: give it
// only on a network you trust. It is newsmock's -allow-remote.
func WithAllowRemote() Option {
	return func(c *config) { c.allowRemote = true }
}

// WithAllowedHosts adds host names that requests arriving on a socket may
// carry in their Host header: a name such as "mock.internal" (any port),
// "*.example.test" for every name under example.test, or "*" for any name.
// Without it the server answers only to IP addresses, localhost and
// *.localhost (and the host WithAddr names), and refuses any other Host with
// a 421, so that a web page whose domain is made to resolve to 127.0.0.1
// (DNS rebinding) cannot reach it. Use it for a name the server is reached
// by on purpose, such as a container's service name. Requests through
// Transport, and a handler called directly, are not checked. It is
// newsmock's -allow-host; several calls add up.
func WithAllowedHosts(hosts ...string) Option {
	return func(c *config) {
		if len(hosts) == 0 {
			c.fail(`WithAllowedHosts(): give at least one host name, such as "mock.internal", or leave the option out`)
			return
		}
		for _, h := range hosts {
			if problem := checkHostPattern(h); problem != "" {
				c.fail("WithAllowedHosts(%q): the host %s", h, problem)
				return
			}
		}
		for _, h := range hosts {
			c.allowedHosts = append(c.allowedHosts, strings.TrimSuffix(strings.ToLower(h), "."))
		}
	}
}

// build applies the options and reports every invalid one.
func build(opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.noListener && c.addr != defaultAddr {
		c.fail("WithAddr and WithoutListener contradict each other: drop one")
	}
	return c, errors.Join(c.errs...)
}

// WithAnswerShape sets the shape of the answers (see AnswerShape); a world
// changes its own with SetSettings.
func WithAnswerShape(sh AnswerShape) Option {
	return func(c *config) {
		if err := (fault.Action{Results: sh.Results, Totals: sh.Totals}).Validate(); err != nil {
			c.fail("WithAnswerShape: %v", err)
			return
		}
		c.settings.Shape = sh
	}
}
