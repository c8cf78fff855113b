package search

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// wordyCorpus makes n articles of random words, enough for several chunks.
func wordyCorpus(n int) *corpus.Corpus {
	r := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("storm flood river city council vote election market shares rise fall café école Zürich " +
		"energy power grid solar wind coal strike union talks deal court ruling judge appeal")
	text := func(k int) string {
		out := make([]string, k)
		for i := range out {
			out[i] = words[min(r.IntN(len(words)), r.IntN(len(words)))]
		}
		return strings.Join(out, " ")
	}
	c := &corpus.Corpus{}
	for i := range n {
		c.Articles = append(c.Articles, corpus.Article{
			ID:    fmt.Sprintf("%024x", i),
			Title: text(1 + r.IntN(6)), Description: text(r.IntN(8)), Body: text(r.IntN(20)),
			Site: fmt.Sprintf("site%d.com", r.IntN(30)), Language: "en", Traffic: r.IntN(101),
			Published: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute),
		})
	}
	return c
}

func TestBuildIndependentOfWorkers(t *testing.T) {
	t.Parallel()
	c := wordyCorpus(3*minChunk + 17)
	one := build(c, 1)
	one.scratch = nil // pools hold functions, which never compare equal
	for _, workers := range []int{2, 3, 8} {
		got := build(c, workers)
		got.scratch = nil
		// DeepEqual is the fast check; cmp explains a difference.
		if !reflect.DeepEqual(one, got) {
			t.Errorf("%d workers (-want +got):\n%s", workers, cmp.Diff(one, got, cmp.AllowUnexported(Index{})))
		}
	}
}

func BenchmarkBuildWorkers(b *testing.B) {
	c := wordyCorpus(20000)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprint(w), func(b *testing.B) {
			for b.Loop() {
				build(c, w)
			}
		})
	}
}

// TestTermTable fills a term table past several doublings and finds every
// term again, and no term it was not given.
func TestTermTable(t *testing.T) {
	t.Parallel()
	var tab termTable
	var terms []string
	for i := range 5000 {
		term := fmt.Sprintf("t%d", i*7919)
		id, slot := tab.find([]byte(term), terms)
		if id != -1 {
			t.Fatalf("find(%q) before insert = %d, want -1", term, id)
		}
		terms = append(terms, term)
		tab.insert(slot, int32(i))
	}
	for i, term := range terms {
		if id, _ := tab.find([]byte(term), terms); id != int32(i) {
			t.Errorf("find(%q) = %d, want %d", term, id, i)
		}
	}
	for _, term := range []string{"", "t1", "t7918", "x"} {
		if id, _ := tab.find([]byte(term), terms); id != -1 {
			t.Errorf("find(%q) = %d, want -1 (never inserted)", term, id)
		}
	}
	if len(tab.slots) != 8192 || tab.used != 5000 {
		t.Errorf("table of %d slots holding %d terms, want 8192 holding 5000", len(tab.slots), tab.used)
	}
}
