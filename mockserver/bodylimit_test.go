package mockserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// do sends a request with exactly the given headers (name, value pairs; no
// Content-Type unless given) through the server's client.
func do(t *testing.T, s *Server, method, url, body string, headers ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == "" {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := s.HTTPClient().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

// wantFailure checks a refusal: status, exact message, JSON, a request id.
func wantFailure(t *testing.T, what string, r reply, status int, msg string) {
	t.Helper()
	if r.Status != status || string(r.Body) != string(failureBody(msg)) || r.Header.Get("Content-Type") != "application/json" || r.Header.Get("X-Request-Id") == "" {
		t.Errorf("%s: %d %s (Content-Type %q, X-Request-Id %q)\nwant %d %s", what, r.Status, r.Body,
			r.Header.Get("Content-Type"), r.Header.Get("X-Request-Id"), status, failureBody(msg))
	}
}

// rawExchange sends head (a request's header block, no body) on a new
// connection to the server and reads the answer, without sending any body.
// It returns the answer and whether the server then closed the connection.
func rawExchange(t *testing.T, s *Server, head string) (*http.Response, string, bool) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	// A safety limit for a loaded machine; the answer comes at once.
	if err := conn.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer before the body was sent: %v", err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = br.ReadByte()
	closed := errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || isReset(err)
	return resp, string(b), closed
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && strings.Contains(op.Err.Error(), "reset")
}

// TestOversizedBodyRefusedBeforeReading: a body announced larger than the
// limit is a 413 sent before the body arrives, and the connection closes,
// so that nothing of it is read or drained.
func TestOversizedBodyRefusedBeforeReading(t *testing.T) {
	t.Parallel()
	s := New(WithClock(func() time.Time { return t0 }))
	t.Cleanup(s.Close)
	for _, tc := range []struct {
		path   string
		length int64
		msg    string
	}{
		{"/_mock/articles", 300 << 20, "the articles are more than 268435456 bytes: send them in several POST /_mock/articles calls"},
		{"/_mock/articles", defaultMaxArticlesBody + 1, "the articles are more than 268435456 bytes: send them in several POST /_mock/articles calls"},
		{"/api/v2/query", 2 << 20, "the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"},
		{"/_mock/faults", MaxBodyBytes + 1, "the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"},
	} {
		for _, expect := range []string{"", "Expect: 100-continue\r\n"} {
			head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n",
				tc.path, expect, tc.length)
			resp, body, closed := rawExchange(t, s, head)
			what := fmt.Sprintf("POST %s, Content-Length %d, %q", tc.path, tc.length, expect)
			wantFailure(t, what, reply{resp.StatusCode, resp.Header, []byte(body)}, http.StatusRequestEntityTooLarge, tc.msg)
			if !resp.Close || !closed {
				t.Errorf("%s: Connection: close %v, closed after the answer %v; want both", what, resp.Close, closed)
			}
		}
	}
	// The API's 413 is in the journal, as every API answer is.
	if j := s.Journal(JournalQuery{Status: http.StatusRequestEntityTooLarge}); len(j) != 2 {
		t.Errorf("%d 413s in the journal, want 2", len(j))
	}
}

// countingReader yields n bytes of a JSON Lines-looking filler and counts
// what was read of it.
type countingReader struct {
	n, read int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	if r.read >= r.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.n-r.read)]
	for i := range p {
		p[i] = ' '
	}
	r.read += int64(len(p))
	return len(p), nil
}

// TestChunkedBodyCutAtLimit: a body of unknown length (chunked) is read up
// to the limit and no further, then refused with the 413.
func TestChunkedBodyCutAtLimit(t *testing.T) {
	t.Parallel()
	const limit = 3 << 20
	s := start(t, WithLimits(Limits{MaxArticlesBody: limit}))
	for _, tc := range []struct {
		path  string
		limit int64
		msg   string
	}{
		{"/_mock/articles", limit, "the articles are more than 3145728 bytes: send them in several POST /_mock/articles calls"},
		{"/api/v2/query", MaxBodyBytes, "the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"},
		{"/_mock/clock", MaxBodyBytes, "the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"},
	} {
		body := &countingReader{n: 100 << 20}
		req, err := http.NewRequest(http.MethodPost, s.URL()+tc.path, io.NopCloser(body))
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = -1
		req.Header.Set("Content-Type", "application/json")
		resp, err := s.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		wantFailure(t, "chunked POST "+tc.path, reply{resp.StatusCode, resp.Header, b}, http.StatusRequestEntityTooLarge, tc.msg)
		if body.read > tc.limit+1 {
			t.Errorf("chunked POST %s: %d bytes of the body read, want at most the limit %d and one byte", tc.path, body.read, tc.limit)
		}
	}
	// Under the limit, a chunked body of articles is read whole and added.
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, `{"_id": "%024x", "title": "Chunked article %d", "url": "https://chunk.example/%d", "site": "chunk.example", "datePublished": "2026-01-15 09:30:00"}`+"\n", i+1, i, i)
	}
	req, err := http.NewRequest(http.MethodPost, s.URL()+"/_mock/articles", io.NopCloser(strings.NewReader(b.String())))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := s.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || s.counts().Added != 3000 {
		t.Errorf("chunked POST of %d bytes of articles: %d %s; %d added", b.Len(), resp.StatusCode, out, s.counts().Added)
	}
}

