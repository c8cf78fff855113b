package search

import (
	"slices"
	"strings"

	"github.com/newssearch/newssearch-go/internal/keyphrase"
)

// plan is one query's search of one layer: the document lists its matches
// must be in, the checks each candidate must pass, and the best found.
type plan struct {
	ix      *Index
	layer   int
	st      *stats  // of the corpus searched: all the layers
	siteMap []int32 // by site rank of this index: the rank among all sites
	siteCut int64   // traffic_rank keeps the site of rank r when (r+1)*100 <= siteCut

	lo, hi int   // the date range as document numbers [lo, hi)
	lang   int32 // required language index, or -1

	ids     []int32   // the text's terms in this index, in score order (see queryText)
	idf     []float64 // by ids index
	phrases [][]int   // quoted phrases, as indexes into ids
	kp      [][]int32 // by key_phrases phrase: its terms (-1: one the index lacks)

	lists []cursor // the document lists every match is in, shortest first
	heap  []entry  // the best matches kept; in result order once collect returns

	idx, cand, next []uint32 // scratch space of phrase checks
}

// plan resolves the query against layer i. It returns nil when nothing of
// the layer can match.
func (l *Layers) plan(i int, q *Query, text *queryText, expr *keyphrase.Expr) *plan {
	ix := l.ixs[i]
	p := &plan{ix: ix, layer: i, st: &l.st, siteMap: l.siteMaps[i], lang: -1, idf: text.idf, phrases: text.phrases}
	p.siteCut = p.st.sites * int64(100-q.TrafficRank)
	p.lo, p.hi = ix.c.Window(q.From, q.To)
	if p.lo >= p.hi {
		return nil
	}
	for _, term := range text.terms {
		id, ok := ix.terms[term]
		if !ok {
			return nil // every term must match
		}
		p.ids = append(p.ids, id)
	}
	if q.Language != "" {
		l, ok := ix.langs[strings.ToLower(q.Language)]
		if !ok {
			return nil
		}
		p.lang = l
	}
	p.lists = make([]cursor, 0, len(p.ids)+2)
	for _, t := range p.ids {
		p.lists = append(p.lists, p.termCursor(t))
	}
	if expr != nil && !p.planKeyPhrases(expr) {
		return nil
	}
	if len(q.Sites) > 0 && !p.planSites(q.Sites) {
		return nil
	}
	for _, c := range p.lists {
		if len(c.docs) == 0 {
			return nil
		}
	}
	slices.SortFunc(p.lists, func(x, y cursor) int { return len(x.docs) - len(y.docs) })
	return p
}

// planKeyPhrases resolves the expression's phrases and adds the terms of
// the phrases every match needs to the lists. It returns false when a
// required phrase cannot match.
func (p *plan) planKeyPhrases(expr *keyphrase.Expr) bool {
	for _, ph := range expr.Phrases() {
		var ids []int32
		for _, term := range ph.Terms {
			id, ok := p.ix.terms[term]
			if !ok {
				id = -1
			}
			ids = append(ids, id)
		}
		p.kp = append(p.kp, ids)
	}
	for _, k := range expr.Required() {
		for _, t := range p.kp[k] {
			if t < 0 {
				return false
			}
			if !slices.ContainsFunc(p.lists, func(c cursor) bool { return c.term == t }) {
				p.lists = append(p.lists, p.termCursor(t))
			}
		}
	}
	return true
}

// planSites adds the documents of the requested sites as one list. It
// returns false when none of the sites is in the corpus.
func (p *plan) planSites(sites []string) bool {
	var lists [][]int32
	for _, name := range sites {
		if s, ok := p.ix.sites[NormalizeSite(name)]; ok {
			lists = append(lists, within(p.ix.siteDocs[s], p.lo, p.hi))
		}
	}
	if len(lists) == 0 {
		return false
	}
	docs := lists[0]
	if len(lists) > 1 {
		docs = slices.Concat(lists...)
		slices.Sort(docs)
		docs = slices.Compact(docs)
	}
	p.lists = append(p.lists, cursor{docs: docs, term: -1})
	return true
}

