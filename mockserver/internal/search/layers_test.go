package search_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// layeredCorpus is a corpus split into a base and overlays.
type layeredCorpus struct {
	whole  *corpus.Corpus
	layers []*corpus.Corpus // base first
}

// randomLayered makes n random articles and splits them into a base and
// overlays: overlays hold articles older than, newer than and among the
// base's, and the only articles of some sites and of one language. With
// bySite, every article of a site has the site's traffic, as AddArticles
// makes them; without, traffic varies by article, so a site's traffic (the
// highest of its articles) may differ between layers.
func randomLayered(r *rand.Rand, n, overlays int, bySite bool) layeredCorpus {
	siteTraffic := map[string]int{}
	var all []doc
	parts := make([][]doc, overlays+1)
	for i, id := range r.Perm(n) {
		d := doc{
			id:      id + 1,
			title:   randomText(r, 4),
			desc:    randomText(r, 6),
			body:    randomText(r, 30),
			site:    []string{"a.com", "b.org", "c.net", "d.io", "e.gov", "f.net"}[r.IntN(6)],
			lang:    []string{"en", "es", "fr", "de"}[r.IntN(4)],
			traffic: r.IntN(101),
			hour:    r.IntN(60),
			encoded: r.IntN(2) == 0,
		}
		if bySite {
			if _, ok := siteTraffic[d.site]; !ok {
				siteTraffic[d.site] = r.IntN(101)
			}
			d.traffic = siteTraffic[d.site]
		}
		if i%17 == 1 { // some articles repeat another's text: same-score ties
			d.title, d.desc, d.body = all[0].title, all[0].desc, all[0].body
		}
		layer := 0
		switch {
		case overlays == 0:
		case d.site == "e.gov" || d.site == "f.net" || d.lang == "de":
			layer = 1 + r.IntN(overlays) // only in overlays
		case r.IntN(3) == 0:
			layer = 1 + r.IntN(overlays)
			if r.IntN(2) == 0 { // before or after every base article
				d.hour = []int{-10 - r.IntN(20), 70 + r.IntN(20)}[r.IntN(2)]
			}
		}
		all = append(all, d)
		parts[layer] = append(parts[layer], d)
	}
	lc := layeredCorpus{whole: build(all)}
	for _, p := range parts {
		lc.layers = append(lc.layers, build(p))
	}
	return lc
}

// layersOf indexes every layer of lc.
func layersOf(lc layeredCorpus) *search.Layers {
	var ixs []*search.Index
	for _, c := range lc.layers {
		ixs = append(ixs, search.New(c))
	}
	return search.NewLayers(ixs...)
}

// sameResults searches the whole corpus's index and the layers and
// reports the first difference: totals, article IDs, order and scores to
// the bit.
func sameResults(whole *search.Index, layers *search.Layers, q search.Query, offset, limit int) error {
	want, werr := whole.Search(q, offset, limit)
	got, gerr := layers.Search(q, offset, limit)
	if werr != nil || gerr != nil {
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			return fmt.Errorf("errors %v (one index) and %v (layers)", werr, gerr)
		}
		return nil
	}
	if want.Total != got.Total || len(want.Hits) != len(got.Hits) || (want.Hits == nil) != (got.Hits == nil) {
		return fmt.Errorf("total %d with %d hits (nil %t), want %d with %d (nil %t)", got.Total, len(got.Hits), got.Hits == nil,
			want.Total, len(want.Hits), want.Hits == nil)
	}
	for i, w := range want.Hits {
		g := got.Hits[i]
		wid, gid := whole.Corpus().Articles[w.Doc].ID, layers.Article(g.Doc).ID
		if wid != gid || math.Float64bits(w.Score) != math.Float64bits(g.Score) {
			return fmt.Errorf("hit %d: %s score %v (%#x), want %s score %v (%#x)", offset+i, gid, g.Score,
				math.Float64bits(g.Score), wid, w.Score, math.Float64bits(w.Score))
		}
	}
	return nil
}

