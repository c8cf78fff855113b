package mockserver

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// generatedCorpus is a small generated corpus, loaded once per process.
var generatedCorpus = sync.OnceValue(func() *Corpus {
	return newCorpus(corpus.Generate(corpus.Config{Seed: 5, Articles: 3000, Days: 60,
		End: time.Date(2026, 3, 31, 23, 0, 0, 0, time.UTC)}))
})

// uploads makes batches of articles to add to base: among the base's
// dates (some at the very time of a base article), newer than all of them
// and older; on the base's sites, on new sites that rank first, last and
// in between by traffic, in a new language; some encoded; some with the
// very text of a base article, so that scores tie with it and the order
// falls to the _id; then a run of small batches that makes the server
// merge its segments. Words come from the base's articles, so the added
// articles change the document frequencies of common terms.
func uploads(r *rand.Rand, base *corpus.Corpus) [][]map[string]any {
	arts := base.Articles
	oldest, newest := arts[0].Published, base.Newest()
	embedLen := base.EmbeddingLen()
	words := func(n int) string {
		var out []string
		for range n {
			a := &arts[r.IntN(len(arts))]
			f := strings.Fields(a.Title + " " + a.Body)
			out = append(out, f[r.IntN(len(f))])
		}
		return strings.Join(out, " ")
	}
	n := 0
	article := func(kind string) map[string]any {
		n++
		b := &arts[r.IntN(len(arts))]
		a := map[string]any{
			"_id":         fmt.Sprintf("%08x%016x", r.Uint32(), r.Uint64()),
			"title":       words(2+r.IntN(6)) + " quokka",
			"description": words(r.IntN(12)),
			"bodyText":    words(r.IntN(40)),
			"url":         fmt.Sprintf("https://uploads.example/%d", n),
			"site":        b.Site,
			"language":    b.Language,
		}
		if r.IntN(6) == 0 { // the very text of a base article: its scores tie
			a["title"], a["description"], a["bodyText"] = b.Title, b.Description, b.Body
		}
		var at time.Time
		switch kind {
		case "among":
			at = b.Published.Add(time.Duration(r.IntN(3)-1) * time.Duration(r.IntN(90)) * time.Minute)
		case "newer":
			at = newest.Add(time.Duration(1+r.IntN(30*60)) * time.Minute)
			if r.IntN(3) == 0 { // a story of its own for the headlines
				a["title"] = "Quokka parliament votes on quokka tunnels " + words(1)
			}
		case "older":
			at = oldest.Add(-time.Duration(1+r.IntN(20*24*60)) * time.Minute)
		}
		a["datePublished"] = at.UTC().Format(time.RFC3339)
		switch r.IntN(8) {
		case 0:
			a["site"], a["traffic"] = "busiest-news.example", 100
		case 1:
			a["site"], a["traffic"] = "quiet-news.example", 0
		case 2:
			a["site"] = "middle-news.example" // traffic 50
		case 3:
			a["language"] = "ja"
		}
		if r.IntN(3) == 0 && embedLen > 0 {
			vec := make([]float32, embedLen)
			for i := range vec {
				vec[i] = float32(r.IntN(2001)-1000) / 1000
			}
			a["embeddings"] = vec
			a["entities"] = []map[string]any{{"name": "Quokka Council", "type": "ORGANIZATION", "wikidata_id": "Q7", "sentiment": 0.25, "confidence": 0.5}}
		}
		if r.IntN(2) == 0 {
			a["category"], a["image"], a["topics"] = "Science", "https://uploads.example/i.jpg", []string{"animals"}
		}
		return a
	}
	batch := func(size int, kinds ...string) []map[string]any {
		var out []map[string]any
		for i := range size {
			out = append(out, article(kinds[i%len(kinds)]))
		}
		return out
	}
	batches := [][]map[string]any{batch(40, "among"), batch(25, "newer", "among"), batch(15, "older")}
	for i := range 7 {
		batches = append(batches, batch(1+i%3, "among", "newer", "older"))
	}
	return batches
}

// equivalenceQueries makes n searches of the articles of c and of the
// uploaded ones: words and phrases of their titles, every filter, both
// orders, several pages, embeddings. Those with async true use
// query-async's key_phrases and sort_order.
func equivalenceQueries(r *rand.Rand, c *corpus.Corpus, uploaded []map[string]any, n int) []map[string]any {
	type source struct {
		title, site, lang string
		at                time.Time
	}
	pick := func() source {
		if r.IntN(3) == 0 {
			u := uploaded[r.IntN(len(uploaded))]
			at, _ := time.Parse(time.RFC3339, u["datePublished"].(string))
			return source{u["title"].(string), u["site"].(string), u["language"].(string), at}
		}
		a := &c.Articles[r.IntN(len(c.Articles))]
		return source{a.Title, a.Site, a.Language, a.Published}
	}
	var qs []map[string]any
	for i := range n {
		src := pick()
		words := strings.Fields(src.title)
		words = slices.DeleteFunc(words, func(w string) bool { // a lone "–" is no word to search for
			return !strings.ContainsFunc(w, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) })
		})
		q := map[string]any{}
		switch r.IntN(5) {
		case 0:
			q["query"] = "*"
		case 1:
			j := r.IntN(len(words))
			q["query"] = `"` + strings.Join(words[j:min(j+2, len(words))], " ") + `"`
		default:
			var text []string
			for range 1 + r.IntN(3) {
				text = append(text, words[r.IntN(len(words))])
			}
			q["query"] = strings.Join(text, " ")
		}
		if r.IntN(3) == 0 {
			q["sites"] = []string{src.site, []string{"busiest-news.example", "www.quiet-news.example", "middle-news.example", "nowhere.example"}[r.IntN(4)]}[:1+r.IntN(2)]
		}
		if r.IntN(2) == 0 {
			q["start_date"] = src.at.Add(-time.Duration(r.IntN(96)) * time.Hour).Format(time.RFC3339)
		}
		if r.IntN(2) == 0 {
			q["end_date"] = src.at.Add(time.Duration(r.IntN(96)) * time.Hour).Format(time.RFC3339)
		}
		if r.IntN(4) == 0 {
			q["language"] = []string{src.lang, "all", "ja", "English"}[r.IntN(4)]
		}
		if r.IntN(4) == 0 {
			q["traffic_rank"] = []int{30, 50, 90, 99}[r.IntN(4)]
		}
		if r.IntN(4) == 0 {
			q["toggle_state"] = "Encoded Articles"
		}
		if r.IntN(5) == 0 {
			q["embeddings"] = true
		}
		q["page"] = 1 + r.IntN(3)
		if i%3 == 0 {
			q["async"] = true
			if r.IntN(2) == 0 {
				q["sort_order"] = "Date Published"
			}
			if plain := strings.FieldsFunc(src.title, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }); r.IntN(2) == 0 && len(plain) > 0 {
				q["key_phrases"] = "'" + plain[r.IntN(len(plain))] + "' or not '" + plain[0] + "'"
			}
		}
		qs = append(qs, q)
	}
	return qs
}

