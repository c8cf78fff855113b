package search

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// TestBuildManyTerms indexes more distinct words than one uint16 numbers
// and checks the postings and positions of words on both sides of 65,536.
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
	ix := New(c)
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
