package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// TestInsertSitesRanksAsSorting: the fast ranking of NewLayers (the base's
// sites keep their order, new ones are placed among them) gives every
// layer the site ranks of ranking all sites afresh.
func TestInsertSitesRanksAsSorting(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 9))
	traffic := map[string]int{}
	layer := func(n int, sites []string) *Index {
		c := &corpus.Corpus{}
		for i := range n {
			site := sites[r.IntN(len(sites))]
			if _, ok := traffic[site]; !ok {
				traffic[site] = r.IntN(5) * 25 // ties, broken by domain
			}
			c.Articles = append(c.Articles, corpus.Article{ID: fmt.Sprintf("%024x", r.Uint64()), Title: "word",
				Site: site, Language: "en", Traffic: traffic[site], Published: time.Unix(int64(i), 0).UTC()})
		}
		return New(c)
	}
	var baseSites, newSites []string
	for i := range 40 {
		baseSites = append(baseSites, fmt.Sprintf("base%02d.com", i))
		newSites = append(newSites, fmt.Sprintf("new%02d.com", i))
	}
	for round := range 20 {
		clear(traffic)
		ixs := []*Index{layer(300, baseSites)}
		for range 1 + round%3 {
			sites := slices.Concat(baseSites[:r.IntN(40)], newSites[:r.IntN(40)*(round%4)/3])
			if len(sites) == 0 {
				sites = baseSites[:1]
			}
			ixs = append(ixs, layer(1+r.IntN(30), sites))
		}
		fast := &Layers{ixs: ixs}
		n, ok := fast.insertSites()
		if !ok {
			t.Fatalf("round %d: insertSites refused consistent traffic", round)
		}
		slow := &Layers{ixs: ixs}
		if m := slow.rankSites(); m != n {
			t.Fatalf("round %d: %d sites, want %d", round, n, m)
		}
		if diff := cmp.Diff(slow.siteMaps, fast.siteMaps); diff != "" {
			t.Fatalf("round %d (-sorted +inserted):\n%s", round, diff)
		}
	}
	// A base site busier in an overlay than in the base: not for insertSites.
	ixs := []*Index{layer(50, baseSites[:3])}
	c := &corpus.Corpus{Articles: []corpus.Article{{ID: "ffffffffffffffffffffffff", Title: "word", Site: baseSites[0],
		Language: "en", Traffic: traffic[baseSites[0]] + 1, Published: time.Unix(0, 0).UTC()}}}
	if _, ok := (&Layers{ixs: append(ixs, New(c))}).insertSites(); ok {
		t.Error("insertSites accepted a site busier in an overlay than in the base")
	}
}
