package mockserver

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/newssearch/newssearch-go/internal/jsonscan"
	"github.com/newssearch/newssearch-go/internal/onewrite"
	"github.com/newssearch/newssearch-go/internal/reqlog"
	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
)

// The path of an API request, top to bottom, in five files:
//
//   - handler.go (this file): serveHTTP admits it (guard.go refuses other
//     origins and hosts) and sends /_mock/ to admin.go; serveAPI reads the
//     body, parses it (request.go) and authenticates its key, picks its
//     world (world.go), numbers it, decides and applies faults
//     (faults.go), then serveEndpoint applies the rate limit (rateLimiter,
//     below) and runs the endpoint;
//   - endpoints.go: the four endpoints, which validate their fields
//     (request.go), search the world's corpus and encode the answer;
//   - handler.go again: send writes the answer, and finish records it in
//     the world's journal and the log (record).
//
// A panic anywhere on the way becomes a logged 500 (serveAPI's recover;
// recover.go for the control endpoints).

// endpoint is one API endpoint.
type endpoint struct {
	name        string // as in FaultRule.Endpoint
	path        string
	createsJobs bool
	example     string // a minimal valid body, for messages
	serve       func(s *Server, x *exchange, f fields) response
}

// exchange is the state of one API request.
type exchange struct {
	entry    JournalEntry
	body     []byte
	started  time.Time
	recorded bool
	done     time.Time // when it was recorded (real time)
	date     []string  // the answer's Date header, allocated with its X-Request-Id (serveAPI)
	now      time.Time // the server clock, read once per request
	owner    jobs.Owner
	fields   fields    // the parsed body
	parseErr *apiError // what parsing the body found wrong
	authErr  *apiError // what is wrong with its api_key
	fault    fault.Action
	conn     *onewrite.Conn // the connection the request came on; nil in process
	// members holds the body's members (parseBody), so that splitting a
	// body of a few fields needs no allocation of its own.
	members [8]jsonscan.Member
}

// exchanges recycles the state of API requests: nothing keeps an exchange
// once its request is answered (the journal and jobs copy what they keep).
var exchanges = sync.Pool{New: func() any { return new(exchange) }}

// finish records the request in the journal and the log, once. It runs
// before the answer is written, so a client that has its answer finds the
// request in the journal.
func (s *Server) finish(x *exchange) {
	if !x.recorded {
		x.recorded = true
		x.done = s.record(&x.entry, x.body, x.started)
	}
}

// since is the server clock's time since t, at least 0. It is 0 when t is
// zero or the clock panics: record also runs while serveAPI recovers from
// a panic, which may have been the clock's own.
func (s *Server) since(t time.Time) (d time.Duration) {
	if t.IsZero() {
		return 0
	}
	defer func() {
		if recover() != nil {
			d = 0
		}
	}()
	return max(s.clock().Sub(t), 0)
}

// record adds a finished request to the journal and the log, and returns
// the time it did (time.Now, whatever the server's clock).
func (s *Server) record(e *JournalEntry, body []byte, started time.Time) (now time.Time) {
	now = time.Now()
	if s.journalOn {
		if s.wall && !e.Time.IsZero() {
			e.Duration = max(now.Sub(e.Time), 0)
		} else {
			e.Duration = s.since(e.Time)
		}
		s.journal.Add(journalRecord{entry: *e, body: newLazyBody(body)})
	} else {
		s.journal.Add(journalRecord{}) // counted as dropped by a ring of size 0
	}
	reqlog.Log(s.logger.Handler(), reqlog.Line{Time: now, Method: e.Method, Path: e.Path, Status: e.Status,
		RequestID: e.RequestID, Duration: now.Sub(started), Fault: e.Fault, QueryID: e.QueryID})
	return now
}

// response is an answer ready to send: either body, which comes from
// bufPool and goes back to it once sent, or fixed, bytes a cache owns that
// are written as they are and never changed. With tail, the answer is body,
// then mid and tail, which are a cache's or constant bytes, never copied
// into body (get-results: its head, a cached page's articles, its end).
type response struct {
	status     int
	body       *[]byte
	fixed      []byte
	mid, tail  []byte
	retryAfter int
}

// bytes returns the answer's body; with tail, a copy of the whole answer.
func (r response) bytes() []byte {
	switch {
	case r.tail != nil:
		return slices.Concat(*r.body, r.mid, r.tail)
	case r.body != nil:
		return *r.body
	}
	return r.fixed
}

