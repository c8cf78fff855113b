package newssearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jarcoal/httpmock"
)

// The tests of issue 42's items 3-7: each failed on f90dc3c.

// throttledOnce answers the first query with a 429 and Retry-After:
// retryAfter, and the others with a page, appending to sent when each came.
func throttledOnce(sent *[]time.Time, retryAfter string) *httpmock.MockTransport {
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockURL(pathQuery), func(r *http.Request) (*http.Response, error) {
		*sent = append(*sent, time.Now())
		if len(*sent) == 1 {
			resp := httpmock.NewStringResponse(429, failedMsg)
			resp.Header.Set("Retry-After", retryAfter)
			return resp, nil
		}
		return httpmock.NewStringResponse(200, okSearch), nil
	})
	return mt
}

// TestRetryAfterBeyondWhatTheCallMayWait: a Retry-After longer than the
// call's cap (WithRetryWait's maximum, the call's own over the Client's) or
// than its deadline ends the call at once with the 429 and its RetryAfter;
// one within them is waited out in full. On f90dc3c a Retry-After of 12 s
// was retried 8 s later, and a call's own cap was ignored by the pause.
func TestRetryAfterBeyondWhatTheCallMayWait(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		retryAfter string
		client     []Option     // beyond mockClient's
		call       []CallOption // the call's
		deadline   time.Duration
		wantWait   time.Duration // 0: the call ends at once with the 429
	}{
		{name: "12 s over the default 8 s cap", retryAfter: "12", client: []Option{WithRetryWait(DefaultRetryWaitMin, DefaultRetryWaitMax)}},
		{name: "30 s over the default cap", retryAfter: "30", client: []Option{WithRetryWait(DefaultRetryWaitMin, DefaultRetryWaitMax)}},
		{name: "1 s over the call's 200 ms cap", retryAfter: "1", client: []Option{WithRetryWait(DefaultRetryWaitMin, DefaultRetryWaitMax)},
			call: []CallOption{WithRetryWait(10*time.Millisecond, 200*time.Millisecond)}},
		{name: "5 s beyond the 3 s deadline", retryAfter: "5", client: []Option{WithRetryWait(time.Second, time.Minute)}, deadline: 3 * time.Second},
		{name: "5 s within the cap", retryAfter: "5", client: []Option{WithRetryWait(time.Second, 10*time.Second)}, wantWait: 5 * time.Second},
		{name: "2 s within the call's cap over the Client's", retryAfter: "2", call: []CallOption{WithRetryWait(time.Second, 3*time.Second)}, wantWait: 2 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var sent []time.Time
				mt := throttledOnce(&sent, tc.retryAfter)
				c := mockClient(t, mt, tc.client...)
				ctx := context.Background()
				if tc.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.deadline)
					defer cancel()
				}
				start := time.Now()
				_, err := c.Search(ctx, SearchParams{Query: "q"}, tc.call...)
				if tc.wantWait > 0 {
					if err != nil || len(sent) != 2 {
						t.Fatalf("err = %v after %d attempts, want success after 2", err, len(sent))
					}
					if gap := sent[1].Sub(sent[0]); gap < tc.wantWait || gap > tc.wantWait+tc.wantWait/10 {
						t.Errorf("retried %v after the 429, want %v to %v", gap, tc.wantWait, tc.wantWait+tc.wantWait/10)
					}
					return
				}
				apiErr := apiErrorOf(t, err)
				if !errors.Is(err, ErrRateLimited) || apiErr.RetryAfter.String() != tc.retryAfter+"s" {
					t.Errorf("err = %v, RetryAfter %v; want ErrRateLimited with RetryAfter %ss", err, apiErr.RetryAfter, tc.retryAfter)
				}
				if len(sent) != 1 || time.Since(start) != 0 {
					t.Errorf("%d attempts over %v, want 1 and an answer at once", len(sent), time.Since(start))
				}
			})
		})
	}
}

// TestPauseBeyondWhatAnotherCallMayWait: a Retry-After pauses the whole
// Client; a call started in the pause waits it out if it may, and ends at
// once with ErrRateLimited if it may not, sending nothing.
func TestPauseBeyondWhatAnotherCallMayWait(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var sent []time.Time
		mt := throttledOnce(&sent, "4")
		c := mockClient(t, mt, WithMaxRetries(0))
		start := time.Now()
		if _, err := c.Search(t.Context(), SearchParams{Query: "q"}); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("first call: %v, want ErrRateLimited", err)
		}
		_, err := c.Search(t.Context(), SearchParams{Query: "q"}, WithRetryWait(time.Millisecond, time.Second))
		if apiErr := apiErrorOf(t, err); apiErr.RetryAfter != 4*time.Second || len(sent) != 1 || time.Since(start) != 0 {
			t.Errorf("a call that may wait 1 s: %v (RetryAfter %v), %d sent, after %v; want ErrRateLimited, 4s, 1, at once",
				err, apiErr.RetryAfter, len(sent), time.Since(start))
		}
		if _, err := c.Search(t.Context(), SearchParams{Query: "q"}, WithRetryWait(time.Millisecond, 10*time.Second)); err != nil {
			t.Fatal(err)
		}
		if len(sent) != 2 || sent[1].Sub(start) < 4*time.Second {
			t.Errorf("a call that may wait 10 s sent after %v, want 4s or more", sent[len(sent)-1].Sub(start))
		}
	})
}

