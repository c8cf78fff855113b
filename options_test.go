package newssearch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const searchOK = `{"results":{"totalResults":0,"articles":[]},"state":"SUCCESS"}`

func TestWithHeaderIsSent(t *testing.T) {
	t.Parallel()
	var got http.Header
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		io.WriteString(w, searchOK)
	}))
	c := clientFor(t, srv)
	_, err := c.Search(t.Context(), SearchParams{Query: "q"},
		WithHeader("x-mock-fault", "latency=5ms"), WithHeader("X-Trace", "a"), WithHeader("X-Trace", "b"), WithHeader("User-Agent", "mine/1"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{"X-Mock-Fault": {"latency=5ms"}, "X-Trace": {"a", "b"}, "User-Agent": {"mine/1"}, "Content-Type": {"application/json"}} {
		if diff := cmp.Diff(want, got[name]); diff != "" {
			t.Errorf("header %s (-want +got):\n%s", name, diff)
		}
	}
	// Another call without the option sends none of it.
	if _, err := c.Search(t.Context(), SearchParams{Query: "q"}); err != nil {
		t.Fatal(err)
	}
	if v := got.Get("X-Mock-Fault"); v != "" {
		t.Errorf("X-Mock-Fault leaked into the next call: %q", v)
	}
}

func TestCallOptionValidation(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requests.Add(1) }))
	c := clientFor(t, srv)
	for _, tc := range []struct {
		opt  CallOption
		want string
	}{
		{WithHeader("Bad Name", "v"), `newssearch: invalid WithHeader: header name "Bad Name" is not a valid HTTP header name: use letters, digits and hyphens, e.g. "X-Trace-Id"`},
		{WithHeader("", "v"), `newssearch: invalid WithHeader: header name "" is not a valid HTTP header name: use letters, digits and hyphens, e.g. "X-Trace-Id"`},
		{WithHeader("X-Key", sdkKey+"\r\nInjected: 1"), `newssearch: invalid WithHeader: the value of header X-Key holds a line break or NUL byte: pass a value on one line`},
		{WithHeader("host", "example.com"), `newssearch: invalid WithHeader: header Host is managed by net/http and cannot be set: leave it out`},
		{WithMaxRetries(-1), `newssearch: invalid WithMaxRetries: -1 is negative: pass 0 to disable retries`},
		{WithStallTimeout(-1), `newssearch: invalid WithStallTimeout: -1ns is negative: pass a duration such as 30*time.Second, or 0 to turn it off`},
		{WithAttemptTimeout(0), `newssearch: invalid WithAttemptTimeout: 0s is not a timeout: pass a positive duration such as 10*time.Second`},
	} {
		calls := map[string]error{}
		_, calls["Search"] = c.Search(t.Context(), SearchParams{Query: "q"}, tc.opt)
		_, calls["SubmitQuery"] = c.SubmitQuery(t.Context(), asyncQuery, tc.opt)
		_, calls["GetResults"] = c.GetResults(t.Context(), "q1", 1, tc.opt)
		_, calls["Headlines"] = c.Headlines(t.Context(), tc.opt)
		_, calls["Poll"] = c.Poll(t.Context(), "q1", nil, tc.opt)
		_, calls["SearchAll"] = collect(c.SearchAll(t.Context(), SearchParams{Query: "q"}, nil, tc.opt))
		_, calls["Results"] = collect(c.Results(t.Context(), "q1", nil, tc.opt))
		_, calls["SearchRange"] = c.SearchRange(t.Context(), rangeParams(""), nil, tc.opt)
		_, calls["SearchRangeSeq"] = drain(c.SearchRangeSeq(t.Context(), rangeParams(""), nil, tc.opt))
		for method, err := range calls {
			if err == nil || err.Error() != tc.want || !errors.Is(err, ErrBadRequest) {
				t.Errorf("%s: error = %v, want %q", method, err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), sdkKey) {
				t.Errorf("%s: error shows the header value: %v", method, err)
			}
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

func TestWithMaxRetriesPerCall(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}))
	c := clientFor(t, srv, WithMaxRetries(3))
	if _, err := c.Search(t.Context(), SearchParams{Query: "q"}, WithMaxRetries(0)); !errors.Is(err, ErrServer) {
		t.Fatalf("error = %v, want ErrServer", err)
	}
	if n := requests.Swap(0); n != 1 {
		t.Errorf("WithMaxRetries(0) for the call: %d attempts, want 1", n)
	}
	if _, err := c.Search(t.Context(), SearchParams{Query: "q"}, WithMaxRetries(1)); !errors.Is(err, ErrServer) {
		t.Fatalf("error = %v, want ErrServer", err)
	}
	if n := requests.Swap(0); n != 2 {
		t.Errorf("WithMaxRetries(1) for the call: %d attempts, want 2", n)
	}
	c.Search(t.Context(), SearchParams{Query: "q"})
	if n := requests.Swap(0); n != 4 {
		t.Errorf("no call option: %d attempts, want the client's 1+3", n)
	}
}

