package mockserver

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
	"github.com/newssearch/newssearch-go/mockserver/internal/record"

	"github.com/newssearch/newssearch-go/internal/splitmix"
)

// Limits of the socket New opens, as cmd/newsmock's, so that no client can
// hold it; the write timeout leaves 30 s beyond the longest latency fault.
const (
	socketReadHeaderTimeout = 10 * time.Second
	socketReadTimeout       = 30 * time.Second
	socketWriteTimeout      = MaxFaultLatency + 30*time.Second
	socketIdleTimeout       = 2 * time.Minute
	socketMaxHeaderBytes    = 64 << 10
)

// closeConnWait bounds how long Close waits for the socket's connection
// goroutines to end (net/http keeps one up to 500 ms after a 431).
const closeConnWait = 5 * time.Second

// Server is a running mock of the service, safe for concurrent use. It is also
// the handle of one world (see World), on which its methods act. Printing it
// never shows a key.
type Server struct {
	*core
	*world
	apiKey string // the key Client uses: the handle's world's, or the default key
}

// core is what every world of a server shares.
type core struct {
	start           *Corpus       // the corpus given at New
	maxArticlesBody int64         // Limits.MaxArticlesBody
	articlesBody    chan struct{} // held while a POST /_mock/articles reads and adds its body
	allowedHosts    []string      // WithAllowedHosts, and the host of WithAddr
	shift           time.Duration
	logger          *slog.Logger
	seed            uint64

	keyHashes [][32]byte // accepted keys; nil = any non-empty key

	startFaults   []fault.Rule // the rules given at New, which Reset restores
	startSettings Settings     // the settings given at New, which Reset restores
	journalSize   int
	rec           *recorder // nil unless WithRecord
	// panicHook, set by tests only, runs before every handler recovering runs.
	panicHook func(*http.Request)

	headlineClusters int
	headlineArticles int
	replayHeadlines  []byte // WithHeadlines, shifted

	jobSeq   atomic.Uint64 // query ids are unique across worlds and Resets
	adminSeq atomic.Uint64

	worlds worldSet // world.go

	handler    http.Handler
	url        string
	httpServer *http.Server
	serveDone  chan struct{}
	conns      sync.WaitGroup  // the socket's connections whose goroutine runs
	transport  *http.Transport // the socket client's; nil WithoutListener
	httpClient *http.Client

	bubble   bool            // created inside a testing/synctest bubble
	baseCtx  context.Context // cancelled by Close
	cancel   context.CancelFunc
	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup
}

// New starts a Server listening on a free loopback port, unless
// WithoutListener is given. It panics where Start returns an error.
func New(opts ...Option) *Server {
	s, err := Start(opts...)
	if err != nil {
		panic(err)
	}
	return s
}

// Start is New returning an error, which lists every invalid option.
func Start(opts ...Option) (*Server, error) {
	cfg, err := build(opts)
	if err != nil {
		return nil, err
	}
	rules, err := compileRules(cfg.faults)
	if err != nil {
		return nil, err
	}
	inj, err := fault.NewInjector(cfg.seed, rules)
	if err != nil {
		return nil, err
	}
	c := cfg.corpus
	if c == nil {
		c = DefaultCorpus()
	}
	shift, err := dateShift(cfg, c)
	if err != nil {
		return nil, err
	}
	cr := &core{
		start:            c,
		startFaults:      rules,
		logger:           cfg.logger,
		seed:             cfg.seed,
		startSettings:    cfg.settings,
		journalSize:      cfg.journalSize,
		maxArticlesBody:  cfg.maxArticlesBody,
		articlesBody:     make(chan struct{}, 1),
		allowedHosts:     cfg.allowedHosts,
		headlineClusters: cfg.headlineClusters,
		headlineArticles: cfg.headlineArticles,
		shift:            shift,
		worlds:           worldSet{perKey: cfg.worldPerKey, max: cfg.maxWorlds, byOwner: map[jobs.Owner]*world{}},
	}
	c.index() // built now, not by the first search
	if cr.logger == nil {
		cr.logger = slog.New(slog.DiscardHandler)
	}
	key := DefaultAPIKey
	if len(cfg.keys) > 0 {
		key = cfg.keys[0]
		for _, k := range cfg.keys {
			cr.keyHashes = append(cr.keyHashes, sha256.Sum256([]byte(k)))
		}
	}
	s := cr.newWorld(key, jobs.Owner{}, inj, &worldClock{now: cfg.clock, wall: cfg.wallClock && cfg.manual == nil, manual: cfg.manual})
	cr.worlds.def = s.world
	if cfg.headlines != nil {
		s.replayHeadlines = record.ShiftHeadlines(cfg.headlines.answer, s.shift)
	}
	if cfg.record.Upstream != "" {
		if s.rec, err = newRecorder(cfg.record, cfg.keys, rules, cfg.clock); err != nil {
			return nil, err
		}
	}
	s.baseCtx, s.cancel = context.WithCancel(context.Background())
	// Made lazily by a request in a testing/synctest bubble, the channel
	// would belong to the bubble, and Close from outside would kill the test.
	_ = s.baseCtx.Done()
	if s.bubble = inSynctestBubble(); s.bubble && !cfg.noListener {
		s.cancel()
		return nil, errBubbleListener
	}
	s.handler = http.HandlerFunc(s.serveHTTP)
	if cfg.noListener {
		s.url = noListenerURL
		s.httpClient = &http.Client{Transport: s.Transport()}
		return s, nil
	}
	if err := s.listen(cfg.addr, cfg.allowRemote); err != nil {
		s.cancel()
		return nil, err
	}
	return s, nil
}

