package search_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// TestSitesMatchLoadedWWW checks that a request's site is normalised as the
// corpus loader normalises the corpus's: every leading "www." goes, so an
// article loaded from "www.www.example.com" is found by that name, by its
// loaded name, and by any number of "www." in front of it.
func TestSitesMatchLoadedWWW(t *testing.T) {
	t.Parallel()
	lines := `{"_id":"000000000000000000000001","title":"a","url":"https://example.com/a","site":"www.www.Example.com","datePublished":"2025-03-04"}
{"_id":"000000000000000000000002","title":"b","url":"https://www2.example.com/b","site":"www2.example.com","datePublished":"2025-03-05"}
`
	c, err := corpus.LoadJSONL(strings.NewReader(lines))
	if err != nil {
		t.Fatal(err)
	}
	ix := search.New(c)
	for _, tc := range []struct {
		site string
		want []string
	}{
		{"example.com", hexIDs(1)},
		{"www.www.example.com", hexIDs(1)},
		{"https://WWW.www.www.Example.com/", hexIDs(1)},
		{" http://www.www2.example.com ", hexIDs(2)},
		{"www.www2.example.com", hexIDs(2)},
		{"www.com", []string{}},
	} {
		t.Run(tc.site, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, ids(t, ix, search.Query{Sites: []string{tc.site}})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
