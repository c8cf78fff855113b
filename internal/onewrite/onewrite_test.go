package onewrite

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// bodies holds the longest body; body(n) is its first n bytes.
var bodies = func() []byte {
	b := make([]byte, 1<<20)
	for i := range b {
		b[i] = 'a' + byte(i*7%26)
	}
	return b
}()

// body returns n bytes that differ from one position to the next, so a
// lost, doubled or misplaced chunk shows.
func body(n int) []byte { return bodies[:n:n] }

// unwrapper hides the ResponseWriter's Flush but lets
// http.ResponseController reach it, as cmd/newsmock's wrapper does.
type unwrapper struct{ w http.ResponseWriter }

func (u unwrapper) Header() http.Header         { return u.w.Header() }
func (u unwrapper) Write(p []byte) (int, error) { return u.w.Write(p) }
func (u unwrapper) WriteHeader(status int)      { u.w.WriteHeader(status) }
func (u unwrapper) Unwrap() http.ResponseWriter { return u.w }

// writer says how serve's handler passes on its ResponseWriter.
type writer int

const (
	direct    writer = iota // net/http's own
	unwrapped               // behind unwrapper
	hidden                  // behind a wrapper that can neither flush nor unwrap
)

// serve starts a server on loopback whose handler answers /<status>/<size>
// with size bytes through Send; with wrap, its listener is a Listener and
// ConnContext is its hook.
func serve(t *testing.T, wrap bool, how writer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var status, size int
		path, parts := strings.CutPrefix(r.URL.Path, "/parts")
		if _, err := fmt.Sscanf(path, "/%d/%d", &status, &size); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(size))
		switch how {
		case unwrapped:
			w = unwrapper{w}
		case hidden:
			w = struct{ http.ResponseWriter }{w}
		}
		if parts { // the same bytes, through SendParts: a head of 7 bytes, a tail of 5
			b := body(size)
			h := min(7, size)
			tl := min(5, size-h)
			SendParts(w, From(w, r), status, b[:h], b[h:size-tl], b[size-tl:])
			return
		}
		Send(w, From(w, r), status, body(size))
	})}
	serving := ln
	if wrap {
		serving = Listener{Listener: ln}
		srv.ConnContext = ConnContext
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(serving)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	return ln.Addr().String()
}

// sizes are bodies on both sides of MinBody and of net/http's buffers.
var sizes = []int{0, 1, 2047, 2048, 2049, MinBody - 1, MinBody, MinBody + 1, 8 << 10, 20_000, 1 << 20}

// TestSendAnswersWhole sends answers of every size, status and method over
// one kept-alive connection and reads them back byte for byte, so a header
// held back and never sent, sent twice, or sent after its body would show
// (the client would hang, or the next answer would be garbled).
func TestSendAnswersWhole(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		wrap bool
		how  writer
	}{{"Listener", true, direct}, {"plain listener", false, direct}, {"writer with Unwrap", true, unwrapped}, {"writer without Flush or Unwrap", true, hidden}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr := serve(t, tc.wrap, tc.how)
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			br := bufio.NewReader(conn)
			for _, method := range []string{http.MethodPost, http.MethodHead, http.MethodGet} {
				for _, status := range []int{http.StatusOK, http.StatusNotFound} {
					for i, size := range append(sizes, sizes...) {
						prefix := "" // Send, then SendParts
						if i >= len(sizes) {
							prefix = "/parts"
						}
						req := fmt.Sprintf("%s %s/%d/%d HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", method, prefix, status, size)
						if _, err := io.WriteString(conn, req); err != nil {
							t.Fatal(err)
						}
						_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
						resp, err := http.ReadResponse(br, &http.Request{Method: method})
						if err != nil {
							t.Fatalf("%s %d %d: reading the answer: %v", method, status, size, err)
						}
						got, err := io.ReadAll(resp.Body)
						resp.Body.Close()
						if err != nil {
							t.Fatalf("%s %d %d: reading the body: %v", method, status, size, err)
						}
						want := body(size)
						if method == http.MethodHead {
							want = []byte{}
						}
						if resp.StatusCode != status || resp.ContentLength != int64(size) || resp.Header.Get("Content-Type") != "text/plain" {
							t.Errorf("%s %d %d: status %d, Content-Length %d, Content-Type %q; want %d, %d, text/plain",
								method, status, size, resp.StatusCode, resp.ContentLength, resp.Header.Get("Content-Type"), status, size)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("%s %d %d: body of %d bytes differs from the %d sent", method, status, size, len(got), len(want))
						}
					}
				}
			}
		})
	}
}

