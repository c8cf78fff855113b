package mockserver

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
)

// TestClientNeverUndercutsRetryAfter: the ready client (its waits at most
// 20 ms) ends a call answered 429 with Retry-After: 2 at once, with the
// answer's RetryAfter, instead of retrying 21 ms later (f90dc3c); a call
// given a longer WithRetryWait sends its retry no sooner than 2 s later.
func TestClientNeverUndercutsRetryAfter(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := New(WithoutListener())
		defer srv.Close()
		fault := newssearch.WithHeader(FaultHeader, "status=429;retry-after=2")
		_, err := srv.Client().Search(t.Context(), newssearch.SearchParams{Query: "election"}, fault)
		var apiErr *newssearch.APIError
		if !errors.As(err, &apiErr) || !errors.Is(err, newssearch.ErrRateLimited) || apiErr.RetryAfter != 2*time.Second {
			t.Fatalf("err = %v, want ErrRateLimited with RetryAfter 2s", err)
		}
		if j := srv.Journal(JournalQuery{Path: "query"}); len(j) != 1 {
			t.Errorf("%d requests, want 1: no retry before the Retry-After", len(j))
		}

		srv2 := New(WithoutListener())
		defer srv2.Close()
		_, err = srv2.Client().Search(t.Context(), newssearch.SearchParams{Query: "election"}, fault,
			newssearch.WithRetryWait(time.Millisecond, 3*time.Second), newssearch.WithMaxRetries(1))
		if !errors.Is(err, newssearch.ErrRateLimited) {
			t.Fatalf("err = %v, want ErrRateLimited after the retry", err)
		}
		j := srv2.Journal(JournalQuery{Path: "query"})
		if len(j) != 2 || j[1].Time.Sub(j[0].Time) < 2*time.Second {
			t.Errorf("%d requests; want 2, the second at least 2s after the first (%v)", len(j), j)
		}
	})
}
