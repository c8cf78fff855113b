package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
)

// defaultAddr is where newsmock listens unless -addr says otherwise.
const defaultAddr = "127.0.0.1:8080"

// config is what the command line asks for.
type config struct {
	addr             string
	allowRemote      bool
	allowHosts       []string
	urlFile          string
	keys             string // comma-separated; never printed
	corpusPath       string
	pending          time.Duration
	pendingPolls     int
	seed             uint64
	shape            mockserver.AnswerShape
	rateLimit        float64
	burst            int
	faults           []mockserver.FaultRule
	noDateShift      bool
	jobTTL           time.Duration
	maxJobs          int
	maxWorlds        int
	worldPerKey      bool
	strict           bool
	journalSize      int
	headlineClusters int
	headlineArticles int
	logLevel         logLevel
	drainTimeout     time.Duration
	exitWithParent   bool
	clock            clockValue
	version          bool
	headlinesPath    string
	record           recordFlags
}

// recordFlags are the flags of a recording (-record and its companions).
type recordFlags struct {
	upstream, to, headlines, refused string
	drop                             []string
}

// newFlagSet defines the flags, filling cfg with their defaults: those of
// mockserver's options (WithPendingPolls, WithJournalSize) and Limits.
func newFlagSet(cfg *config) *flag.FlagSet {
	*cfg = config{
		addr:             defaultAddr,
		pendingPolls:     1,
		jobTTL:           time.Hour,
		maxJobs:          10_000,
		maxWorlds:        1_000,
		journalSize:      1_000,
		headlineClusters: 20,
		headlineArticles: 5,
		logLevel:         logLevel{level: slog.LevelInfo},
		drainTimeout:     10 * time.Second,
	}
	fs := flag.NewFlagSet("newsmock", flag.ContinueOnError)
	fs.Var(addrValue{&cfg.addr}, "addr", "`host:port` to listen on; port 0 picks a free port")
	fs.BoolVar(&cfg.allowRemote, "allow-remote", false, "let -addr listen beyond this machine (e.g. 0.0.0.0:8080 in a container): anyone who can reach the port can then change the mock through /_mock/")
	fs.Var(hostsValue{&cfg.allowHosts}, "allow-host", "comma-separated host `names` requests may carry in their Host header besides localhost, *.localhost and IP addresses, e.g. mock.internal or *.example.test (* allows any); repeatable")
	fs.StringVar(&cfg.urlFile, "url-file", "", "also write the server's URL to this `file` once it listens (removed on exit)")
	fs.StringVar(&cfg.keys, "keys", "", "comma-separated API `keys` the server accepts (default: any non-empty key)")
	fs.StringVar(&cfg.corpusPath, "corpus", "", "serve the articles of this JSON Lines `file` instead of the embedded corpus")
	fs.Var(durationValue{&cfg.pending, 0}, "pending", "least `duration` a query-async job stays PENDING")
	fs.Var(intValue{&cfg.pendingPolls, 0}, "pending-polls", "get-results `polls` of a job that answer PENDING before it is ready")
	fs.Var(uintValue{&cfg.seed}, "seed", "`seed` of request ids, query ids and probabilistic faults")
	fs.Var(floatValue{&cfg.rateLimit}, "rate-limit", "`requests` per second allowed per API key; 0 means no limit")
	fs.Var(intValue{&cfg.burst, 0}, "burst", "`requests` a key may make at once under -rate-limit; 0 means the rate rounded up")
	fs.Var(shapeValue{&cfg.shape}, "shape", "answer `shape` the spec allows: results=nested|top-level (query) and totals=both|totalResults|totalArticles (get-results), \";\"-separated")
	fs.Var(faultsValue{&cfg.faults}, "fault", "inject faults by `rule`, e.g. \"endpoint=query;every=3;status=503\"; repeatable (or one rule a line)")
	fs.BoolVar(&cfg.noDateShift, "no-date-shift", false, "serve corpus dates as stored instead of moving the newest article to now")
	fs.Var(durationValue{&cfg.jobTTL, time.Millisecond}, "job-ttl", "`duration` a query_id lives after its last use")
	fs.Var(intValue{&cfg.maxJobs, 1}, "max-jobs", "most `jobs` held (per world); beyond it the least recently used is forgotten")
	fs.BoolVar(&cfg.worldPerKey, "world-per-key", false, "give every API key a world of its own (faults, clock, articles, jobs, journal) at its first request; "+
		"control calls pick one with the X-Newsmock-Key header")
	fs.BoolVar(&cfg.strict, "strict", false, "once a world has expectations, a request none matches fails GET /_mock/verify (without it, it is only listed); "+
		"PATCH /_mock/settings {\"strict\": true} sets it for one world")
	fs.Var(intValue{&cfg.maxWorlds, 1}, "max-worlds", "most `worlds` held besides the default one; beyond it the least recently used is dropped")
	fs.Var(intValue{&cfg.journalSize, 0}, "journal-size", "`requests` kept in the journal (GET /_mock/journal); 0 turns it off")
	fs.Var(intValue{&cfg.headlineClusters, 1}, "headline-clusters", "most `clusters` /api/v2/headlines lists")
	fs.Var(intValue{&cfg.headlineArticles, 1}, "headline-articles", "most `articles` listed per headline cluster")
	fs.Var(&cfg.logLevel, "log-level", "log `level` on standard error: debug, info (one line per request), warn, error or off (default info)")
	fs.Var(durationValue{&cfg.drainTimeout, 0}, "drain-timeout", "on SIGINT or SIGTERM, the `duration` requests in flight may take to finish")
	fs.BoolVar(&cfg.exitWithParent, "exit-with-parent", false, "stop as on SIGTERM when the program that started newsmock goes: "+
		"when standard input, a pipe from that program, closes, or (on Unix) when the parent process exits")
	fs.Var(&cfg.clock, "clock", "server `clock`: real, or manual[=RFC3339 start] for one that moves only through POST /_mock/clock, "+
		"within "+clockMin+" to "+clockMax+"; one world switches with PATCH /_mock/settings {\"clock\": \"manual\"}")
	fs.BoolVar(&cfg.version, "version", false, "print the version and exit")
	fs.StringVar(&cfg.headlinesPath, "headlines", "", "answer /api/v2/headlines with the last answer of this headlines `file` (from -record), dates shifted")
	fs.StringVar(&cfg.record.upstream, "record", "", "proxy every request to the service at this `URL` unchanged and record its articles into -record-to")
	fs.StringVar(&cfg.record.to, "record-to", "", "JSON Lines `file` -record adds the articles to (a corpus for -corpus)")
	fs.StringVar(&cfg.record.headlines, "record-headlines", "", "`file` -record keeps headline answers in (default: -record-to with .headlines.jsonl)")
	fs.StringVar(&cfg.record.refused, "record-refused", "", "`file` -record keeps the answers the service refused in (default: -record-to with .refused.jsonl)")
	fs.Var(listValue{&cfg.record.drop}, "record-drop", "comma-separated article `fields` -record leaves out, e.g. bodyText,embeddings")
	return fs
}

