package search

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

// stats are the figures of a whole corpus that scores and traffic ranks
// depend on: the number of documents, the average length of each field and
// the number of sites. An Index has its own (Index.own); a Layers adds up
// those of its indexes, so that a search of layers scores exactly as one
// index over all their articles would. The rest of a score (a term's
// document frequency, a document's field lengths) is read from the
// indexes as the search goes.
type stats struct {
	docs int
	avg  [numFields]float64
	// norms holds fieldNorm by field and length, for the lengths below
	// len(norms[f]); longer fields are computed as they are scored.
	norms [numFields][]float64
	sites int64 // distinct sites, for traffic_rank
}

// maxNormTable bounds a stats's tables of norms: 3 x 8 KB at most, however
// long a loaded article is.
const maxNormTable = 1024

// layerSum is what one index adds to stats.
type layerSum struct {
	fieldLen [numFields]uint64 // the total length of each field, in terms
	maxLen   [numFields]uint32 // the longest of each field
}

// summarise adds up the index's field lengths and makes its own stats.
func (ix *Index) summarise() {
	var sum layerSum
	for d := range ix.titleEnd {
		for f, l := range ix.fieldLens(int32(d)) {
			sum.fieldLen[f] += uint64(l)
			sum.maxLen[f] = max(sum.maxLen[f], l)
		}
	}
	ix.sum = sum
	ix.own = newStats([]*Index{ix}, len(ix.sites))
}

// fieldLens returns the lengths of document d's title, description and
// body, in terms.
func (ix *Index) fieldLens(d int32) [numFields]uint32 {
	t, e := ix.titleEnd[d], ix.descEnd[d]
	return [numFields]uint32{t, e - t - 1, ix.bodyLen[d]}
}

// newStats adds up the figures of the indexes, which have sites distinct
// sites between them. The average field lengths are exact whatever the
// layering: totals of whole numbers, divided once.
func newStats(ixs []*Index, sites int) *stats {
	st := &stats{sites: int64(sites)}
	var total [numFields]uint64
	var longest [numFields]uint32
	for _, ix := range ixs {
		st.docs += len(ix.titleEnd)
		for f := range numFields {
			total[f] += ix.sum.fieldLen[f]
			longest[f] = max(longest[f], ix.sum.maxLen[f])
		}
	}
	for f := range numFields {
		if st.docs > 0 {
			st.avg[f] = float64(total[f]) / float64(st.docs)
		}
		tab := make([]float64, min(int(longest[f])+1, maxNormTable))
		for l := range tab {
			tab[l] = fieldNorm(f, uint32(l), st.avg[f])
		}
		st.norms[f] = tab
	}
	return st
}

// fieldNorm is the factor a term frequency in field f of the given length
// is multiplied by: the field's weight over its BM25 length normalisation,
// 1 - b + b * length / average length.
func fieldNorm(f int, length uint32, avg float64) float64 {
	norm := 1.0
	if avg > 0 {
		norm = 1 - b + b*float64(length)/avg
	}
	return fieldWeights[f] / norm
}

// norm returns fieldNorm for field f of the given length.
func (st *stats) norm(f int, length uint32) float64 {
	if t := st.norms[f]; int(length) < len(t) {
		return t[length]
	}
	return fieldNorm(f, length, st.avg[f])
}

// idf returns the inverse document frequency of a term in df documents.
func (st *stats) idf(df int) float64 { return logIDF(float64(st.docs), float64(df)) }

// df returns the number of documents term t occurs in.
func (ix *Index) df(t int32) int { return int(ix.termStart[t+1] - ix.termStart[t]) }

// rankedSites returns the index's sites in the order of siteRank, made on
// first use.
func (ix *Index) rankedSites() []siteTraffic {
	if p := ix.ranked.Load(); p != nil {
		return *p
	}
	ranked := ix.sitesByTraffic()
	ix.ranked.Store(&ranked)
	return ranked
}

// FindID returns the document whose article has the given ID, by binary
// search over the documents in ID order (made on first use).
func (ix *Index) FindID(id string) (int32, bool) {
	var byID []int32
	if p := ix.byID.Load(); p != nil {
		byID = *p
	} else {
		byID = make([]int32, len(ix.idRank))
		for d, r := range ix.idRank {
			byID[r] = int32(d)
		}
		ix.byID.Store(&byID)
	}
	i, found := slices.BinarySearchFunc(byID, id, func(d int32, id string) int {
		return strings.Compare(ix.c.Articles[d].ID, id)
	})
	if !found {
		return -1, false
	}
	return byID[i], true
}

