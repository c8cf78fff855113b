package search

import "slices"

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
func (s *scratch) push(e entry, k int) {
	h := s.heap
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
		s.heap = h
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

// scoreCursors scores document d, at which the cursors of the query terms
// stand.
func (ix *Index) scoreCursors(s *scratch, d int32) float64 {
	sum := 0.0
	for k := range s.ids {
		c := &s.lists[s.idList[k]]
		sum += ix.termScore(s, k, c.base+c.i, d)
	}
	return sum
}

// scoreSearched scores document d for the query terms, finding their
// postings by binary search. It returns the same bits as scoreCursors.
func (ix *Index) scoreSearched(s *scratch, d int32) float64 {
	sum := 0.0
	for k, t := range s.ids {
		i, _ := slices.BinarySearch(ix.termDocs(t), d)
		sum += ix.termScore(s, k, int(ix.termStart[t])+i, d)
	}
	return sum
}

// termScore is query term k's BM25F contribution to document d, whose
// posting of the term is posting i: idf * (k1+1) * tf / (k1 + tf), where tf
// sums each field's term frequency times the field's weight over its
// length normalisation (see stats).
func (ix *Index) termScore(s *scratch, k int, i int, d int32) float64 {
	var counts [numFields]int
	titleEnd, descEnd := ix.titleEnd[d], ix.descEnd[d]
	enc := ix.positions(i)
	pos := uint32(0)
	for len(enc) > 0 {
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
	st := s.st
	tf := float64(counts[0])*st.norm(0, titleEnd) + float64(counts[1])*st.norm(1, descEnd-titleEnd-1) +
		float64(counts[2])*st.norm(2, ix.bodyLen[d])
	return s.idf[k] * (k1 + 1) * tf / (k1 + tf)
}

// uvarint decodes one unsigned varint of at most 32 bits.
func uvarint(b []byte) (uint32, int) {
	if b[0] < 0x80 {
		return uint32(b[0]), 1
	}
	var v uint32
	for i, c := range b {
		if c < 0x80 {
			return v | uint32(c)<<(7*i), i + 1
		}
		v |= uint32(c&0x7f) << (7 * i)
	}
	return v, len(b)
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
func (ix *Index) phraseAt(s *scratch, idx []int) bool {
	cand := decodePositions(s.cand[:0], ix.positions(idx[0]))
	for k := 1; k < len(idx) && len(cand) > 0; k++ {
		next := decodePositions(s.next[:0], ix.positions(idx[k]))
		s.next = next
		kept := cand[:0]
		j := 0
		for _, p := range cand {
			want := p + uint32(k)
			for j < len(next) && next[j] < want {
				j++
			}
			if j < len(next) && next[j] == want {
				kept = append(kept, p)
			}
		}
		cand = kept
	}
	s.cand = cand
	return len(cand) > 0
}

// matchKeyPhrase reports whether s.doc contains key_phrases phrase p.
func (s *scratch) matchKeyPhrase(p int) bool {
	if s.memo[p] != 0 {
		return s.memo[p] == 1
	}
	ok := s.ix.keyPhraseAt(s, p, s.doc)
	s.memo[p] = 2
	if ok {
		s.memo[p] = 1
	}
	return ok
}

// keyPhraseAt reports whether document d contains key_phrases phrase p.
func (ix *Index) keyPhraseAt(s *scratch, p int, d int32) bool {
	start := 0
	if p > 0 {
		start = s.kpEnd[p-1]
	}
	idx := s.pidx[:0]
	for k := start; k < s.kpEnd[p]; k++ {
		c := &s.kpCur[k]
		if c.term < 0 || !c.locate(d) {
			return false
		}
		idx = append(idx, c.base+c.i)
	}
	s.pidx = idx
	return len(idx) == 1 || ix.phraseAt(s, idx)
}
