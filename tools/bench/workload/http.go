package workload

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"
)

// InProcess calls an http.Handler directly, with no socket and no
// transport: a fresh request and a reused response writer that counts and
// discards the body. It is not safe for concurrent use.
type InProcess struct {
	h    http.Handler
	path string
	w    countingWriter
}

// NewInProcess returns a caller of h for POST requests to path.
func NewInProcess(h http.Handler, path string) *InProcess {
	return &InProcess{h: h, path: path, w: countingWriter{header: http.Header{}}}
}

// Call serves one POST with body and returns the status and body length.
func (c *InProcess) Call(body []byte) (status, n int, err error) {
	req, err := http.NewRequest(http.MethodPost, c.path, bytes.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	clear(c.w.header)
	c.w.status, c.w.n = 0, 0
	c.h.ServeHTTP(&c.w, req)
	if c.w.status == 0 {
		c.w.status = http.StatusOK
	}
	return c.w.status, c.w.n, nil
}

// countingWriter is a ResponseWriter that keeps only the status and size.
type countingWriter struct {
	header http.Header
	status int
	n      int
}

func (w *countingWriter) Header() http.Header { return w.header }

func (w *countingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(p)
	return len(p), nil
}

// Answer is what a Bare server sends to every POST to Path: Body, with
// Header (net/http adds Date).
type Answer struct {
	Path   string      `json:"path"`
	Body   []byte      `json:"body"`
	Header http.Header `json:"header"`
}

// JSONAnswer returns an Answer of body to path with the headers
// Content-Type (application/json) and Content-Length.
func JSONAnswer(path string, body []byte) Answer {
	return Answer{Path: path, Body: body, Header: http.Header{
		"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(body))}}}
}

// Bare is a plain net/http server on loopback that answers each path with
// a fixed answer, doing nothing else: the baseline of the overhead and wrk
// rows.
type Bare struct {
	// URL is the server's base URL, e.g. "http://127.0.0.1:41234".
	URL  string
	srv  *http.Server
	done chan struct{}
}

// StartBare starts a Bare server answering answers by path (404 for any
// other), after reading each request body.
func StartBare(answers []Answer) (*Bare, error) {
	return start(answers, nil)
}

// StartPlain starts the smallest plain mock: a Bare server that also does
// what any mock written with the standard library does before its own
// work. It reads each body whole, decodes it with encoding/json (its
// members, then api_key as a string; 400 if that fails) and writes one
// slog text line per request to log, unbuffered. It is row 3w's reference:
// what a plain mock can reach beside the bare handler.
func StartPlain(answers []Answer, log io.Writer) (*Bare, error) {
	return start(answers, slog.New(slog.NewTextHandler(log, nil)))
}

// start starts a Bare server; with a logger, a plain one (see StartPlain).
func start(answers []Answer, logger *slog.Logger) (*Bare, error) {
	if len(answers) == 0 {
		return nil, errors.New("workload: StartBare: give at least one answer")
	}
	byPath := map[string]Answer{}
	for _, a := range answers {
		byPath[a.Path] = a
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("workload: StartBare: %w", err)
	}
	b := &Bare{URL: "http://" + ln.Addr().String(), done: make(chan struct{})}
	b.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var began time.Time // the plain server's, for its log line: the bare one stays as it was
		a, ok := byPath[r.URL.Path]
		if logger == nil {
			_, _ = io.Copy(io.Discard, r.Body)
		} else if began = time.Now(); !plainBody(r) {
			http.Error(w, "the body must be a JSON object with a string api_key", http.StatusBadRequest)
			return
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range a.Header {
			w.Header()[k] = v
		}
		_, _ = w.Write(a.Body)
		if logger != nil {
			logger.Info("request", "method", r.Method, "path", r.URL.Path, "status", http.StatusOK, "duration", time.Since(began))
		}
	})}
	go func() {
		defer close(b.done)
		_ = b.srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return b, nil
}

// plainBody reads r's body and decodes it as a plain mock would.
func plainBody(r *http.Request) bool {
	body, err := io.ReadAll(r.Body)
	var members map[string]json.RawMessage
	var key string
	return err == nil && json.Unmarshal(body, &members) == nil && json.Unmarshal(members["api_key"], &key) == nil && key != ""
}

// Close stops the server and waits for it.
func (b *Bare) Close() {
	_ = b.srv.Close()
	<-b.done
}

// NewHTTPClient returns an HTTP client for loopback benchmarks keeping up
// to conns connections to one host open, with no proxy and no compression.
func NewHTTPClient(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:               nil,
		MaxIdleConns:        2 * conns,
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}}
}

// Post POSTs body to url and returns the answer's bytes and headers; a
// status other than 200 is an error.
func Post(ctx context.Context, client *http.Client, url string, body []byte) ([]byte, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("workload: POST %s: status %d: %.300s", url, resp.StatusCode, b)
	}
	return b, resp.Header, nil
}