func TestWithAttemptTimeoutRetries(t *testing.T) {
	t.Parallel()
	var attempts atomic.Int32
	release := make(chan struct{})
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so that the server notices the client leaving
		if attempts.Add(1) == 1 {
			select { // hold the first attempt until the client gives up
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.Header().Set("X-Request-Id", "req-2")
		io.WriteString(w, searchOK)
	}))
	t.Cleanup(func() { close(release) }) // runs before the server closes
	c := clientFor(t, srv)
	var resp Response
	_, err := c.Search(t.Context(), SearchParams{Query: "q"}, WithAttemptTimeout(time.Second), WithResponseInto(&resp))
	if err != nil {
		t.Fatal(err)
	}
	// On a loaded machine even a prompt answer may outlast the timeout, so
	// only the first attempt is known to be cut.
	if n := int(attempts.Load()); resp.Attempts < 2 || resp.Attempts != n || resp.StatusCode != 200 || resp.RequestID != "req-2" {
		t.Errorf("Response = %+v after %d requests, want at least 2 attempts, all counted, 200, req-2", resp, n)
	}
	// With no retry left the error says which timeout ran out.
	attempts.Store(0)
	_, err = c.Search(t.Context(), SearchParams{Query: "q"}, WithAttemptTimeout(20*time.Millisecond), WithMaxRetries(0))
	want := `/prefix/api/v2/query": the attempt outlasted 20ms (WithAttemptTimeout): raise it, or leave it out to keep the client's limits`
	if err == nil || !errors.Is(err, ErrAttemptTimeout) || errors.Is(err, context.DeadlineExceeded) || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error = %v, want %q, matching ErrAttemptTimeout only", err, want)
	}
}

func TestWithResponseInto(t *testing.T) {
	t.Parallel()
	c, _ := serveScript(t, []scripted{
		{path: pathQuery, status: http.StatusServiceUnavailable, response: `{"state":"FAILED"}`},
		{path: pathQuery, header: http.Header{"X-Request-Id": {"req-" + sdkKey}, "X-Echo": {"k=" + sdkKey}}, response: searchOK},
	})
	var resp Response
	if _, err := c.Search(t.Context(), SearchParams{Query: "q"}, WithResponseInto(&resp)); err != nil {
		t.Fatal(err)
	}
	want := Response{StatusCode: 200, RequestID: "req-[REDACTED]", Attempts: 2, Header: http.Header{
		"Content-Type": {"application/json"}, "X-Request-Id": {"req-[REDACTED]"}, "X-Echo": {"k=[REDACTED]"},
	}}
	resp.Header.Del("Date")
	resp.Header.Del("Content-Length")
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("Response (-want +got):\n%s", diff)
	}
	if s := fmt.Sprintf("%+v %#v", resp, resp); strings.Contains(s, sdkKey) {
		t.Errorf("printed Response shows the key: %s", s)
	}
	// A failed call leaves it unchanged.
	before := resp
	c2, _ := serveScript(t, []scripted{{path: pathQuery, status: 401, response: `{"message":"no"}`}})
	if _, err := c2.Search(t.Context(), SearchParams{Query: "q"}, WithResponseInto(&resp)); err == nil {
		t.Fatal("no error")
	}
	if diff := cmp.Diff(before, resp); diff != "" {
		t.Errorf("failed call changed the Response (-before +after):\n%s", diff)
	}
}

