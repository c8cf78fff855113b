package search

import (
	"encoding/binary"
	"slices"
)

// entry is a match competing for a place in the requested window.
type entry struct {
	score float64
	rank  int32 // the tie-breaker: ID rank (ByRelevance) or date rank (ByDate)
	doc   int32
}

// better reports whether x comes before y in the result order.
func (x entry) better(y entry) bool {
	return x.score > y.score || x.score == y.score && x.rank < y.rank
}

// push offers e to the bounded heap of the best k entries, whose root is the
// worst entry kept.
func (p *plan) push(e entry, k int) {
	h := p.heap
	if len(h) < k {
		h = append(h, e)
		for i := len(h) - 1; i > 0; {
			parent := (i - 1) / 2
			if !h[parent].better(h[i]) {
				break
			}
			h[parent], h[i] = h[i], h[parent]
			i = parent
		}
		p.heap = h
		return
	}
	if !e.better(h[0]) {
		return
	}
	h[0] = e
	for i := 0; ; {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[worst].better(h[l]) {
			worst = l
		}
		if r < len(h) && h[worst].better(h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// posting returns the number of the posting of term t in document d, and
// whether d has the term.
func (p *plan) posting(t int32, d int32) (uint32, bool) {
	i, found := slices.BinarySearch(p.ix.termDocs(t), d)
	return p.ix.termStart[t] + uint32(i), found
}

// score is document d's BM25F score for the query terms, which it has.
func (p *plan) score(d int32) float64 {
	sum := 0.0
	for k, t := range p.ids {
		i, _ := p.posting(t, d)
		sum += p.termScore(k, int(i), d)
	}
	return sum
}

// termScore is query term k's BM25F contribution to document d, whose
// posting of the term is posting i: idf * (k1+1) * tf / (k1 + tf), where tf
// sums each field's term frequency times the field's weight over its
// length normalisation (see stats.norm).
func (p *plan) termScore(k int, i int, d int32) float64 {
	var counts [numFields]int
	titleEnd, descEnd := p.ix.titleEnd[d], p.ix.descEnd[d]
	pos := uint32(0)
	for enc := p.ix.positions(i); len(enc) > 0; {
		v, n := uvarint(enc)
		enc = enc[n:]
		pos += v
		switch {
		case pos < titleEnd:
			counts[0]++
		case pos < descEnd:
			counts[1]++
		default:
			counts[2]++
		}
	}
	st := p.st
	tf := float64(counts[0])*st.norm(0, titleEnd) + float64(counts[1])*st.norm(1, descEnd-titleEnd-1) +
		float64(counts[2])*st.norm(2, p.ix.bodyLen[d])
	return p.idf[k] * (k1 + 1) * tf / (k1 + tf)
}

// uvarint decodes one unsigned varint of at most 32 bits.
func uvarint(b []byte) (uint32, int) {
	v, n := binary.Uvarint(b)
	return uint32(v), n
}

// decodePositions appends the absolute positions of an encoded posting.
func decodePositions(dst []uint32, enc []byte) []uint32 {
	pos := uint32(0)
	for len(enc) > 0 {
		v, n := uvarint(enc)
		enc = enc[n:]
		pos += v
		dst = append(dst, pos)
	}
	return dst
}

// phraseAt reports whether the terms of a phrase occur consecutively in one
// document; idx holds each term's posting index for that document.
func (p *plan) phraseAt(idx []uint32) bool {
	cand := decodePositions(p.cand[:0], p.ix.positions(int(idx[0])))
	for k := 1; k < len(idx) && len(cand) > 0; k++ {
		next := decodePositions(p.next[:0], p.ix.positions(int(idx[k])))
		p.next = next
		kept := cand[:0]
		j := 0
		for _, pos := range cand {
			want := pos + uint32(k)
			for j < len(next) && next[j] < want {
				j++
			}
			if j < len(next) && next[j] == want {
				kept = append(kept, pos)
			}
		}
		cand = kept
	}
	p.cand = cand
	return len(cand) > 0
}