// endpoints are the API endpoints in documentation order; routes finds
// them by path.
var (
	endpoints = []*endpoint{
		{name: EndpointQuery, serve: (*Server).serveQuery,
			example: `{"api_key": "<your key>", "query": "electric cars"}`},
		{name: EndpointQueryAsync, createsJobs: true, serve: (*Server).serveQueryAsync,
			example: `{"api_key": "<your key>", "query": "electric cars"}`},
		{name: EndpointGetResults, serve: (*Server).serveGetResults,
			example: `{"api_key": "<your key>", "query_id": "<the id /api/v2/query-async returned>"}`},
		{name: EndpointHeadlines, serve: (*Server).serveHeadlines,
			example: `{"api_key": "<your key>"}`},
	}
	routes = map[string]*endpoint{}
)

func init() {
	for _, ep := range endpoints {
		ep.path = "/api/v2/" + ep.name
		routes[ep.path] = ep
	}
}

// apiPaths lists the endpoints for messages.
const apiPaths = "POST /api/v2/query, /api/v2/query-async, /api/v2/get-results and /api/v2/headlines"

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	c := onewrite.From(w, r)
	if !s.enter() {
		w.Header().Set("X-Request-Id", s.ids.request(s.reqSeq.Add(1)))
		w.Header().Set("Content-Type", "application/json")
		b := errorBody("the mock server is closed: start a new one with mockserver.New")
		writeRaw(w, c, http.StatusServiceUnavailable, 0, b, len(b))
		return
	}
	defer s.inflight.Done()
	if s.guard(w, r, c) {
		return
	}
	if strings.HasPrefix(r.URL.Path, adminPrefix) || r.URL.Path == OpenAPIPath {
		s.recovering(w, r, s.serveAdmin)
		return
	}
	if s.rec != nil {
		s.recovering(w, r, s.serveRecord)
		return
	}
	s.serveAPI(w, r, c)
}

// serveAPI answers one request to the API, recording it in the journal of
// the world its api_key uses (see World; the default world when the body
// names no key it can use). Any panic becomes a logged 500 (or, once the
// answer has started, a dropped connection); http.ErrAbortHandler, used by
// drop and truncate faults, is passed on. c is the connection the request
// came on (onewrite.From), nil in process.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, c *onewrite.Conn) {
	x := exchanges.Get().(*exchange)
	*x = exchange{started: time.Now(), conn: c, entry: JournalEntry{Method: r.Method, Path: r.URL.Path}}
	e := &x.entry
	h := w.Header()
	ws := s // the handle of the request's world, once its key is read
	number := func() {
		if e.Seq == 0 {
			e.Seq = ws.reqSeq.Add(1)
			e.RequestID, e.World = ws.ids.request(e.Seq), ws.id
			// One allocation holds the three values (the Date is set by
			// send), and nothing else holds it: the in-process transport
			// hands this header map to the caller, who may change it.
			values := make([]string, 3)
			values[0], values[1] = e.RequestID, "application/json"
			h["X-Request-Id"], h["Content-Type"], x.date = values[0:1:1], values[1:2:2], values[2:3:3]
		}
	}
	defer func() {
		p := recover()
		abort := p == http.ErrAbortHandler
		if p != nil && !abort {
			number()
			ws.logPanic(e.RequestID, r, p)
			if e.Status == 0 {
				ws.send(w, x, ws.errorResponse(&apiError{status: http.StatusInternalServerError, msg: internalErrorMessage(e.RequestID, p)}), false)
			} else { // the answer has started: all that is left is to cut it
				abort = true
			}
		}
		ws.finish(x)
		x.body, x.conn, x.fields, x.date = nil, nil, fields{}, nil // a pooled exchange keeps no request body (nor the key in it), nor its connection
		exchanges.Put(x)
		if abort {
			panic(http.ErrAbortHandler)
		}
	}()
	ep := routes[r.URL.Path]
	var readErr *apiError
	if ep != nil && r.Method == http.MethodPost {
		// Read and parse the body first: its api_key says which world
		// answers. What is wrong with it is answered after the faults, as
		// the endpoint's own checks are.
		if x.body, readErr = readBody(w, r); readErr == nil {
			if x.fields, x.parseErr = parseBody(x.body, ep.example, x.members[:0]); x.parseErr == nil {
				if x.owner, x.authErr = s.authenticate(x.fields); x.authErr == nil {
					ws = s.routed(x.owner)
				}
			}
		}
	}
	number()
	s = ws
	if s.wall {
		e.Time = x.started // the clock is time.Now: no second reading
	} else {
		e.Time = s.clock()
	}
	x.now = e.Time
	if ep == nil {
		s.send(w, x, s.errorResponse(&apiError{status: http.StatusNotFound, msg: fmt.Sprintf(
			"there is no endpoint at %s: use %s", quoteShort(r.URL.Path), apiPaths)}), false)
		return
	}
	if r.Method != http.MethodPost {
		h.Set("Allow", http.MethodPost)
		s.send(w, x, s.errorResponse(&apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf(
			"%s does not accept %s: send a POST with a JSON body", ep.path, quoteShort(r.Method))}), false)
		return
	}
	if readErr != nil {
		s.send(w, x, s.errorResponse(readErr), false)
		return
	}
	var source string
	var aerr *apiError
	if x.fault, source, aerr = s.decideFault(r.Header[FaultHeader], ep); aerr != nil {
		s.send(w, x, s.errorResponse(aerr), false)
		return
	}
	if source != "" {
		e.Fault = source + ": " + x.fault.String()
	}
	if err := fault.Wait(r.Context(), x.fault.Latency); err != nil {
		e.Fault += " (request cancelled during the latency)"
		s.finish(x)
		panic(http.ErrAbortHandler)
	}
	if x.fault.Drop {
		s.finish(x)
		panic(http.ErrAbortHandler)
	}
	var resp response
	if x.fault.Status != 0 {
		resp = s.errorResponse(&apiError{status: x.fault.Status, retryAfter: x.fault.RetryAfter, msg: fmt.Sprintf(
			"injected fault (%s): the mock server was told to answer %d %s; retry, or remove the fault",
			source, x.fault.Status, http.StatusText(x.fault.Status))})
	} else {
		resp = s.serveEndpoint(ep, x)
	}
	s.send(w, x, resp, x.fault.Truncate)
}

