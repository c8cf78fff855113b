package search_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// day0 is the publication day the test corpora start from.
var day0 = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)

// doc describes one hand-made article; zero fields get defaults.
type doc struct {
	id          int // becomes a 24-hex ID; defaults to the position + 1
	title, desc string
	body        string
	site        string
	lang        string
	traffic     int
	hour        int // hours after day0
	encoded     bool
}

// build makes a corpus of the docs, sorted as corpus.Corpus requires.
func build(docs []doc) *corpus.Corpus {
	c := &corpus.Corpus{}
	for i, d := range docs {
		id := d.id
		if id == 0 {
			id = i + 1
		}
		a := corpus.Article{
			ID:          fmt.Sprintf("%024x", id),
			Title:       d.title,
			Description: d.desc,
			Body:        d.body,
			Site:        cmp.Or(d.site, "example.com"),
			Language:    cmp.Or(d.lang, "en"),
			Traffic:     d.traffic,
			Published:   day0.Add(time.Duration(d.hour) * time.Hour),
		}
		if d.encoded {
			a.Entities = []corpus.Entity{}
			a.Embedding = []float32{0.5}
		}
		c.Articles = append(c.Articles, a)
	}
	slices.SortFunc(c.Articles, func(x, y corpus.Article) int {
		return cmp.Or(x.Published.Compare(y.Published), cmp.Compare(x.ID, y.ID))
	})
	return c
}

// ids runs the query and returns the IDs of all hits in order.
func ids(t testing.TB, ix *search.Index, q search.Query) []string {
	t.Helper()
	res, err := ix.Search(q, 0, 1000)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	if res.Total != len(res.Hits) {
		t.Fatalf("Search(%+v): Total %d but %d hits", q, res.Total, len(res.Hits))
	}
	out := []string{}
	for _, h := range res.Hits {
		out = append(out, ix.Corpus().Articles[h.Doc].ID)
	}
	return out
}

// hexIDs returns the IDs of the numbered docs.
func hexIDs(ns ...int) []string {
	out := []string{}
	for _, n := range ns {
		out = append(out, fmt.Sprintf("%024x", n))
	}
	return out
}
