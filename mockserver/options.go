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

// DefaultAPIKey is the key Client uses when WithAPIKeys is not given; the
// server then accepts any non-empty key.
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
	// one gets a 413.
	MaxBodyBytes = 1 << 20
	// HeadlineWindow is how far back /api/v2/headlines looks from the
	// server clock's now.
	HeadlineWindow = 48 * time.Hour
	// maxJournalBody is how many bytes of each (redacted) request body the
	// journal keeps.
	maxJournalBody = 8 << 10
)

// Limits bound what a server holds; a zero field takes the default given in
// parentheses. Past MaxJobs or MaxWorlds the least recently used goes.
type Limits struct {
	// JobTTL is how long a query_id lives after its last use (1 hour).
	JobTTL time.Duration
	// MaxJobs is the most jobs a world holds (10,000).
	MaxJobs int
	// MaxArticlesBody is the largest body POST /_mock/articles takes
	// (256 MiB).
	MaxArticlesBody int64
	// HeadlineClusters is the most clusters headlines lists (20), and
	// HeadlineArticles the most articles it lists of each (5).
	HeadlineClusters int
	HeadlineArticles int
	// MaxWorlds is the most worlds besides the default one (1,000).
	MaxWorlds int
}

// WithLimits sets the limits whose fields are not zero (see Limits); a
// negative field is an error.
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

// Option configures a Server. Options apply in order, a later one winning; a
// nil Option is ignored.
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

// WithAPIKeys makes the server accept only these API keys (401 for any other);
// Client uses the first.
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

// WithCorpus serves corpus instead of DefaultCorpus. Share one *Corpus between
// servers: its index is built once.
func WithCorpus(corpus *Corpus) Option {
	return func(c *config) {
		if corpus == nil {
			c.fail("WithCorpus(nil): pass a corpus from LoadCorpus or LoadCorpusFile, or leave the option out")
			return
		}
		c.corpus = corpus
	}
}

// WithClock sets the server clock (default time.Now), which the date shift,
// jobs, rate limits, headlines and the journal follow; latency faults wait in
// real time. It must read within 1970-01-01 to 9700-01-01.
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
// before it is ready (default 1; 0: ready at once).
func WithPendingPolls(n int) Option {
	return func(c *config) {
		if n < 0 {
			c.fail("WithPendingPolls(%d): pass 0 or more polls", n)
			return
		}
		c.settings.PendingPolls = n
	}
}

// WithPendingDuration sets the least time, on the server clock, a job stays
// pending (default 0).
func WithPendingDuration(d time.Duration) Option {
	return func(c *config) {
		if d < 0 {
			c.fail("WithPendingDuration(%v): pass a duration of 0 or more", d)
			return
		}
		c.settings.Pending = d
	}
}

// WithSeed seeds request ids, query ids and probabilistic faults (default 0).
// Same seed, corpus and clock: same answers.
func WithSeed(seed uint64) Option {
	return func(c *config) { c.seed = seed }
}

// WithRateLimit limits each API key to perSecond requests a second, in bursts
// of up to burst; a request over the limit gets a 429 with Retry-After.
func WithRateLimit(perSecond float64, burst int) Option {
	return func(c *config) {
		if !(perSecond > 0) || burst < 1 {
			c.fail("WithRateLimit(%v, %d): pass a positive rate and a burst of 1 or more", perSecond, burst)
			return
		}
		c.settings.RateLimit, c.settings.Burst = perSecond, burst
	}
}

// WithFaults installs fault rules (see FaultRule); SetFaults replaces them at
// run time.
func WithFaults(rules ...FaultRule) Option {
	return func(c *config) { c.faults = append([]FaultRule(nil), rules...) }
}

// WithLogger logs each API request at Info and each recovered panic at Error,
// never a key or a body. The default logs nothing.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithoutDateShift serves corpus dates as stored instead of moving the newest
// article to the clock's now (see Server.DateShift).
func WithoutDateShift() Option {
	return func(c *config) { c.noDateShift = true }
}

// WithJournalSize sets how many requests the journal keeps (default 1,000; 0
// turns it off).
func WithJournalSize(n int) Option {
	return func(c *config) {
		if n < 0 {
			c.fail("WithJournalSize(%d): pass 0 (no journal) or more", n)
			return
		}
		c.journalSize = n
	}
}

// WithoutListener starts no socket: the server is reached in process, through
// Client, HTTPClient, Transport or Handler, and URL is
// "http://mockserver.invalid".
func WithoutListener() Option {
	return func(c *config) { c.noListener = true }
}

// WithStrictExpectations makes Verify fail, in every world, for a request
// that no expectation matched (Settings.Strict); without it such requests
// are only listed.
func WithStrictExpectations() Option {
	return func(c *config) { c.settings.Strict = true }
}

// WithWorldPerKey gives every API key a world of its own at its first request
// or control call (see Server.World).
func WithWorldPerKey() Option {
	return func(c *config) { c.worldPerKey = true }
}

// WithAddr sets the address New listens on (default "127.0.0.1:0"). An address
// other machines can reach also needs WithAllowRemote.
func WithAddr(addr string) Option {
	return func(c *config) {
		if strings.TrimSpace(addr) == "" {
			c.fail("WithAddr(%q): pass a host:port such as %q", addr, defaultAddr)
			return
		}
		c.addr = addr
	}
}

// WithAllowRemote lets WithAddr listen where other machines reach it, such as
// "0.0.0.0:8080" in a container. Anyone who reaches it can change the server.
func WithAllowRemote() Option {
	return func(c *config) { c.allowRemote = true }
}

// WithAllowedHosts adds names the Host header of a request on the socket may
// carry ("mock.internal", "*.example.test", or "*" for any), besides IP
// addresses, localhost and *.localhost; any other Host gets a 421.
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

// WithAnswerShape sets the shape of the answers (see AnswerShape).
func WithAnswerShape(sh AnswerShape) Option {
	return func(c *config) {
		if err := (fault.Action{Results: sh.Results, Totals: sh.Totals}).Validate(); err != nil {
			c.fail("WithAnswerShape: %v", err)
			return
		}
		c.settings.Shape = sh
	}
}
