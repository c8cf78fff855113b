package search

import (
	"slices"
	"strings"

	"github.com/newssearch/newssearch-go/internal/keyphrase"
	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

// scratch holds one query's working memory over one index; searches share
// a pool of them (getScratch), so a search allocates little beyond its
// result.
type scratch struct {
	ix *Index
	tk analysis.Tokenizer

	lo, hi int   // the date range as document numbers [lo, hi)
	lang   int32 // required language index, or -1

	st      *stats  // of the corpus searched: this index, or all of a Layers
	siteMap []int32 // by site rank of this index: the rank among all sites (nil: the same)
	siteCut int64   // traffic_rank keeps the site of rank r when (r+1)*100 <= siteCut

	ids        []int32   // the text's distinct term ids, in the order one index of the corpus searched numbers them: the scored terms
	idf        []float64 // by ids index: the term's idf in the corpus searched
	idList     []int     // by ids index: the index in lists of that term
	phraseBuf  []int32   // the text's multi-word phrases, term ids back to back
	phraseEnd  []int     // end of each phrase in phraseBuf
	phrases    [][]int32 // the distinct phrases, views of phraseBuf
	phraseList []int     // for each term of phrases in turn: the index in lists of its list

	kpTerms []int32  // key_phrases phrases, term ids back to back (-1: unknown term)
	kpCur   []cursor // by kpTerms index: the term's documents within the date range
	kpEnd   []int    // end of each key_phrases phrase in kpTerms
	memo    []int8   // by key_phrases phrase: 0 unknown, 1 match, 2 no match
	doc     int32    // the document matchKeyPhrase examines

	lists   []cursor // the sorted document lists every match is in, shortest first
	siteBuf []int32
	heap    []entry
	pidx    []int
	cand    []uint32
	next    []uint32
}

// plan resolves the query against the index, scored with the statistics
// st and site ranks mapped by siteMap. For a search of Layers, ls holds
// the query's terms over all layers and layer is this index's place among
// them; ls is nil for a search of the index alone. It returns false when
// nothing can match.
func (s *scratch) plan(ix *Index, q *Query, expr *keyphrase.Expr, st *stats, siteMap []int32, ls *layeredScratch, layer int) bool {
	s.st, s.siteMap = st, siteMap
	s.siteCut = st.sites * int64(100-q.TrafficRank)
	s.lo, s.hi = ix.dateRange(q.From, q.To)
	if s.lo >= s.hi {
		return false
	}
	s.lang = -1
	if q.Language != "" {
		l, ok := ix.langs[strings.ToLower(q.Language)]
		if !ok {
			return false
		}
		s.lang = l
	}
	if !s.parseText(ix, q.Text) {
		return false
	}
	s.idf = s.idf[:0]
	if ls != nil {
		s.ids, s.idf = ls.termsOf(layer, s.ids[:0], s.idf)
	} else {
		for _, t := range s.ids {
			s.idf = append(s.idf, st.idf(ix.df(t)))
		}
	}
	for _, t := range s.ids {
		s.addTerm(ix, t)
	}
	if expr != nil && !s.planKeyPhrases(ix, expr) {
		return false
	}
	if len(q.Sites) > 0 && !s.planSites(ix, q.Sites) {
		return false
	}
	for _, c := range s.lists {
		if len(c.docs) == 0 {
			return false
		}
	}
	slices.SortFunc(s.lists, func(x, y cursor) int { return len(x.docs) - len(y.docs) })
	s.idList = s.idList[:0]
	for _, t := range s.ids {
		s.idList = append(s.idList, s.listOf(t))
	}
	s.phraseList = s.phraseList[:0]
	for _, p := range s.phrases {
		for _, t := range p {
			s.phraseList = append(s.phraseList, s.listOf(t))
		}
	}
	return true
}

// listOf returns the index in lists of term t's list, or -1. A query has
// few lists: a scan beats a table by term id, which would cost every
// scratch (and so the first search after its pool is emptied) O(terms).
func (s *scratch) listOf(t int32) int {
	for i := range s.lists {
		if s.lists[i].term == t {
			return i
		}
	}
	return -1
}

// parseText splits the free text into terms and quoted phrases. It returns
// false when a term is not in the index.
func (s *scratch) parseText(ix *Index, text string) bool {
	s.ids, s.phraseBuf, s.phraseEnd = s.ids[:0], s.phraseBuf[:0], s.phraseEnd[:0]
	quoted := false
	for seg := range strings.SplitSeq(text, `"`) {
		start := len(s.phraseBuf)
		s.tk.Reset(seg)
		for tok, ok := s.tk.Next(); ok; tok, ok = s.tk.Next() {
			id, found := ix.terms[string(tok)]
			if !found {
				return false
			}
			s.ids = append(s.ids, id)
			if quoted {
				s.phraseBuf = append(s.phraseBuf, id)
			}
		}
		if len(s.phraseBuf)-start > 1 {
			s.phraseEnd = append(s.phraseEnd, len(s.phraseBuf))
		} else {
			s.phraseBuf = s.phraseBuf[:start]
		}
		quoted = !quoted
	}
	slices.Sort(s.ids)
	s.ids = slices.Compact(s.ids)
	s.phrases = s.phrases[:0]
	start := 0
	for _, end := range s.phraseEnd {
		s.phrases = append(s.phrases, s.phraseBuf[start:end])
		start = end
	}
	slices.SortFunc(s.phrases, slices.Compare)
	s.phrases = slices.CompactFunc(s.phrases, slices.Equal)
	return true
}

// planKeyPhrases resolves the expression's phrases and adds the terms of
// the phrases every match needs to the lists. It returns false when a
// required phrase cannot match.
func (s *scratch) planKeyPhrases(ix *Index, expr *keyphrase.Expr) bool {
	s.kpTerms, s.kpCur, s.kpEnd = s.kpTerms[:0], s.kpCur[:0], s.kpEnd[:0]
	phrases := expr.Phrases()
	for _, p := range phrases {
		for _, term := range p.Terms {
			id, ok := ix.terms[term]
			c := cursor{term: -1}
			if ok {
				c = s.termCursor(ix, id)
			} else {
				id = -1
			}
			s.kpTerms = append(s.kpTerms, id)
			s.kpCur = append(s.kpCur, c)
		}
		s.kpEnd = append(s.kpEnd, len(s.kpTerms))
	}
	s.memo = slices.Grow(s.memo[:0], len(phrases))[:len(phrases)]
	for _, p := range expr.Required() {
		start := 0
		if p > 0 {
			start = s.kpEnd[p-1]
		}
		for _, t := range s.kpTerms[start:s.kpEnd[p]] {
			if t < 0 {
				return false
			}
			if s.listOf(t) < 0 {
				s.addTerm(ix, t)
			}
		}
	}
	return true
}

// planSites adds the documents of the requested sites as one list. It
// returns false when none of the sites is in the corpus.
func (s *scratch) planSites(ix *Index, sites []string) bool {
	var first []int32
	s.siteBuf = s.siteBuf[:0]
	known := 0
	for _, name := range sites {
		id, ok := ix.sites[normalizeSite(name)]
		if !ok {
			continue
		}
		docs := within(ix.siteDocs[id], s.lo, s.hi)
		if known == 0 {
			first = docs
		}
		known++
		s.siteBuf = append(s.siteBuf, docs...)
	}
	switch {
	case known == 0:
		return false
	case len(first) == len(s.siteBuf):
		s.lists = append(s.lists, cursor{docs: first, term: -1})
	default:
		slices.Sort(s.siteBuf)
		s.siteBuf = slices.Compact(s.siteBuf)
		s.lists = append(s.lists, cursor{docs: s.siteBuf, term: -1})
	}
	return true
}

// addTerm adds the term's documents within the date range to the lists.
func (s *scratch) addTerm(ix *Index, t int32) {
	s.lists = append(s.lists, s.termCursor(ix, t))
}

// termCursor returns a cursor over the term's documents within the date
// range.
func (s *scratch) termCursor(ix *Index, t int32) cursor {
	all := ix.termDocs(t)
	base, _ := slices.BinarySearch(all, int32(s.lo))
	return cursor{docs: within(all, s.lo, s.hi), base: int(ix.termStart[t]) + base, term: t}
}

// keptBySite reports whether traffic_rank keeps a document of the site at
// rank r of this index: traffic_rank n keeps the top (100-n)% of sites, so
// the site at position p (0 = busiest) of S sites stays when the first p+1
// sites are within that share: (p+1)*100 <= S*(100-n). 0 keeps every site
// and 100 none; of 400 sites 90 keeps exactly 40 and 95 exactly 20; of 5
// sites 95 keeps none, since one site is already 20%. The products are
// computed in int64.
func (s *scratch) keptBySite(r int32) bool {
	if s.siteMap != nil {
		r = s.siteMap[r]
	}
	return (int64(r)+1)*100 <= s.siteCut
}

// release returns the scratch to the pool, ready for the next search.
func (s *scratch) release() {
	s.lists = s.lists[:0]
	s.ix, s.st, s.siteMap = nil, nil, nil
	scratches.Put(s)
}

// within returns the part of the ascending docs that lies in [lo, hi).
func within(docs []int32, lo, hi int) []int32 {
	i, _ := slices.BinarySearch(docs, int32(lo))
	j, _ := slices.BinarySearch(docs[i:], int32(hi))
	return docs[i : i+j]
}

// cursor walks an ascending document list.
type cursor struct {
	docs []int32
	i    int   // current index in docs
	base int   // the posting number of docs[0]
	term int32 // the term id, or -1 for a list that is not a term's
}

// seek moves the cursor forward to the first document >= d, galloping then
// binary searching, and reports whether it is d.
func (c *cursor) seek(d int32) bool {
	docs, i := c.docs, c.i
	if i < len(docs) && docs[i] < d {
		// Gallop: find hi with docs[hi] >= d, keeping docs[i] < d.
		step, hi := 1, i+1
		for hi < len(docs) && docs[hi] < d {
			i = hi
			step <<= 1
			hi = i + step
		}
		hi = min(hi, len(docs))
		lo := i + 1
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if docs[m] < d {
				lo = m + 1
			} else {
				hi = m
			}
		}
		i = lo
	}
	c.i = i
	return i < len(docs) && docs[i] == d
}

// locate moves the cursor to the first document >= d, galloping from its
// current position in whichever direction d lies, and reports whether it is
// d.
func (c *cursor) locate(d int32) bool {
	docs, i := c.docs, c.i
	if i == 0 || docs[i-1] < d {
		return c.seek(d)
	}
	// Gallop back: find lo < i with docs[lo] < d (or lo = -1), keeping
	// docs[hi] >= d.
	step, hi, lo := 1, i-1, 0
	for {
		lo = hi - step
		if lo < 0 {
			lo = -1
			break
		}
		if docs[lo] < d {
			break
		}
		hi = lo
		step <<= 1
	}
	lo++
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if docs[m] < d {
			lo = m + 1
		} else {
			hi = m
		}
	}
	c.i = hi
	return docs[hi] == d
}
