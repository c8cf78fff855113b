package mockserver

import (
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/newssearch/newssearch-go/internal/onewrite"
)

// Every handler of the server recovers from a panic: serveAPI itself (it
// also records the request in the journal), and recovering around the others
// (the control endpoints, the inspector, /openapi.yaml, the recording
// proxy). A panic becomes a logged 500 whose message says it is a bug in
// the mock, or, once the answer has started, a cut connection; the server
// goes on serving. http.ErrAbortHandler, which drop and truncate faults
// use to cut a connection, is passed on as it is. (guard, which refuses
// requests from other sites before any handler runs, writes only fixed
// answers.)

// internalErrorMessage is the message of the 500 that p, a recovered
// panic, gets.
func internalErrorMessage(requestID string, p any) string {
	return "internal error in the mock server (request " + requestID + "): this is a bug in mockserver, not in your request; " +
		"the server's log has the panic and its stack under this request id (newsmock: its standard error; Go: the logger given to WithLogger), " +
		"please report it; the server goes on serving"
}

// logPanic logs a recovered panic with its stack.
func (s *Server) logPanic(requestID string, r *http.Request, p any) {
	s.logger.Error("mockserver: recovered from a panic while serving a request",
		"request_id", requestID, "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
}

// recovering runs serve, a handler other than serveAPI, and turns a panic into
// a logged 500 {"state": "FAILED", "message": ...} carrying the request's
// X-Request-Id (one is given if serve had set none), or into a cut
// connection if the answer had started.
func (s *Server) recovering(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request)) {
	gw := &startedWriter{ResponseWriter: w}
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if p == http.ErrAbortHandler {
			panic(p)
		}
		h := w.Header()
		id := h.Get("X-Request-Id")
		if id == "" {
			id = s.adminID()
		}
		s.logPanic(id, r, p)
		if gw.started { // all that is left is to cut the answer
			panic(http.ErrAbortHandler)
		}
		clear(h) // whatever serve set (Allow, ETag, a content type) belongs to an answer that will not come
		h["X-Request-Id"] = []string{id}
		h["Content-Type"] = []string{"application/json"}
		b := errorBody(internalErrorMessage(id, p))
		writeRaw(w, onewrite.From(w, r), http.StatusInternalServerError, 0, b, len(b))
	}()
	if s.panicHook != nil {
		s.panicHook(r)
	}
	serve(gw, r)
}

// startedWriter notes whether the answer has started. Unwrap lets
// http.ResponseController (and so onewrite.Send) reach the writer beneath.
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
