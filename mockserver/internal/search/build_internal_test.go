package search

import (
	"encoding/binary"
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
	for _, workers := range []int{2, 3, 8} {
		got := build(c, workers)
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

// TestStreamIDs round-trips term ids through a stream block, the large ones
// escaped.
func TestStreamIDs(t *testing.T) {
	t.Parallel()
	ids := []int32{0, 1, idEscape - 1, idEscape, idEscape + 1, 1 << 20, 1<<31 - 1, 7}
	var block []uint16
	for _, id := range ids {
		block = appendID(block, id)
	}
	if want := 4 + 4*3; len(block) != want {
		t.Errorf("%d ids took %d values, want %d (four escaped)", len(ids), len(block), want)
	}
	for _, want := range ids {
		var got int32
		got, block = nextID(block)
		if got != want {
			t.Errorf("read %d, want %d", got, want)
		}
	}
	if len(block) != 0 {
		t.Errorf("%d values left after the last id", len(block))
	}
}

// TestBuildManyTerms indexes a chunk with more distinct words than one
// uint16 numbers, so that its stream escapes ids, and checks the postings
// and positions of words on both sides of the escape.
func TestBuildManyTerms(t *testing.T) {
	t.Parallel()
	const docs, perDoc = 40, 2000 // 80,000 distinct words
	c := &corpus.Corpus{}
	for d := range docs {
		words := make([]string, perDoc)
		for i := range words {
			words[i] = fmt.Sprintf("w%dx%d", d, i)
		}
		c.Articles = append(c.Articles, corpus.Article{
			ID: fmt.Sprintf("%024x", d), Title: "common title", Body: strings.Join(words, " "),
			Site: "site.com", Language: "en",
			Published: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(d) * time.Minute),
		})
	}
	ix := build(c, 1)
	if n := len(ix.terms); n < 1<<16 {
		t.Fatalf("%d distinct terms, want more than 65,536 for the test to mean anything", n)
	}
	for _, tc := range []struct {
		d, i int
	}{{0, 0}, {32, 1500}, {39, perDoc - 1}, {39, 0}} {
		term := fmt.Sprintf("w%dx%d", tc.d, tc.i)
		id, ok := ix.terms[term]
		if !ok {
			t.Errorf("%s is not in the index", term)
			continue
		}
		if got := ix.termDocs(id); len(got) != 1 || got[0] != int32(tc.d) {
			t.Errorf("%s (term id %d) is in documents %v, want [%d]", term, id, got, tc.d)
			continue
		}
		// The body starts after "common title" (positions 0, 1) and the
		// gaps around the empty description (2, 3).
		pos, n := binary.Uvarint(ix.positions(int(ix.termStart[id])))
		if n <= 0 || pos != uint64(4+tc.i) {
			t.Errorf("%s (term id %d) is at position %d, want %d", term, id, pos, 4+tc.i)
		}
	}
	if got := ix.termDocs(ix.terms["common"]); len(got) != docs {
		t.Errorf("common is in %d documents, want %d", len(got), docs)
	}
}
