package newssearch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// This file holds the tests of the limits on time: PollOptions.MaxWait
// bounding every request of a poll, and the client's own per-attempt
// limits, told apart from the caller's deadline.

// holdGetResults makes the fake never answer get-results.
func holdGetResults(path string, _ int) bool { return path == pathGetResults }

func TestPollMaxWaitBoundsHangingRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFake(nil)
		f.hold = holdGetResults
		// Retries on, as by default: they must not outlast MaxWait either.
		c := inProcess(t, f, WithMaxRetries(3))
		start := time.Now()
		_, err := c.Poll(t.Context(), "q1", &PollOptions{MaxWait: 200 * time.Millisecond, Jitter: -1})
		want := &PollTimeoutError{QueryID: "q1", Waited: 200 * time.Millisecond, Attempts: 1}
		var got *PollTimeoutError
		if !errors.As(err, &got) {
			t.Fatalf("Poll error = %v, want a *PollTimeoutError", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("PollTimeoutError (-want +got):\n%s", diff)
		}
		if took := time.Since(start); took != 200*time.Millisecond {
			t.Errorf("Poll returned after %v, want MaxWait (200ms)", took)
		}
		wantMsg := `newssearch: query job "q1": get-results did not answer within PollOptions.MaxWait (200ms, 1 request): call Poll again with this query ID to keep waiting, or raise PollOptions.MaxWait`
		if diff := cmp.Diff(wantMsg, err.Error()); diff != "" {
			t.Errorf("error message (-want +got):\n%s", diff)
		}
		if !errors.Is(err, ErrPollTimeout) || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v: want ErrPollTimeout and not context.DeadlineExceeded", err)
		}
	})
}

func TestMaxWaitBoundsEveryPollingCall(t *testing.T) {
	t.Parallel()
	opts := &PollOptions{MaxWait: 300 * time.Millisecond, Jitter: -1}
	calls := []struct {
		name string
		run  func(c *Client, ctx context.Context) error
	}{
		{"Poll", func(c *Client, ctx context.Context) error {
			_, err := c.Poll(ctx, "q7", opts)
			return err
		}},
		{"Results", func(c *Client, ctx context.Context) error {
			_, err := collect(c.Results(ctx, "q7", opts))
			return err
		}},
		{"SearchRange", func(c *Client, ctx context.Context) error {
			_, err := c.SearchRange(ctx, AsyncSearchParams{SearchParams: SearchParams{Query: "cars",
				StartDate: rangeStart, EndDate: rangeStart.Add(24 * time.Hour)}}, opts)
			return err
		}},
	}
	for _, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				f := newFake(nil)
				f.hold = holdGetResults
				c := inProcess(t, f, WithMaxRetries(3))
				start := time.Now()
				err := tt.run(c, t.Context())
				if took := time.Since(start); took != 300*time.Millisecond {
					t.Errorf("%s returned after %v, want MaxWait (300ms)", tt.name, took)
				}
				var pt *PollTimeoutError
				if !errors.As(err, &pt) || pt.QueryID == "" || pt.LastState != "" {
					t.Fatalf("%s error = %v, want a *PollTimeoutError with the query ID and no state", tt.name, err)
				}
				if errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%s error %v matches context.DeadlineExceeded, though the caller set no deadline", tt.name, err)
				}
			})
		})
	}
}

// stallServer accepts requests and never answers them until the test ends.
func stallServer(t *testing.T) *httptest.Server {
	t.Helper()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv
}