// parseFlags parses args, then sets the flags args leave out from their
// NEWSMOCK_ variables in environ (setFromEnv). It returns flag.ErrHelp for
// -h, and otherwise an error saying what is wrong and how to fix it (which
// never shows a key).
func parseFlags(args, environ []string) (*config, *flag.FlagSet, error) {
	cfg := new(config)
	fs := newFlagSet(cfg)
	fs.SetOutput(io.Discard) // run reports errors itself, once
	if err := fs.Parse(args); err != nil {
		return nil, fs, err
	}
	if fs.NArg() > 0 {
		return nil, fs, fmt.Errorf("unexpected argument %q: newsmock takes only flags (and the command health first)", fs.Arg(0))
	}
	fromEnv, err := setFromEnv(fs, environ)
	if err != nil {
		return nil, fs, err
	}
	if err := cfg.check(fs); err != nil {
		return nil, fs, envNote(err, fromEnv)
	}
	return cfg, fs, nil
}

// check reports flags that do not go together, given those set (fs).
func (c *config) check(fs *flag.FlagSet) error {
	if _, err := c.keyList(); err != nil {
		return err
	}
	burstSet := false
	fs.Visit(func(f *flag.Flag) { burstSet = burstSet || f.Name == "burst" })
	if burstSet && c.rateLimit == 0 {
		return errors.New("-burst needs -rate-limit: set -rate-limit too, or drop -burst")
	}
	if err := c.checkAddr(); err != nil {
		return err
	}
	if err := c.record.check(c); err != nil {
		return err
	}
	if c.record.upstream != "" {
		var idle []string
		fs.Visit(func(f *flag.Flag) {
			if slices.Contains(notWhileRecording, f.Name) {
				idle = append(idle, "-"+f.Name)
			}
		})
		if len(idle) > 0 {
			return fmt.Errorf("-record passes every request to the service, which answers it: %s would have no effect; "+
				"leave them out (-fault and -keys do apply to a recorder's answers; to make a mock upstream fail, give that mock -fault, "+
				"or send the X-Mock-Fault header through the recorder)",
				strings.Join(idle, ", "))
		}
	}
	return nil
}

