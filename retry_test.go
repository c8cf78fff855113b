package newssearch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

const (
	okSearch  = `{"results":{"totalResults":1,"articles":[]},"state":"SUCCESS"}`
	okJob     = `{"query_id":"job-1","state":"SUCCESS"}`
	failedMsg = `{"state":"FAILED","message":"try again"}`
)

// failing returns n exchanges answering path with status, then one ok.
func failing(path string, n, status int, ok string) []scripted {
	steps := make([]scripted, 0, n+1)
	for i := range n {
		steps = append(steps, scripted{path: path, status: status, response: fmt.Sprintf(`{"state":"FAILED","message":"attempt %d"}`, i+1)})
	}
	return append(steps, scripted{path: path, response: ok})
}

func TestRetriedStatuses(t *testing.T) {
	t.Parallel()
	search := func(c *Client) error { _, err := c.Search(context.Background(), SearchParams{Query: "q"}); return err }
	results := func(c *Client) error { _, err := c.GetResults(context.Background(), "job-1", 1); return err }
	headlines := func(c *Client) error { _, err := c.Headlines(context.Background()); return err }
	submit := func(c *Client) error { _, err := c.SubmitQuery(context.Background(), asyncQuery); return err }
	okResults := `{"query_id":"job-1","state":"PENDING"}`
	okHeadlines := `{"headlines":[],"state":"SUCCESS"}`
	tests := []struct {
		name   string
		path   string
		ok     string
		call   func(*Client) error
		status int
		retry  bool
	}{
		{"search 408", pathQuery, okSearch, search, 408, true},
		{"search 429", pathQuery, okSearch, search, 429, true},
		{"search 500", pathQuery, okSearch, search, 500, true},
		{"search 502", pathQuery, okSearch, search, 502, true},
		{"search 503", pathQuery, okSearch, search, 503, true},
		{"search 504", pathQuery, okSearch, search, 504, true},
		{"search 501", pathQuery, okSearch, search, 501, false},
		{"search 400", pathQuery, okSearch, search, 400, false},
		{"search 401", pathQuery, okSearch, search, 401, false},
		{"search 404", pathQuery, okSearch, search, 404, false},
		{"get-results 500", pathGetResults, okResults, results, 500, true},
		{"get-results 404", pathGetResults, okResults, results, 404, false},
		{"headlines 503", pathHeadlines, okHeadlines, headlines, 503, true},
		{"headlines 408", pathHeadlines, okHeadlines, headlines, 408, true},
		// query-async creates a job: it is retried only on statuses that
		// prove the service did not take the request. A 503 may come from
		// a proxy after it forwarded the request, so it is not retried.
		{"query-async 429", pathQueryAsync, okJob, submit, 429, true},
		{"query-async 408", pathQueryAsync, okJob, submit, 408, true},
		{"query-async 503", pathQueryAsync, okJob, submit, 503, false},
		{"query-async 500", pathQueryAsync, okJob, submit, 500, false},
		{"query-async 502", pathQueryAsync, okJob, submit, 502, false},
		{"query-async 504", pathQueryAsync, okJob, submit, 504, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Three failures then success: retried calls succeed on the 4th
			// attempt, the others fail on the 1st.
			steps := failing(tt.path, 3, tt.status, tt.ok)
			if !tt.retry {
				steps = steps[:1]
			}
			c, s := serveScript(t, steps)
			err := tt.call(c)
			if tt.retry {
				if err != nil {
					t.Fatalf("error = %v, want success after retries", err)
				}
				if n := s.calls.Load(); n != 4 {
					t.Errorf("%d attempts, want 4", n)
				}
				return
			}
			if got := apiErrorOf(t, err); got.StatusCode != tt.status {
				t.Errorf("StatusCode = %d, want %d", got.StatusCode, tt.status)
			}
			if n := s.calls.Load(); n != 1 {
				t.Errorf("%d attempts, want 1", n)
			}
		})
	}
}

func TestRetriesExhaustedKeepLastBody(t *testing.T) {
	t.Parallel()
	steps := failing(pathQuery, 3, 500, okSearch)[:3]
	c, s := serveScript(t, steps, WithMaxRetries(2))
	_, err := c.Search(context.Background(), SearchParams{Query: "q"})
	got := apiErrorOf(t, err)
	if got.Message != "attempt 3" || got.StatusCode != 500 {
		t.Errorf("APIError = %d %q, want 500 \"attempt 3\"", got.StatusCode, got.Message)
	}
	if !errors.Is(err, ErrServer) {
		t.Error("errors.Is(err, ErrServer) = false")
	}
	if n := s.calls.Load(); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
}

