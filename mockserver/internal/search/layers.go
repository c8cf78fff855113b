package search

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

// Layers searches several indexes, whose articles have distinct IDs, as
// one corpus: a shared base index and small overlays of articles added to
// it. It answers exactly what one Index over all their articles would: the
// same matches, scores to the bit and order. An Index alone is searched as
// Layers of one. Documents are numbered through the layers, first index
// first (Locate maps a number back).
//
// What makes it exact:
//   - Document counts, frequencies and field lengths add up (see stats).
//   - A score sums the terms in the order one index would number them, by
//     first appearance in date order (see termKey).
//   - Each layer keeps its best matches in the result order, ties by ID,
//     and the layers' lists are merged by it.
//   - traffic_rank ranks the sites of all layers (see siteMaps).
type Layers struct {
	ixs    []*Index
	starts []int32 // by layer: the number of its first document; then the total
	st     stats
	// siteMaps maps, by layer, a site rank of that layer to the site's rank
	// among the sites of all layers.
	siteMaps [][]int32
}

// stats are the figures of the whole corpus that scores and traffic ranks
// depend on. The average field lengths are exact whatever the layering:
// totals of whole numbers, divided once.
type stats struct {
	docs  int
	avg   [numFields]float64
	sites int64 // distinct sites, for traffic_rank
}

// NewLayers returns the layers of the indexes, in that order, in O(sites).
func NewLayers(ixs ...*Index) *Layers {
	l := &Layers{ixs: slices.Clip(ixs), starts: make([]int32, len(ixs)+1)}
	var total [numFields]uint64
	for i, ix := range ixs {
		l.starts[i+1] = l.starts[i] + int32(len(ix.titleEnd))
		for f := range numFields {
			total[f] += ix.fieldLen[f]
		}
	}
	l.st.docs = int(l.starts[len(ixs)])
	if l.st.docs > 0 {
		for f := range numFields {
			l.st.avg[f] = float64(total[f]) / float64(l.st.docs)
		}
	}
	l.st.sites = int64(l.rankSites())
	return l
}

// rankSites ranks the sites of all layers as one index would, makes
// siteMaps, and returns the number of sites.
func (l *Layers) rankSites() int {
	traffic := map[string]int{}
	for _, ix := range l.ixs {
		for _, st := range ix.ranked {
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
	for _, ix := range l.ixs {
		m := make([]int32, len(ix.ranked))
		for r, st := range ix.ranked {
			m[r] = rank[st.domain]
		}
		l.siteMaps = append(l.siteMaps, m)
	}
	return len(all)
}

// Len returns the number of documents of all layers.
func (l *Layers) Len() int { return int(l.starts[len(l.ixs)]) }

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

// norm is the field's weight over its BM25 length normalisation,
// 1 - b + b * length / average length.
func (st *stats) norm(f int, length uint32) float64 {
	norm := 1.0
	if avg := st.avg[f]; avg > 0 {
		norm = 1 - b + b*float64(length)/avg
	}
	return fieldWeights[f] / norm
}

// idf is the BM25 inverse document frequency of a term found in df
// documents; it is always positive.
func (st *stats) idf(df int) float64 {
	return math.Log(1 + (float64(st.docs)-float64(df)+0.5)/(float64(df)+0.5))
}

// queryText is the free text of a query resolved against every layer: its
// distinct terms in the order one index of them all numbers them.
type queryText struct {
	terms   []string
	idf     []float64 // by term
	phrases [][]int   // the quoted phrases of two terms or more, as indexes into terms
}

// termKey places a term's first occurrence in the whole corpus: the date
// and ID of its first document and its first position there.
type termKey struct {
	published time.Time
	id        string
	pos       uint32
}

func (a termKey) compare(b termKey) int {
	return cmp.Or(a.published.Compare(b.published), strings.Compare(a.id, b.id), cmp.Compare(a.pos, b.pos))
}

// firstKey returns the termKey of term t within the index.
func (ix *Index) firstKey(t int32) termKey {
	i := ix.termStart[t]
	a := &ix.c.Articles[ix.docs[i]]
	pos, _ := uvarint(ix.positions(int(i)))
	return termKey{a.Published, a.ID, pos}
}

// analyse splits the text into terms and resolves them; false means a
// term is in no layer, so nothing matches.
func (l *Layers) analyse(text string) (*queryText, bool) {
	type term struct {
		text string
		key  termKey // where the whole corpus has it first
		df   int     // in the whole corpus
	}
	var terms []term // distinct
	var phrases [][]string
	var tk analysis.Tokenizer
	quoted := false
	for seg := range strings.SplitSeq(text, `"`) {
		var phrase []string
		tk.Reset(seg)
		for tok, ok := tk.Next(); ok; tok, ok = tk.Next() {
			if !slices.ContainsFunc(terms, func(t term) bool { return t.text == string(tok) }) {
				terms = append(terms, term{text: string(tok)})
			}
			if quoted {
				phrase = append(phrase, string(tok))
			}
		}
		if len(phrase) > 1 {
			phrases = append(phrases, phrase)
		}
		quoted = !quoted
	}
	for k := range terms {
		t := &terms[k]
		found := false
		for _, ix := range l.ixs {
			id, ok := ix.terms[t.text]
			if !ok {
				continue
			}
			t.df += int(ix.termStart[id+1] - ix.termStart[id])
			if key := ix.firstKey(id); !found || key.compare(t.key) < 0 {
				t.key = key
			}
			found = true
		}
		if !found {
			return nil, false
		}
	}
	slices.SortFunc(terms, func(x, y term) int { return x.key.compare(y.key) })
	qt := &queryText{}
	for _, t := range terms {
		qt.terms = append(qt.terms, t.text)
		qt.idf = append(qt.idf, l.st.idf(t.df))
	}
	for _, phrase := range phrases {
		var p []int
		for _, word := range phrase {
			p = append(p, slices.Index(qt.terms, word))
		}
		qt.phrases = append(qt.phrases, p)
	}
	return qt, true
}
