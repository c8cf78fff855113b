package newssearch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
)

// Hostile peers: a server that sends too much, lies about lengths, asks
// for absurd waits or redirects elsewhere must not hang, exhaust or expose
// the caller. Every call here runs under relSafety, a generous deadline
// that only stops a hang from blocking the test run; the assertions are
// on the error the call returns, never on elapsed time.

// relKey is the API key of the hostile-peer tests.
const relKey = "CANARY-hostile-5d1e07c4"

// relSafety bounds every call of these tests: a safety net, not an
// assertion.
const relSafety = 2 * time.Minute

// relServer starts an httptest server with h and returns it with a
// counter of the requests it received.
func relServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// relClient returns a client for base with tiny retry waits; opts win.
func relClient(t *testing.T, base string, opts ...newssearch.Option) *newssearch.Client {
	t.Helper()
	all := append([]newssearch.Option{
		newssearch.WithoutEnvironment(),
		newssearch.WithAPIKey(relKey),
		newssearch.WithBaseURL(base),
		newssearch.WithRetryWait(time.Millisecond, 5*time.Millisecond),
	}, opts...)
	c, err := newssearch.NewClient(all...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// relCtx returns the safety-net context of one test.
func relCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), relSafety)
	t.Cleanup(cancel)
	return ctx
}

// endless writes chunk until the client goes away, counting the bytes
// written into sent.
func endless(w http.ResponseWriter, prefix string, chunk []byte, sent *atomic.Int64) {
	n, err := io.WriteString(w, prefix)
	sent.Add(int64(n))
	for err == nil {
		n, err = w.Write(chunk)
		sent.Add(int64(n))
	}
}

// TestHostileEndlessSuccessBody: a 200 whose body never ends is cut after
// 32 MiB with a clear error, is not retried, and the server cannot push
// much more than that before the client hangs up.
func TestHostileEndlessSuccessBody(t *testing.T) {
	t.Parallel()
	var sent atomic.Int64
	chunk := []byte(strings.Repeat(" ", 64<<10))
	srv, calls := relServer(t, func(w http.ResponseWriter, _ *http.Request) {
		endless(w, `{"results":{"totalResults":1,"articles":[`, chunk, &sent)
	})
	_, err := relClient(t, srv.URL, newssearch.WithMaxRetries(3)).Search(relCtx(t), newssearch.SearchParams{Query: "q"})
	if err == nil || !strings.Contains(err.Error(), "response body exceeds 32 MiB") {
		t.Fatalf("error = %v, want the 32 MiB cap", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the safety deadline ended the call: %v", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d attempts, want 1: an oversized body is not retried", n)
	}
	// 32 MiB read, plus what the loopback socket buffers hold.
	if got, bound := sent.Load(), int64(48<<20); got > bound {
		t.Errorf("the server pushed %d bytes before the client hung up, want at most %d", got, bound)
	}
}

// TestHostileEndlessErrorBodies: error bodies that never end are cut at
// 64 KiB on every status, retried or not, and the call returns an
// *APIError with the start of the body.
func TestHostileEndlessErrorBodies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status   int
		attempts int64
	}{
		{http.StatusBadRequest, 1},
		{http.StatusUnauthorized, 1},
		{http.StatusTooManyRequests, 3},
		{http.StatusInternalServerError, 3},
		{http.StatusServiceUnavailable, 3},
	} {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			t.Parallel()
			var sent atomic.Int64
			chunk := []byte(strings.Repeat("x", 16<<10))
			srv, calls := relServer(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(tc.status)
				endless(w, `{"state":"FAILED","message":"`, chunk, &sent)
			})
			_, err := relClient(t, srv.URL, newssearch.WithMaxRetries(2)).Headlines(relCtx(t))
			var apiErr *newssearch.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error = %v (%T), want an *APIError", err, err)
			}
			if apiErr.StatusCode != tc.status || len(apiErr.Body) != 64<<10 {
				t.Errorf("APIError status %d with a %d-byte body, want %d with 65536 bytes", apiErr.StatusCode, len(apiErr.Body), tc.status)
			}
			if n := len(err.Error()); n > 1<<10 {
				t.Errorf("the error string is %d bytes long, want at most 1 KiB", n)
			}
			if n := calls.Load(); n != tc.attempts {
				t.Errorf("%d attempts, want %d", n, tc.attempts)
			}
		})
	}
}

