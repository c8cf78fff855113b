package mockserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
)

// Every request comes through serveHTTP, which refuses what a web page
// could have sent (guard.go) and passes the rest to the control endpoints
// (control.go), the recording proxy (record.go) or serveAPI. serveAPI
// answers an API request in six steps, top to bottom:
//
//  1. read the request: its endpoint, its body and the JSON object in it
//     (request.go);
//  2. find its world, the world of the api_key in the body (world.go);
//  3. decide its fault: the X-Mock-Fault header or the world's rules
//     (faults.go);
//  4. run its endpoint under the world's rate limit (endpoints.go);
//  5. record it in the world's journal and the log (journal.go);
//  6. write its answer.
//
// The request is recorded before its answer is written, so that a client
// holding its answer finds the request in the journal. A panic anywhere
// becomes a logged 500, or a cut connection once the answer has started.

// exchange is one API request on its way through serveAPI.
type exchange struct {
	entry    JournalEntry
	body     []byte
	started  time.Time // real time, for the log's duration
	now      time.Time // the world's clock when the request arrived
	owner    jobs.Owner
	fault    fault.Action
	unread   bool // the body was refused unread: drain it after the answer
	recorded bool
}

// answer is an API answer; retryAfter > 0 sends a Retry-After header.
type answer struct {
	status     int
	body       []byte
	retryAfter int
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		s.refuse(w, r, http.StatusServiceUnavailable, s.ids.request(s.reqSeq.Add(1)),
			"the mock server is closed: start a new one with mockserver.New")
		return
	}
	defer s.inflight.Done()
	if status, msg := s.guard(r); status != 0 {
		s.refuse(w, r, status, s.adminID(), msg)
		return
	}
	switch {
	case strings.HasPrefix(r.URL.Path, controlPrefix) || r.URL.Path == OpenAPIPath:
		s.recovering(w, r, s.serveControl)
	case s.rec != nil:
		s.recovering(w, r, s.serveRecord)
	default:
		s.serveAPI(w, r)
	}
}

// serveAPI answers one request to the API in the world its api_key uses.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	x := &exchange{started: time.Now(), entry: JournalEntry{Method: r.Method, Path: r.URL.Path}}
	ws := s // the handle of the request's world, once its key is read
	defer func() { ws.finish(w, r, x, recover()) }()

	// 1. Read the request. What is wrong with the endpoint or the size of
	// the body is answered at once; what is wrong with the body's content
	// is answered after the faults, as the endpoint's own checks are.
	ep := endpointsByPath[r.URL.Path]
	var early, bad *apiError
	var f fields
	switch {
	case ep == nil:
		early = &apiError{status: http.StatusNotFound, msg: fmt.Sprintf(
			"there is no endpoint at %s: use %s", quoteShort(r.URL.Path), apiPaths)}
	case r.Method != http.MethodPost:
		w.Header().Set("Allow", http.MethodPost)
		early = &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf(
			"%s does not accept %s: send a POST with a JSON body", ep.path, quoteShort(r.Method))}
	default:
		if x.body, early = readBody(w, r, MaxBodyBytes, apiBodyTooBig); early != nil {
			x.unread = true
		} else {
			f, bad = parseBody(x.body, ep.example)
		}
	}

	// 2. Find its world.
	if early == nil && bad == nil {
		if x.owner, bad = s.authenticate(f); bad == nil {
			ws = s.routed(x.owner, &x.entry)
		}
	}
	ws.number(w, x)
	if early != nil {
		ws.send(w, r, x, early.answer(), false)
		return
	}

	// 3. Decide its fault.
	act, source, aerr := ws.decideFault(r.Header[FaultHeader], ep, x.body)
	if aerr != nil {
		ws.send(w, r, x, aerr.answer(), false)
		return
	}
	x.fault = act
	if source != "" {
		x.entry.Fault = source + ": " + act.String()
	}
	if err := fault.Wait(r.Context(), s.baseCtx.Done(), act.Latency); err != nil {
		x.entry.Fault += " (request cancelled during the latency)"
		panic(http.ErrAbortHandler)
	}
	if act.Drop {
		panic(http.ErrAbortHandler)
	}

	// 4. Run its endpoint.
	var a answer
	switch {
	case act.Status != 0:
		a = (&apiError{status: act.Status, retryAfter: act.RetryAfter, msg: fmt.Sprintf(
			"injected fault (%s): the mock server was told to answer %d %s; retry, or remove the fault",
			source, act.Status, http.StatusText(act.Status))}).answer()
	case bad != nil:
		a = bad.answer()
	default:
		a = ws.limit(x, func() answer { return ep.serve(ws, x, f) })
	}

	// 5 and 6. Record it, then write its answer.
	ws.send(w, r, x, a, act.Truncate)
}

