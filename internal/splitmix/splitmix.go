// Package splitmix holds the SplitMix64 mixing function that the mock's
// identifiers, its corpus generator and its fault rules all derive their
// deterministic randomness from.
package splitmix

// Golden is the SplitMix64 increment, 2^64 divided by the golden ratio.
const Golden = 0x9e3779b97f4a7c15

// Mix is the SplitMix64 finaliser: a bijection on uint64 with good
// avalanche (every input bit flips about half the output bits).
func Mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Next is one step of the SplitMix64 generator: the finaliser applied to
// z advanced by Golden. Given distinct inputs it yields well-spread
// outputs, so it also serves as a hash of z.
func Next(z uint64) uint64 { return Mix(z + Golden) }