// serveEndpoint answers what parsing and authenticating the body found
// wrong, applies the rate limit and runs the endpoint.
func (s *Server) serveEndpoint(ep *endpoint, x *exchange) response {
	if x.parseErr != nil {
		return s.errorResponse(x.parseErr)
	}
	if x.authErr != nil {
		return s.errorResponse(x.authErr)
	}
	if s.limiter != nil {
		if ok, wait := s.limiter.allow(x.owner, x.now); !ok {
			return s.errorResponse(&apiError{status: http.StatusTooManyRequests, retryAfter: wait, msg: fmt.Sprintf(
				"rate limit exceeded: this key may make %v requests per second in bursts of up to %v; retry after %d s (see Retry-After)",
				s.limiter.rate, s.limiter.burst, wait)})
		}
	}
	return ep.serve(s, x, x.fields)
}

// readBody reads at most MaxBodyBytes of the body.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	return readBodyUpTo(w, r, MaxBodyBytes, "the request body is larger than 1 MiB (%d bytes): send only the documented fields")
}

// readBodyUpTo reads at most limit bytes of the body; a longer one is a 413
// with tooBigMsg (a format taking limit). A body whose Content-Length
// announces more is refused before a byte of it is read (tooLarge).
func readBodyUpTo(w http.ResponseWriter, r *http.Request, limit int64, tooBigMsg string) ([]byte, *apiError) {
	if r.Body == nil {
		return nil, nil
	}
	if r.ContentLength > limit {
		return nil, tooLarge(w, r, limit, tooBigMsg)
	}
	body := r.Body
	if n := r.ContentLength; n >= 0 {
		// The usual case: the length is announced, so read it into one
		// buffer of that size (io.ReadAll would grow one several times).
		// One byte of room more shows whether the body is longer than
		// announced, which is possible only for a request built by hand:
		// then it is read all, within the limit, as below.
		b := make([]byte, n, n+1)
		if _, err := io.ReadFull(body, b); err != nil {
			return nil, badRequest("the request body could not be read (%v): send the whole body with the request", err)
		}
		m, _ := body.Read(b[n : n+1])
		if m == 0 {
			return b, nil
		}
		body = io.NopCloser(io.MultiReader(bytes.NewReader(b[:n+1]), body))
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, tooLarge(w, r, limit, tooBigMsg)
	case err != nil:
		return nil, badRequest("the request body could not be read (%v): send the whole body with the request", err)
	}
	return b, nil
}

// Sizes of the blocks readBodyBlocks reads a body of unknown length into:
// the first is small, and each is twice the last, up to the largest.
const (
	firstBodyBlock = 64 << 10
	maxBodyBlock   = 4 << 20
)

