package mockserver

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// uploadCase is one server of the upload benchmarks: how many articles it
// is given, whether the benchmark's searches match them, and its timings.
type uploadCase struct {
	name     string
	n        int
	match    bool
	reset    bool // reset the articles after the upload: search the start-up corpus
	s        *Server
	body     string
	searches []time.Duration // after the CPU caches were evicted
	warm     []time.Duration // right after the previous case's search
	adds     []time.Duration
}

// uploadCases starts a server without a socket for each case, all on the
// embedded corpus.
func uploadCases(b testing.TB, word, title, site string, at time.Time) []*uploadCase {
	cases := []*uploadCase{{name: "none"}, {name: "10", n: 10}, {name: "1000", n: 1000},
		{name: "10-matching", n: 10, match: true}, {name: "1000-matching", n: 1000, match: true},
		{name: "10-then-reset", n: 10, reset: true}, {name: "1000-then-reset", n: 1000, reset: true}}
	for _, uc := range cases {
		uc.s = New(WithoutListener(), WithoutDateShift())
		b.Cleanup(uc.s.Close)
		var arts []map[string]any
		for i := range uc.n {
			text := "bilby wombat"
			if uc.match {
				text = word + " " + title
			}
			arts = append(arts, newArticle(i, text, []string{"example.org", site}[i%2], at.Add(time.Duration(i%96)*time.Hour)))
		}
		uc.body = jsonLines(b, arts...)
	}
	return cases
}

// search sends one /api/v2/query and returns how long it took.
func (uc *uploadCase) search(b testing.TB, body string) time.Duration {
	w := &discardWriter{h: http.Header{}}
	r, _ := http.NewRequest(http.MethodPost, "/api/v2/query", strings.NewReader(body))
	start := time.Now()
	if uc.s.Handler().ServeHTTP(w, r); w.status != http.StatusOK {
		b.Fatalf("status %d", w.status)
	}
	return time.Since(start)
}

// requestSeq makes the requests of BenchmarkSearchWithAddedArticles
// distinct.
var requestSeq atomic.Int64

// median returns the median of ds, sorting ds.
func median(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Nanoseconds())
}

// BenchmarkFirstSearchAfterUpload measures, side by side in one run, the
// first search after POST /_mock/articles of 10 or 1,000 articles to the
// embedded corpus and the same search with no upload: what a test suite
// that gives each test its own articles pays. One op is one round over the
// cases, each on its own server: reset the articles (and, with no upload,
// empty the result cache, so every case searches and encodes), upload,
// search once. With the uploads named "-matching" the search matches the
// uploaded articles, as a test's search for its own articles would, so
// the answer holds some of them, encoded the first time they are answered;
// with the others it matches none and answers the bytes of the search with
// no upload. "10-then-reset" and "1000-then-reset" upload, reset the
// articles and search the start-up corpus: the same work before the same
// search as "10" and "1000", without added articles to search. Two
// searches: a word of 76 or more titles with no filter ("word"), and two
// words of a title with its site and a week around it ("site-week", the
// workload of BenchmarkInProcessSearch).
//
// What the CPU caches hold decides much of a search's time (on the machine
// of BENCHMARKS.md, the search with no upload takes about 3 times as long
// from cold caches as right after the same search), so every other round
// evicts them before each case (evictCaches) and the others do not:
//   - <case>-search-ns, the row's figure: the median search time of the
//     rounds that evicted the caches first, so that every case starts
//     from the same memory state and the difference between cases is the
//     work the upload leaves to the search (its overlay, new sites, the
//     answer's new bytes), as for a test whose search follows its own
//     set-up code rather than the same search;
//   - <case>-warm-search-ns: the other rounds, where each case follows the
//     previous case's search of the same query, for information: the case
//     with no upload then finds that query's postings and articles in the
//     caches, and a case with an upload finds what the upload left there;
//   - <case>-add-ns: the upload's own time (and the reset's), timed apart.
func BenchmarkFirstSearchAfterUpload(b *testing.B) {
	probe := New(WithoutListener(), WithoutDateShift())
	word := commonWord(b, probe)
	probe.Close()
	a := &DefaultCorpus().c.Articles[len(DefaultCorpus().c.Articles)/2]
	title := strings.Join(strings.Fields(a.Title)[:2], " ")
	for _, q := range []struct{ name, body string }{
		{"word", `{"api_key":"k","query":"` + word + `"}`},
		{"site-week", fmt.Sprintf(`{"api_key":"k","query":%q,"sites":[%q],"start_date":%q,"end_date":%q}`,
			title, a.Site, a.Published.Add(-72*time.Hour).Format(time.RFC3339), a.Published.Add(96*time.Hour).Format(time.RFC3339))},
	} {
		b.Run(q.name, func(b *testing.B) {
			cases := uploadCases(b, word, title, a.Site, a.Published)
			for i := 0; b.Loop(); i++ {
				cold := i%2 == 0
				for k := range cases {
					uc := cases[(i/2+k)%len(cases)] // the order rotates from round to round
					if cold {
						evictCaches()
					}
					uc.s.resetArticles()
					uc.s.start.answers.reset()
					start := time.Now()
					if uc.n > 0 {
						if _, err := uc.s.AddArticles(strings.NewReader(uc.body)); err != nil {
							b.Fatal(err)
						}
					}
					if uc.reset {
						uc.s.resetArticles()
					}
					uc.adds = append(uc.adds, time.Since(start))
					if took := uc.search(b, q.body); cold {
						uc.searches = append(uc.searches, took)
					} else {
						uc.warm = append(uc.warm, took)
					}
				}
			}
			for _, uc := range cases {
				b.ReportMetric(median(uc.searches), uc.name+"-search-ns")
				b.ReportMetric(median(uc.warm), uc.name+"-warm-search-ns")
				if uc.n > 0 {
					b.ReportMetric(median(uc.adds), uc.name+"-add-ns")
				}
			}
		})
	}
}