// TestHostileLyingContentLength: a response announcing a terabyte and
// sending ten bytes costs no terabyte buffer; the read-only call is
// retried and fails with the broken body, the job-creating one is not
// retried.
func TestHostileLyingContentLength(t *testing.T) {
	t.Parallel()
	srv, calls := relServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "1099511627776")
		_, _ = io.WriteString(w, `{"results"`)
	})
	c := relClient(t, srv.URL, newssearch.WithMaxRetries(2))
	_, err := c.Search(relCtx(t), newssearch.SearchParams{Query: "q"})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Search error = %v, want io.ErrUnexpectedEOF", err)
	}
	if n := calls.Swap(0); n != 3 {
		t.Errorf("Search made %d attempts, want 3 (read-only calls retry a broken body)", n)
	}
	_, err = c.SubmitQuery(relCtx(t), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "q"}})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("SubmitQuery error = %v, want io.ErrUnexpectedEOF", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("SubmitQuery made %d attempts, want 1 (the job may exist)", n)
	}
}

// TestHostileRetryAfter: however large or strange the Retry-After, the
// wait is capped at the client's maximum, so the retries run out and the
// call returns the last answer, with the wait it asked for reported.
func TestHostileRetryAfter(t *testing.T) {
	t.Parallel()
	const saturated = time.Duration(1<<63 - 1)
	for _, tc := range []struct {
		header string
		status int
		want   time.Duration // APIError.RetryAfter
	}{
		{"99999999999999999999999999", http.StatusTooManyRequests, saturated},
		{"9223372036854775807", http.StatusTooManyRequests, saturated},
		{"315360000", http.StatusServiceUnavailable, 315360000 * time.Second},
		{"Fri, 31 Dec 9999 23:59:59 GMT", http.StatusTooManyRequests, saturated},
		{"-5", http.StatusTooManyRequests, 0},
		{"1e9", http.StatusServiceUnavailable, 0},
		{strings.Repeat("9", 4<<10), http.StatusTooManyRequests, saturated},
	} {
		t.Run(tc.header[:min(len(tc.header), 32)], func(t *testing.T) {
			t.Parallel()
			srv, calls := relServer(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Retry-After", tc.header)
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, `{"state":"FAILED","message":"slow down"}`)
			})
			var c *newssearch.Client
			for name, call := range map[string]func(context.Context) error{
				"Search": func(ctx context.Context) error {
					_, err := c.Search(ctx, newssearch.SearchParams{Query: "q"})
					return err
				},
				"SubmitQuery": func(ctx context.Context) error {
					_, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "q"}})
					return err
				},
			} {
				calls.Store(0)
				c = relClient(t, srv.URL, newssearch.WithMaxRetries(3)) // not paused by the other call
				err := call(relCtx(t))
				var apiErr *newssearch.APIError
				if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status {
					t.Fatalf("%s: error = %v, want an *APIError with status %d", name, err, tc.status)
				}
				if apiErr.RetryAfter != tc.want {
					t.Errorf("%s: APIError.RetryAfter = %v, want %v", name, apiErr.RetryAfter, tc.want)
				}
				want := int64(4)
				if tc.want > 0 || name == "SubmitQuery" && tc.status == http.StatusServiceUnavailable {
					// A Retry-After beyond the call's wait ends it at once, and a
					// 503 may follow a forwarded request: never resubmitted.
					want = 1
				}
				if n := calls.Load(); n != want {
					t.Errorf("%s: %d attempts, want %d", name, n, want)
				}
			}
		})
	}
}

// TestHostileHugeHeaders: response headers beyond the transport's limit
// fail the call instead of being buffered without end.
func TestHostileHugeHeaders(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("h", 1<<20)
	srv, _ := relServer(t, func(w http.ResponseWriter, _ *http.Request) {
		for i := range 11 {
			w.Header().Set("X-Junk-"+string(rune('a'+i)), big)
		}
		_, _ = io.WriteString(w, `{"headlines":[],"state":"SUCCESS"}`)
	})
	_, err := relClient(t, srv.URL, newssearch.WithMaxRetries(1)).Headlines(relCtx(t))
	if err == nil || !strings.Contains(err.Error(), "headers exceeded") {
		t.Fatalf("error = %v, want the transport's header limit", err)
	}
}

// TestHostileDeepJSON: a body nested beyond encoding/json's depth limit
// is a malformed-response error, not a stack overflow.
func TestHostileDeepJSON(t *testing.T) {
	t.Parallel()
	body := `{"results":{"totalResults":1,"articles":` + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + `}}`
	srv, _ := relServer(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, body) })
	_, err := relClient(t, srv.URL).Search(relCtx(t), newssearch.SearchParams{Query: "q"})
	var apiErr *newssearch.APIError
	if !errors.As(err, &apiErr) || !strings.Contains(err.Error(), "malformed response") {
		t.Fatalf("error = %v, want a malformed-response *APIError", err)
	}
}