func TestNoRetries(t *testing.T) {
	t.Parallel()
	c, s := serveScript(t, failing(pathQuery, 1, 503, okSearch)[:1], WithMaxRetries(0))
	_, err := c.Search(context.Background(), SearchParams{Query: "q"})
	if !errors.Is(err, ErrServer) {
		t.Errorf("error = %v, want ErrServer", err)
	}
	if n := s.calls.Load(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}

// dropServer answers path with a body cut off halfway for the first drops
// requests, then in full; it counts requests.
func dropServer(t *testing.T, drops int32, full string) (*Client, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n := calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(full)))
		if n <= drops {
			w.Write([]byte(full[:len(full)/2]))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // drop the connection mid-body
		}
		w.Write([]byte(full))
	}))
	return clientFor(t, srv), &calls
}

func TestMidBodyDropRetriedOnSearch(t *testing.T) {
	t.Parallel()
	full := `{"results":{"totalResults":2,"articles":` + wireArticles(2) + `},"state":"SUCCESS"}`
	c, calls := dropServer(t, 2, full)
	got, err := c.Search(context.Background(), SearchParams{Query: "q"})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	if diff := cmp.Diff(wantArticles(2), got.Articles); diff != "" {
		t.Errorf("articles mismatch (-want +got):\n%s", diff)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
}

func TestMidBodyDropNotRetriedOnSubmitQuery(t *testing.T) {
	t.Parallel()
	c, calls := dropServer(t, 1, `{"query_id":"job-1","state":"SUCCESS","padding":"`+strings.Repeat("x", 4096)+`"}`)
	_, err := c.SubmitQuery(context.Background(), asyncQuery)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("error = %v, want io.ErrUnexpectedEOF", err)
	}
	want := "newssearch: POST /api/v2/query-async: reading response body: unexpected EOF"
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}

func TestMidBodyDropExhausted(t *testing.T) {
	t.Parallel()
	c, calls := dropServer(t, 100, okSearch)
	_, err := c.Search(context.Background(), SearchParams{Query: "q"})
	want := "newssearch: POST /api/v2/query: giving up after 4 attempts: reading response body: unexpected EOF"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
	if n := calls.Load(); n != 4 {
		t.Errorf("%d attempts, want 4", n)
	}
}

// endlessBody writes JSON-looking bytes until the client goes away.
func endlessBody(status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		w.Write([]byte(`{"state":"FAILED","message":"`))
		for range 1 << 12 { // at most 256 MiB
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
}

func TestEndlessBodies(t *testing.T) {
	t.Parallel()
	t.Run("success", func(t *testing.T) {
		t.Parallel()
		var calls atomic.Int32
		srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			endlessBody(200)(w, r)
		}))
		_, err := clientFor(t, srv).Search(context.Background(), SearchParams{Query: "q"})
		if !errors.Is(err, errBodyTooLarge) {
			t.Fatalf("error = %v, want errBodyTooLarge", err)
		}
		if n := calls.Load(); n != 1 {
			t.Errorf("%d attempts, want 1 (never retried)", n)
		}
	})
	t.Run("error", func(t *testing.T) {
		t.Parallel()
		srv := newPrefixServer(t, endlessBody(500))
		_, err := clientFor(t, srv, WithMaxRetries(1)).Headlines(context.Background())
		got := apiErrorOf(t, err)
		if len(got.Body) != maxErrorBody || got.StatusCode != 500 {
			t.Errorf("APIError status %d, len(Body) %d; want 500, %d", got.StatusCode, len(got.Body), maxErrorBody)
		}
	})
}