// evictBuf is what evictCaches writes: twice the last-level cache of the
// machine (its size from sysfs; 32 MiB when sysfs does not say).
var evictBuf = sync.OnceValue(func() []byte {
	size := 32 << 20
	if b, err := os.ReadFile("/sys/devices/system/cpu/cpu0/cache/index3/size"); err == nil {
		if kib, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(string(b)), "K")); err == nil && kib > 0 {
			size = max(size, kib<<10)
		}
	}
	return make([]byte, 2*size)
})

// evictCaches writes a byte of every cache line of a buffer twice the
// size of the last-level cache, so that what the caches held before (the
// previous case's search, its upload) is gone.
func evictCaches() {
	buf := evictBuf()
	for i := 0; i < len(buf); i += 64 {
		buf[i]++
	}
}

// BenchmarkSearchWithAddedArticles measures the steady cost of searching a
// corpus with added articles, side by side in one run: sync queries of two
// title words, a site and a week (64 of them, each request made distinct
// so the result cache never answers it) on servers of the embedded corpus
// given no articles, 10 and 1,000 that the queries do not match (so the
// answers are those of the server given none), and 10 and 1,000 that they
// match. One op sends one query to each server; it reports each server's
// median (<case>-ns).
func BenchmarkSearchWithAddedArticles(b *testing.B) {
	c := DefaultCorpus().c
	a := &c.Articles[len(c.Articles)/2]
	title := strings.Join(strings.Fields(a.Title)[:2], " ")
	cases := uploadCases(b, "report", title, a.Site, a.Published)
	for _, uc := range cases {
		if uc.n > 0 && !uc.reset {
			if _, err := uc.s.AddArticles(strings.NewReader(uc.body)); err != nil {
				b.Fatal(err)
			}
		}
	}
	type query struct {
		text, site string
		from       time.Time
	}
	var qs []query
	for i := range 64 {
		a := &c.Articles[(i*7919)%len(c.Articles)]
		qs = append(qs, query{strings.Join(strings.Fields(a.Title)[:2], " "), a.Site, a.Published.Add(-72 * time.Hour)})
	}
	qs[0] = query{title, a.Site, a.Published.Add(-72 * time.Hour)} // one the matching uploads answer
	cases = slices.DeleteFunc(cases, func(uc *uploadCase) bool { return uc.reset })
	for i := 0; b.Loop(); i++ {
		q := qs[i%len(qs)]
		// Never the same request twice, in this run or an earlier one: the
		// start-up corpus's result cache outlives its servers.
		from := q.from.Add(-time.Duration(requestSeq.Add(1)) * time.Millisecond)
		body := fmt.Sprintf(`{"api_key":"k","query":%q,"sites":[%q],"start_date":%q,"end_date":%q}`,
			q.text, q.site, from.Format(time.RFC3339Nano), from.Add(7*24*time.Hour).Format(time.RFC3339))
		for k := range cases {
			uc := cases[(i+k)%len(cases)]
			uc.searches = append(uc.searches, uc.search(b, body))
		}
	}
	for _, uc := range cases {
		b.ReportMetric(median(uc.searches), uc.name+"-ns")
	}
}
