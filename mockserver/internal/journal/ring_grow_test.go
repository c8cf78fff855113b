package journal

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRingAllocatesOnFirstAdd checks that a new ring allocates nothing
// until the first entry arrives, never more than its size, and keeps the
// newest entries in order across the wrap.
func TestRingAllocatesOnFirstAdd(t *testing.T) {
	t.Parallel()
	r := New[int](100, nil, nil)
	if cap(r.entries) != 0 {
		t.Fatalf("a new ring holds room for %d entries, want 0", cap(r.entries))
	}
	var want []int
	for i := range 250 {
		r.Add(i)
		want = append(want, i)
		if len(want) > 100 {
			want = want[1:]
		}
		if i%37 == 0 || i == 99 || i == 100 || i == 249 {
			if diff := cmp.Diff(want, r.Snapshot()); diff != "" {
				t.Fatalf("after %d adds (-want +got):\n%s", i+1, diff)
			}
		}
		if cap(r.entries) > 100 {
			t.Fatalf("after %d adds the ring holds room for %d entries, over its size 100", i+1, cap(r.entries))
		}
	}
	if got := r.Snapshot(); !slices.Equal(got, want) {
		t.Fatalf("final snapshot %v", got)
	}
}
