package mockserver

import (
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// TestPageKeysDistinct: queries, pages and encodings that differ in any
// one thing a page depends on, or whose parts would run together if they
// were simply joined, get keys of their own; the same gets the same key.
func TestPageKeysDistinct(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	type page struct {
		name       string
		q          search.Query
		page       int
		shift      time.Duration
		embeddings bool
		shape      AnswerShape
		queryID    string
	}
	base := search.Query{Text: "cars", Sites: []string{"a.com"}, From: day, To: day.Add(24 * time.Hour), Language: "en"}
	with := func(name string, f func(p *page)) page {
		p := page{name: name, q: base, page: 1}
		p.q.Sites = append([]string(nil), base.Sites...)
		f(&p)
		return p
	}
	pages := []page{
		with("base", func(*page) {}),
		with("text", func(p *page) { p.q.Text = "car" }),
		with("text runs into key phrases", func(p *page) { p.q.Text, p.q.KeyPhrases = "ca", "rs" }),
		with("key phrases", func(p *page) { p.q.KeyPhrases = "cars" }),
		with("no sites", func(p *page) { p.q.Sites = nil }),
		with("two sites", func(p *page) { p.q.Sites = []string{"a.com", "b.com"} }),
		with("sites joined", func(p *page) { p.q.Sites = []string{"a.comb.com"} }),
		with("no from", func(p *page) { p.q.From = time.Time{} }),
		with("no to", func(p *page) { p.q.To = time.Time{} }),
		with("neither", func(p *page) { p.q.From, p.q.To = time.Time{}, time.Time{} }),
		with("from a nanosecond later", func(p *page) { p.q.From = day.Add(1) }),
		with("from a second earlier", func(p *page) { p.q.From = day.Add(-time.Second) }),
		with("before 1970", func(p *page) { p.q.From = time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC) }),
		with("language", func(p *page) { p.q.Language = "fr" }),
		with("traffic rank", func(p *page) { p.q.TrafficRank = 90 }),
		with("encoded only", func(p *page) { p.q.EncodedOnly = true }),
		with("order", func(p *page) { p.q.Order = 1 }),
		with("page", func(p *page) { p.page = 2 }),
		with("shift", func(p *page) { p.shift = time.Hour }),
		with("embeddings", func(p *page) { p.embeddings = true }),
		with("shape", func(p *page) { p.shape.Results = fault.ShapeTopLevel }),
		with("totals", func(p *page) { p.shape.Totals = fault.ShapeTotalArticles }),
		with("query id", func(p *page) { p.queryID = "0123" }),
		with("sites with a separator", func(p *page) { p.q.Sites = []string{"a.com\x00b.com"} }),
	}
	key := func(p page) any {
		return pageKey{Query: p.q, Page: p.page, Shift: p.shift, Embeddings: p.embeddings, Shape: p.shape, QueryID: p.queryID}.cacheKey()
	}
	seen := map[any]string{}
	for _, p := range pages {
		k := key(p)
		if other, dup := seen[k]; dup {
			t.Errorf("%q and %q have the same key %v", other, p.name, k)
		}
		seen[k] = p.name
		if again := key(with(p.name, func(q *page) { *q = p })); again != k {
			t.Errorf("%q: the same page got another key", p.name)
		}
	}
}
