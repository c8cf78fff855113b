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
