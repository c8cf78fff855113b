package search_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// scoreOf returns the score of the article with the numbered ID for text.
func scoreOf(t *testing.T, ix *search.Index, text string, id int) float64 {
	t.Helper()
	res, err := ix.Search(search.Query{Text: text}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if ix.Corpus().Articles[h.Doc].ID == hexIDs(id)[0] {
			return h.Score
		}
	}
	t.Fatalf("%q does not find article %d", text, id)
	return 0
}

func TestBM25(t *testing.T) {
	t.Parallel()
	ix := search.New(build([]doc{
		{id: 1, title: "volcano erupts", desc: "lava flows", body: "people leave town quickly"},
		{id: 2, title: "people leave", desc: "lava flows", body: "volcano erupts town quickly"},
		{id: 3, title: "people leave", desc: "volcano flows", body: "lava erupts town quickly"},
		{id: 4, title: "market update", desc: "shares flat", body: "traders wait town quickly"},
		{id: 5, title: "market news", desc: "shares rise", body: "traders buy town today"},
	}))
	title, desc, body := scoreOf(t, ix, "volcano", 1), scoreOf(t, ix, "volcano", 3), scoreOf(t, ix, "volcano", 2)
	if !(title > desc && desc > body && body > 0) {
		t.Errorf("title %v, description %v, body %v: want title > description > body > 0", title, desc, body)
	}
	if diff := cmp.Diff(hexIDs(1, 3, 2), ids(t, ix, search.Query{Text: "volcano"})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// "volcano" (3 articles) is rarer than "town" (5): in equally long
	// bodies, the rarer term scores higher.
	if rare, common := scoreOf(t, ix, "volcano", 2), scoreOf(t, ix, "town", 2); !(rare > common && common > 0) {
		t.Errorf("rare term %v, common term %v: want rare > common > 0", rare, common)
	}
	// More matching terms score higher.
	if one, two := scoreOf(t, ix, "market", 4), scoreOf(t, ix, "market traders", 4); !(two > one) {
		t.Errorf("one term %v, two terms %v: want two > one", one, two)
	}
	// Repeating a query word does not change the score.
	if a, b := scoreOf(t, ix, "market", 4), scoreOf(t, ix, "market MARKET", 4); a != b {
		t.Errorf("repeated term %v, want %v", b, a)
	}
}

func TestDeterminism(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(21, 22))
	c := randomCorpus(r, 400)
	one, two := search.New(c), search.New(c)
	for range 200 {
		q := randomQuery(r)
		off, limit := r.IntN(30), 1+r.IntN(40)
		a, errA := one.Search(q, off, limit)
		b, errB := two.Search(q, off, limit)
		again, errC := one.Search(q, off, limit)
		if errA != nil || errB != nil || errC != nil {
			t.Fatalf("%+v: %v %v %v", q, errA, errB, errC)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%+v: two indexes differ (-first +second):\n%s", q, diff)
		}
		if diff := cmp.Diff(a, again); diff != "" {
			t.Errorf("%+v: repeated search differs (-first +second):\n%s", q, diff)
		}
	}
}

func TestConcurrentSearches(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	c := randomCorpus(r, 300)
	ix := search.New(c)
	var qs []search.Query
	var want []search.Result
	for range 50 {
		q := randomQuery(r)
		res, err := ix.Search(q, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		qs, want = append(qs, q), append(want, res)
	}
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range qs {
				k := (i + g*13) % len(qs)
				got, err := ix.Search(qs[k], 0, 10)
				if err != nil {
					t.Error(err)
					return
				}
				if diff := cmp.Diff(want[k], got); diff != "" {
					t.Errorf("%+v (-want +got):\n%s", qs[k], diff)
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}