// refusingClient is a Client whose every request fails as a dial to a
// closed port does, counted in calls.
func refusingClient(t *testing.T, calls *atomic.Int32, opts ...Option) *Client {
	t.Helper()
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		calls.Add(1)
		return nil, dialRefused
	})
	c, err := NewClient(append([]Option{WithAPIKey(sdkKey), WithoutEnvironment(), WithBaseURL("http://127.0.0.1:1"),
		WithHTTPClient(&http.Client{Transport: rt}), withJitterSeed(1, 2)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestWrongBaseURLFailsFast: SearchAll, Results, Poll and SearchRange
// against a service that never answered fail as Search does, after its
// retries, naming the refused connection. On f90dc3c SearchAll retried for
// the caller's whole 90 s (16 attempts) and reported only "context
// deadline exceeded".
func TestWrongBaseURLFailsFast(t *testing.T) {
	t.Parallel()
	start, end := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 20, 0, 0, 0, 0, time.UTC)
	calls := map[string]func(context.Context, *Client) error{
		"Search": func(ctx context.Context, c *Client) error {
			_, err := c.Search(ctx, SearchParams{Query: "q"})
			return err
		},
		"SearchAll": func(ctx context.Context, c *Client) error {
			_, err := collect(c.SearchAll(ctx, SearchParams{Query: "q"}))
			return err
		},
		"Results": func(ctx context.Context, c *Client) error {
			_, err := collect(c.Results(ctx, "q1"))
			return err
		},
		"Poll": func(ctx context.Context, c *Client) error {
			_, err := c.Poll(ctx, "q1")
			return err
		},
		"SearchRange": func(ctx context.Context, c *Client) error {
			_, err := c.SearchRange(ctx, AsyncSearchParams{SearchParams: SearchParams{Query: "q", StartDate: start, EndDate: end}}, &RangeOptions{Concurrency: 1})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var n atomic.Int32
				c := refusingClient(t, &n)
				ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
				defer cancel()
				began := time.Now()
				err := call(ctx, c)
				took := time.Since(began)
				if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), "connection refused") {
					t.Errorf("error = %v, want one naming the refused connection", err)
				}
				if took > 10*time.Second || n.Load() > 4*int32(DefaultMaxRetries+1) {
					t.Errorf("gave up after %v and %d attempts, want seconds, as Search", took, n.Load())
				}
			})
		})
	}
}

// TestDeadlineNamesTheLastCause: when the caller's deadline ends the
// retries, the error matches context.DeadlineExceeded and still names the
// failure that was being retried.
func TestDeadlineNamesTheLastCause(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := refusingClient(t, new(atomic.Int32), WithMaxRetries(100))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := c.Search(ctx, SearchParams{Query: "q"})
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), "connection refused") {
			t.Errorf("error = %v, want the deadline and the refused connection", err)
		}
	})
}

// TestSearchAllOutageBudgetIsNotPolls: once a page came, SearchAll rides
// out an outage longer than the Client's PollOptions.MaxWait, which tunes
// polling only. On f90dc3c MaxWait was SearchAll's outage budget.
func TestSearchAllOutageBudgetIsNotPolls(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFake(testArticles(2*PageSize, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Minute))
		h := handlerTransport{f}
		var served atomic.Int32
		var downUntil time.Time
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if served.Load() == 1 && downUntil.IsZero() {
				downUntil = time.Now().Add(30 * time.Second)
			}
			if time.Now().Before(downUntil) {
				return nil, dialRefused
			}
			served.Add(1)
			return h.RoundTrip(r)
		})
		c := newTestClient(t, "http://fake.invalid", &http.Client{Transport: rt}, WithMaxRetries(3),
			&PollOptions{MaxWait: time.Second})
		got, err := collect(c.SearchAll(t.Context(), SearchParams{Query: "cars"}))
		if err != nil || len(got) != 2*PageSize {
			t.Errorf("SearchAll through a 30 s outage: %d articles, %v; want %d, nil", len(got), err, 2*PageSize)
		}
	})
}

