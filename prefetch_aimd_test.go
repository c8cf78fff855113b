package newssearch

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPrefetchBacksOffOn429 walks 12 pages with Prefetch 4 on a fake clock.
// Every page takes 10 ms, page 2 only 5 ms. When page 2's answer reports a
// 429, the walk halves its depth: page 6, which it would have launched on
// receiving page 2 (at 5 ms), waits until pages 3-5 arrive (at 10 ms)
// without another 429; then the depth grows back, one page at a time. A
// burst of 429s (pages 2, 3 and 4, all launched under depth 4) halves the
// depth once, as the range's windows do: the prefetch and the windows share
// one controller, aimd.
func TestPrefetchBacksOffOn429(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		throttle map[int]bool          // pages whose answer reports a 429
		want     map[int]time.Duration // when each page's fetch started
	}{
		{"no 429", nil, map[int]time.Duration{2: 0, 3: 0, 4: 0, 5: 0, 6: 5 * time.Millisecond,
			7: 10 * time.Millisecond, 8: 10 * time.Millisecond, 9: 10 * time.Millisecond}},
		// After the 429 the depth is 2: page 2 arrives (no new page: 3 and 4 are
		// in flight); pages 3, 4 and 5 arrive at 10 ms, raising it to 3, 4, 4,
		// which launches 6, then 7 and 8, then 9.
		{"429 on page 2", map[int]bool{2: true}, map[int]time.Duration{2: 0, 3: 0, 4: 0, 5: 0, 6: 10 * time.Millisecond,
			7: 10 * time.Millisecond, 8: 10 * time.Millisecond, 9: 10 * time.Millisecond}},
		// The 429s of pages 3 and 4 answer pages launched before the
		// depth was halved: the depth stays 2 (halving on each would
		// leave none). Page 4 arrives throttled (no growth) and launches
		// page 6; page 5 raises the depth to 3 and launches 7 and 8; page 6
		// (at 20 ms) raises it to 4 and launches 9.
		{"a burst of 429s on pages 2 to 4", map[int]bool{2: true, 3: true, 4: true}, map[int]time.Duration{2: 0, 3: 0, 4: 0, 5: 0,
			6: 10 * time.Millisecond, 7: 10 * time.Millisecond, 8: 10 * time.Millisecond, 9: 20 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				var mu sync.Mutex
				started := map[int]time.Duration{}
				page := func(n int) *Page {
					return &Page{Number: n, TotalResults: 12 * PageSize, Articles: []Article{{ID: string(rune('a' + n))}}}
				}
				src := pageSource{
					first: func(context.Context) (*Page, error) { return page(1), nil },
					next: func(ctx context.Context, n int) (*Page, error) {
						mu.Lock()
						started[n] = time.Since(start)
						mu.Unlock()
						if n == 2 {
							time.Sleep(5 * time.Millisecond)
						} else {
							time.Sleep(10 * time.Millisecond)
						}
						if tc.throttle[n] {
							observeThrottle(ctx) // as the retry loop does on a 429
						}
						return page(n), nil
					},
					prefetch: 4,
				}
				var got []int
				for p, err := range walkPages(t.Context(), src) {
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, p.Number)
				}
				if len(got) != 12 {
					t.Fatalf("walked pages %v, want 1 to 12", got)
				}
				mu.Lock()
				defer mu.Unlock()
				for n := range started {
					if n > 9 {
						delete(started, n)
					}
				}
				if diff := cmp.Diff(tc.want, started); diff != "" {
					t.Errorf("fetch start times of pages 2-9 (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestThrottleObserversChain: a page walk's observer does not hide the
// observer of the range window around it.
func TestThrottleObserversChain(t *testing.T) {
	t.Parallel()
	var calls []string
	ctx := withThrottleObserver(t.Context(), func() { calls = append(calls, "window") })
	ctx = withThrottleObserver(ctx, func() { calls = append(calls, "walk") })
	observeThrottle(ctx)
	if diff := cmp.Diff([]string{"walk", "window"}, calls); diff != "" {
		t.Errorf("observers called (-want +got):\n%s", diff)
	}
}