// TestLayersAnswerAsOneIndex: a corpus searched as a base and overlays
// answers every query exactly as one index over all its articles: totals,
// articles, order and scores to the bit, for every filter, both orders and
// any window.
func TestLayersAnswerAsOneIndex(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(29, 2))
	hits := 0
	for round := range 12 {
		lc := randomLayered(r, 40+round*60, round%4, round%2 == 0)
		whole, layers := search.New(lc.whole), layersOf(lc)
		if layers.Len() != len(lc.whole.Articles) {
			t.Fatalf("round %d: Len %d, want %d", round, layers.Len(), len(lc.whole.Articles))
		}
		for range 400 {
			q := randomQuery(r)
			if r.IntN(8) == 0 {
				q.Sites = append(q.Sites, "f.net")
			}
			offset, limit := 0, len(lc.whole.Articles)
			if r.IntN(2) == 0 {
				offset, limit = r.IntN(30), r.IntN(30)
			}
			if err := sameResults(whole, layers, q, offset, limit); err != nil {
				t.Fatalf("round %d (%d layers), query %+v, offset %d, limit %d: %v", round, len(lc.layers), q, offset, limit, err)
			}
			res, _ := whole.Search(q, offset, limit)
			hits += len(res.Hits)
		}
	}
	if hits < 1000 {
		t.Fatalf("only %d hits in all: the queries prove little", hits)
	}
}

// TestLayersOfTheDefaultCorpus splits the default corpus into a base of
// most articles and overlays, and compares real-text queries.
func TestLayersOfTheDefaultCorpus(t *testing.T) {
	t.Parallel()
	c := corpus.Default()
	r := rand.New(rand.NewPCG(29, 3))
	parts := make([][]corpus.Article, 3)
	for i := range c.Articles {
		layer := 0
		switch {
		case i < 40 || i >= len(c.Articles)-40: // the oldest and the newest
			layer = 1
		case r.IntN(100) == 0:
			layer = 2
		}
		parts[layer] = append(parts[layer], c.Articles[i])
	}
	var ixs []*search.Index
	for _, p := range parts {
		ixs = append(ixs, search.New(&corpus.Corpus{Articles: p}))
	}
	layers := search.NewLayers(ixs...)
	whole := defaultIndex()
	qs := append(benchQueries(corpus.Default(), search.ByRelevance), benchQueries(corpus.Default(), search.ByDate)...)
	for i, q := range qs {
		a := &c.Articles[r.IntN(len(c.Articles))]
		words := strings.Fields(a.Title)
		switch i % 4 {
		case 0:
			q.Sites, q.From, q.To = nil, a.Published.Add(-72*3600e9), a.Published
		case 1:
			q = search.Query{Text: `"` + strings.Join(words[:min(2, len(words))], " ") + `"`, Order: q.Order, TrafficRank: 50}
		case 2:
			q = search.Query{Text: words[0], KeyPhrases: "'" + words[len(words)-1] + "' or not '" + words[0] + "'", Language: a.Language, Order: q.Order}
		case 3:
			q = search.Query{Text: words[len(words)-1], EncodedOnly: true, Order: q.Order}
		}
		for _, w := range [][2]int{{0, 25}, {25, 25}, {0, 1000}} {
			if err := sameResults(whole, layers, q, w[0], w[1]); err != nil {
				t.Fatalf("query %+v, window %v: %v", q, w, err)
			}
		}
	}
}

// FuzzLayers compares one index and layers on random corpora and queries.
func FuzzLayers(f *testing.F) {
	f.Add(uint64(1), uint8(40), uint8(2), uint16(0))
	f.Add(uint64(7), uint8(200), uint8(3), uint16(99))
	f.Fuzz(func(t *testing.T, seed uint64, n, overlays uint8, query uint16) {
		r := rand.New(rand.NewPCG(seed, uint64(query)))
		lc := randomLayered(r, 1+int(n), int(overlays%5), seed%2 == 0)
		whole, layers := search.New(lc.whole), layersOf(lc)
		for range 20 {
			q := randomQuery(r)
			offset, limit := r.IntN(20), r.IntN(40)
			if err := sameResults(whole, layers, q, offset, limit); err != nil {
				t.Fatalf("query %+v, offset %d, limit %d: %v", q, offset, limit, err)
			}
		}
	})
}
