package newssearch

import (
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A call's PollOptions override the Client's field by field.
func TestPollOptionsMergeFieldByField(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var (
			mu    sync.Mutex
			waits []time.Duration
		)
		record := func(e PollEvent) {
			mu.Lock()
			defer mu.Unlock()
			waits = append(waits, e.Next)
		}
		f := newFake(testArticles(3, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Hour))
		f.pendingPolls = 2
		c := inProcess(t, f, &PollOptions{MinDelay: 10 * time.Millisecond, Multiplier: 1, Jitter: -1, OnPoll: record})
		params := AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}}
		cases := []struct {
			name string
			opts *PollOptions
			want []time.Duration
		}{
			{"nil options take the client's", nil, []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 0}},
			{"zero fields take the client's", &PollOptions{MaxWait: time.Minute}, []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 0}},
			{"set fields win", &PollOptions{MinDelay: 30 * time.Millisecond, MaxDelay: 30 * time.Millisecond}, []time.Duration{30 * time.Millisecond, 30 * time.Millisecond, 0}},
		}
		for _, tc := range cases {
			waits = nil
			if _, err := c.Poll(t.Context(), submit(t, c, params), tc.opts); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if diff := cmp.Diff(tc.want, waits); diff != "" {
				t.Errorf("%s: waits announced by OnPoll (-want +got):\n%s", tc.name, diff)
			}
		}
	})
}

func TestPollOptionsRejectedByNewClient(t *testing.T) {
	t.Parallel()
	_, err := NewClient(WithAPIKey("k"), WithoutEnvironment(), &PollOptions{MinDelay: -time.Second})
	want := "newssearch: invalid PollOptions.MinDelay: -1s is negative: pass a positive wait, or 0 for the default 100ms"
	if err == nil || err.Error() != want || !errors.Is(err, ErrBadRequest) {
		t.Errorf("NewClient error = %v, want %q", err, want)
	}
}
