package search_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// filterDocs are ten articles one hour apart, all mentioning "news".
var filterDocs = []doc{
	{title: "news one", site: "bbc.co.uk", lang: "en", traffic: 90, hour: 0, encoded: true},
	{title: "news two", site: "bbc.co.uk", lang: "en", traffic: 90, hour: 1},
	{title: "news three", site: "cnn.com", lang: "en", traffic: 95, hour: 2, encoded: true},
	{title: "news four", site: "elpais.com", lang: "es", traffic: 50, hour: 3},
	{title: "news five", site: "elpais.com", lang: "es", traffic: 50, hour: 4, encoded: true},
	{title: "news six", site: "lemonde.fr", lang: "fr", traffic: 49, hour: 5},
	{title: "news seven", site: "lemonde.fr", lang: "fr", traffic: 49, hour: 6},
	{title: "news eight", site: "cnn.com", lang: "en", traffic: 95, hour: 7},
	{title: "news nine", site: "tiny.blog", lang: "en", traffic: 3, hour: 8, encoded: true},
	{title: "news ten", site: "bbc.co.uk", lang: "en", traffic: 90, hour: 9},
}

func at(hour int) time.Time { return day0.Add(time.Duration(hour) * time.Hour) }

func TestFilters(t *testing.T) {
	t.Parallel()
	ix := search.New(build(filterDocs))
	tests := []struct {
		name string
		q    search.Query
		want []string
	}{
		{"no filter", search.Query{}, hexIDs(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)},
		{"site", search.Query{Sites: []string{"cnn.com"}}, hexIDs(3, 8)},
		{"site upper case", search.Query{Sites: []string{"CNN.COM"}}, hexIDs(3, 8)},
		{"site www", search.Query{Sites: []string{"www.bbc.co.uk"}}, hexIDs(1, 2, 10)},
		{"site url", search.Query{Sites: []string{"https://www.BBC.co.uk/"}}, hexIDs(1, 2, 10)},
		{"site scheme spaces", search.Query{Sites: []string{" http://cnn.com// "}}, hexIDs(3, 8)},
		{"two sites", search.Query{Sites: []string{"cnn.com", "lemonde.fr"}}, hexIDs(3, 6, 7, 8)},
		{"repeated site", search.Query{Sites: []string{"cnn.com", "www.cnn.com"}}, hexIDs(3, 8)},
		{"unknown and known site", search.Query{Sites: []string{"nope.org", "tiny.blog"}}, hexIDs(9)},
		{"unknown site", search.Query{Sites: []string{"nope.org"}}, []string{}},
		{"from and to inclusive", search.Query{From: at(2), To: at(4)}, hexIDs(3, 4, 5)},
		{"from only", search.Query{From: at(8)}, hexIDs(9, 10)},
		{"to only", search.Query{To: at(1)}, hexIDs(1, 2)},
		{"from between articles", search.Query{From: at(7).Add(time.Minute), To: at(9).Add(-time.Nanosecond)}, hexIDs(9)},
		{"single instant", search.Query{From: at(5), To: at(5)}, hexIDs(6)},
		{"other time zone", search.Query{From: at(5).In(time.FixedZone("X", 3600)), To: at(5).In(time.FixedZone("Y", -7200))}, hexIDs(6)},
		{"from after to", search.Query{From: at(5), To: at(4)}, []string{}},
		{"before the corpus", search.Query{To: at(-1)}, []string{}},
		{"after the corpus", search.Query{From: at(10)}, []string{}},
		{"language", search.Query{Language: "es"}, hexIDs(4, 5)},
		{"language any case", search.Query{Language: "FR"}, hexIDs(6, 7)},
		{"unknown language", search.Query{Language: "de"}, []string{}},
		// Five sites ranked by traffic: cnn.com, bbc.co.uk, elpais.com,
		// lemonde.fr, tiny.blog. N keeps the top (100-N)% of them.
		{"traffic rank 50 keeps two of five", search.Query{TrafficRank: 50}, hexIDs(1, 2, 3, 8, 10)},
		{"traffic rank 60 keeps two of five", search.Query{TrafficRank: 60}, hexIDs(1, 2, 3, 8, 10)},
		{"traffic rank 61 keeps one of five", search.Query{TrafficRank: 61}, hexIDs(3, 8)},
		{"traffic rank 80 keeps one of five", search.Query{TrafficRank: 80}, hexIDs(3, 8)},
		{"traffic rank 1 drops the last site", search.Query{TrafficRank: 1}, hexIDs(1, 2, 3, 4, 5, 6, 7, 8, 10)},
		{"traffic rank 95 keeps none of five", search.Query{TrafficRank: 95}, []string{}},
		{"traffic above all", search.Query{TrafficRank: 100}, []string{}},
		{"encoded", search.Query{EncodedOnly: true}, hexIDs(1, 3, 5, 9)},
		{"combined", search.Query{Text: "news", Sites: []string{"bbc.co.uk", "cnn.com", "elpais.com"}, From: at(1), To: at(8),
			Language: "en", TrafficRank: 80, EncodedOnly: true}, hexIDs(3)},
		{"combined without encoded", search.Query{Text: "News", Sites: []string{"bbc.co.uk", "cnn.com", "elpais.com"}, From: at(1), To: at(9),
			Language: "EN", TrafficRank: 80}, hexIDs(3, 8)},
		{"site and date", search.Query{Sites: []string{"bbc.co.uk"}, From: at(1), To: at(9)}, hexIDs(2, 10)},
		{"site outside dates", search.Query{Sites: []string{"tiny.blog"}, To: at(7)}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, ids(t, ix, tc.q)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEmptyCorpus(t *testing.T) {
	t.Parallel()
	ix := search.New(build(nil))
	res, err := ix.Search(search.Query{Text: "x", Order: search.ByDate}, 0, 25)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(search.Result{}, res); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	res, err = ix.Search(search.Query{}, 0, 25)
	if err != nil || res.Total != 0 || res.Hits != nil {
		t.Errorf("Search = %+v, %v; want nothing", res, err)
	}
}