// TestArticleUploadsOneAtATime: a POST /_mock/articles waits while another
// reads its body, and one cancelled while it waits is answered at once.
func TestArticleUploadsOneAtATime(t *testing.T) {
	t.Parallel()
	s := start(t)
	pr, pw := io.Pipe()
	first := make(chan reply, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/_mock/articles", pr)
		req.Header.Set("Content-Type", "application/json")
		resp, err := s.HTTPClient().Do(req)
		if err != nil {
			first <- reply{Status: -1, Body: []byte(err.Error())}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		first <- reply{resp.StatusCode, resp.Header, b}
	}()
	if _, err := io.WriteString(pw, "[\n"); err != nil { // the first upload now holds the turn
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/_mock/articles", strings.NewReader("[]"))
	req.Header.Set("Content-Type", "application/json")
	second := make(chan reply, 1)
	go func() { // in process: the handler's answer comes back even once cancelled
		resp, err := s.HTTPClient().Do(req)
		if err != nil {
			second <- reply{Status: -1, Body: []byte(err.Error())}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		second <- reply{resp.StatusCode, resp.Header, b}
	}()
	select {
	case r := <-second:
		t.Fatalf("the second upload did not wait for the first: %d %s", r.Status, r.Body)
	case <-time.After(50 * time.Millisecond): // it waits; a slow machine only makes this check weaker
	}
	cancel()
	wantFailure(t, "the second upload, cancelled while it waited", <-second, http.StatusServiceUnavailable,
		"the request was cancelled while it waited for another POST /_mock/articles to finish: send it again")
	pw.Close() // the first body ends: "[" alone is a 400
	if r := <-first; r.Status != http.StatusBadRequest {
		t.Errorf("the first upload: %d %s, want its 400", r.Status, r.Body)
	}
	if r := call(t, s, http.MethodPost, "/_mock/articles", `[]`); r.Status != http.StatusBadRequest {
		t.Errorf("an upload after both: %d %s, want the 400 of an empty array (the turn was given back)", r.Status, r.Body)
	}
}

// fillerReader yields n bytes of spaces from a fixed block, fast even under
// the race detector.
type fillerReader struct{ left int64 }

var filler = []byte(strings.Repeat(" ", 64<<10))

func (r *fillerReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(int64(len(p)), r.left)], filler)
	r.left -= int64(n)
	return n, nil
}

// memoryFigures are the process's memory figures that matter here: the Go
// heap memory held from the system (HeapSys - HeapReleased), and the
// resident and peak resident sizes (VmRSS, VmHWM; 0 where /proc is
// missing).
type memoryFigures struct {
	heapHeld, rss, hwm int64
}

func readMemory() memoryFigures {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	f := memoryFigures{heapHeld: int64(ms.HeapSys - ms.HeapReleased)}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return f
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, v, ok := strings.Cut(line, ":")
		kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if !ok || err != nil {
			continue
		}
		switch name {
		case "VmRSS":
			f.rss = kib << 10
		case "VmHWM":
			f.hwm = kib << 10
		}
	}
	return f
}

func (f memoryFigures) String() string {
	return fmt.Sprintf("Go heap held %d MiB, resident %d MiB (peak %d MiB)", f.heapHeld>>20, f.rss>>20, f.hwm>>20)
}