// Layers searches several indexes as one corpus: typically a large base
// index that many corpus versions share and small overlays of articles
// added to it. A search of Layers answers exactly what one Index over all
// their articles would: the same matches, the same scores to the bit and
// the same order, for every query. The layers' articles must have distinct
// IDs.
//
// Its documents are numbered through the layers: those of the first index
// come first, then those of the second, and so on. That numbering is not
// the date order of one index over all the articles; Locate maps a number
// back to its layer.
//
// What makes a search of layers exact:
//   - Document counts, document frequencies and total field lengths add
//     up, so idf and the length normalisation are those of the whole; they
//     are computed per search (idf) and per Layers (a table of norms by
//     field length, O(longest field)), never per document.
//   - A score sums the terms' contributions in the order one index would
//     number the terms (by first appearance in date order), found from
//     each term's first posting in each layer.
//   - Ties break on the article ID (relevance) or the date and then the ID
//     (date order): each layer keeps its best matches in that order and the
//     layers' lists are merged by it.
//   - traffic_rank ranks the sites of all layers: each layer maps its own
//     site ranks to those (O(sites) per Layers).
//
// Removing base documents (a tombstone set) would fit the same scheme:
// subtract the removed documents' counts, term frequencies and field
// lengths from stats, drop sites left with no document, and reject the
// removed documents where the filters run (accept).
type Layers struct {
	ixs    []*Index
	starts []int32 // by layer: the number of its first document; then the total
	st     *stats
	// siteMaps maps, by layer, a site rank of that layer to the site's rank
	// among the sites of all layers; nil where they are the same.
	siteMaps [][]int32
}

// NewLayers returns the layers of the indexes, in that order. It costs
// O(sites of the first + longest field + the other layers' sites), not
// O(documents).
func NewLayers(ixs ...*Index) *Layers {
	l := &Layers{ixs: slices.Clip(ixs), starts: make([]int32, len(ixs)+1)}
	for i, ix := range ixs {
		l.starts[i+1] = l.starts[i] + int32(len(ix.titleEnd))
	}
	sites, ok := l.insertSites()
	if !ok {
		sites = l.rankSites()
	}
	l.st = newStats(ixs, sites)
	return l
}

// insertSites ranks the sites of all layers as one index would when the
// sites the first layer has are no busier in the others (as AddArticles
// makes them): the first layer's sites keep their order, and the others'
// new sites are placed among them. It returns the number of sites, or
// false when that does not hold. It costs O(the first layer's sites +
// the others' sites * log).
func (l *Layers) insertSites() (int, bool) {
	base := l.ixs[0]
	baseRanked := base.rankedSites()
	baseRank := func(domain string) (int32, bool) {
		s, ok := base.sites[domain]
		if !ok {
			return 0, false
		}
		return base.siteRank[base.siteDocs[s][0]], true
	}
	// The new sites, with the highest traffic any layer gives them.
	var extra []siteTraffic
	at := map[string]int{}
	for _, ix := range l.ixs[1:] {
		for _, st := range ix.rankedSites() {
			if r, ok := baseRank(st.domain); ok {
				if st.traffic > baseRanked[r].traffic {
					return 0, false
				}
				continue
			}
			if i, ok := at[st.domain]; !ok {
				at[st.domain] = len(extra)
				extra = append(extra, siteTraffic{domain: st.domain, traffic: st.traffic})
			} else if st.traffic > extra[i].traffic {
				extra[i].traffic = st.traffic
			}
		}
	}
	slices.SortFunc(extra, compareSites)
	// The rank of the j-th new site is the number of base sites before it,
	// plus j; a base site moves down by the new sites before it.
	extraRank := make(map[string]int32, len(extra))
	var baseMap []int32
	if len(extra) > 0 {
		baseMap = make([]int32, len(baseRanked))
		r := 0
		for j, st := range extra {
			before, _ := slices.BinarySearchFunc(baseRanked, st, compareSites)
			for ; r < before; r++ {
				baseMap[r] = int32(r + j)
			}
			extraRank[st.domain] = int32(before + j)
		}
		for ; r < len(baseRanked); r++ {
			baseMap[r] = int32(r + len(extra))
		}
		if n := len(baseMap); n == 0 || baseMap[n-1] == int32(n-1) {
			baseMap = nil // every new site comes after the base's
		}
	}
	l.siteMaps = make([][]int32, len(l.ixs))
	l.siteMaps[0] = baseMap
	for i, ix := range l.ixs[1:] {
		ranked := ix.rankedSites()
		m := make([]int32, len(ranked))
		same := true
		for r, st := range ranked {
			if br, ok := baseRank(st.domain); !ok {
				m[r] = extraRank[st.domain]
			} else if baseMap != nil {
				m[r] = baseMap[br]
			} else {
				m[r] = br
			}
			same = same && m[r] == int32(r)
		}
		if !same {
			l.siteMaps[i+1] = m
		}
	}
	return len(baseRanked) + len(extra), true
}

