package journal

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRingKeepsNewestInOrder(t *testing.T) {
	t.Parallel()
	r := New[int](3, nil, nil)
	if diff := cmp.Diff([]int{}, r.Snapshot()); diff != "" {
		t.Fatalf("empty snapshot (-want +got):\n%s", diff)
	}
	r.Add(1)
	r.Add(2)
	if diff := cmp.Diff([]int{1, 2}, r.Snapshot()); diff != "" {
		t.Fatalf("partial snapshot (-want +got):\n%s", diff)
	}
	for i := 3; i <= 7; i++ {
		r.Add(i)
	}
	if diff := cmp.Diff([]int{5, 6, 7}, r.Snapshot()); diff != "" {
		t.Fatalf("wrapped snapshot (-want +got):\n%s", diff)
	}
	if d := r.Dropped(); d != 4 {
		t.Fatalf("Dropped() = %d after 7 adds to a ring of 3, want 4", d)
	}
	r.Reset()
	if d := r.Dropped(); d != 0 {
		t.Fatalf("Dropped() = %d after Reset, want 0", d)
	}
	r.Add(8)
	if diff := cmp.Diff([]int{8}, r.Snapshot()); diff != "" {
		t.Fatalf("after reset (-want +got):\n%s", diff)
	}
}

func TestRingZeroSizeStoresNothing(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, -4} {
		r := New[string](size, nil, nil)
		r.Add("x")
		r.Add("y")
		if got, dropped := r.SnapshotDropped(); len(got) != 0 || dropped != 2 {
			t.Errorf("New(%d) stored %q and dropped %d, want nothing stored and 2 dropped", size, got, dropped)
		}
	}
}

func TestRingConcurrentAdds(t *testing.T) {
	t.Parallel()
	r := New[int](50, nil, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				r.Add(g*1000 + i)
				_ = r.Snapshot()
			}
		})
	}
	wg.Wait()
	if got, dropped := r.SnapshotDropped(); len(got) != 50 || dropped != 800-50 {
		t.Fatalf("len = %d, dropped %d; want 50 and 750", len(got), dropped)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	const canary = "CANARY-d41d8cd98f00"
	tests := []struct {
		name, body, want string
	}{
		{"empty", "", ""},
		{"blank", "  \n", ""},
		{"top level", `{"api_key":"` + canary + `","query":"x"}`, `{"api_key":"[redacted]","query":"x"}`},
		{"spaces kept", `{ "query" : "x" , "api_key" :  "` + canary + `" }`, `{ "query" : "x" , "api_key" :  "[redacted]" }`},
		{"any case", `{"API_Key":"` + canary + `"}`, `{"API_Key":"[redacted]"}`},
		{"escaped name", `{"api\u005fkey":"` + canary + `"}`, `{"api\u005fkey":"[redacted]"}`},
		{"duplicates", `{"api_key":"a","api_key":"` + canary + `"}`, `{"api_key":"[redacted]","api_key":"[redacted]"}`},
		{"nested", `{"x":{"api_key":["` + canary + `"]},"y":[{"api_key":1}]}`, `{"x":{"api_key":"[redacted]"},"y":[{"api_key":"[redacted]"}]}`},
		{"number value", `{"api_key":12345,"page":2}`, `{"api_key":"[redacted]","page":2}`},
		{"value named like the key", `{"query":"api_key","api_key":"` + canary + `"}`, `{"query":"api_key","api_key":"[redacted]"}`},
		{"array top level", `["api_key","` + canary + `"]`, `["api_key","` + canary + `"]`},
		{"no key", `{"query":"cars","sites":["a.com"]}`, `{"query":"cars","sites":["a.com"]}`},
		{"malformed", `{"api_key":"` + canary + `",`, "[body of 33 bytes not stored: not valid JSON]"},
		{"unterminated", `{"api_key":"` + canary, "[body of 31 bytes not stored: not valid JSON]"},
		{"garbage", `api_key=` + canary, "[body of 27 bytes not stored: not valid JSON]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Redact([]byte(tt.body), 1<<10)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Redact(%q) (-want +got):\n%s", tt.body, diff)
			}
			if strings.Contains(got, canary) && !strings.HasPrefix(tt.body, "[") {
				t.Errorf("Redact(%q) kept the key: %q", tt.body, got)
			}
		})
	}
}

func TestRedactCutsLongBodies(t *testing.T) {
	t.Parallel()
	body := `{"query":"` + strings.Repeat("é", 20) + `"}`
	got := Redact([]byte(body), 14)
	want := fmt.Sprintf(`{"query":"éé…[%d more bytes not stored]`, len(body)-14)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	odd := Redact([]byte(body), 13) // would split a rune
	if !strings.HasPrefix(odd, `{"query":"é…`) {
		t.Fatalf("cut inside a rune: %q", odd)
	}
}