func TestAttemptTimeoutIsNotCallersDeadline(t *testing.T) {
	t.Parallel()
	srv := stallServer(t)
	newClient := func(hc *http.Client, opts ...Option) *Client {
		all := append([]Option{WithAPIKey(sdkKey), WithBaseURL(srv.URL), WithoutEnvironment(), WithHTTPClient(hc), WithMaxRetries(0)}, opts...)
		c, err := NewClient(all...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name         string
		c            *Client
		ctx          func() (context.Context, context.CancelFunc)
		wantAttempt  bool
		wantDeadline bool
		wantMsg      string
	}{
		{
			name:        "stall timeout",
			c:           newClient(srv.Client(), WithStallTimeout(50*time.Millisecond)),
			ctx:         func() (context.Context, context.CancelFunc) { return context.WithCancel(t.Context()) },
			wantAttempt: true,
			wantMsg: `newssearch: POST /api/v2/headlines: Post "` + srv.URL + `/api/v2/headlines": no response headers for 50ms (the client's stall timeout): ` +
				`the service or a proxy on the way stopped answering; raise it with newssearch.WithStallTimeout`,
		},
		{
			name:        "http.Client Timeout",
			c:           newClient(&http.Client{Transport: srv.Client().Transport, Timeout: 50 * time.Millisecond}, WithStallTimeout(0)),
			ctx:         func() (context.Context, context.CancelFunc) { return context.WithCancel(t.Context()) },
			wantAttempt: true,
		},
		{
			name: "caller's deadline",
			c:    newClient(srv.Client()),
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(t.Context(), 50*time.Millisecond)
			},
			wantDeadline: true,
			wantMsg:      `newssearch: POST /api/v2/headlines: context deadline exceeded`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := tt.ctx()
			defer cancel()
			_, err := tt.c.Headlines(ctx)
			if err == nil {
				t.Fatal("Headlines from a stalled server succeeded")
			}
			if got := errors.Is(err, ErrAttemptTimeout); got != tt.wantAttempt {
				t.Errorf("errors.Is(%v, ErrAttemptTimeout) = %v, want %v", err, got, tt.wantAttempt)
			}
			if got := errors.Is(err, context.DeadlineExceeded); got != tt.wantDeadline {
				t.Errorf("errors.Is(%v, context.DeadlineExceeded) = %v, want %v", err, got, tt.wantDeadline)
			}
			if tt.wantMsg != "" {
				if diff := cmp.Diff(tt.wantMsg, err.Error()); diff != "" {
					t.Errorf("error message (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestStallTimeoutRetriesReadOnlyCalls(t *testing.T) {
	t.Parallel()
	// The first attempt stalls; the retry is answered.
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Reading the body to its end lets the server notice the client
		// hanging up, which ends the request's context.
		io.Copy(io.Discard, r.Body)
		if calls.Add(1) == 1 {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"headlines":[],"state":"SUCCESS"}`))
	}))
	t.Cleanup(srv.Close)
	// On a loaded machine (CI under -race) an answered attempt can also
	// miss the 50 ms stall timeout: enough retries let one through, so the
	// test never fails because the machine is slow.
	c, err := NewClient(WithAPIKey(sdkKey), WithBaseURL(srv.URL), WithoutEnvironment(), WithHTTPClient(srv.Client()),
		WithStallTimeout(50*time.Millisecond), WithRetryWait(time.Millisecond, time.Millisecond), WithMaxRetries(50))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Headlines(t.Context()); err != nil {
		t.Fatalf("Headlines after one stalled attempt: %v", err)
	}
	if n := calls.Load(); n < 2 {
		t.Errorf("server saw %d requests, want at least 2 (one stalled, then retries until one is answered)", n)
	}
}

func TestWithStallTimeoutValidation(t *testing.T) {
	t.Parallel()
	_, err := NewClient(WithAPIKey(sdkKey), WithoutEnvironment(), WithStallTimeout(-time.Second))
	want := "newssearch: invalid WithStallTimeout: -1s is negative: pass a duration such as 30*time.Second, or 0 to turn it off"
	if err == nil || err.Error() != want {
		t.Errorf("NewClient(WithStallTimeout(-1s)) error = %v, want %q", err, want)
	}
}

// TestStallAndAttemptTimeoutsBothApply: the stall timeout (silence) and
// the attempt timeout (the whole attempt) both bound an attempt, whichever
// runs out first, each with its own message; a call may set either. The
// stall timeout keeps working when WithAttemptTimeout is set.
func TestStallAndAttemptTimeoutsBothApply(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		const silence = 5 * time.Second // before the answer's headers
		slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
				return
			case <-time.After(silence):
			}
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, searchOK)
		})
		c := newTestClient(t, "http://fake.invalid", &http.Client{Transport: handlerTransport{slow}}, WithStallTimeout(time.Second))
		params := SearchParams{Query: "q"}
		tests := []struct {
			name    string
			opts    []CallOption
			took    time.Duration
			wantErr string // suffix; "" for success
		}{
			{"the client's stall timeout", nil, time.Second,
				`no response headers for 1s (the client's stall timeout): the service or a proxy on the way stopped answering; raise it with newssearch.WithStallTimeout`},
			{"a longer attempt timeout keeps the stall timeout", []CallOption{WithAttemptTimeout(10 * time.Second)}, time.Second,
				`no response headers for 1s (the client's stall timeout): the service or a proxy on the way stopped answering; raise it with newssearch.WithStallTimeout`},
			{"longer stall and attempt timeouts", []CallOption{WithAttemptTimeout(10 * time.Second), WithStallTimeout(6 * time.Second)}, silence, ""},
			{"a shorter attempt timeout", []CallOption{WithStallTimeout(10 * time.Second), WithAttemptTimeout(3 * time.Second)}, 3 * time.Second,
				`the attempt outlasted 3s (WithAttemptTimeout): raise it, or leave it out to keep the client's limits`},
			{"an attempt timeout below the stall timeout", []CallOption{WithAttemptTimeout(500 * time.Millisecond)}, 500 * time.Millisecond,
				`the attempt outlasted 500ms (WithAttemptTimeout): raise it, or leave it out to keep the client's limits`},
			{"no stall timeout", []CallOption{WithStallTimeout(0)}, silence, ""},
		}
		for _, tt := range tests {
			start := time.Now()
			_, err := c.Search(t.Context(), params, tt.opts...)
			if took := time.Since(start); took != tt.took {
				t.Errorf("%s: the call took %v, want %v", tt.name, took, tt.took)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("%s: %v", tt.name, err)
			case tt.wantErr != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.wantErr) || !errors.Is(err, ErrAttemptTimeout)):
				t.Errorf("%s: error = %v, want ErrAttemptTimeout ending in %q", tt.name, err, tt.wantErr)
			}
		}
	})
}

// TestClientAttemptTimeout: WithAttemptTimeout given to NewClient bounds
// every call's attempts, with or without WithHTTPClient.
func TestClientAttemptTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		})
		c := newTestClient(t, "http://fake.invalid", &http.Client{Transport: handlerTransport{slow}},
			WithStallTimeout(time.Minute), WithAttemptTimeout(2*time.Second), WithMaxRetries(0))
		start := time.Now()
		_, err := c.Search(t.Context(), SearchParams{Query: "q"})
		want := `the attempt outlasted 2s (WithAttemptTimeout): raise it, or leave it out to keep the client's limits`
		if took := time.Since(start); took != 2*time.Second || err == nil || !strings.HasSuffix(err.Error(), want) || !errors.Is(err, ErrAttemptTimeout) {
			t.Errorf("Search took %v, error %v; want 2s and ErrAttemptTimeout ending in %q", took, err, want)
		}
	})
}