// listen opens the socket and serves it in the background. Without
// allowRemote it listens only on a loopback address.
func (s *Server) listen(addr string, allowRemote bool) error {
	remote := func() error {
		return fmt.Errorf("mockserver: WithAddr(%q) listens beyond this machine, where anyone who can reach the port "+
			"could change the server through its /_mock/ endpoints: listen on a loopback address such as %q, "+
			"or add mockserver.WithAllowRemote() if other machines must reach it", addr, defaultAddr)
	}
	host, _, err := net.SplitHostPort(addr)
	if err == nil && !allowRemote && !maybeLoopback(host) {
		return remote()
	}
	if err == nil && hostName(host) != "" {
		if _, perr := netip.ParseAddr(hostName(host)); perr != nil {
			s.allowedHosts = append(s.allowedHosts, hostName(host)) // the name it is reached by
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mockserver: cannot listen on %s: %w (pass a free address to WithAddr, or use WithoutListener)", addr, err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !allowRemote && !tcp.IP.IsLoopback() {
		ln.Close() // a name that resolved beyond this machine; nothing was served
		return remote()
	}
	s.url = "http://" + ln.Addr().String()
	s.httpServer = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: socketReadHeaderTimeout,
		ReadTimeout:       socketReadTimeout,
		WriteTimeout:      socketWriteTimeout,
		IdleTimeout:       socketIdleTimeout,
		MaxHeaderBytes:    socketMaxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return s.baseCtx },
		ConnState:         s.trackConn,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
	}
	s.transport = &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     30 * time.Second,
	}
	s.httpClient = &http.Client{Transport: s.transport}
	s.serveDone = make(chan struct{})
	go func() {
		defer close(s.serveDone)
		if err := s.httpServer.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			s.logger.Error("mockserver: serving stopped", "error", err)
		}
	}()
	return nil
}

// URL returns the server's base URL, e.g. "http://127.0.0.1:54321".
func (s *Server) URL() string { return s.url }

// Handler returns the server's HTTP handler, to mount in a server of your own.
func (s *Server) Handler() http.Handler { return s.handler }

// HTTPClient returns an *http.Client that reaches the server, over its socket
// or in process.
func (s *Server) HTTPClient() *http.Client { return s.httpClient }

// APIKey returns the key Client sends: the first of WithAPIKeys,
// DefaultAPIKey, or the key of a handle's world.
func (s *Server) APIKey() string { return s.apiKey }

// DateShift returns how far every corpus date is moved forward (0
// WithoutDateShift).
func (s *Server) DateShift() time.Duration { return s.shift }

// Corpus returns the corpus the world searches now, added articles included.
func (s *Server) Corpus() *Corpus { return s.data.Load() }

// Reset returns the world to its state after New, as POST /_mock/reset does:
// journal, jobs, expectations, articles, fault rules and their counters,
// settings, clock and request ids. Query ids are never issued twice.
func (s *Server) Reset() {
	s.journal.Reset()
	s.jobs.Reset()
	s.expect.reset()
	s.applySettings(s.startSettings)
	s.reqSeq.Store(0) // jobSeq goes on: query ids are unique for the server's life
	s.resetArticles()
	_ = s.faults.Set(s.startFaults) // validated at New; Set restarts the counters
	s.resetClock()
}

// Close stops the server and waits for its requests and connections; it is
// idempotent. On a handle from World it drops that world instead.
func (s *Server) Close() {
	if s.world != s.worlds.def {
		s.dropWorld(s.world)
		return
	}
	if s.bubble && !inSynctestBubble() {
		panic(closeOutsideBubble)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	if s.httpServer != nil {
		_ = s.httpServer.Close() // the only error is the listener's close error, which changes nothing here
		<-s.serveDone
		s.awaitConns() // Serve has returned, so no connection is added any more
	}
	s.inflight.Wait()
	if s.transport != nil {
		s.transport.CloseIdleConnections()
	}
}

// awaitConns waits, at most closeConnWait, for the connection goroutines.
func (s *Server) awaitConns() {
	done := make(chan struct{})
	go func() { s.conns.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeConnWait):
		s.logger.Warn("mockserver: Close stopped waiting for connection goroutines of net/http", "waited", closeConnWait)
	}
}

// trackConn counts the socket's connections from StateNew to StateClosed or
// StateHijacked, the last thing their goroutine does.
func (s *Server) trackConn(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		s.conns.Add(1)
	case http.StateClosed, http.StateHijacked:
		s.conns.Done()
	}
}

// enter registers a request in flight; false once the server is closed.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	return true
}

// Format prints the server as "mockserver.Server(URL)", or
// "mockserver.Server(URL, world ID)" for a world's handle, whatever the verb.
func (s *Server) Format(f fmt.State, _ rune) {
	if s.world != s.worlds.def {
		fmt.Fprintf(f, "mockserver.Server(%s, world %s)", s.url, s.id)
		return
	}
	fmt.Fprintf(f, "mockserver.Server(%s)", s.url)
}

// idGen derives request and query ids from the seed and a counter.
type idGen struct{ seed uint64 }

// request returns the n-th X-Request-Id: "req-" and 16 hex digits.
func (g idGen) request(n uint64) string {
	return "req-" + hex16(mix64(g.seed^mix64(n)))
}

// hex16 writes x as 16 lower-case hex digits.
func hex16(x uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], x)
	return hex.EncodeToString(b[:])
}

// query returns the n-th query id: 32 lower-case hex digits.
func (g idGen) query(n uint64) string {
	hi := mix64(g.seed ^ mix64(n^0x51a7e5c0ffee1d00))
	return hex16(hi) + hex16(mix64(hi^g.seed))
}

// mix64 is one SplitMix64 step, a bijection on uint64.
func mix64(x uint64) uint64 { return splitmix.Next(x) }