func TestSealedRingSealsBeforeEveryRead(t *testing.T) {
	t.Parallel()
	type rec struct {
		raw, sealed string
		seals       int
	}
	r := New(2, nil, func(x *rec) {
		if x.raw != "" {
			x.sealed, x.raw = strings.ToUpper(x.raw), ""
			x.seals++
		}
	})
	r.Add(rec{raw: "a"})
	r.Add(rec{raw: "b"})
	r.Add(rec{raw: "c"}) // evicts "a" unsealed
	want := []rec{{sealed: "B", seals: 1}, {sealed: "C", seals: 1}}
	if diff := cmp.Diff(want, r.Snapshot(), cmp.AllowUnexported(rec{})); diff != "" {
		t.Fatalf("first snapshot (-want +got):\n%s", diff)
	}
	r.Add(rec{raw: "d"})
	want = []rec{{sealed: "C", seals: 1}, {sealed: "D", seals: 1}}
	if diff := cmp.Diff(want, r.Snapshot(), cmp.AllowUnexported(rec{})); diff != "" {
		t.Fatalf("second snapshot, each entry sealed once (-want +got):\n%s", diff)
	}
}

// seqRing orders entries by the number they carry.
func seqRing(size int) *Ring[uint64] {
	return New(size, func(e *uint64) uint64 { return *e }, nil)
}

func TestOrderedRingSortsLateArrivals(t *testing.T) {
	t.Parallel()
	r := seqRing(4)
	for _, n := range []uint64{2, 3, 1} { // 1 arrived first but finished last
		r.Add(n)
	}
	if diff := cmp.Diff([]uint64{1, 2, 3}, r.Snapshot()); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	for _, n := range []uint64{6, 4, 7} { // full now: the oldest goes
		r.Add(n)
	}
	if diff := cmp.Diff([]uint64{3, 4, 6, 7}, r.Snapshot()); diff != "" {
		t.Fatalf("after wrapping (-want +got):\n%s", diff)
	}
	r.Add(5)
	if diff := cmp.Diff([]uint64{4, 5, 6, 7}, r.Snapshot()); diff != "" {
		t.Fatalf("late entry in a full ring (-want +got):\n%s", diff)
	}
	r.Add(2) // older than everything kept: a newer entry already took its place
	if diff := cmp.Diff([]uint64{4, 5, 6, 7}, r.Snapshot()); diff != "" {
		t.Fatalf("too-late entry (-want +got):\n%s", diff)
	}
	if d := r.Dropped(); d != 4 { // 1, 2, 3 evicted, the late 2 never kept
		t.Fatalf("Dropped() = %d, want 4", d)
	}
}

func TestOrderedRingConcurrentAddsStaySorted(t *testing.T) {
	t.Parallel()
	r := seqRing(64)
	var next atomic.Uint64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				r.Add(next.Add(1))
			}
		})
	}
	wg.Wait()
	got := r.Snapshot()
	want := make([]uint64, 64)
	for i := range want {
		want[i] = 1600 - 63 + uint64(i)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// TestOrderedRingAgainstModel adds shuffled runs of seqs to rings of
// several sizes, full and not, and checks each against a model: the size
// highest seqs added so far, sorted, minus those that arrived after the
// ring was full and newer entries had pushed their place out.
func TestOrderedRingAgainstModel(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 1))
	for _, size := range []int{1, 2, 3, 7, 64} {
		r := seqRing(size)
		var kept []uint64 // the model
		var dropped uint64
		next := uint64(1)
		for step := range 400 {
			// A burst of requests finishing in a shuffled order: a late
			// one is behind up to len(burst)-1 newer ones.
			burst := make([]uint64, 1+rng.IntN(9))
			for i := range burst {
				burst[i] = next
				next++
			}
			rng.Shuffle(len(burst), func(i, k int) { burst[i], burst[k] = burst[k], burst[i] })
			for _, n := range burst {
				r.Add(n)
				if len(kept) == size && n < kept[0] {
					dropped++
					continue // older than everything kept: not stored
				}
				kept = append(kept, n)
				slices.Sort(kept)
				if len(kept) > size {
					kept = kept[1:]
					dropped++
				}
			}
			got, gotDropped := r.SnapshotDropped()
			if diff := cmp.Diff(kept, got); diff != "" {
				t.Fatalf("size %d, after burst %d %v (-want +got):\n%s", size, step, burst, diff)
			}
			if gotDropped != dropped || uint64(len(got))+gotDropped != next-1 {
				t.Fatalf("size %d, after burst %d: %d held, %d dropped, want %d dropped of %d added", size, step, len(got), gotDropped, dropped, next-1)
			}
		}
	}
}

// Snapshot returns a copy of the stored entries, oldest first, each sealed
// (see New).
func (r *Ring[T]) Snapshot() []T {
	out, _ := r.SnapshotDropped()
	return out
}