// refusedURL returns a loopback URL nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + sdkPrefix
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	for name, call := range map[string]func(*Client) error{
		"search": func(c *Client) error { _, err := c.Search(context.Background(), SearchParams{Query: "q"}); return err },
		"submit": func(c *Client) error { _, err := c.SubmitQuery(context.Background(), asyncQuery); return err },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var logs bytes.Buffer
			c, err := NewClient(WithAPIKey(sdkKey), WithoutEnvironment(), WithBaseURL(refusedURL(t)),
				WithRetryWait(time.Millisecond, time.Millisecond), WithMaxRetries(2), WithLogger(newTestLogger(&logs)))
			if err != nil {
				t.Fatal(err)
			}
			err = call(c)
			if !errors.Is(err, syscall.ECONNREFUSED) {
				t.Fatalf("error = %v, want ECONNREFUSED", err)
			}
			if !strings.Contains(err.Error(), "giving up after 3 attempts") {
				t.Errorf("error = %q, want it to report 3 attempts", err)
			}
			if n := strings.Count(logs.String(), `"msg":"newssearch: retrying"`); n != 2 {
				t.Errorf("%d retries logged, want 2:\n%s", n, logs.String())
			}
		})
	}
}

// mockClient returns a client whose transport is mt, for base URL
// http://api.test/prefix.
func mockClient(t *testing.T, mt *httpmock.MockTransport, opts ...Option) *Client {
	t.Helper()
	base := []Option{
		WithAPIKey(sdkKey), WithoutEnvironment(), WithBaseURL("http://api.test" + sdkPrefix),
		WithHTTPClient(&http.Client{Transport: mt}), WithRetryWait(time.Millisecond, 10*time.Millisecond),
		withJitterSeed(3, 4),
	}
	c, err := NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mockURL is the URL mockClient requests for path.
func mockURL(path string) string { return "http://api.test" + sdkPrefix + path }

// dialRefused is the error a dial to a closed port returns.
var dialRefused = &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}

func TestTransportErrorsWithMock(t *testing.T) {
	t.Parallel()
	reset := &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	tests := []struct {
		name      string
		path      string
		fail      error
		wantCalls int
		wantOK    bool
	}{
		{"search dial refused", pathQuery, dialRefused, 3, true},
		{"search reset", pathQuery, reset, 3, true},
		{"search EOF", pathQuery, io.EOF, 3, true},
		{"submit dial refused", pathQueryAsync, dialRefused, 3, true},
		{"submit reset", pathQueryAsync, reset, 1, false},
		{"submit EOF", pathQueryAsync, io.EOF, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			fail := httpmock.NewErrorResponder(tt.fail)
			mt.RegisterResponder(http.MethodPost, mockURL(tt.path),
				fail.Then(fail).Then(httpmock.NewStringResponder(200, okJob)))
			c := mockClient(t, mt)
			var err error
			if tt.path == pathQuery {
				_, err = c.Search(context.Background(), SearchParams{Query: "q"})
			} else {
				_, err = c.SubmitQuery(context.Background(), asyncQuery)
			}
			if (err == nil) != tt.wantOK {
				t.Errorf("error = %v, want success %v", err, tt.wantOK)
			}
			if err != nil && !errors.Is(err, tt.fail) {
				t.Errorf("error = %v does not wrap %v", err, tt.fail)
			}
			if n := mt.GetTotalCallCount(); n != tt.wantCalls {
				t.Errorf("%d attempts, want %d", n, tt.wantCalls)
			}
		})
	}
}

// brokenBody yields data, then err.
type brokenBody struct {
	data []byte
	err  error
}

func (b *brokenBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, b.err
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

func (b *brokenBody) Close() error { return nil }

func TestBrokenBodyWithMock(t *testing.T) {
	t.Parallel()
	broken := func(req *http.Request) (*http.Response, error) {
		resp := httpmock.NewStringResponse(200, "")
		resp.Body = &brokenBody{data: []byte(`{"results":{"art`), err: io.ErrUnexpectedEOF}
		return resp, nil
	}
	for _, path := range []string{pathQuery, pathQueryAsync} {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder(http.MethodPost, mockURL(path),
			httpmock.Responder(broken).Once().Then(httpmock.NewStringResponder(200, okJob)))
		c := mockClient(t, mt)
		var err error
		want := 2
		if path == pathQuery {
			_, err = c.Search(context.Background(), SearchParams{Query: "q"})
			if err != nil {
				t.Errorf("Search: %v", err)
			}
		} else {
			want = 1
			_, err = c.SubmitQuery(context.Background(), asyncQuery)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("SubmitQuery error = %v, want io.ErrUnexpectedEOF", err)
			}
		}
		if n := mt.GetTotalCallCount(); n != want {
			t.Errorf("%s: %d attempts, want %d", path, n, want)
		}
	}
}