// TestWithResponseIntoForEveryCall: given to NewClient, WithResponseInto
// records every call's exchange; a call's own replaces it for that call.
func TestWithResponseIntoForEveryCall(t *testing.T) {
	t.Parallel()
	var all, one Response
	c, _ := serveScript(t, []scripted{
		{path: pathQuery, header: http.Header{"X-Request-Id": {"first"}}, response: searchOK},
		{path: pathQuery, header: http.Header{"X-Request-Id": {"second"}}, response: searchOK},
		{path: pathQuery, header: http.Header{"X-Request-Id": {"third"}}, response: searchOK},
	}, WithResponseInto(&all))
	for i, want := range []string{"first", "second"} {
		if _, err := c.Search(t.Context(), SearchParams{Query: "q"}); err != nil {
			t.Fatal(err)
		}
		if all.RequestID != want || all.StatusCode != 200 {
			t.Errorf("call %d: the Client's Response = %+v, want request id %q", i+1, all, want)
		}
	}
	if _, err := c.Search(t.Context(), SearchParams{Query: "q"}, WithResponseInto(&one)); err != nil {
		t.Fatal(err)
	}
	if one.RequestID != "third" || all.RequestID != "second" {
		t.Errorf("a call with its own WithResponseInto: its Response %q, the Client's %q; want third, second", one.RequestID, all.RequestID)
	}
}

func TestWithResponseIntoMultiRequest(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	f.pendingPolls = 1
	c := serve(t, f)
	var resp Response
	got, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll, WithResponseInto(&resp), WithHeader("X-Run", "7"))
	if err != nil || len(got) == 0 {
		t.Fatalf("SearchRange = %d articles, %v", len(got), err)
	}
	if resp.StatusCode != 200 || resp.Attempts != 1 {
		t.Errorf("Response = %+v, want the last exchange's 200 after 1 attempt", resp)
	}
}

func TestMiddleware(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var trace []string
	mw := func(name string) func(http.RoundTripper) http.RoundTripper {
		return func(next http.RoundTripper) http.RoundTripper {
			return roundTripFunc(func(r *http.Request) (*http.Response, error) {
				mu.Lock()
				trace = append(trace, name+" "+r.URL.Path+" "+r.Header.Get("X-Call"))
				mu.Unlock()
				resp, err := next.RoundTrip(r)
				if err == nil {
					mu.Lock()
					trace = append(trace, name+" got "+resp.Status)
					mu.Unlock()
				}
				return resp, err
			})
		}
	}
	c, _ := serveScript(t, []scripted{
		{path: pathHeadlines, status: 503, response: `{}`},
		{path: pathHeadlines, response: `{"headlines":[],"state":"SUCCESS"}`},
	}, WithMiddleware(mw("outer")), WithMiddleware(mw("inner")))
	if _, err := c.Headlines(t.Context(), WithHeader("X-Call", "h1")); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"outer /prefix/api/v2/headlines h1", "inner /prefix/api/v2/headlines h1", "inner got 503 Service Unavailable", "outer got 503 Service Unavailable",
		"outer /prefix/api/v2/headlines h1", "inner /prefix/api/v2/headlines h1", "inner got 200 OK", "outer got 200 OK",
	}
	if diff := cmp.Diff(want, trace); diff != "" {
		t.Errorf("middleware trace (-want +got):\n%s", diff)
	}
}

func TestClientOptionValidationQuotas(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opt  Option
		want string
	}{
		{WithRateLimit(-1, 1), "newssearch: invalid WithRateLimit: (-1, 1): pass a rate of requests per second >= 0 (0 turns pacing off) and, with a positive rate, a burst >= 1"},
		{WithRateLimit(5, 0), "newssearch: invalid WithRateLimit: (5, 0): pass a rate of requests per second >= 0 (0 turns pacing off) and, with a positive rate, a burst >= 1"},
		{WithMiddleware(nil), "newssearch: invalid WithMiddleware: middleware 1 is nil: pass a function that wraps the next http.RoundTripper"},
		{WithMiddleware(func(http.RoundTripper) http.RoundTripper { return nil }), "newssearch: invalid WithMiddleware: middleware 1 of 1 returned a nil http.RoundTripper: return the next transport, wrapped"},
	} {
		_, err := NewClient(WithAPIKey(sdkKey), WithoutEnvironment(), tc.opt)
		if err == nil || err.Error() != tc.want {
			t.Errorf("NewClient error = %v, want %q", err, tc.want)
		}
	}
	if _, err := NewClient(WithAPIKey(sdkKey), WithoutEnvironment(), WithRateLimit(0, 0)); err != nil {
		t.Errorf("WithRateLimit(0, 0) (off): %v", err)
	}
}

