package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCursorSeek(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	for range 200 {
		var docs []int32
		for d := range int32(300) {
			if r.IntN(4) == 0 {
				docs = append(docs, d)
			}
		}
		fwd := cursor{docs: docs}
		last := int32(-1)
		for range 100 {
			d := int32(r.IntN(310))
			want, found := slices.BinarySearch(docs, d)
			if d >= last {
				if ok := fwd.seek(d); ok != found || fwd.i != want {
					t.Fatalf("seek(%d) in %v = %v at %d, want %v at %d", d, docs, ok, fwd.i, found, want)
				}
				last = d
			}
		}
	}
}
