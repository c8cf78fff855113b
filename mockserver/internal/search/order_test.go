package search_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// orderDocs have IDs that disagree with their dates and repeat both scores
// and publication times.
var orderDocs = []doc{
	{id: 7, title: "storm", hour: 0},
	{id: 3, title: "storm", hour: 2},
	{id: 9, title: "storm", hour: 2},
	{id: 1, title: "storm", hour: 1},
	{id: 5, title: "storm", body: "storm warning", hour: 2},
	{id: 2, title: "calm", body: "storm", hour: 3},
	{id: 8, title: "calm", hour: 3},
}

func TestOrders(t *testing.T) {
	t.Parallel()
	ix := search.New(build(orderDocs))
	tests := []struct {
		name string
		q    search.Query
		want []string
	}{
		// Equal scores (same title, same lengths) break on ID.
		{"relevance", search.Query{Text: "storm"}, hexIDs(5, 1, 3, 7, 9, 2)},
		{"relevance without text is by ID", search.Query{}, hexIDs(1, 2, 3, 5, 7, 8, 9)},
		{"date", search.Query{Text: "storm", Order: search.ByDate}, hexIDs(2, 3, 5, 9, 1, 7)},
		{"date without text", search.Query{Order: search.ByDate}, hexIDs(2, 8, 3, 5, 9, 1, 7)},
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

func TestScoresAgreeAcrossOrdersAndFilters(t *testing.T) {
	t.Parallel()
	ix := search.New(build(orderDocs))
	scores := func(q search.Query, offset int) map[int32]float64 {
		res, err := ix.Search(q, offset, 100)
		if err != nil {
			t.Fatal(err)
		}
		m := map[int32]float64{}
		for _, h := range res.Hits {
			m[h.Doc] = h.Score
		}
		return m
	}
	rel := scores(search.Query{Text: "warning"}, 0)
	if len(rel) != 1 {
		t.Fatalf("got %d hits, want 1", len(rel))
	}
	all := scores(search.Query{Text: "storm"}, 0)
	for name, tc := range map[string]struct {
		q      search.Query
		offset int
	}{
		"by date":  {search.Query{Text: "storm", Order: search.ByDate}, 0},
		"filtered": {search.Query{Text: "storm", From: at(1), To: at(2), KeyPhrases: "not 'calm'"}, 0},
		"offset":   {search.Query{Text: "storm", Order: search.ByDate}, 3},
	} {
		got := scores(tc.q, tc.offset)
		if len(got) == 0 {
			t.Errorf("%s: no hits", name)
		}
		for d, s := range got {
			if s != all[d] {
				t.Errorf("%s: doc %d score %v, want %v", name, d, s, all[d])
			}
		}
	}
	for _, s := range scores(search.Query{Order: search.ByDate}, 0) {
		if s != 0 {
			t.Errorf("score without text = %v, want 0", s)
		}
	}
}

func TestPaging(t *testing.T) {
	t.Parallel()
	var docs []doc
	for i := range 57 {
		// Few distinct scores and dates, so ties are everywhere.
		body := "flood"
		if i%3 == 0 {
			body = "flood flood river"
		}
		docs = append(docs, doc{id: (i*37)%57 + 1, title: "news", body: body, hour: i / 4})
	}
	ix := search.New(build(docs))
	for _, q := range []search.Query{
		{Text: "flood"},
		{Text: "flood", Order: search.ByDate},
		{},
		{Order: search.ByDate},
		{Text: "news", KeyPhrases: "'river' or 'flood'", From: at(2), To: at(11)},
	} {
		full, err := ix.Search(q, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if full.Total != len(full.Hits) || full.Total == 0 {
			t.Fatalf("%+v: Total %d, %d hits", q, full.Total, len(full.Hits))
		}
		for _, size := range []int{1, 2, 5, 7, 25, 100} {
			var got []search.Hit
			for off := 0; off < full.Total; off += size {
				page, err := ix.Search(q, off, size)
				if err != nil {
					t.Fatal(err)
				}
				if page.Total != full.Total {
					t.Fatalf("%+v offset %d: Total %d, want %d", q, off, page.Total, full.Total)
				}
				if want := min(size, full.Total-off); len(page.Hits) != want {
					t.Fatalf("%+v offset %d: %d hits, want %d", q, off, len(page.Hits), want)
				}
				got = append(got, page.Hits...)
			}
			if diff := cmp.Diff(full.Hits, got); diff != "" {
				t.Errorf("%+v pages of %d (-want +got):\n%s", q, size, diff)
			}
		}
		for _, win := range [][2]int{{full.Total, 25}, {full.Total + 100, 25}, {0, 0}, {3, -1}} {
			page, err := ix.Search(q, win[0], win[1])
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(search.Result{Total: full.Total}, page); diff != "" {
				t.Errorf("%+v window %v (-want +got):\n%s", q, win, diff)
			}
		}
		huge, err := ix.Search(q, 1, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(full.Hits[1:], huge.Hits); diff != "" {
			t.Errorf("huge limit (-want +got):\n%s", diff)
		}
		page, err := ix.Search(q, -5, 3)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(full.Hits[:3], page.Hits); diff != "" {
			t.Errorf("negative offset (-want +got):\n%s", diff)
		}
	}
}
