package search_test

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

var (
	defaultIndex = sync.OnceValue(func() *search.Index { return search.New(corpus.Default()) })
	// bigIndex covers a corpus five times the default one over the same days.
	bigIndex = sync.OnceValue(func() *search.Index {
		cfg := corpus.DefaultConfig()
		cfg.Articles *= 5
		return search.New(corpus.Generate(cfg))
	})
)

// benchQueries derives realistic queries from a corpus: two or
// three words of an article's title, its site, and the week around its
// publication, as a client of the sync endpoint would ask.
func benchQueries(c *corpus.Corpus, order search.Order) []search.Query {
	var qs []search.Query
	for i := range 64 {
		a := &c.Articles[(i*7919)%len(c.Articles)]
		var words []string
		for _, w := range analysis.Tokens(a.Title) {
			if len(w) >= 4 && !slices.Contains(words, w) && len(words) < 2+i%2 {
				words = append(words, w)
			}
		}
		text := ""
		for _, w := range words {
			text += w + " "
		}
		qs = append(qs, search.Query{
			Text:  text,
			Sites: []string{a.Site},
			From:  a.Published.Add(-3 * 24 * time.Hour),
			To:    a.Published.Add(4 * 24 * time.Hour),
			Order: order,
		})
	}
	return qs
}

// searcher is an Index or Layers.
type searcher interface {
	Search(q search.Query, offset, limit int) (search.Result, error)
}

// runQueries searches the first page of each query in turn, reporting the
// median and 99th percentile latency and the mean number of matches.
func runQueries(b *testing.B, ix searcher, qs []search.Query) {
	b.Helper()
	var took []time.Duration
	total := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		res, err := ix.Search(qs[i%len(qs)], 0, 25)
		took = append(took, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		total += res.Total
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(total)/float64(len(took)), "matches/op")
}

func BenchmarkSearchSiteWeek(b *testing.B) {
	for _, tc := range []struct {
		name string
		ix   func() *search.Index
	}{{"default", defaultIndex}, {"5x", bigIndex}} {
		b.Run(tc.name, func(b *testing.B) { runQueries(b, tc.ix(), benchQueries(tc.ix().Corpus(), search.ByRelevance)) })
	}
}

func BenchmarkSearchSiteWeekByDate(b *testing.B) {
	for _, tc := range []struct {
		name string
		ix   func() *search.Index
	}{{"default", defaultIndex}, {"5x", bigIndex}} {
		b.Run(tc.name, func(b *testing.B) { runQueries(b, tc.ix(), benchQueries(tc.ix().Corpus(), search.ByDate)) })
	}
}

// BenchmarkSearchUnfiltered runs the same words with no filter at all: every
// match over the whole corpus is scored.
func BenchmarkSearchUnfiltered(b *testing.B) {
	qs := benchQueries(corpus.Default(), search.ByRelevance)
	for i := range qs {
		qs[i] = search.Query{Text: qs[i].Text}
	}
	runQueries(b, defaultIndex(), qs)
}

// BenchmarkSearchKeyPhrases filters a week of one language by key_phrases.
func BenchmarkSearchKeyPhrases(b *testing.B) {
	qs := benchQueries(corpus.Default(), search.ByDate)
	for i := range qs {
		qs[i] = search.Query{
			KeyPhrases: "('" + qs[i].Text + "' or 'officials') and not 'analysts said'",
			From:       qs[i].From, To: qs[i].To, Language: "en", Order: search.ByDate,
		}
	}
	runQueries(b, defaultIndex(), qs)
}

// BenchmarkSearchBrowse lists a week newest first with no text.
func BenchmarkSearchBrowse(b *testing.B) {
	qs := benchQueries(corpus.Default(), search.ByDate)
	for i := range qs {
		qs[i] = search.Query{From: qs[i].From, To: qs[i].To, Order: search.ByDate}
	}
	runQueries(b, defaultIndex(), qs)
}

func BenchmarkIndexBuild(b *testing.B) {
	c := corpus.Default()
	b.ReportAllocs()
	for b.Loop() {
		search.New(c)
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	ix := search.New(c)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc-before)/1e6, "index-MB")
	runtime.KeepAlive(ix)
}

// overlayIndex indexes n articles like the default corpus's (their text,
// sites and dates) under new IDs, as AddArticles would add them.
func overlayIndex(n int) *search.Index {
	c := corpus.Default()
	arts := make([]corpus.Article, n)
	for i := range arts {
		arts[i] = c.Articles[(i*7919+13)%len(c.Articles)]
		arts[i].ID = fmt.Sprintf("ffff%020x", i)
	}
	slices.SortFunc(arts, func(x, y corpus.Article) int {
		return cmp.Or(x.Published.Compare(y.Published), cmp.Compare(x.ID, y.ID))
	})
	return search.New(&corpus.Corpus{Articles: arts})
}

// BenchmarkLayersSearch runs the queries of BenchmarkSearchSiteWeek on the
// default index alone and with overlays of 10 and 1,000 articles
// (search.Layers), side by side.
func BenchmarkLayersSearch(b *testing.B) {
	for _, order := range []search.Order{search.ByRelevance, search.ByDate} {
		qs := benchQueries(corpus.Default(), order)
		for _, n := range []int{0, 10, 1000} {
			b.Run(fmt.Sprintf("order=%d/overlay=%d", order, n), func(b *testing.B) {
				if n == 0 {
					runQueries(b, defaultIndex(), qs)
					return
				}
				runQueries(b, search.NewLayers(defaultIndex(), overlayIndex(n)), qs)
			})
		}
	}
}

// BenchmarkNewLayers makes the layers of the default index and an overlay
// of 10 articles, as every AddArticles does.
func BenchmarkNewLayers(b *testing.B) {
	base, overlay := defaultIndex(), overlayIndex(10)
	search.NewLayers(base, overlay)
	b.ReportAllocs()
	for b.Loop() {
		search.NewLayers(base, overlay)
	}
}
