package search_test

import (
	"testing"

	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// TestDefaultCorpus checks the engine against the generated corpus: every
// article is found by its own title as a phrase within its site and second,
// and the language filter partitions the corpus.
func TestDefaultCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the default corpus")
	}
	t.Parallel()
	ix := defaultIndex()
	arts := ix.Corpus().Articles
	for i := 0; i < len(arts); i += 97 {
		a := &arts[i]
		q := search.Query{Text: `"` + a.Title + `"`, Sites: []string{"https://www." + a.Site + "/"}, From: a.Published, To: a.Published}
		res, err := ix.Search(q, 0, 25)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, h := range res.Hits {
			found = found || h.Doc == int32(i)
		}
		if !found || res.Total < 1 || res.Hits[0].Score <= 0 {
			t.Fatalf("article %d (%q on %s) not found by its title: %+v", i, a.Title, a.Site, res)
		}
	}
	perLang := map[string]int{}
	for i := range arts {
		perLang[arts[i].Language]++
	}
	sum := 0
	for _, l := range ix.Corpus().Languages {
		res, err := ix.Search(search.Query{Language: l.Code}, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != perLang[l.Code] || res.Total == 0 {
			t.Errorf("language %s: Total %d, want %d", l.Code, res.Total, perLang[l.Code])
		}
		sum += res.Total
	}
	if sum != len(arts) {
		t.Errorf("languages cover %d articles, want %d", sum, len(arts))
	}
}