// queryIDs matches the query ids in get-results answers.
var queryIDs = regexp.MustCompile(`"query_id":"[^"]*"`)

// sameAnswers asks both servers every query, and the headlines, and fails
// at the first answer that differs in a byte.
func sameAnswers(t *testing.T, layered, loaded *Server, qs []map[string]any) (hits, uploaded int) {
	t.Helper()
	ask := func(s *Server, q map[string]any) []byte {
		if q["async"] == nil {
			r := post(t, s, "/api/v2/query", q)
			return append([]byte(fmt.Sprint(r.Status)), r.Body...)
		}
		body := map[string]any{}
		for k, v := range q {
			if k != "async" && k != "page" {
				body[k] = v
			}
		}
		id := submit(t, s, body)
		var out []byte
		for p := 1; p <= q["page"].(int); p++ {
			r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": id, "page": p})
			out = append(append(out, fmt.Sprint(r.Status)...), queryIDs.ReplaceAll(r.Body, nil)...)
		}
		return out
	}
	for i, q := range qs {
		want, got := ask(loaded, q), ask(layered, q)
		if !bytes.Equal(want, got) {
			t.Fatalf("query %d %v:\nloaded  %.1500s\nlayered %.1500s", i, q, want, got)
		}
		hits += bytes.Count(want, []byte(`"_id":`))
		uploaded += bytes.Count(want, []byte(`"url":"https://uploads.example/`))
	}
	want, got := post(t, loaded, "/api/v2/headlines", nil), post(t, layered, "/api/v2/headlines", nil)
	if want.Status != http.StatusOK || !bytes.Equal(want.Body, got.Body) {
		t.Fatalf("headlines:\nloaded  %d %.1500s\nlayered %d %.1500s", want.Status, want.Body, got.Status, got.Body)
	}
	if !bytes.Contains(want.Body, []byte("https://uploads.example/")) {
		t.Fatalf("the headlines show no uploaded article: %.1500s", want.Body)
	}
	return hits, uploaded
}

// TestAddedArticlesAnswerAsLoaded: a server given articles by several
// AddArticles calls answers every search, job page and the headlines with
// exactly the bytes of a server started with a corpus of all those
// articles: same matches, scores to the last digit, order, pages, totals.
func TestAddedArticlesAnswerAsLoaded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		base func() *Corpus
	}{{"generated", generatedCorpus}, {"default", DefaultCorpus}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "default" && testing.Short() {
				t.Skip("loads the embedded corpus again as JSON Lines (a few seconds)")
			}
			base := tc.base()
			r := rand.New(rand.NewPCG(29, uint64(base.Len())))
			batches := uploads(r, base.c)
			clock := base.Newest().Add(30 * time.Hour)
			opts := []Option{WithoutDateShift(), WithClock(func() time.Time { return clock }), WithPendingPolls(0), WithSeed(3),
				WithLimits(Limits{HeadlineClusters: 100000, HeadlineArticles: 5})} // every cluster, singletons too
			layered := start(t, append(opts, WithCorpus(base))...)
			all := bytes.NewBuffer(corpusJSONL(t, base.c))
			var uploaded []map[string]any
			for i, b := range batches {
				body := jsonLines(t, b...)
				if n, err := layered.AddArticles(strings.NewReader(body)); err != nil || n != len(b) {
					t.Fatalf("batch %d: %d added, %v", i, n, err)
				}
				all.WriteString(body)
				uploaded = append(uploaded, b...)
			}
			whole, err := LoadCorpus(io.Reader(all))
			if err != nil {
				t.Fatal(err)
			}
			loaded := start(t, append(opts, WithCorpus(whole))...)
			if got, want := layered.Corpus().Len(), whole.Len(); got != want || len(layered.Corpus().segs) < 2 {
				t.Fatalf("the layered server has %d articles in %d segments, want %d in several", got, len(layered.Corpus().segs), want)
			}
			hits, fromUploads := sameAnswers(t, layered, loaded, equivalenceQueries(r, base.c, uploaded, 600))
			t.Logf("%d articles answered, %d of them uploaded", hits, fromUploads)
			if hits < 3000 || fromUploads < 300 {
				t.Fatalf("the answers hold %d articles, %d uploaded: the queries prove little", hits, fromUploads)
			}
		})
	}
}
