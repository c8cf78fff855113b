package search_test

import (
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

// benchQueries derives realistic queries from the default corpus: two or
// three words of an article's title, its site, and the week around its
// publication, as a client of the sync endpoint would ask.
func benchQueries(order search.Order) []search.Query {
	c := corpus.Default()
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

// runQueries searches the first page of each query in turn, reporting the
// median and 99th percentile latency and the mean number of matches.
func runQueries(b *testing.B, ix *search.Index, qs []search.Query) {
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
	qs := benchQueries(search.ByRelevance)
	for _, tc := range []struct {
		name string
		ix   func() *search.Index
	}{{"default", defaultIndex}, {"5x", bigIndex}} {
		b.Run(tc.name, func(b *testing.B) { runQueries(b, tc.ix(), qs) })
	}
}

func BenchmarkSearchSiteWeekByDate(b *testing.B) {
	qs := benchQueries(search.ByDate)
	for _, tc := range []struct {
		name string
		ix   func() *search.Index
	}{{"default", defaultIndex}, {"5x", bigIndex}} {
		b.Run(tc.name, func(b *testing.B) { runQueries(b, tc.ix(), qs) })
	}
}

// BenchmarkSearchUnfiltered runs the same words with no filter at all: every
// match over the whole corpus is scored.
func BenchmarkSearchUnfiltered(b *testing.B) {
	qs := benchQueries(search.ByRelevance)
	for i := range qs {
		qs[i] = search.Query{Text: qs[i].Text}
	}
	runQueries(b, defaultIndex(), qs)
}

// BenchmarkSearchKeyPhrases filters a week of one language by key_phrases.
func BenchmarkSearchKeyPhrases(b *testing.B) {
	qs := benchQueries(search.ByDate)
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
	qs := benchQueries(search.ByDate)
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