func TestCancelDuringBackoffRealServer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int32
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		cancel() // the client is about to wait before retrying
		w.WriteHeader(503)
		w.Write([]byte(failedMsg))
	}))
	c := clientFor(t, srv, WithRetryWait(50*time.Millisecond, 100*time.Millisecond))
	_, err := c.Search(ctx, SearchParams{Query: "q"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}

func TestCanceledBeforeCall(t *testing.T) {
	t.Parallel()
	c, s := serveScript(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.GetResults(ctx, "job-1", 1)
	if !errors.Is(err, context.Canceled) || err.Error() != "newssearch: POST /api/v2/get-results: context canceled" {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if n := s.calls.Load(); n != 0 {
		t.Errorf("%d requests, want 0", n)
	}
}

// The tests below run in a synctest bubble: time is virtual, so waits are
// asserted exactly without depending on the machine's speed.

func TestCancelDuringBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder(http.MethodPost, mockURL(pathQuery), httpmock.NewStringResponder(503, failedMsg))
		c := mockClient(t, mt, WithRetryWait(time.Hour, time.Hour))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		time.AfterFunc(time.Minute, cancel)
		start := time.Now()
		_, err := c.Search(ctx, SearchParams{Query: "q"})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error = %v, want context.Canceled", err)
		}
		if elapsed := time.Since(start); elapsed != time.Minute {
			t.Errorf("returned after %v, want 1m (when the context was cancelled)", elapsed)
		}
		if n := mt.GetTotalCallCount(); n != 1 {
			t.Errorf("%d attempts, want 1", n)
		}
	})
}

func TestDeadlineDuringBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder(http.MethodPost, mockURL(pathHeadlines), httpmock.NewStringResponder(500, failedMsg))
		c := mockClient(t, mt, WithRetryWait(time.Second, time.Second), WithMaxRetries(100))
		ctx, cancel := context.WithTimeout(context.Background(), 3500*time.Millisecond)
		defer cancel()
		_, err := c.Headlines(ctx)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error = %v, want context.DeadlineExceeded", err)
		}
	})
}

// TestRetryAfter: a Retry-After header within WithRetryWait's maximum sets
// the wait before the retry, and jitter only lengthens it (a longer one ends
// the call: TestRetryAfterBeyondWhatTheCallMayWait).
func TestRetryAfter(t *testing.T) {
	start := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) // synctest's epoch
	tests := []struct {
		name       string
		status     int
		retryAfter string
		want       time.Duration
	}{
		{"seconds on 429", 429, "2", 2 * time.Second},
		{"seconds on 503", 503, "3", 3 * time.Second},
		{"zero", 429, "0", 0},
		{"HTTP date", 503, start.Add(4 * time.Second).Format(http.TimeFormat), 4 * time.Second},
		{"past HTTP date", 429, start.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"ignored on 500", 500, "4", -1}, // -1: the backoff from min, 750ms..1s
		{"unreadable", 429, "soon", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				if !time.Now().Equal(start) {
					t.Fatalf("synctest epoch is %v, want %v", time.Now(), start)
				}
				mt := httpmock.NewMockTransport()
				first := httpmock.NewStringResponder(tt.status, failedMsg).HeaderSet(http.Header{"Retry-After": {tt.retryAfter}})
				mt.RegisterResponder(http.MethodPost, mockURL(pathQuery), first.Once().Then(httpmock.NewStringResponder(200, okSearch)))
				c := mockClient(t, mt, WithRetryWait(time.Second, 5*time.Second))
				if _, err := c.Search(context.Background(), SearchParams{Query: "q"}); err != nil {
					t.Fatal(err)
				}
				elapsed := time.Since(start)
				if tt.want < 0 {
					if elapsed < 750*time.Millisecond || elapsed > time.Second {
						t.Errorf("waited %v, want 750ms..1s", elapsed)
					}
				} else if spread := min(tt.want/10, time.Second); elapsed < tt.want || elapsed > tt.want+spread {
					// Never before the header, and spread by at most a
					// tenth so that paused calls do not all wake at once.
					t.Errorf("waited %v, want %v..%v", elapsed, tt.want, tt.want+spread)
				}
			})
		})
	}
}

func TestRetryAfterReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder(http.MethodPost, mockURL(pathQuery),
			httpmock.NewStringResponder(429, `{"state":"FAILED","message":"slow down: at most 5 requests a second"}`).
				HeaderSet(http.Header{"Retry-After": {"30"}, "X-Request-Id": {"rl-1"}}))
		c := mockClient(t, mt, WithRetryWait(time.Second, 2*time.Second), WithMaxRetries(2))
		start := time.Now()
		_, err := c.Search(context.Background(), SearchParams{Query: "q"})
		got := apiErrorOf(t, err)
		if got.RetryAfter != 30*time.Second || !errors.Is(err, ErrRateLimited) {
			t.Errorf("RetryAfter = %v, ErrRateLimited %v; want 30s, true", got.RetryAfter, errors.Is(err, ErrRateLimited))
		}
		want := "newssearch: POST /api/v2/query: 429 Too Many Requests: slow down: at most 5 requests a second (request id rl-1)"
		if err.Error() != want {
			t.Errorf("error = %q, want %q", err, want)
		}
		// 30 s is beyond the call's 2 s: it ends at once, never retrying early.
		if elapsed := time.Since(start); elapsed != 0 {
			t.Errorf("waited %v, want the call to end at once", elapsed)
		}
		if n := mt.GetTotalCallCount(); n != 1 {
			t.Errorf("%d attempts, want 1", n)
		}
	})
}

func TestBackoffSchedule(t *testing.T) {
	t.Parallel()
	newCfg := func() *config {
		c, err := NewClient(WithAPIKey("k"), WithoutEnvironment(), withJitterSeed(7, 8))
		if err != nil {
			t.Fatal(err)
		}
		return c.cfg
	}
	a, b := newCfg(), newCfg()
	min, max := 500*time.Millisecond, 8*time.Second
	for retry, base := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second} {
		got := a.backoff(min, max, retry, nil)
		if got > base || got < base*3/4 {
			t.Errorf("retry %d: wait %v outside [%v, %v]", retry, got, base*3/4, base)
		}
		if again := b.backoff(min, max, retry, nil); again != got {
			t.Errorf("retry %d: same seed gave %v then %v", retry, got, again)
		}
	}
	if got := a.backoff(min, max, 1000, nil); got > max || got < max*3/4 {
		t.Errorf("retry 1000: wait %v, want within the cap", got)
	}
	if got := a.backoff(0, 0, 3, nil); got != 0 {
		t.Errorf("zero waits: got %v", got)
	}
}

func TestSubmitQueryNotRetriedOnTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder(http.MethodPost, mockURL(pathQueryAsync), httpmock.NewStringResponder(200, okJob).Delay(time.Minute))
		c := mockClient(t, mt, WithHTTPClient(&http.Client{Transport: mt, Timeout: time.Second}))
		_, err := c.SubmitQuery(context.Background(), asyncQuery)
		if err == nil {
			t.Fatal("SubmitQuery succeeded despite the client timeout")
		}
		if n := mt.GetTotalCallCount(); n != 1 {
			t.Errorf("%d attempts, want 1", n)
		}
	})
}

// TestRetryAfterSpreadsWakeUps: calls paused by the same Retry-After do not
// all retry at one instant, and none retries before the header says.
func TestRetryAfterSpreadsWakeUps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mt := httpmock.NewMockTransport()
		var mu sync.Mutex
		var at []time.Duration
		start := time.Now()
		mt.RegisterResponder(http.MethodPost, mockURL(pathQuery), func(r *http.Request) (*http.Response, error) {
			mu.Lock()
			defer mu.Unlock()
			if time.Since(start) == 0 {
				resp := httpmock.NewStringResponse(429, failedMsg)
				resp.Header.Set("Retry-After", "5")
				return resp, nil
			}
			at = append(at, time.Since(start))
			return httpmock.NewStringResponse(200, okSearch), nil
		})
		c := mockClient(t, mt, WithRetryWait(time.Second, 10*time.Second))
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if _, err := c.Search(context.Background(), SearchParams{Query: "q"}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		distinct := map[time.Duration]bool{}
		for _, d := range at {
			if d < 5*time.Second || d > 5500*time.Millisecond {
				t.Errorf("a retry at %v, want 5s..5.5s", d)
			}
			distinct[d] = true
		}
		if len(at) != 8 || len(distinct) < 4 {
			t.Errorf("retries at %v: want 8, at 4 or more instants", at)
		}
	})
}