// TestMemoryReturnsAfterRefusedUpload sends POST /_mock/articles a chunked
// body 1 MiB over defaultMaxArticlesBody (256 MiB; 64 MiB under the race
// detector, which is slower and whose shadow memory resident sizes count):
// the server reads it to the limit, refuses it, and gives the memory back
// to the system before it answers, so that the heap the process holds
// afterwards is about what it was before. A body announced over the limit
// is refused unread and costs nothing. It is not parallel: the other
// tests' memory would blur the figures.
func TestMemoryReturnsAfterRefusedUpload(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 257 MiB; skipped with -short")
	}
	limit := int64(defaultMaxArticlesBody)
	if raceEnabled {
		limit = 64 << 20
	}
	s := New(WithLimits(Limits{MaxArticlesBody: limit}))
	t.Cleanup(s.Close)
	post := func(body io.Reader, length int64) reply {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, s.URL()+"/_mock/articles", body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = length
		req.Header.Set("Content-Type", "application/json")
		resp, err := s.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return reply{resp.StatusCode, resp.Header, b}
	}
	msg := fmt.Sprintf("the articles are more than %d bytes: send them in several POST /_mock/articles calls", limit)
	runtime.GC()
	debug.FreeOSMemory()
	resetPeak := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // VmHWM restarts from VmRSS
	before := readMemory()

	wantFailure(t, "chunked, 1 MiB over the limit", post(io.NopCloser(&fillerReader{left: limit + 1<<20}), -1),
		http.StatusRequestEntityTooLarge, msg)
	afterChunked := readMemory()

	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	wantFailure(t, "announced 300 MiB", post(io.NopCloser(&fillerReader{left: 300 << 20}), 300<<20),
		http.StatusRequestEntityTooLarge, msg)
	afterAnnounced := readMemory()

	t.Logf("before: %v", before)
	t.Logf("after a refused chunked body of %d MiB: %v", limit>>20+1, afterChunked)
	t.Logf("after a refused body announced as 300 MiB: %v", afterAnnounced)
	if resetPeak != nil {
		t.Logf("peaks are the process's, not reset: %v", resetPeak)
	}
	// The body was read into memory up to the limit: what is held after
	// the answer must be back near the start, not the limit (or twice it)
	// above it.
	const slack = 32 << 20
	if grew := afterChunked.heapHeld - before.heapHeld; grew > slack {
		t.Errorf("the Go heap holds %d MiB more after the refused chunked body than before, want under %d MiB", grew>>20, slack>>20)
	}
	if !raceEnabled && before.rss > 0 {
		if grew := afterChunked.rss - before.rss; grew > 2*slack {
			t.Errorf("resident size %d MiB more after the refused chunked body than before, want under %d MiB", grew>>20, 2*slack>>20)
		}
	}
	if grew := afterAnnounced.heapHeld - afterChunked.heapHeld; grew > slack {
		t.Errorf("the Go heap holds %d MiB more after the body announced as 300 MiB, which is never read, want under %d MiB", grew>>20, slack>>20)
	}
}

// TestEarlyAnswersRead: a request refused before its body is read (a body
// over the limit, a control POST of the wrong type, a request from another
// site, an unknown Host) gets its JSON answer every time, not a reset
// connection, although the client is still sending the body: the mock
// drains what was announced before it closes the connection (Python's
// urllib, which sends the whole body before it reads, is tested from
// Python in examples/python/test_early_answers.py).
func TestEarlyAnswersRead(t *testing.T) {
	t.Parallel()
	s := New()
	t.Cleanup(s.Close)
	big := `{"api_key": "k", "query": "` + strings.Repeat("x", 2<<20) + `"}`
	for _, tc := range []struct {
		path, body string
		headers    []string
		status     int
		msg        string
	}{
		{"/api/v2/query", big, []string{"Content-Type", "application/json"}, 413, "the request body is larger than 1 MiB"},
		{"/_mock/clock", big, []string{"Content-Type", "application/json"}, 413, "the request body is larger than 1 MiB"},
		{"/_mock/faults", strings.Repeat("status=503", 50000), []string{"Content-Type", "text/plain"}, 415, "POST /_mock/faults needs Content-Type: application/json"},
		{"/api/v2/query", big, []string{"Origin", "http://evil.example"}, 403, "the mock takes no request from a web page of another site"},
		{"/api/v2/query", big, []string{"Host", "evil.example"}, 421, `the Host header "evil.example" is not a name this mock answers to`},
	} {
		for i := range 50 {
			req, err := http.NewRequest(http.MethodPost, s.URL()+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			for j := 0; j+1 < len(tc.headers); j += 2 {
				req.Header.Set(tc.headers[j], tc.headers[j+1])
			}
			if host := req.Header.Get("Host"); host != "" {
				req.Host = host
			}
			resp, err := s.HTTPClient().Do(req)
			if err != nil {
				t.Fatalf("POST %s (%d), try %d: %v", tc.path, tc.status, i, err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var f failure
			if resp.StatusCode != tc.status || json.Unmarshal(b, &f) != nil || !strings.HasPrefix(f.Message, tc.msg) {
				t.Fatalf("POST %s, try %d: %d %s; want %d %q...", tc.path, i, resp.StatusCode, b, tc.status, tc.msg)
			}
		}
	}
}
