package splitmix

import "testing"

// The first outputs of SplitMix64 seeded with 0, as published with the
// generator (Vigna, prng.di.unimi.it/splitmix64.c): Next applied to the
// running state 0, Golden, 2*Golden...
func TestNextMatchesReference(t *testing.T) {
	t.Parallel()
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	var state uint64
	for i, w := range want {
		if got := Next(state); got != w {
			t.Errorf("output %d = %#x, want %#x", i, got, w)
		}
		state += Golden
	}
}