// rankSites ranks the sites of all layers as one index would, in general:
// a site's traffic is the highest any layer gives it. It costs O(sites *
// log).
func (l *Layers) rankSites() int {
	traffic := map[string]int{}
	for _, ix := range l.ixs {
		for _, st := range ix.rankedSites() {
			if t, ok := traffic[st.domain]; !ok || st.traffic > t {
				traffic[st.domain] = st.traffic
			}
		}
	}
	all := make([]siteTraffic, 0, len(traffic))
	for domain, t := range traffic {
		all = append(all, siteTraffic{domain: domain, traffic: t})
	}
	slices.SortFunc(all, compareSites)
	rank := make(map[string]int32, len(all))
	for r, st := range all {
		rank[st.domain] = int32(r)
	}
	l.siteMaps = make([][]int32, len(l.ixs))
	for i, ix := range l.ixs {
		ranked := ix.rankedSites()
		m := make([]int32, len(ranked))
		same := true
		for r, st := range ranked {
			m[r] = rank[st.domain]
			same = same && m[r] == int32(r)
		}
		if !same {
			l.siteMaps[i] = m
		}
	}
	return len(all)
}

// Len returns the number of documents of all layers.
func (l *Layers) Len() int { return int(l.starts[len(l.ixs)]) }

// Index returns layer i.
func (l *Layers) Index(i int) *Index { return l.ixs[i] }

// Start returns the number of layer i's first document.
func (l *Layers) Start(i int) int32 { return l.starts[i] }

// Locate returns the layer of document doc and its number in that layer.
func (l *Layers) Locate(doc int32) (layer int, local int32) {
	i := len(l.ixs) - 1
	for i > 0 && doc < l.starts[i] {
		i--
	}
	return i, doc - l.starts[i]
}

// Article returns the article of document doc.
func (l *Layers) Article(doc int32) *corpus.Article {
	i, d := l.Locate(doc)
	return &l.ixs[i].c.Articles[d]
}

// layeredScratches pools the working memory of searches of Layers.
var layeredScratches sync.Pool // of *layeredScratch

// layeredScratch is the working memory of one search of Layers besides
// each layer's scratch.
type layeredScratch struct {
	tk analysis.Tokenizer
	nl int // layers
	// ids holds, by distinct term of the text and then by layer, the term's
	// id in that layer or -1.
	ids     []int32
	keys    []termKey // by distinct term
	order   []int     // the distinct terms in the order one index numbers them
	idf     []float64 // by distinct term
	ss      []*scratch
	planned []bool
	next    []int // by layer: its next entry to merge
}

// termKey places a term's first occurrence in the whole corpus: the date
// and ID of the first document it occurs in and its first position there.
// One index numbers its terms in this order.
type termKey struct {
	published time.Time
	id        string
	pos       uint32
}

func (a termKey) compare(b termKey) int {
	if c := a.published.Compare(b.published); c != 0 {
		return c
	}
	if c := strings.Compare(a.id, b.id); c != 0 {
		return c
	}
	return int(a.pos) - int(b.pos)
}

// firstKey returns the termKey of term t within the index.
func (ix *Index) firstKey(t int32) termKey {
	i := ix.termStart[t]
	a := &ix.c.Articles[ix.docs[i]]
	pos, _ := uvarint(ix.positions(int(i)))
	return termKey{a.Published, a.ID, pos}
}

