package workload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/newssearch/newssearch-go/internal/onewrite"
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

// Bare is a plain net/http server on loopback that answers every request
// with the next of a fixed set of pre-encoded bodies, doing nothing else:
// the baseline of the throughput and overhead rows.
type Bare struct {
	// URL is the server's base URL, e.g. "http://127.0.0.1:41234".
	URL  string
	srv  *http.Server
	done chan struct{}
}

// StartBare starts a Bare server answering bodies in turn (Content-Type
// application/json, Content-Length set), after reading each request body.
func StartBare(bodies [][]byte) (*Bare, error) { return startBare(bodies, false) }

// StartBareOneWrite is StartBare sending each answer's header and body in
// one system call (internal/onewrite), as the mock server does since round
// two; net/http alone sends an answer over 4 KiB in two. The throughput
// rows report the mock against it too, so that what the mock gains from
// writing once is not mistaken for the rest of its work costing nothing.
func StartBareOneWrite(bodies [][]byte) (*Bare, error) { return startBare(bodies, true) }

func startBare(bodies [][]byte, oneWrite bool) (*Bare, error) {
	if len(bodies) == 0 {
		return nil, errors.New("workload: StartBare: give at least one body to answer")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("workload: StartBare: %w", err)
	}
	lengths := make([][]string, len(bodies))
	for i, b := range bodies {
		lengths[i] = []string{strconv.Itoa(len(b))}
	}
	jsonType := []string{"application/json"}
	var next atomic.Uint64
	b := &Bare{URL: "http://" + ln.Addr().String(), done: make(chan struct{})}
	b.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		i := (next.Add(1) - 1) % uint64(len(bodies))
		h := w.Header()
		h["Content-Type"] = jsonType
		h["Content-Length"] = lengths[i]
		onewrite.Send(w, onewrite.From(w, r), http.StatusOK, bodies[i]) // From is nil without ConnContext
	})}
	serving := ln
	if oneWrite {
		b.srv.ConnContext = onewrite.ConnContext
		serving = onewrite.Listener{Listener: ln}
	}
	go func() {
		defer close(b.done)
		_ = b.srv.Serve(serving) // returns http.ErrServerClosed on Close
	}()
	return b, nil
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

// LoadResult is the outcome of a Load run.
type LoadResult struct {
	// Requests counts the answers read whole with status 200.
	Requests int64
	// Elapsed runs from the start until the last worker stopped.
	Elapsed time.Duration
}

// PerSecond returns the request rate.
func (r LoadResult) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// Load keeps conns requests in flight: conns goroutines each POST bodies
// in turn to url through client and read every answer whole. It stops
// starting requests when d has passed, or after limit requests if limit is
// positive, and returns when every worker has stopped. The first failure
// (transport error, status other than 200) stops the run and is returned.
func Load(ctx context.Context, client *http.Client, url string, bodies [][]byte, conns int, d time.Duration, limit int64) (LoadResult, error) {
	if conns <= 0 || len(bodies) == 0 {
		return LoadResult{}, fmt.Errorf("workload: Load: need conns > 0 (got %d) and at least one body (got %d)", conns, len(bodies))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		started, done atomic.Int64
		errOnce       sync.Once
		firstErr      error
		wg            sync.WaitGroup
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err })
		cancel()
	}
	begin := time.Now()
	deadline := begin.Add(d)
	for range conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				n := started.Add(1)
				if (limit > 0 && n > limit) || (limit <= 0 && time.Now().After(deadline)) {
					return
				}
				if err := post(ctx, client, url, bodies[int(n-1)%len(bodies)]); err != nil {
					fail(err)
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	return LoadResult{Requests: done.Load(), Elapsed: time.Since(begin)}, firstErr
}

// post sends one request and reads the answer whole.
func post(ctx context.Context, client *http.Client, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("workload: POST %s: status %d", url, resp.StatusCode)
	}
	return nil
}

// Fetch POSTs body to url and returns the answer's bytes; a status other
// than 200 is an error.
func Fetch(ctx context.Context, client *http.Client, url string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("workload: POST %s: status %d: %s", url, resp.StatusCode, b)
	}
	return b, nil
}