// TestHostileTrickleHonoursContext: a body sent a byte at a time for
// ever is bounded by the caller's context (here the assertion: the call
// ends with the context's error, not with the safety net's).
func TestHostileTrickleHonoursContext(t *testing.T) {
	t.Parallel()
	srv, _ := relServer(t, func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, " "); err != nil {
				return
			}
			_ = rc.Flush()
			time.Sleep(5 * time.Millisecond)
		}
	})
	ctx, cancel := context.WithTimeout(relCtx(t), 200*time.Millisecond)
	defer cancel()
	_, err := relClient(t, srv.URL).Search(ctx, newssearch.SearchParams{Query: "q"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want context.DeadlineExceeded", err)
	}
}

// TestHostileRequestIDBounded: an absurd X-Request-Id does not make an
// error string of a mebibyte.
func TestHostileRequestIDBounded(t *testing.T) {
	t.Parallel()
	srv, _ := relServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Request-Id", strings.Repeat("r", 1<<20))
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"state":"FAILED","message":"bad"}`)
	})
	_, err := relClient(t, srv.URL).Headlines(relCtx(t))
	if err == nil {
		t.Fatal("no error for a 400")
	}
	if n := len(err.Error()); n > 1<<10 {
		t.Errorf("the error string is %d bytes long, want at most 1 KiB", n)
	}
}

// TestHostileRedirectKeepsKey: a 307 or 308 redirect to another host must
// not carry the API key (it travels in the body, which a POST redirect
// resends) to that host.
func TestHostileRedirectKeepsKey(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		var leaked atomic.Bool
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			leaked.Store(strings.Contains(string(b), relKey))
			_, _ = io.WriteString(w, `{"headlines":[],"state":"SUCCESS"}`)
		}))
		t.Cleanup(other.Close)
		target := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) // another host
		srv, _ := relServer(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target+r.URL.Path, status)
		})
		c, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithAPIKey(relKey), newssearch.WithBaseURL(srv.URL))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.Headlines(relCtx(t))
		if leaked.Load() {
			t.Errorf("after a %d redirect the other host received the API key", status)
		}
	}
}

// errorChain returns err and every error it wraps, depth first.
func errorChain(err error) []error {
	if err == nil {
		return nil
	}
	out := []error{err}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		out = append(out, errorChain(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, errorChain(e)...)
		}
	}
	return out
}

// TestHostileEchoedKeyScrubbedInChain: a service that echoes the API key
// inside a malformed answer must not get it into any error of the chain
// the caller can reach (err.Error(), the %+v and %#v forms, and every
// wrapped error's Error()). The decoding cause names the JSON type it
// found, never the value.
func TestHostileEchoedKeyScrubbedInChain(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ body, cause string }{
		{`{"totalResults":"` + relKey + `","articles":[],"state":"SUCCESS"}`, `"totalResults" is not an integer: got a string not holding an integer`},
		{`{"results":"` + relKey + `","state":"SUCCESS"}`, `"results" is not an object: got a string`},
		{`{"articles":["` + relKey + `"],"state":"SUCCESS"}`, `article 0 is not an object: got a string`},
		{`{"page":"` + relKey + `","state":"SUCCESS"}`, `"page" is not an integer: got a string not holding an integer`},
		{`{"state":["` + relKey + `"]}`, `"state" is not a string: got an array`},
		{`{"query_id":{"k":"` + relKey + `"},"state":"SUCCESS"}`, `"query_id" is not a string: got an object`},
		{`{"r\u0065sults":{"totalArticles":["` + relKey + `"]}}`, `"totalArticles" is not an integer: got an array`},
	} {
		srv, _ := relServer(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, tt.body) })
		c := relClient(t, srv.URL)
		_, errSearch := c.Search(relCtx(t), newssearch.SearchParams{Query: "q"})
		_, errResults := c.GetResults(relCtx(t), "job", 1)
		for _, err := range []error{errSearch, errResults} {
			if err == nil {
				t.Errorf("body %s: no error", tt.body)
				continue
			}
			var apiErr *newssearch.APIError
			if !errors.As(err, &apiErr) {
				t.Errorf("body %s: error %v is not an *APIError", tt.body, err)
				continue
			}
			want := tt.cause + ": the service's answer does not have the documented shape; report it with the request id"
			if diff := cmp.Diff(want, apiErr.Message); diff != "" {
				t.Errorf("body %s: APIError.Message mismatch (-want +got):\n%s", tt.body, diff)
			}
			if cause := errors.Unwrap(apiErr); cause == nil {
				t.Errorf("body %s: APIError wraps no cause", tt.body)
			} else if diff := cmp.Diff(tt.cause, cause.Error()); diff != "" {
				t.Errorf("body %s: cause mismatch (-want +got):\n%s", tt.body, diff)
			}
			printed := []string{fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)}
			for _, e := range errorChain(err) {
				printed = append(printed, e.Error())
			}
			for _, p := range printed {
				if strings.Contains(p, relKey) {
					t.Errorf("body %s: the key appears in %q", tt.body, p)
				}
			}
		}
	}
}
