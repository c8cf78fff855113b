package mockserver

import (
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestEveryHandlerRecovers makes each kind of handler panic through
// panicHook (the control endpoints, a control path that does not exist,
// the inspector, /openapi.yaml and the recording proxy), over a socket and
// in process: each answers a logged JSON 500 naming the bug and its request
// id, and the server answers the same request normally once the hook is
// gone.
func TestEveryHandlerRecovers(t *testing.T) {
	t.Parallel()
	upstream := listening(t)
	for _, tt := range []struct {
		name, method, path, body string
		status                   int // the status once the panic is gone
		opts                     []Option
	}{
		{"control", http.MethodGet, "/_mock/clock", "", http.StatusOK, nil},
		{"control with a body", http.MethodPost, "/_mock/faults", "status=503", http.StatusOK, nil},
		{"unknown control path", http.MethodGet, "/_mock/nothing", "", http.StatusNotFound, nil},
		{"inspector", http.MethodGet, UIPath, "", http.StatusOK, nil},
		{"openapi", http.MethodGet, OpenAPIPath, "", http.StatusOK, nil},
		{"recording proxy", http.MethodPost, "/api/v2/headlines", `{"api_key": "k"}`, http.StatusOK,
			[]Option{WithRecord(RecordOptions{Upstream: upstream.URL(), CorpusPath: filepath.Join(t.TempDir(), "rec.jsonl")})}},
	} {
		for _, socket := range []bool{true, false} {
			name := tt.name + map[bool]string{true: " over a socket", false: " in process"}[socket]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				var logs syncBuffer
				opts := append([]Option{WithLogger(slog.New(slog.NewJSONHandler(&logs, nil)))}, tt.opts...)
				var s *Server
				if socket {
					s = listening(t, opts...)
				} else {
					s = start(t, opts...)
				}
				var armed atomic.Bool
				armed.Store(true)
				s.panicHook = func(*http.Request) {
					if armed.Load() {
						panic("injected by the test")
					}
				}
				r := call(t, s, tt.method, tt.path, tt.body)
				id := r.Header.Get("X-Request-Id")
				want := failure{"FAILED", "internal error in the mock server (request " + id + "): this is a bug in mockserver, not in your request; " +
					"the server's log has the panic and its stack under this request id (newsmock: its standard error; Go: the logger given to WithLogger), " +
					"please report it; the server goes on serving"}
				if diff := cmp.Diff(want, decode[failure](t, r)); diff != "" || r.Status != http.StatusInternalServerError || id == "" {
					t.Fatalf("status %d, X-Request-Id %q (-want +got):\n%s", r.Status, id, diff)
				}
				if ct := r.Header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type %q, want application/json", ct)
				}
				log := logs.String()
				for _, want := range []string{"recovered from a panic", `"request_id":"` + id + `"`, "injected by the test", `"stack":`, tt.path} {
					if !strings.Contains(log, want) {
						t.Errorf("the log lacks %q:\n%s", want, log)
					}
				}
				armed.Store(false)
				if r := call(t, s, tt.method, tt.path, tt.body); r.Status != tt.status {
					t.Fatalf("after the panic: %d %s, want %d", r.Status, r.Body, tt.status)
				}
			})
		}
	}
}

// TestRecoverPassesAbortOn: http.ErrAbortHandler, the way faults cut a
// connection, is not turned into a 500, and the server serves on.
func TestRecoverPassesAbortOn(t *testing.T) {
	t.Parallel()
	for _, socket := range []bool{true, false} {
		var s *Server
		if socket {
			s = listening(t)
		} else {
			s = start(t)
		}
		var armed atomic.Bool
		armed.Store(true)
		s.panicHook = func(*http.Request) {
			if armed.Load() {
				panic(http.ErrAbortHandler)
			}
		}
		r, err := tryCall(s, http.MethodGet, "/_mock/health", "")
		if err == nil {
			t.Fatalf("socket %v: an aborted request got an answer: %d %s", socket, r.Status, r.Body)
		}
		if !socket && !errors.Is(err, ErrDropped) {
			t.Errorf("in process: error %v, want ErrDropped", err)
		}
		armed.Store(false)
		if r := call(t, s, http.MethodGet, "/_mock/health", ""); r.Status != http.StatusOK {
			t.Fatalf("socket %v: after the abort: %d %s", socket, r.Status, r.Body)
		}
	}
}

// TestRecoveringCutsAnAnswerAlreadyStarted: a panic after the answer started
// cannot become a 500, so recovering cuts the connection (http.ErrAbortHandler)
// and writes nothing more.
func TestRecoveringCutsAnAnswerAlreadyStarted(t *testing.T) {
	t.Parallel()
	s := start(t)
	rec := httptest.NewRecorder()
	func() {
		defer func() {
			if p := recover(); p != http.ErrAbortHandler {
				t.Fatalf("recovering panicked with %v, want http.ErrAbortHandler", p)
			}
		}()
		s.recovering(rec, httptest.NewRequest(http.MethodGet, "/_mock/health", nil), func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"state":`))
			panic("half way")
		})
	}()
	if rec.Code != http.StatusOK || rec.Body.String() != `{"state":` {
		t.Fatalf("the cut answer: %d %q", rec.Code, rec.Body.String())
	}
}

// TestClockPanicsAndBadTimesRecover: a WithClock function that panics, or
// that leaves the clock's range so that a time cannot be encoded, makes
// the control endpoints that read it answer a 500, never an empty reply,
// and they work again once the clock does.
func TestClockPanicsAndBadTimesRecover(t *testing.T) {
	t.Parallel()
	var mode atomic.Int32 // 0 fine, 1 panics, 2 reads year 10000
	clock := func() time.Time {
		switch mode.Load() {
		case 1:
			panic("clock exploded")
		case 2:
			return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		return t0
	}
	s := listening(t, WithClock(clock), WithPendingPolls(5))
	submit(t, s, map[string]any{"query": "cars"})
	for m, paths := range map[int32][]string{1: {"/_mock/clock", "/_mock/jobs"}, 2: {"/_mock/clock"}} {
		mode.Store(m)
		for _, path := range paths {
			r := call(t, s, http.MethodGet, path, "")
			if got := decode[failure](t, r); r.Status != http.StatusInternalServerError ||
				!strings.HasPrefix(got.Message, "internal error in the mock server (request "+r.Header.Get("X-Request-Id")+"): this is a bug in mockserver") {
				t.Errorf("clock mode %d: GET %s: %d %s", m, path, r.Status, r.Body)
			}
		}
	}
	mode.Store(0)
	for _, path := range []string{"/_mock/clock", "/_mock/jobs", "/_mock/journal"} {
		if r := call(t, s, http.MethodGet, path, ""); r.Status != http.StatusOK {
			t.Errorf("GET %s with the clock back: %d %s", path, r.Status, r.Body)
		}
	}
}