// number gives the request its journal seq, request id and world time.
func (s *Server) number(w http.ResponseWriter, x *exchange) {
	e := &x.entry
	e.Seq = s.reqSeq.Add(1)
	e.RequestID, e.World = s.ids.request(e.Seq), s.id
	if s.clk.Load().wall {
		e.Time = x.started // the clock is time.Now: no second reading
	} else {
		e.Time = s.clock()
	}
	x.now = e.Time
	h := w.Header()
	h.Set("X-Request-Id", e.RequestID)
	h.Set("Content-Type", "application/json")
}

// limit runs serve unless the request is over the world's rate limit.
func (s *Server) limit(x *exchange, serve func() answer) answer {
	l := s.limiter.Load()
	if l == nil {
		return serve()
	}
	if ok, wait := l.allow(x.owner, x.now); !ok {
		return (&apiError{status: http.StatusTooManyRequests, retryAfter: wait, msg: fmt.Sprintf(
			"rate limit exceeded: this key may make %v requests per second in bursts of up to %v; retry after %d s (see Retry-After)",
			l.rate, l.burst, wait)}).answer()
	}
	return serve()
}

// send records the request, then writes its answer. With truncate it
// writes the headers and half the body, then cuts the connection.
func (s *Server) send(w http.ResponseWriter, r *http.Request, x *exchange, a answer, truncate bool) {
	x.entry.Status = a.status
	s.record(x)
	n := len(a.body)
	if truncate {
		a.body = a.body[:n/2]
	}
	writeAnswer(w, a.status, a.retryAfter, n, a.body)
	if x.unread {
		s.drain(w, r)
	}
	if truncate {
		_ = http.NewResponseController(w).Flush() // without a flusher the abort still cuts the body
		panic(http.ErrAbortHandler)
	}
}

// finish ends serveAPI: a panic gets a logged 500 (a cut connection once
// the answer has started), every request is recorded once, and
// http.ErrAbortHandler (drop and truncate faults) is passed on.
func (s *Server) finish(w http.ResponseWriter, r *http.Request, x *exchange, p any) {
	if p != nil && p != http.ErrAbortHandler {
		if x.entry.Seq == 0 {
			s.number(w, x)
		}
		s.logPanic(x.entry.RequestID, r, p)
		if x.entry.Status == 0 {
			s.send(w, r, x, (&apiError{status: http.StatusInternalServerError, msg: internalErrorMessage(x.entry.RequestID)}).answer(), false)
			return
		}
		p = http.ErrAbortHandler // the answer has started: all that is left is to cut it
	}
	s.record(x)
	if p != nil {
		panic(p)
	}
}

// record adds the request to the world's journal and logs it, once. The
// journal keeps the body as it came and redacts it when it is first read.
func (s *Server) record(x *exchange) {
	if x.recorded {
		return
	}
	x.recorded = true
	e := &x.entry
	if s.clk.Load().wall {
		e.Duration = max(time.Since(e.Time), 0)
	} else {
		e.Duration = s.since(e.Time)
	}
	s.journal.Add(newJournalRecord(*e, x.body))
	s.journalChanged.notify()
	s.expect.observe(e, x.body)
	if h := s.logger.Handler(); h.Enabled(s.baseCtx, slog.LevelInfo) {
		line := slog.NewRecord(time.Now(), slog.LevelInfo, "mockserver request", 0)
		line.AddAttrs(slog.String("method", e.Method), slog.String("path", e.Path), slog.Int("status", e.Status),
			slog.String("request_id", e.RequestID), slog.Duration("duration", time.Since(x.started)))
		if e.Fault != "" {
			line.AddAttrs(slog.String("fault", e.Fault))
		}
		if e.QueryID != "" {
			line.AddAttrs(slog.String("query_id", e.QueryID))
		}
		_ = h.Handle(s.baseCtx, line)
	}
}

// since is the world clock's time since t, at least 0; 0 if the clock
// panics, as record also runs while finish recovers from the clock's panic.
func (s *Server) since(t time.Time) (d time.Duration) {
	defer func() {
		if recover() != nil {
			d = 0
		}
	}()
	return max(s.clock().Sub(t), 0)
}

// writeAnswer writes status and body, announcing a body of length n (more
// than len(body) for a truncated answer).
func writeAnswer(w http.ResponseWriter, status, retryAfter, n int, body []byte) {
	h := w.Header()
	if retryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(retryAfter))
	}
	h.Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// apiBodyTooBig is the 413 message of an API request.
const apiBodyTooBig = "the request body is larger than 1 MiB (%d bytes): send only the documented fields"