// TestThrottleCountedOnce: two 429 answers are two 429s to the observers
// behind RangeProgress.Throttled and the adaptive prefetch (3 on f90dc3c:
// go-retryablehttp asks about the last answer twice).
func TestThrottleCountedOnce(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockURL(pathQuery), httpmock.NewStringResponder(429, failedMsg))
	c := mockClient(t, mt, WithMaxRetries(1))
	var throttled atomic.Int32
	ctx := withThrottleObserver(t.Context(), func() { throttled.Add(1) })
	if _, err := c.Search(ctx, SearchParams{Query: "q"}); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	if n, seen := throttled.Load(), mt.GetTotalCallCount(); n != 2 || seen != 2 {
		t.Errorf("%d 429s counted for %d requests, want 2 and 2", n, seen)
	}
}

// ctxKey marks the context of a call, for a log handler to find.
type ctxKey struct{}

// ctxHandler records, for every log record, the ctxKey value of its context.
type ctxHandler struct {
	mu   sync.Mutex
	seen []any
}

func (h *ctxHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *ctxHandler) Handle(ctx context.Context, r slog.Record) error {
	h.mu.Lock()
	h.seen = append(h.seen, ctx.Value(ctxKey{}))
	h.mu.Unlock()
	return nil
}
func (h *ctxHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *ctxHandler) WithGroup(string) slog.Handler      { return h }

// TestLogRecordsCarryTheCallsContext: a handler that reads a trace id from
// the context finds it in every record about a call (retries and
// responses). On f90dc3c they were logged with context.Background().
func TestLogRecordsCarryTheCallsContext(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockURL(pathQuery),
		httpmock.NewStringResponder(503, failedMsg).Once().Then(httpmock.NewStringResponder(200, okSearch)))
	h := &ctxHandler{}
	c := mockClient(t, mt, WithLogger(slog.New(h)))
	ctx := context.WithValue(t.Context(), ctxKey{}, "trace-1")
	if _, err := c.Search(ctx, SearchParams{Query: "q"}); err != nil {
		t.Fatal(err)
	}
	if len(h.seen) < 3 {
		t.Fatalf("%d log records, want a response, a retry and a response", len(h.seen))
	}
	for i, v := range h.seen {
		if v != "trace-1" {
			t.Errorf("record %d has context value %v, want the call's trace-1", i+1, v)
		}
	}
}

// TestKeyScrubbedFromSuccessMessages: a key the service echoes in the
// message of a successful answer never reaches Page.Message.
func TestKeyScrubbedFromSuccessMessages(t *testing.T) {
	t.Parallel()
	msg := fmt.Sprintf(`"served for %s"`, sdkCanary)
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockURL(pathQuery), httpmock.NewStringResponder(200,
		`{"results":{"totalResults":0,"articles":[]},"state":"SUCCESS","message":`+msg+`}`))
	mt.RegisterResponder(http.MethodPost, mockURL(pathGetResults), httpmock.NewStringResponder(200,
		`{"results":{"totalResults":0,"articles":[]},"state":"SUCCESS","message":`+msg+`}`))
	c := mockClient(t, mt, WithAPIKey(sdkCanary))
	search, err := c.Search(t.Context(), SearchParams{Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.GetResults(t.Context(), "q1", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []string{search.Message, page.Message} {
		if strings.Contains(got, sdkCanary) || got != "served for "+redacted {
			t.Errorf("Page.Message = %q, want %q", got, "served for "+redacted)
		}
	}
}

// TestKeyPhrasesSentAsGiven: SubmitQuery sends key_phrases the documented
// grammar does not cover, for the service to judge; CheckKeyPhrases still
// refuses them for a caller who asks. On f90dc3c both were refused unsent.
func TestKeyPhrasesSentAsGiven(t *testing.T) {
	t.Parallel()
	for _, kp := range []string{`'elon' AND 'musk'`, `"elon musk"`} {
		mt := httpmock.NewMockTransport()
		var body struct {
			KeyPhrases string `json:"key_phrases"`
			Page       int    `json:"page"`
		}
		mt.RegisterResponder(http.MethodPost, mockURL(pathQueryAsync), func(r *http.Request) (*http.Response, error) {
			b, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(b, &body); err != nil {
				t.Error(err)
			}
			return httpmock.NewStringResponse(200, `{"query_id":"q1","state":"SUCCESS"}`), nil
		})
		c := mockClient(t, mt)
		if _, err := c.SubmitQuery(t.Context(), AsyncSearchParams{SearchParams: SearchParams{Query: "q"}, KeyPhrases: kp}); err != nil {
			t.Errorf("SubmitQuery(KeyPhrases %s): %v, want it sent", kp, err)
		}
		if body.KeyPhrases != kp || body.Page != 1 {
			t.Errorf("sent key_phrases %q and page %d, want %q and 1 (as documented)", body.KeyPhrases, body.Page, kp)
		}
		if err := CheckKeyPhrases(kp); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "character ") {
			t.Errorf("CheckKeyPhrases(%s) = %v, want a *ValidationError naming the character", kp, err)
		}
	}
	if err := CheckKeyPhrases(`('elon' or 'musk') and not 'sam altman'`); err != nil {
		t.Errorf("CheckKeyPhrases of the documented example: %v", err)
	}
}