// analyse finds the distinct terms of the text in every layer, their
// order and their idf over all layers. It returns false when a term is in
// no layer: then nothing matches.
func (ls *layeredScratch) analyse(l *Layers, text string) bool {
	nl := len(l.ixs)
	ls.nl = nl
	ls.ids, ls.keys, ls.order, ls.idf = ls.ids[:0], ls.keys[:0], ls.order[:0], ls.idf[:0]
	for seg := range strings.SplitSeq(text, `"`) {
		ls.tk.Reset(seg)
	tokens:
		for tok, ok := ls.tk.Next(); ok; tok, ok = ls.tk.Next() {
			at := len(ls.ids)
			found := false
			for _, ix := range l.ixs {
				id, ok := ix.terms[string(tok)]
				if !ok {
					id = -1
				}
				found = found || ok
				ls.ids = append(ls.ids, id)
			}
			if !found {
				return false
			}
			row := ls.ids[at:]
			for prev := 0; prev < at; prev += nl {
				if slices.Equal(ls.ids[prev:prev+nl], row) {
					ls.ids = ls.ids[:at]
					continue tokens
				}
			}
		}
	}
	terms := len(ls.ids) / nl
	for t := range terms {
		var key termKey
		df, first := 0, true
		for i, ix := range l.ixs {
			id := ls.ids[t*nl+i]
			if id < 0 {
				continue
			}
			df += ix.df(id)
			if k := ix.firstKey(id); first || k.compare(key) < 0 {
				key, first = k, false
			}
		}
		ls.keys = append(ls.keys, key)
		ls.idf = append(ls.idf, l.st.idf(df))
		ls.order = append(ls.order, t)
	}
	slices.SortFunc(ls.order, func(x, y int) int { return ls.keys[x].compare(ls.keys[y]) })
	return true
}

// termsOf returns, in the order one index numbers them, the ids of the
// text's terms in layer i and their idf.
func (ls *layeredScratch) termsOf(i int, ids []int32, idf []float64) ([]int32, []float64) {
	for _, t := range ls.order {
		ids = append(ids, ls.ids[t*ls.nl+i])
		idf = append(idf, ls.idf[t])
	}
	return ids, idf
}

// Search runs the query over all layers as Index.Search does over one
// index; Hit.Doc numbers documents through the layers.
func (l *Layers) Search(q Query, offset, limit int) (Result, error) {
	expr, err := parseKeyPhrases(q.KeyPhrases)
	if err != nil {
		return Result{}, err
	}
	offset, limit = max(offset, 0), max(limit, 0)
	ls, _ := layeredScratches.Get().(*layeredScratch)
	if ls == nil {
		ls = &layeredScratch{}
	}
	defer layeredScratches.Put(ls)
	if !ls.analyse(l, q.Text) {
		return Result{}, nil
	}
	nl := len(l.ixs)
	ls.ss, ls.planned, ls.next = ls.ss[:0], ls.planned[:0], ls.next[:0]
	defer func() {
		for _, s := range ls.ss {
			s.release()
		}
		clear(ls.ss)
	}()
	inRange := 0
	for i, ix := range l.ixs {
		s := getScratch(ix)
		ls.ss = append(ls.ss, s)
		ok := s.plan(ix, &q, expr, l.st, l.siteMaps[i], ls, i)
		ls.planned = append(ls.planned, ok)
		ls.next = append(ls.next, 0)
		s.heap = s.heap[:0]
		if ok {
			inRange += s.hi - s.lo
		}
	}
	// Each layer keeps its best matches up to the window's end.
	need := 0
	if limit > 0 && offset < inRange {
		need = offset + min(limit, inRange-offset)
	}
	total, kept := 0, 0
	for i, ix := range l.ixs {
		if !ls.planned[i] {
			continue
		}
		s := ls.ss[i]
		total += ix.collect(s, &q, expr, min(need, s.hi-s.lo))
		s.sortHeap()
		kept += len(s.heap)
	}
	if offset >= kept {
		return Result{Total: total}, nil
	}
	hits := make([]Hit, 0, min(limit, kept-offset))
	for n := 0; len(hits) < cap(hits); n++ {
		best := -1
		for i := range nl {
			if ls.next[i] < len(ls.ss[i].heap) && (best < 0 || l.before(q.Order, i, ls.ss[i].heap[ls.next[i]], best, ls.ss[best].heap[ls.next[best]])) {
				best = i
			}
		}
		s := ls.ss[best]
		e := s.heap[ls.next[best]]
		ls.next[best]++
		if n < offset {
			continue
		}
		h := Hit{Doc: l.starts[best] + e.doc, Score: e.score}
		if q.Order == ByDate && len(s.ids) > 0 {
			h.Score = l.ixs[best].scoreSearched(s, e.doc)
		}
		hits = append(hits, h)
	}
	return Result{Total: total, Hits: hits}, nil
}

// before reports whether match x of layer i comes before match y of layer
// j in the result order: by score (relevance) or date (newest first), then
// by article ID, as the tie-breaking ranks of one index order them.
func (l *Layers) before(order Order, i int, x entry, j int, y entry) bool {
	a, b := &l.ixs[i].c.Articles[x.doc], &l.ixs[j].c.Articles[y.doc]
	if order == ByDate {
		if c := b.Published.Compare(a.Published); c != 0 {
			return c < 0
		}
	} else if x.score != y.score {
		return x.score > y.score
	}
	return a.ID < b.ID
}