// TestSendManyConnections answers many clients at once: each connection
// holds its own header, so none may see another's.
func TestSendManyConnections(t *testing.T) {
	t.Parallel()
	addr := serve(t, true, direct)
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 16, MaxIdleConnsPerHost: 16}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 64 {
		wg.Go(func() {
			for i := range 20 {
				size := sizes[(g+i)%(len(sizes)-1)] // up to 20,000 bytes
				resp, err := client.Post(fmt.Sprintf("http://%s/200/%d", addr, size), "text/plain", strings.NewReader("{}"))
				if err != nil {
					errs <- err
					return
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || !bytes.Equal(got, body(size)) {
					errs <- fmt.Errorf("answer of %d bytes: got %d bytes (%v)", size, len(got), err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// acceptedConn returns both ends of a loopback connection: the server's, as
// Listener accepts it, and the client's. Both are closed when the test ends.
func acceptedConn(t *testing.T) (*Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	accepted, err := Listener{Listener: ln}.Accept()
	if err != nil {
		t.Fatal(err)
	}
	c, ok := accepted.(*Conn)
	if !ok {
		t.Fatalf("Accept returned a %T, want a *Conn", accepted)
	}
	t.Cleanup(func() { c.Close() })
	return c, client
}

// TestConnWrite drives Conn directly: held bytes go out before the next
// write and only once; a write to a closed peer reports an error and at
// most the bytes of p it sent.
func TestConnWrite(t *testing.T) {
	t.Parallel()
	c, client := acceptedConn(t)

	c.holding = true
	if n, err := c.Write([]byte("head:")); n != 5 || err != nil {
		t.Fatalf("held Write = %d, %v; want 5, nil", n, err)
	}
	c.holding = false
	if n, err := c.Write([]byte("body;")); n != 5 || err != nil {
		t.Fatalf("Write after holding = %d, %v; want 5 (the length of p), nil", n, err)
	}
	if n, err := c.Write([]byte("next")); n != 4 || err != nil {
		t.Fatalf("plain Write = %d, %v; want 4, nil", n, err)
	}
	_ = client.SetReadDeadline(time.Now().Add(10 * time.Second))
	got := make([]byte, len("head:body;next"))
	if _, err := io.ReadFull(client, got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("head:body;next", string(got)); diff != "" {
		t.Errorf("bytes received (-want +got):\n%s", diff)
	}

	client.Close()
	c.holding = true
	_, _ = c.Write([]byte("head:"))
	c.holding = false
	p := body(1 << 20)
	var n int
	var err error
	for range 50 { // the first writes may still fit in the socket buffer
		if n, err = c.Write(p); err != nil {
			break
		}
	}
	if err == nil {
		t.Fatal("Write to a closed peer kept succeeding")
	}
	if n < 0 || n > len(p) {
		t.Errorf("failed Write = %d; want between 0 and %d", n, len(p))
	}
	if len(c.held) != 0 {
		t.Errorf("%d bytes still held after a failed write", len(c.held))
	}
}

// knowsConn is a wrapping writer that knows its request's connection.
type knowsConn struct {
	http.ResponseWriter
	c *Conn
}

func (k knowsConn) OnewriteConn() *Conn { return k.c }

// TestFrom finds the connection only for requests that came through
// ConnContext, or from a writer that knows it.
func TestFrom(t *testing.T) {
	t.Parallel()
	r, _ := http.NewRequest(http.MethodGet, "http://x/", nil)
	w := httptest.NewRecorder()
	if c := From(w, r); c != nil {
		t.Errorf("From(request made in process) = %v, want nil", c)
	}
	c, _ := acceptedConn(t)
	if got := From(w, r.WithContext(ConnContext(r.Context(), c))); got != c {
		t.Errorf("From(request through ConnContext) = %p, want its connection %p", got, c)
	}
	if got := From(knowsConn{w, c}, r); got != c {
		t.Errorf("From(a writer that knows the connection) = %p, want %p", got, c)
	}
	if got := From(knowsConn{w, nil}, r.WithContext(ConnContext(r.Context(), c))); got != nil {
		t.Errorf("From(a writer that knows there is none) = %p, want nil: the writer answers", got)
	}
	pipe, other := net.Pipe()
	defer pipe.Close()
	defer other.Close()
	if ctx := ConnContext(r.Context(), pipe); ctx != r.Context() {
		t.Error("ConnContext changed the context of a connection that is not a *Conn")
	}
}

// TestSendOneWriteSystemCall counts the write system calls of 200 answers
// of 20,000 bytes, with and without Listener, over one kept-alive
// connection whose client writes each request in one call. net/http alone
// makes two writes an answer; through Send it makes one. It is not
// parallel: other tests' writes would count too.
func TestSendOneWriteSystemCall(t *testing.T) {
	if _, err := WriteCalls(); err != nil {
		t.Skipf("cannot count write system calls: %v", err)
	}
	const answers = 200
	req := []byte("POST /200/20000 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	count := func(wrap bool, how writer) int {
		status, got, n, err := CountWrites(serve(t, wrap, how), req, answers)
		if err != nil || status != http.StatusOK || !bytes.Equal(got, body(20_000)) {
			t.Fatalf("answers: %d with %d bytes (%v); want 200 with 20,000 bytes", status, len(got), err)
		}
		return n
	}
	plain, one, unwrapped := count(false, direct), count(true, direct), count(true, unwrapped)
	req = []byte("POST /parts/200/20000 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	parts, partsPlain := count(true, direct), count(false, direct)
	t.Logf("write system calls for %d requests and answers: %d with net/http alone, %d through Send, %d through Send and a wrapper with Unwrap; "+
		"SendParts %d (%d on a plain listener)", answers, plain, one, unwrapped, parts, partsPlain)
	// Each request costs the client one write. A few more may come from
	// the runtime (waking its network poller), so the bounds leave room.
	for _, n := range []int{one, unwrapped, parts} {
		if n > answers*2+answers/10 {
			t.Errorf("%d write calls through Send for %d requests: want about %d (one for each request, one for each answer)", n, answers, 2*answers)
		}
	}
	if plain-one < answers*9/10 {
		t.Errorf("Send saved %d write calls over %d answers; want about one an answer (%d with net/http alone, %d through Send)", plain-one, answers, plain, one)
	}
}

// TestExtendWriteDeadline: the deadline is set when none is in force and
// when less than half of d is left, and left alone otherwise; a deadline set
// through SetWriteDeadline or SetDeadline counts, and one that has passed
// stops a write that does not complete.
func TestExtendWriteDeadline(t *testing.T) {
	t.Parallel()
	c, _ := acceptedConn(t)
	var err error

	const d = 30 * time.Second
	t0 := time.Now()
	at := func() time.Duration { return time.Duration(c.want.Load() - t0.UnixNano()) }
	steps := []struct {
		name string
		do   func() error
		want time.Duration // the deadline after the step, from t0
	}{
		{"none in force: set", func() error { return c.ExtendWriteDeadline(t0, d) }, d},
		{"all of it left: kept", func() error { return c.ExtendWriteDeadline(t0.Add(time.Second), d) }, d},
		{"exactly half left: kept", func() error { return c.ExtendWriteDeadline(t0.Add(d/2), d) }, d},
		{"less than half left: set again", func() error { return c.ExtendWriteDeadline(t0.Add(d/2+time.Millisecond), d) }, d/2 + time.Millisecond + d},
		{"SetWriteDeadline counts", func() error { return c.SetWriteDeadline(t0.Add(time.Second)) }, time.Second},
		{"then extended", func() error { return c.ExtendWriteDeadline(t0, d) }, d},
		{"SetDeadline counts", func() error { return c.SetDeadline(t0.Add(2 * time.Second)) }, 2 * time.Second},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := at(); got != st.want {
			t.Errorf("%s: deadline at t0+%v, want t0+%v", st.name, got, st.want)
		}
	}
	if err := c.SetDeadline(time.Time{}); err != nil || c.want.Load() != 0 {
		t.Errorf("SetDeadline(zero): %v, remembered %d; want no deadline (0)", err, c.want.Load())
	}

	// A deadline in force stops a write the client never reads.
	if err := c.ExtendWriteDeadline(time.Now(), 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	_, err = c.Write(bytes.Repeat([]byte("x"), 64<<20))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("a write of 64 MiB to a client that reads nothing ended with %v, want a timeout", err)
	}
}

// TestWriteDeadlineKept: clearing the write deadline, as net/http does
// after every answer, leaves the socket's in place, so that the next
// ExtendWriteDeadline keeps it without re-arming the timer; a write made
// with no deadline wanted clears it first, so that a deadline that has
// passed meanwhile does not stop it.
func TestWriteDeadlineKept(t *testing.T) {
	t.Parallel()
	c, client := acceptedConn(t)
	const d = 30 * time.Second
	t0 := time.Now()
	if err := c.ExtendWriteDeadline(t0, d); err != nil {
		t.Fatal(err)
	}
	armed := c.armed.Load()
	if err := c.SetWriteDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if c.want.Load() != 0 || c.armed.Load() != armed {
		t.Fatalf("after SetWriteDeadline(zero): wanted %d, on the socket %d; want 0 and the deadline kept (%d)", c.want.Load(), c.armed.Load(), armed)
	}
	if err := c.ExtendWriteDeadline(t0.Add(time.Second), d); err != nil {
		t.Fatal(err)
	}
	if c.want.Load() != armed || c.armed.Load() != armed {
		t.Errorf("ExtendWriteDeadline after the clearing: wanted %d, on the socket %d; want the kept deadline %d for both", c.want.Load(), c.armed.Load(), armed)
	}

	// A deadline that passes while nobody wants it does not stop a write.
	if err := c.SetWriteDeadline(time.Now().Add(time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := c.SetWriteDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	for _, w := range []struct {
		name  string
		write func([]byte) error
	}{
		{"Write", func(p []byte) error { _, err := c.Write(p); return err }},
		{"ReadFrom", func(p []byte) error { _, err := c.ReadFrom(bytes.NewReader(p)); return err }},
	} {
		name, write := w.name, w.write
		if err := write([]byte("hello")); err != nil {
			t.Errorf("%s after an unwanted deadline passed: %v; want the write made", name, err)
		}
		if c.armed.Load() != 0 {
			t.Errorf("%s left the deadline %d on the socket; want it cleared", name, c.armed.Load())
		}
		got := make([]byte, 5)
		_ = client.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(client, got); err != nil || string(got) != "hello" {
			t.Errorf("the client read %q (%v) after %s, want hello", got, err, name)
		}
		_ = c.SetWriteDeadline(time.Now().Add(time.Millisecond))
		_ = c.SetWriteDeadline(time.Time{})
		time.Sleep(5 * time.Millisecond)
	}
}