// TestAttemptTimeoutOverridesDefaultAttemptTimeout: without WithHTTPClient a
// Client bounds each attempt by DefaultAttemptTimeout, and WithAttemptTimeout
// (the call's or the Client's) replaces that limit, longer or shorter.
func TestAttemptTimeoutOverridesDefaultAttemptTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		const silence = 3 * time.Minute // longer than DefaultAttemptTimeout
		slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
				return
			case <-time.After(silence):
			}
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, searchOK)
		})
		// The default HTTP client, its network replaced by a middleware.
		c, err := NewClient(WithAPIKey(testKey), WithBaseURL("http://fake.invalid"+basePath), WithoutEnvironment(),
			WithMaxRetries(0), WithStallTimeout(0),
			WithMiddleware(func(http.RoundTripper) http.RoundTripper { return handlerTransport{slow} }))
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name    string
			opts    []CallOption
			took    time.Duration
			wantErr string // suffix; "" for success
		}{
			{"the default limit", nil, DefaultAttemptTimeout,
				`the attempt outlasted 2m0s (DefaultAttemptTimeout, the limit of a Client made without WithHTTPClient): pass WithAttemptTimeout to allow the call longer attempts`},
			{"a longer attempt timeout", []CallOption{WithAttemptTimeout(5 * time.Minute)}, silence, ""},
			{"a shorter attempt timeout", []CallOption{WithAttemptTimeout(time.Minute)}, time.Minute,
				`the attempt outlasted 1m0s (WithAttemptTimeout): raise it, or leave it out to keep the client's limits`},
		}
		for _, tt := range tests {
			start := time.Now()
			_, err := c.Search(t.Context(), SearchParams{Query: "q"}, tt.opts...)
			if took := time.Since(start); took != tt.took {
				t.Errorf("%s: the call took %v, want %v", tt.name, took, tt.took)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("%s: %v", tt.name, err)
			case tt.wantErr != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.wantErr) ||
				!errors.Is(err, ErrAttemptTimeout) || errors.Is(err, context.DeadlineExceeded)):
				t.Errorf("%s: error = %v, want ErrAttemptTimeout (only) ending in %q", tt.name, err, tt.wantErr)
			}
		}
	})
}