// printUsage writes the help text.
func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage: newsmock [flags]
       newsmock health [flags]

newsmock serves the mock news search service for tests in any language.
Once it listens it prints "newsmock listening on <URL>" on standard output.
SIGINT or SIGTERM stop it gracefully.

newsmock health asks the newsmock listening on -addr (resolved as the
server resolves it, NEWSMOCK_ADDR included) for GET /_mock/health and exits
0 if it answers 200, 1 if not: a container's HEALTHCHECK.

Environment: every flag can be set by NEWSMOCK_<FLAG>, the flag's name in
upper case with '_' for '-': NEWSMOCK_ADDR=0.0.0.0:8080, NEWSMOCK_KEYS=k1,k2,
NEWSMOCK_WORLD_PER_KEY=true, NEWSMOCK_CLOCK=manual, NEWSMOCK_FAULT (one rule
a line). A flag on the command line wins over its variable; an empty
variable counts as unset. A NEWSMOCK_ variable that names no flag, or holds
a value its flag refuses, stops newsmock with exit code 2. The clients'
variables are left alone: NEWSMOCK_BINARY (the binary the npm and Python
packages start) and NEWSMOCK_URL (a mock already running that they use).

Flags:
`)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nEndpoints (the four API endpoints, then the mock's own, which need no api_key):\n")
	for _, r := range mockserver.Routes() {
		fmt.Fprintf(w, "  %-5s %s\n", r.Method, r.Path)
	}
	fmt.Fprintf(w, `
Faults for one request: send the header %s: ITEM;ITEM... with items
  status=<400-599>  retry-after=<seconds>  latency=<duration, e.g. 150ms>
  drop  truncate  job=fail  job=stuck  job=refuse (the job items on query-async only)
  e.g. %s: status=429;retry-after=2
Faults by rule: -fault 'endpoint=query;every=3;status=503' (the same items plus
  endpoint=<name>, every=<n>, probability=<0..1>, times=<n>, optional, and
  body.<member>=<value> to match requests whose JSON body has that member,
  e.g. 'endpoint=query;body.query=storm;body.page=2;status=503'; repeatable).

A POST to /_mock/ needs Content-Type: application/json, or the header
%s: 1 with any type (for the -fault rule syntax as text), e.g.
  curl -H 'Content-Type: application/json' -d '{"endpoint": "query", "times": 2, "fault": {"status": 503}}' http://127.0.0.1:8080/_mock/faults
  curl -H '%s: 1' -H 'Content-Type: text/plain' -d 'endpoint=headlines;every=3;latency=200ms' http://127.0.0.1:8080/_mock/faults
  curl -X POST -H 'Content-Type: application/json' http://127.0.0.1:8080/_mock/reset
so that no web page can send one. Requests from web pages of other sites
(Origin, Sec-Fetch-Site) are refused with 403, and requests whose Host is not
localhost, *.localhost, an IP address or a name given to -allow-host with 421
(DNS rebinding). -addr beyond this machine needs -allow-remote.