// readBodyBlocks reads at most limit bytes of the body, as readBodyUpTo
// does, into blocks rather than one buffer: a body of unknown length
// (chunked) is never copied to grow a buffer, so reading it takes its own
// size in memory and no more. It returns the blocks and how many bytes it
// read, also when it refuses the body.
func readBodyBlocks(w http.ResponseWriter, r *http.Request, limit int64, tooBigMsg string) ([][]byte, int64, *apiError) {
	if r.Body == nil {
		return nil, 0, nil
	}
	if r.ContentLength > limit {
		return nil, 0, tooLarge(w, r, limit, tooBigMsg)
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	size := int64(firstBodyBlock)
	if r.ContentLength >= 0 {
		size = r.ContentLength + 1 // all of it, and room to see that it ends
	}
	var blocks [][]byte
	var read int64
	cur := make([]byte, 0, size)
	for {
		if len(cur) == cap(cur) {
			blocks = append(blocks, cur)
			size = min(2*int64(cap(cur)), maxBodyBlock)
			cur = make([]byte, 0, size)
		}
		m, err := body.Read(cur[len(cur):cap(cur)])
		cur = cur[:len(cur)+m]
		read += int64(m)
		var tooBig *http.MaxBytesError
		switch {
		case err == io.EOF:
			if len(cur) > 0 {
				blocks = append(blocks, cur)
			}
			return blocks, read, nil
		case errors.As(err, &tooBig):
			return nil, read, tooLarge(w, r, limit, tooBigMsg)
		case err != nil:
			return nil, read, badRequest("the request body could not be read (%v): send the whole body with the request", err)
		}
	}
}

// tooLarge is the 413 of a body over limit. Its answer closes the
// connection (HTTP/1), so that the server neither reads the rest of the
// body nor waits for it: a client that announced a large body gets the 413
// at once, before it sends the body.
func tooLarge(w http.ResponseWriter, r *http.Request, limit int64, tooBigMsg string) *apiError {
	if r.ProtoMajor == 1 {
		w.Header().Set("Connection", "close")
	}
	return &apiError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf(tooBigMsg, limit)}
}

// authenticate checks the api_key member and returns its hash. Accepted
// keys are compared as hashes in constant time.
func (s *Server) authenticate(f fields) (jobs.Owner, *apiError) {
	if v, ok := f.plain("api_key"); ok && len(bytes.TrimSpace(v)) > 0 {
		return s.admit(jobs.Owner(sha256.Sum256(v))) // hashed where it lies in the body: no copy of the key
	}
	key, ok, aerr := f.str("api_key")
	switch {
	case aerr != nil:
		return jobs.Owner{}, aerr
	case !ok:
		return jobs.Owner{}, &apiError{status: http.StatusUnauthorized, msg: fmt.Sprintf(
			"api_key is missing: put your API key in the JSON body, e.g. %s", examples["api_key"])}
	case strings.TrimSpace(key) == "":
		return jobs.Owner{}, &apiError{status: http.StatusUnauthorized, msg: fmt.Sprintf(
			"api_key is blank: put your API key in the JSON body, e.g. %s", examples["api_key"])}
	}
	return s.admit(jobs.Owner(sha256.Sum256([]byte(key))))
}

// admit checks a key's hash against the accepted keys, in constant time,
// and returns it as the owner of the request's jobs.
func (s *Server) admit(owner jobs.Owner) (jobs.Owner, *apiError) {
	if s.keyHashes == nil {
		return owner, nil
	}
	match := 0
	for _, k := range s.keyHashes {
		match |= subtle.ConstantTimeCompare(owner[:], k[:])
	}
	if match != 1 {
		return jobs.Owner{}, &apiError{status: http.StatusUnauthorized, msg: "api_key is not accepted by this mock server: " +
			"use one of the keys it was started with (newsmock -keys on the command line; " +
			"mockserver.WithAPIKeys in Go, where Server.Client and Server.APIKey provide one)"}
	}
	return owner, nil
}

// errorResponse encodes a failure as {"state": "FAILED", "message": …}.
// A 429 always carries Retry-After.
func (s *Server) errorResponse(e *apiError) response {
	buf := getBuf()
	*buf = append(*buf, errorBody(e.msg)...)
	retry := e.retryAfter
	if e.status == http.StatusTooManyRequests && retry == 0 {
		retry = 1
	}
	return response{status: e.status, body: buf, retryAfter: retry}
}