// termCursor returns a cursor over the term's documents within the date
// range.
func (p *plan) termCursor(t int32) cursor {
	return cursor{docs: within(p.ix.termDocs(t), p.lo, p.hi), term: t}
}

// within returns the part of the ascending docs that lies in [lo, hi).
func within(docs []int32, lo, hi int) []int32 {
	i, _ := slices.BinarySearch(docs, int32(lo))
	j, _ := slices.BinarySearch(docs[i:], int32(hi))
	return docs[i : i+j]
}

// collect walks the matches, counting them and keeping the best k in
// p.heap, which it leaves in result order.
func (p *plan) collect(q *Query, expr *keyphrase.Expr, k int) int {
	score := q.Order != ByDate && len(p.ids) > 0
	ranks := p.ix.idRank
	if q.Order == ByDate {
		ranks = p.ix.dateRank
	}
	total := 0
	visit := func(d int32) {
		if !p.accept(q, expr, d) {
			return
		}
		total++
		if k == 0 {
			return
		}
		e := entry{doc: d, rank: ranks[d]}
		if score {
			e.score = p.score(d)
		}
		p.push(e, k)
	}
	if len(p.lists) == 0 {
		// Newest first, so that ByDate fills its heap with the winners
		// early and rejects the rest with one comparison each.
		for d := p.hi - 1; d >= p.lo; d-- {
			visit(int32(d))
		}
	} else {
		// The shortest list drives; every other list must hold its
		// documents too.
		driver, others := &p.lists[0], p.lists[1:]
	next:
		for i, d := range driver.docs {
			driver.i = i
			for j := range others {
				c := &others[j]
				if !c.seek(d) {
					if c.i == len(c.docs) {
						break next
					}
					continue next
				}
			}
			visit(d)
		}
	}
	slices.SortFunc(p.heap, func(x, y entry) int {
		if x.better(y) {
			return -1
		}
		return 1
	})
	return total
}

// accept applies the per-document filters, the quoted phrases and the
// key_phrases expression to document d, which has every term of the text.
func (p *plan) accept(q *Query, expr *keyphrase.Expr, d int32) bool {
	ix := p.ix
	if p.lang >= 0 && ix.lang[d] != p.lang ||
		q.TrafficRank > 0 && !p.keptBySite(ix.siteRank[d]) ||
		q.EncodedOnly && !ix.encoded[d] {
		return false
	}
	for _, ph := range p.phrases {
		idx := p.idx[:0]
		for _, k := range ph {
			i, _ := p.posting(p.ids[k], d)
			idx = append(idx, i)
		}
		p.idx = idx
		if !p.phraseAt(idx) {
			return false
		}
	}
	return expr == nil || expr.Eval(func(k int) bool { return p.keyPhraseAt(k, d) })
}

// keyPhraseAt reports whether document d contains key_phrases phrase k.
func (p *plan) keyPhraseAt(k int, d int32) bool {
	idx := p.idx[:0]
	for _, t := range p.kp[k] {
		if t < 0 {
			return false
		}
		i, ok := p.posting(t, d)
		if !ok {
			return false
		}
		idx = append(idx, i)
	}
	p.idx = idx
	return len(idx) == 1 || p.phraseAt(idx)
}

// keptBySite reports whether traffic_rank n keeps the site at rank r of
// this index: the site at position p (0 = busiest) of S sites stays when
// (p+1)*100 <= S*(100-n), in int64. Of 5 sites 95 keeps none.
func (p *plan) keptBySite(r int32) bool {
	return (int64(p.siteMap[r])+1)*100 <= p.siteCut
}

// cursor walks an ascending document list.
type cursor struct {
	docs []int32
	i    int   // current index in docs
	term int32 // the term id, or -1 for a list that is not a term's
}

// seek moves the cursor forward to the first document >= d and reports
// whether it is d.
func (c *cursor) seek(d int32) bool {
	j, found := slices.BinarySearch(c.docs[c.i:], d)
	c.i += j
	return found
}