Reference: docs/mockserver.md in github.com/newssearch/newssearch-go.
`, mockserver.FaultHeader, mockserver.FaultHeader, mockserver.ControlHeader, mockserver.ControlHeader)
}

// checkAddr refuses an -addr beyond this machine without -allow-remote. A
// host name is resolved: it must name loopback addresses only (serve checks
// the address it listens on as well).
func (c *config) checkAddr() error {
	if c.allowRemote {
		return nil
	}
	host, _, _ := net.SplitHostPort(c.addr) // addrValue has checked it
	if ip, err := netip.ParseAddr(host); err == nil || host == "" {
		if err == nil && ip.Unmap().IsLoopback() {
			return nil
		}
		return remoteAddrError(c.addr)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil // net.Listen says what is wrong with the name
	}
	for _, a := range addrs {
		if !a.Unmap().IsLoopback() {
			return remoteAddrError(c.addr)
		}
	}
	return nil
}

// remoteAddrError is the refusal of an -addr beyond this machine.
func remoteAddrError(addr string) error {
	where := "an address other machines can reach"
	if host, _, _ := net.SplitHostPort(addr); host == "" {
		where = "every network interface"
	} else if ip, err := netip.ParseAddr(host); err == nil && ip.IsUnspecified() {
		where = "every network interface"
	}
	return fmt.Errorf("-addr %s listens on %s, where anyone who can reach the port could change the mock "+
		"(faults, jobs, clock, articles) through /_mock/: listen on a loopback address such as %s (the default), "+
		"or add -allow-remote if other machines must reach it (in a container, for example)", addr, where, defaultAddr)
}

// keyList splits -keys. It returns nil for "accept any non-empty key".
// Its errors name keys by position, never by value.
func (c *config) keyList() ([]string, error) {
	if c.keys == "" {
		return nil, nil
	}
	keys := strings.Split(c.keys, ",")
	for i, k := range keys {
		keys[i] = strings.TrimSpace(k)
		if keys[i] == "" {
			return nil, fmt.Errorf("-keys: key %d of %d is blank: give non-empty keys separated by commas, e.g. -keys key1,key2", i+1, len(keys))
		}
	}
	return keys, nil
}

// burstOrDefault is -burst, or the rate limit rounded up (at least 1).
func (c *config) burstOrDefault() int {
	if c.burst > 0 {
		return c.burst
	}
	return max(1, int(math.Ceil(c.rateLimit)))
}

// options turns the configuration into mockserver options. Loading the
// corpus file is the only step that can fail.
func (c *config) options(logger *slog.Logger) ([]mockserver.Option, error) {
	opts := []mockserver.Option{
		mockserver.WithoutListener(), // run serves Handler with its own http.Server
		mockserver.WithLogger(logger),
		mockserver.WithPendingDuration(c.pending),
		mockserver.WithPendingPolls(c.pendingPolls),
		mockserver.WithSeed(c.seed),
		mockserver.WithJournalSize(c.journalSize),
		mockserver.WithAnswerShape(c.shape),
		mockserver.WithLimits(mockserver.Limits{
			JobTTL: c.jobTTL, MaxJobs: c.maxJobs, HeadlineClusters: c.headlineClusters, HeadlineArticles: c.headlineArticles,
			MaxWorlds: c.maxWorlds,
		}),
	}
	hosts := c.allowHosts
	if host, _, _ := net.SplitHostPort(c.addr); host != "" {
		if _, err := netip.ParseAddr(host); err != nil {
			hosts = append(hosts, host) // the name -addr gives: newsmock is reached by it
		}
	}
	if len(hosts) > 0 {
		opts = append(opts, mockserver.WithAllowedHosts(hosts...))
	}
	if keys, _ := c.keyList(); keys != nil { // parseFlags has checked them
		opts = append(opts, mockserver.WithAPIKeys(keys...))
	}
	if c.rateLimit > 0 {
		opts = append(opts, mockserver.WithRateLimit(c.rateLimit, c.burstOrDefault()))
	}
	if len(c.faults) > 0 {
		opts = append(opts, mockserver.WithFaults(c.faults...))
	}
	if c.noDateShift {
		opts = append(opts, mockserver.WithoutDateShift())
	}
	if c.worldPerKey {
		opts = append(opts, mockserver.WithWorldPerKey())
	}
	if c.strict {
		opts = append(opts, mockserver.WithStrictExpectations())
	}
	if r := c.record; r.upstream != "" {
		opts = append(opts, mockserver.WithRecord(mockserver.RecordOptions{
			Upstream: r.upstream, CorpusPath: r.to, HeadlinesPath: r.headlines, RefusedPath: r.refused, Drop: r.drop,
		}))
	}
	if c.headlinesPath != "" {
		h, err := mockserver.LoadHeadlinesFile(c.headlinesPath)
		if err != nil {
			return nil, fmt.Errorf("-headlines: %w", err)
		}
		opts = append(opts, mockserver.WithHeadlines(h))
	}
	if c.clock.manual {
		opts = append(opts, mockserver.WithManualClock(c.clock.start))
	}
	if c.corpusPath != "" {
		corpus, err := mockserver.LoadCorpusFile(c.corpusPath)
		var pathErr *os.PathError
		switch {
		case errors.As(err, &pathErr):
			return nil, fmt.Errorf("-corpus: %w; pass the path of a readable JSON Lines file", err)
		case err != nil:
			return nil, fmt.Errorf("-corpus: %w", err)
		}
		opts = append(opts, mockserver.WithCorpus(corpus))
	}
	return opts, nil
}

// The flag.Value types below check their values as they are parsed, so the
// flag package reports `invalid value "x" for flag -name: <problem and fix>`.

type addrValue struct{ p *string }

func (v addrValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v addrValue) Set(s string) error {
	_, port, err := net.SplitHostPort(s)
	if err == nil {
		_, err = strconv.ParseUint(port, 10, 16)
	}
	if err != nil {
		return errors.New("want host:port, e.g. 127.0.0.1:8080, or 127.0.0.1:0 for a free port")
	}
	*v.p = s
	return nil
}

type durationValue struct {
	p   *time.Duration
	min time.Duration
}

func (v durationValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return errors.New("not a duration: write a number with a unit, e.g. 500ms, 2s or 1m")
	case d < v.min:
		return fmt.Errorf("must be at least %v", v.min)
	}
	*v.p = d
	return nil
}

type intValue struct {
	p   *int
	min int
}

func (v intValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.Itoa(*v.p)
}

func (v intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return fmt.Errorf("not a whole number: write e.g. %d", v.min+2)
	case n < v.min:
		return fmt.Errorf("must be %d or more", v.min)
	}
	*v.p = n
	return nil
}

type uintValue struct{ p *uint64 }

func (v uintValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatUint(*v.p, 10)
}

func (v uintValue) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return errors.New("not a whole number from 0 to 18446744073709551615: write e.g. 42")
	}
	*v.p = n
	return nil
}

type floatValue struct{ p *float64 }

func (v floatValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v floatValue) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return errors.New("not a rate: write requests per second as a number of 0 or more, e.g. 10 or 0.5 (0 means no limit)")
	}
	*v.p = f
	return nil
}

// notWhileRecording are the flags of the mock's own answers, which a
// recording proxy does not give: the upstream answers every request. Fault
// rules (-fault) and accepted keys (-keys) apply to a recorder too.
var notWhileRecording = []string{"burst", "headline-articles", "headline-clusters", "job-ttl",
	"max-jobs", "no-date-shift", "pending", "pending-polls", "rate-limit"}

// check reports a recording flag given without -record, or -record
// without -record-to, or with the flags that serve a recording.
func (r recordFlags) check(c *config) error {
	switch {
	case r.upstream == "" && (r.to != "" || r.headlines != "" || r.refused != "" || r.drop != nil):
		return errors.New("-record-to, -record-headlines, -record-refused and -record-drop need -record: add -record URL of the service to record from")
	case r.upstream == "":
		return nil
	case r.to == "":
		return errors.New("-record needs -record-to: name the JSON Lines file to record into, e.g. -record-to news.jsonl")
	case c.corpusPath != "" || c.headlinesPath != "":
		return errors.New("-record makes a recording and -corpus and -headlines serve one: record first, then serve it in another run")
	}
	return nil
}

// hostsValue is -allow-host: comma-separated host names; each use adds to
// them.
type hostsValue struct{ p *[]string }

func (v hostsValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

func (v hostsValue) Set(s string) error {
	for h := range strings.SplitSeq(s, ",") {
		h = strings.TrimSpace(h)
		name := strings.TrimPrefix(h, "*.")
		switch {
		case h == "*":
		case h == "":
			return errors.New("a host name is blank: give names separated by commas, e.g. mock.internal,*.example.test")
		case strings.Contains(h, "/"):
			return fmt.Errorf("%q is a URL: give the host name alone, e.g. mock.internal", h)
		case strings.Contains(name, ":") && !isIP(strings.Trim(name, "[]")):
			return fmt.Errorf("%q has a port: give the name alone, e.g. %s (every port is allowed)", h, strings.Split(name, ":")[0])
		case strings.ContainsAny(name, "* \t"):
			return fmt.Errorf(`%q is not a host name: give a name such as mock.internal, *.example.test for every name under it, or * for any`, h)
		}
		*v.p = append(*v.p, h)
	}
	return nil
}

func isIP(s string) bool {
	_, err := netip.ParseAddr(s)
	return err == nil
}

// listValue is a comma-separated list; each use adds to it.
type listValue struct{ p *[]string }

func (v listValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

func (v listValue) Set(s string) error {
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			return errors.New("a field name is blank: write names separated by commas, e.g. bodyText,embeddings")
		}
		*v.p = append(*v.p, f)
	}
	return nil
}

// clockValue is -clock: real, manual, or manual=<RFC 3339 start>.
type clockValue struct {
	manual bool
	start  time.Time // zero = the time newsmock starts
}

func (v *clockValue) String() string {
	switch {
	case v == nil || !v.manual:
		return "real"
	case v.start.IsZero():
		return "manual"
	}
	return "manual=" + v.start.Format(time.RFC3339Nano)
}

func (v *clockValue) Set(s string) error {
	mode, start, hasStart := strings.Cut(strings.TrimSpace(s), "=")
	switch strings.ToLower(mode) {
	case "real":
		if !hasStart {
			*v = clockValue{}
			return nil
		}
	case "manual":
		if !hasStart {
			*v = clockValue{manual: true}
			return nil
		}
		t, err := time.Parse(time.RFC3339Nano, start)
		if err != nil {
			return fmt.Errorf("the start %q is not an RFC 3339 time: write e.g. -clock manual=2026-01-15T12:00:00Z", start)
		}
		if lo, hi := clockBound(clockMin), clockBound(clockMax); t.Before(lo) || t.After(hi) {
			return fmt.Errorf("the start %s is out of range: the server clock runs from %s to %s; write e.g. -clock manual=2026-01-15T12:00:00Z",
				start, clockMin, clockMax)
		}
		*v = clockValue{manual: true, start: t}
		return nil
	}
	return errors.New("use real, manual, or manual=<RFC 3339 time> such as manual=2026-01-15T12:00:00Z")
}

// The range of the mock's clock (see mockserver.WithManualClock), checked
// here so that the flag's error names the flag.
const (
	clockMin = "1970-01-01T00:00:00Z"
	clockMax = "9700-01-01T00:00:00Z"
)

// clockBound parses clockMin or clockMax.
func clockBound(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

type shapeValue struct{ p *mockserver.AnswerShape }

func (v shapeValue) String() string { return "" }

// Set takes the shape items of a fault, and nothing else.
func (v shapeValue) Set(s string) error {
	f, err := mockserver.ParseFault(s)
	if err == nil && (f != mockserver.Fault{Shape: f.Shape}) {
		err = fmt.Errorf("%q sets more than a shape: give only results= and totals=", s)
	}
	*v.p = f.Shape
	return err
}

type faultsValue struct{ p *[]mockserver.FaultRule }

func (v faultsValue) String() string { return "" }

// Set adds the rule s, or the rule of each line of s that is not blank
// (NEWSMOCK_FAULT holds several that way).
func (v faultsValue) Set(s string) error {
	rules := []string{s}
	if strings.Contains(s, "\n") {
		rules = slices.DeleteFunc(strings.Split(s, "\n"), func(r string) bool { return strings.TrimSpace(r) == "" })
	}
	for _, rule := range rules {
		r, err := mockserver.ParseFaultRule(rule)
		if err != nil {
			return err
		}
		*v.p = append(*v.p, r)
	}
	return nil
}

// logLevel is a slog level, or off.
type logLevel struct {
	level slog.Level
	off   bool
}

func (l *logLevel) String() string {
	if l.off {
		return "off"
	}
	return strings.ToLower(l.level.String())
}

func (l *logLevel) Set(s string) error {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "off" {
		*l = logLevel{off: true}
		return nil
	}
	var lv slog.Level
	if s == "" || lv.UnmarshalText([]byte(s)) != nil {
		return errors.New("unknown level: use debug, info, warn, error or off")
	}
	*l = logLevel{level: lv}
	return nil
}

// logger returns the logger of the level on w.
func (l *logLevel) logger(w io.Writer) *slog.Logger {
	if l.off {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l.level}))
}