func errorBody(msg string) []byte {
	b := append([]byte(`{"state":"FAILED","message":`), appendString(nil, msg)...)
	return append(b, '}')
}

// send records the request, then writes a response and returns its buffer
// to the pool. With truncate it sends the headers and half the body, then
// aborts the connection.
func (s *Server) send(w http.ResponseWriter, x *exchange, resp response, truncate bool) {
	x.entry.Status = resp.status
	s.finish(x)
	if x.conn != nil && len(x.date) == 1 {
		// net/http would format the same Date itself, for every answer.
		x.date[0] = httpDate(x.done)
		w.Header()["Date"] = x.date
	}
	if resp.tail != nil && !truncate {
		setLengthHeaders(w, resp.retryAfter, len(*resp.body)+len(resp.mid)+len(resp.tail))
		onewrite.SendParts(w, x.conn, resp.status, *resp.body, resp.mid, resp.tail)
		putBuf(resp.body)
		return
	}
	b := resp.bytes()
	n := len(b)
	if truncate {
		b = b[:n/2]
	}
	writeRaw(w, x.conn, resp.status, resp.retryAfter, b, n)
	if truncate {
		_ = http.NewResponseController(w).Flush() // without a flusher the abort still cuts the body
		putBuf(resp.body)
		panic(http.ErrAbortHandler)
	}
	putBuf(resp.body)
}

// writeRaw writes status and b, announcing a body of length n (more than
// len(b) for a truncated answer). With c, the connection the request came
// on, a long answer leaves in one system call (onewrite.Send).
func writeRaw(w http.ResponseWriter, c *onewrite.Conn, status, retryAfter int, b []byte, n int) {
	setLengthHeaders(w, retryAfter, n)
	onewrite.Send(w, c, status, b)
}

// lastDate is the last Date header httpDate formatted.
var lastDate atomic.Pointer[formattedDate]

type formattedDate struct {
	unix int64
	text string
}

// httpDate is t as an HTTP Date header (http.TimeFormat), formatted once a
// second.
func httpDate(t time.Time) string {
	sec := t.Unix()
	if d := lastDate.Load(); d != nil && d.unix == sec {
		return d.text
	}
	d := &formattedDate{unix: sec, text: t.UTC().Format(http.TimeFormat)}
	lastDate.Store(d)
	return d.text
}

// setLengthHeaders sets Content-Length to n and, when retryAfter is
// positive, Retry-After.
func setLengthHeaders(w http.ResponseWriter, retryAfter, n int) {
	h := w.Header()
	if retryAfter > 0 {
		h["Retry-After"] = []string{strconv.Itoa(retryAfter)}
	}
	h["Content-Length"] = []string{strconv.Itoa(n)}
}

// rateLimiter is a token bucket per API key (by hash), on the server clock.
type rateLimiter struct {
	rate  float64 // tokens per second
	burst float64
	mu    sync.Mutex
	keys  map[jobs.Owner]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// maxBuckets bounds the limiter's memory when many keys are used: past it,
// buckets that have refilled completely (and so behave as new ones) are
// dropped.
const maxBuckets = 10_000

func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	return &rateLimiter{rate: perSecond, burst: float64(burst), keys: map[jobs.Owner]*bucket{}}
}

// allow takes a token for key at now. When none is left it reports how
// many whole seconds to wait for the next one (at least 1).
func (l *rateLimiter) allow(key jobs.Owner, now time.Time) (ok bool, retryAfter int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, found := l.keys[key]
	if !found {
		if len(l.keys) >= maxBuckets {
			l.prune(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.keys[key] = b
	}
	l.refill(b, now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := (1 - b.tokens) / l.rate
	return false, int(min(max(1, math.Ceil(wait)), maxRetryAfter))
}

// maxRetryAfter bounds the seconds allow reports: with a rate such as
// 1e-30 per second the wait would not fit an int (and converting it would
// give a meaningless number). About 68 years is as good as never.
const maxRetryAfter = math.MaxInt32

func (l *rateLimiter) refill(b *bucket, now time.Time) {
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.tokens = min(l.burst, b.tokens+elapsed*l.rate)
		b.last = now
	}
}

func (l *rateLimiter) prune(now time.Time) {
	for k, b := range l.keys {
		if l.refill(b, now); b.tokens >= l.burst {
			delete(l.keys, k)
		}
	}
	if len(l.keys) >= maxBuckets { // every key is busy: start afresh
		clear(l.keys)
	}
}

func (l *rateLimiter) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.keys)
}