func TestLimiterPacesInOrder(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLimiter(func() time.Time { return now }, 5, 5)
	var waits []time.Duration
	for range 8 {
		waits = append(waits, l.reserve())
	}
	ms := time.Millisecond
	if diff := cmp.Diff([]time.Duration{0, 0, 0, 0, 0, 200 * ms, 400 * ms, 600 * ms}, waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	// A second later the debt is paid and two tokens are back.
	now = now.Add(time.Second)
	waits = waits[:0]
	for range 3 {
		waits = append(waits, l.reserve())
	}
	if diff := cmp.Diff([]time.Duration{0, 0, 200 * ms}, waits); diff != "" {
		t.Errorf("waits after 1s (-want +got):\n%s", diff)
	}
	// A pause holds everything, tokens or not.
	now = now.Add(10 * time.Second)
	l.pauseFor(3 * time.Second)
	l.pauseFor(time.Second) // a shorter pause does not cut it
	if d := l.reserve(); d != 3*time.Second {
		t.Errorf("wait during a pause = %v, want 3s", d)
	}
	// Without a rate only pauses apply.
	off := newLimiter(func() time.Time { return now }, 0, 0)
	for range 100 {
		if d := off.reserve(); d != 0 {
			t.Fatalf("unpaced wait = %v", d)
		}
	}
}

// TestRetryAfterPausesWholeClient: once one goroutine gets a 429 with
// Retry-After: 1, no request of the client reaches the service for a
// second. (A lower bound only: a slow machine makes the gap longer.)
func TestRetryAfterPausesWholeClient(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var arrivals []time.Time
	var throttledAt time.Time
	first := make(chan struct{})
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n := len(arrivals)
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		if n == 0 {
			mu.Lock()
			throttledAt = time.Now()
			mu.Unlock()
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, searchOK)
	}))
	c := clientFor(t, srv, WithRetryWait(time.Millisecond, 5*time.Second))
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := c.Search(context.Background(), SearchParams{Query: "a"}); err != nil {
			t.Error(err)
		}
	})
	// Start the others once the client has taken the 429's Retry-After: the
	// pause begins after the answer has passed the middleware, so a signal
	// from there could let them start before it.
	go func() {
		defer close(first)
		for {
			c.cfg.lim.mu.Lock()
			paused := c.cfg.lim.pause.After(time.Now())
			c.cfg.lim.mu.Unlock()
			if paused {
				return
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	<-first
	for range 3 {
		wg.Go(func() {
			if _, err := c.Search(context.Background(), SearchParams{Query: "b"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(arrivals) != 5 {
		t.Fatalf("%d requests, want 5", len(arrivals))
	}
	for i, at := range arrivals[1:] {
		if gap := at.Sub(throttledAt); gap < 990*time.Millisecond {
			t.Errorf("request %d arrived %v after the 429, during the client's pause", i+2, gap)
		}
	}
}

func TestSecretNeverInNewSurfaces(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	var seen []string
	spy := func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			seen = append(seen, r.URL.String(), fmt.Sprint(r.Header))
			return next.RoundTrip(r)
		})
	}
	srv := echoServer(t, http.StatusOK)
	c, err := NewClient(WithAPIKey(sdkCanary), WithoutEnvironment(), WithBaseURL(srv), WithMaxRetries(0),
		WithLogger(newTestLogger(&logs)), WithMiddleware(spy), WithRateLimit(1000, 10))
	if err != nil {
		t.Fatal(err)
	}
	var resp Response
	_, err = c.GetResults(t.Context(), "q", 1, WithResponseInto(&resp), WithHeader("X-Trace", "t1"))
	printed := []string{fmt.Sprintf("%v %+v %#v", resp, resp, resp), logs.String(), strings.Join(seen, " ")}
	if err != nil {
		printed = append(printed, err.Error())
	}
	_, err = c.Search(t.Context(), SearchParams{Query: "q"}, WithHeader("X-Bad\n", sdkCanary))
	printed = append(printed, fmt.Sprint(err))
	_, err = c.Search(t.Context(), SearchParams{Query: "q"}, WithHeader("X-Bad", sdkCanary+"\n"))
	printed = append(printed, fmt.Sprint(err))
	for _, p := range printed {
		if strings.Contains(p, sdkCanary) {
			t.Errorf("the API key reached a printed value: %s", p)
		}
	}
	if len(resp.Header) == 0 || resp.RequestID == "" {
		t.Errorf("Response %+v is empty: the scrubbing was not exercised", resp)
	}
}

func TestLimiterSlowsAfter429(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLimiter(func() time.Time { return now }, 10, 1)
	if d := l.reserve(); d != 0 {
		t.Fatalf("first wait = %v", d)
	}
	// A 429 empties the bucket and cuts the rate to 9/s; then 8.1/s...
	l.throttled()
	if d := l.reserve(); d != time.Second/9 {
		t.Errorf("wait after one 429 = %v, want 1/9 s", d)
	}
	for range 20 {
		l.throttled()
	}
	if l.eff != 5 {
		t.Errorf("rate after 21 429s = %v, want the floor of 5", l.eff)
	}
	for range 2000 {
		l.succeeded()
	}
	if l.eff != 10 {
		t.Errorf("rate after 2000 successes = %v, want 10 again", l.eff)
	}
}

// TestOptionsAtBothLevels: an option given to NewClient is the default of
// every call, and the same option given to a call wins for that call only.
func TestOptionsAtBothLevels(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []http.Header
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		n := len(got)
		mu.Unlock()
		if n == 3 {
			w.WriteHeader(http.StatusBadGateway) // the call with its own logger retries once
			return
		}
		io.WriteString(w, searchOK)
	}))
	var clientLog, callLog bytes.Buffer
	c := clientFor(t, srv, WithHeader("User-Agent", "app/1"), WithHeader("X-Team", "news"), WithLogger(newTestLogger(&clientLog)))
	p := SearchParams{Query: "q"}
	if _, err := c.Search(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(t.Context(), p, WithHeader("User-Agent", "app/2"), WithHeader("X-Run", "7")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(t.Context(), p, WithLogger(newTestLogger(&callLog))); err != nil {
		t.Fatal(err)
	}
	want := []map[string][]string{
		{"User-Agent": {"app/1"}, "X-Team": {"news"}, "X-Run": nil},
		{"User-Agent": {"app/2"}, "X-Team": {"news"}, "X-Run": {"7"}},
		{"User-Agent": {"app/1"}, "X-Team": {"news"}, "X-Run": nil},
		{"User-Agent": {"app/1"}, "X-Team": {"news"}, "X-Run": nil},
	}
	if len(got) != len(want) {
		t.Fatalf("%d requests, want %d", len(got), len(want))
	}
	for i, w := range want {
		for name, values := range w {
			if diff := cmp.Diff(values, got[i][name]); diff != "" {
				t.Errorf("request %d, header %s (-want +got):\n%s", i+1, name, diff)
			}
		}
	}
	// The third call's retry went to its own logger, not the client's.
	if !strings.Contains(callLog.String(), `"msg":"newssearch: retrying"`) || strings.Contains(clientLog.String(), "retrying") {
		t.Errorf("call log %q, client log %q: want the retry in the call's log only", callLog.String(), clientLog.String())
	}
	if !strings.Contains(clientLog.String(), `"msg":"newssearch: response"`) {
		t.Errorf("client log %q: want the other calls' responses", clientLog.String())
	}
}

// TestPageOptionsAtBothLevels: a Client's PageOptions are every
// iterator's default, and a call's replace them whole.
func TestPageOptionsAtBothLevels(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(10*PageSize, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Minute))
	c := serve(t, f, &PageOptions{Prefetch: 3})
	s, _, err := begin(c, t.Context(), []CallOption(nil))
	if err != nil {
		t.Fatal(err)
	}
	if n := callFrom(s).page.prefetch(); n != 3 {
		t.Errorf("a call without options prefetches %d, want the client's 3", n)
	}
	s, _, err = begin(c, t.Context(), []PageOption{&PageOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	if n := callFrom(s).page.prefetch(); n != 0 {
		t.Errorf("a call given PageOptions{} prefetches %d, want 0", n)
	}
	got, err := collect(c.SearchAll(t.Context(), SearchParams{Query: "cars"}))
	if err != nil || len(got) != 10*PageSize {
		t.Errorf("SearchAll with the client's prefetch: %d articles, %v", len(got), err)
	}
}