// trickleTransport answers at once with headers, then sends body in chunks
// of chunk bytes, each after wait (wait(i) for chunk i), as a slow service
// streams a body.
type trickleTransport struct {
	body  string
	chunk int
	wait  func(i int) time.Duration
}

func (t trickleTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	io.Copy(io.Discard, r.Body)
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: &trickleBody{ctx: r.Context(), t: t, rest: t.body}, Request: r}, nil
}

type trickleBody struct {
	ctx  context.Context
	t    trickleTransport
	rest string
	i    int
}

func (b *trickleBody) Read(p []byte) (int, error) {
	if b.rest == "" {
		return 0, io.EOF
	}
	select {
	case <-b.ctx.Done():
		return 0, b.ctx.Err()
	case <-time.After(b.t.wait(b.i)):
	}
	b.i++
	n := copy(p, b.rest[:min(b.t.chunk, len(b.rest))])
	b.rest = b.rest[n:]
	return n, nil
}

func (b *trickleBody) Close() error { return nil }

// TestTimeoutsWatchTheBody: the stall timeout restarts with every read that
// brings data, so a body that keeps arriving is never cut by it, while a
// body that goes silent is; the attempt timeout bounds the body too.
func TestTimeoutsWatchTheBody(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		every := func(d time.Duration) func(int) time.Duration { return func(int) time.Duration { return d } }
		gap := func(i int) time.Duration {
			if i == 2 {
				return 3 * time.Second
			}
			return 500 * time.Millisecond
		}
		const chunks = 9 // searchOK in chunks of 7 bytes
		for _, tc := range []struct {
			name    string
			wait    func(int) time.Duration
			opts    []CallOption
			took    time.Duration
			wantErr string
		}{
			{"a body that keeps arriving", every(500 * time.Millisecond), nil, chunks * 500 * time.Millisecond, ""},
			{"the attempt timeout bounds the body", every(500 * time.Millisecond), []CallOption{WithAttemptTimeout(2 * time.Second)}, 2 * time.Second,
				`the attempt outlasted 2s (WithAttemptTimeout): raise it, or leave it out to keep the client's limits`},
			{"a body that goes silent", gap, []CallOption{WithAttemptTimeout(time.Minute)}, time.Second + 2*500*time.Millisecond,
				`no response body for 1s (the client's stall timeout): the service or a proxy on the way stopped answering; raise it with newssearch.WithStallTimeout`},
		} {
			c := newTestClient(t, "http://fake.invalid", &http.Client{Transport: trickleTransport{body: searchOK, chunk: 7, wait: tc.wait}},
				WithStallTimeout(time.Second))
			start := time.Now()
			_, err := c.Search(t.Context(), SearchParams{Query: "q"}, tc.opts...)
			if took := time.Since(start); took != tc.took {
				t.Errorf("%s: the call took %v, want %v", tc.name, took, tc.took)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("%s: %v", tc.name, err)
			case tc.wantErr != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.wantErr) || !errors.Is(err, ErrAttemptTimeout)):
				t.Errorf("%s: error = %v, want ErrAttemptTimeout ending in %q", tc.name, err, tc.wantErr)
			}
		}
	})
}