// readBody reads at most limit bytes of the body. A longer one gets a 413
// of tooBig (a format taking limit), unread if Content-Length says so (see
// drain).
func readBody(w http.ResponseWriter, r *http.Request, limit int64, tooBig string) ([]byte, *apiError) {
	if r.Body == nil {
		return nil, nil
	}
	tooLarge := func() *apiError {
		return &apiError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf(tooBig, limit)}
	}
	if r.ContentLength > limit {
		refuseBody(w, r)
		return nil, tooLarge()
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, tooLarge()
	case err == nil && r.ContentLength > int64(len(b)): // a handler called directly with a wrong length
		err = io.ErrUnexpectedEOF
		fallthrough
	case err != nil:
		return nil, badRequest("the request body could not be read (%v): send the whole body with the request", err)
	}
	return b, nil
}

// drain reads at most maxDrain bytes, waiting drainIdle per piece and
// drainTime in all.
const (
	maxDrain  = 64 << 20
	drainIdle = 5 * time.Second
	drainTime = 30 * time.Second
)

// drain ends the connection of a request whose body was refused unread. A
// client that sends its whole body before reading the answer (Python's
// urllib) would otherwise see the kernel's reset, for data arriving at a
// closed socket, instead of the answer. So the write side is closed after
// the answer, and the announced body (at most maxDrain bytes; not one of
// unknown length) is read away. Close cuts a drain short.
func (s *Server) drain(w http.ResponseWriter, r *http.Request) {
	left := r.ContentLength
	if left <= 0 || left > maxDrain {
		return
	}
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return
	}
	conn, buf, err := rc.Hijack()
	if err != nil {
		return // in process, or HTTP/2: there is no socket of its own to drain
	}
	defer conn.Close()
	defer context.AfterFunc(s.baseCtx, func() { conn.Close() })()
	if cw, ok := conn.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	n, _ := buf.Reader.Discard(buf.Reader.Buffered())
	left -= int64(n)
	end := time.Now().Add(drainTime)
	for left > 0 {
		deadline := time.Now().Add(drainIdle)
		if deadline.After(end) {
			deadline = end
		}
		_ = conn.SetReadDeadline(deadline)
		n, err := io.CopyN(io.Discard, conn, min(left, 64<<10))
		left -= n
		if err != nil {
			return
		}
	}
}

// refuseBody readies the answer to a request whose body is refused unread,
// for drain: the answer closes the connection, and full duplex keeps
// net/http from reading some of the body itself.
func refuseBody(w http.ResponseWriter, r *http.Request) {
	_ = http.NewResponseController(w).EnableFullDuplex()
	if r.ProtoMajor == 1 {
		w.Header().Set("Connection", "close")
	}
}

// refuse answers a request refused before any endpoint.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, id, msg string) {
	if r.ContentLength > 0 {
		refuseBody(w, r)
	}
	writeFailure(w, status, id, msg)
	s.drain(w, r)
}

// writeFailure writes a failure with its request id.
func writeFailure(w http.ResponseWriter, status int, id, msg string) {
	h := w.Header()
	h.Set("X-Request-Id", id)
	h.Set("Content-Type", "application/json")
	b := failureBody(msg)
	writeAnswer(w, status, 0, len(b), b)
}

// internalErrorMessage is the message of the 500 a panic gets.
func internalErrorMessage(requestID string) string {
	return "internal error in the mock server (request " + requestID + "): this is a bug in mockserver, not in your request; " +
		"the server's log has the panic and its stack under this request id (newsmock: its standard error; Go: the logger given to WithLogger), " +
		"please report it; the server goes on serving"
}

// logPanic logs a recovered panic with its stack.
func (s *Server) logPanic(requestID string, r *http.Request, p any) {
	s.logger.Error("mockserver: recovered from a panic while serving a request",
		"request_id", requestID, "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
}

// recovering runs serve, a handler other than serveAPI, and turns a panic
// into a logged 500 with the request's X-Request-Id (or a new one), or a
// cut connection once the answer has started.
func (s *Server) recovering(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request)) {
	sw := &startedWriter{ResponseWriter: w}
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if p == http.ErrAbortHandler || sw.started {
			if p != http.ErrAbortHandler {
				s.logPanic(w.Header().Get("X-Request-Id"), r, p)
			}
			panic(http.ErrAbortHandler)
		}
		h := w.Header()
		id := h.Get("X-Request-Id")
		if id == "" {
			id = s.adminID()
		}
		s.logPanic(id, r, p)
		clear(h) // whatever serve set (Allow, ETag, a content type) belongs to an answer that will not come
		writeFailure(w, http.StatusInternalServerError, id, internalErrorMessage(id))
	}()
	if s.panicHook != nil {
		s.panicHook(r)
	}
	serve(sw, r)
}

// startedWriter notes whether the answer has started. Unwrap lets
// http.ResponseController reach the writer beneath.
type startedWriter struct {
	http.ResponseWriter
	started bool
}

func (w *startedWriter) WriteHeader(status int) {
	if status >= 200 { // 1xx answers are interim: the final one is still to come
		w.started = true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *startedWriter) Write(b []byte) (int, error) {
	w.started = true
	return w.ResponseWriter.Write(b)
}

func (w *startedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
