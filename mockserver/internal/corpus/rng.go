package corpus

import "github.com/newssearch/newssearch-go/internal/splitmix"

// rng is a small deterministic pseudo-random generator (SplitMix64). The
// generator uses it instead of math/rand so that a seed yields the same corpus
// with every Go release: the sequence is fixed by this file and
// internal/splitmix alone.
type rng struct{ state uint64 }

// newRNG returns a generator for the stream identified by seed and stream.
// Different streams of the same seed are independent for practical purposes.
func newRNG(seed int64, stream uint64) *rng {
	return &rng{state: mix64(uint64(seed)^0x9e3779b97f4a7c15) ^ mix64(stream+0x632be59bd9b4e019)}
}

// mix64 is the SplitMix64 finaliser: a bijective 64-bit mixing function.
func mix64(z uint64) uint64 { return splitmix.Mix(z) }

// next returns the next 64 pseudo-random bits.
func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix64(r.state)
}

// intn returns a value in [0, n); n must be positive.
func (r *rng) intn(n int) int {
	return int((r.next() >> 32) * uint64(n) >> 32)
}

// between returns a value in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// float returns a value in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// chance reports true with probability p.
func (r *rng) chance(p float64) bool { return r.float() < p }

// pick returns a random element of s.
func pick[T any](r *rng, s []T) T { return s[r.intn(len(s))] }
