package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// newArticle returns an article object for /_mock/articles: id n, a title
// with the given word, published at date (as the server shows dates).
func newArticle(n int, word, site string, date time.Time) map[string]any {
	return map[string]any{
		"_id":           fmt.Sprintf("abcdef%018x", n),
		"title":         "The " + word + " report number " + strconv.Itoa(n),
		"description":   "What the " + word + " report says.",
		"bodyText":      "A long body about the " + word + " report.",
		"url":           fmt.Sprintf("https://%s/news/%d", site, n),
		"site":          site,
		"datePublished": date.UTC().Format(time.DateTime),
		"language":      "en",
	}
}

// jsonLines encodes articles as JSON Lines.
func jsonLines(t testing.TB, arts ...map[string]any) string {
	t.Helper()
	var b strings.Builder
	for _, a := range arts {
		line, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// corpusJSONL writes c as LoadCorpus reads it: one article a line, in the
// wire form of search results plus its traffic.
func corpusJSONL(t testing.TB, c *corpus.Corpus) []byte {
	t.Helper()
	s := &Server{core: &core{}}
	var b bytes.Buffer
	for i := range c.Articles {
		a := &c.Articles[i]
		wire := s.articleJSON(a, 0, true)
		wire.DatePublished = a.Published.UTC().Format(time.RFC3339Nano) // with its fraction of a second
		line, err := json.Marshal(struct {
			articleJSON
			Traffic int `json:"traffic"`
		}{wire, a.Traffic})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// countsAnswer is the body of the /_mock/articles endpoints.
type countsAnswer struct {
	State    string `json:"state"`
	Start    int    `json:"start_articles"`
	Added    int    `json:"added_articles"`
	Articles int    `json:"articles"`
	AddedNow int    `json:"added_now"`
}

func TestArticlesLifecycle(t *testing.T) {
	t.Parallel()
	s := start(t)
	n := s.Corpus().Len()
	at := t0.Add(-30 * time.Minute)
	if got := decode[countsAnswer](t, call(t, s, http.MethodGet, "/_mock/articles", "")); got != (countsAnswer{"SUCCESS", n, 0, n, 0}) {
		t.Fatalf("GET on a fresh server: %+v", got)
	}
	if got := query(t, s, map[string]any{"query": "zyzzogeton"}).Results.TotalResults; got != 0 {
		t.Fatalf("the start-up corpus has %d zyzzogeton articles, want 0", got)
	}

	// JSON Lines: three articles, one on a site the corpus does not have.
	r := call(t, s, http.MethodPost, "/_mock/articles", jsonLines(t,
		newArticle(1, "zyzzogeton", "example.org", at), newArticle(2, "zyzzogeton", "example.org", at.Add(-time.Hour)),
		newArticle(3, "zyzzogeton", "fresh-news.test", at.Add(-2*time.Hour))))
	if got := decode[countsAnswer](t, r); r.Status != http.StatusOK || got != (countsAnswer{"SUCCESS", n, 3, n + 3, 3}) {
		t.Fatalf("POST JSON Lines: %d %s", r.Status, r.Body)
	}
	got := query(t, s, map[string]any{"query": "zyzzogeton"})
	if diff := cmp.Diff([]string{"abcdef000000000000000001", "abcdef000000000000000002", "abcdef000000000000000003"}, ids(got.Results.Articles),
		cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Fatalf("search after POST (-want +got):\n%s", diff)
	}
	// Served at the dates given, whatever the server's date shift.
	for _, a := range got.Results.Articles {
		if a.ID == "abcdef000000000000000001" && a.DatePublished != at.Format(http.TimeFormat) {
			t.Errorf("datePublished %q, want %q (as posted)", a.DatePublished, at.Format(http.TimeFormat))
		}
	}
	// The filters see them: dates, sites.
	if got := query(t, s, map[string]any{"query": "zyzzogeton", "start_date": at.Add(-90 * time.Minute).Format(time.RFC3339),
		"end_date": at.Format(time.RFC3339)}).Results.TotalResults; got != 2 {
		t.Errorf("date range around the first two: %d articles, want 2", got)
	}
	if got := query(t, s, map[string]any{"query": "zyzzogeton", "sites": []string{"fresh-news.test"}}).Results.TotalResults; got != 1 {
		t.Errorf("sites=fresh-news.test: %d articles, want 1", got)
	}

	// A job submitted now keeps this corpus's results after the next POST.
	id := submit(t, s, map[string]any{"query": "zyzzogeton"})

	// A JSON array adds two more.
	arr, err := json.Marshal([]map[string]any{newArticle(4, "zyzzogeton", "example.org", at), newArticle(5, "zyzzogeton", "example.org", at)})
	if err != nil {
		t.Fatal(err)
	}
	r = call(t, s, http.MethodPost, "/_mock/articles", string(arr))
	if got := decode[countsAnswer](t, r); r.Status != http.StatusOK || got != (countsAnswer{"SUCCESS", n, 5, n + 5, 2}) {
		t.Fatalf("POST array: %d %s", r.Status, r.Body)
	}
	if got := query(t, s, map[string]any{"query": "zyzzogeton"}).Results.TotalResults; got != 5 {
		t.Errorf("search after the array: %d, want 5", got)
	}
	if res := results(t, s, id, 1); res.TotalResults != 3 {
		t.Errorf("job submitted before the array: %d results, want the 3 of its corpus", res.TotalResults)
	}
	// Go parity.
	if got := s.counts(); got != (articleCountsBody{Start: n, Added: 5, Total: n + 5}) {
		t.Errorf("Articles() = %+v", got)
	}

	// DELETE returns to the start-up corpus.
	r = call(t, s, http.MethodDelete, "/_mock/articles", "")
	if got := decode[countsAnswer](t, r); r.Status != http.StatusOK || got != (countsAnswer{"SUCCESS", n, 0, n, 0}) {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	if got := query(t, s, map[string]any{"query": "zyzzogeton"}).Results.TotalResults; got != 0 {
		t.Errorf("search after DELETE: %d, want 0", got)
	}
	if s.Corpus() != s.start {
		t.Error("after DELETE the server does not search its start-up *Corpus")
	}

	// POST /_mock/reset does too.
	if _, err := s.AddArticles(strings.NewReader(jsonLines(t, newArticle(6, "zyzzogeton", "example.org", at)))); err != nil {
		t.Fatal(err)
	}
	call(t, s, http.MethodPost, "/_mock/reset", "")
	if got := s.counts(); got.Added != 0 || got.Total != n {
		t.Errorf("after POST /_mock/reset: %+v", got)
	}
}

func TestArticlesErrors(t *testing.T) {
	t.Parallel()
	s := start(t, WithLimits(Limits{MaxArticlesBody: 4000}))
	n := s.Corpus().Len()
	at := t0.Add(-time.Hour)
	good := jsonLines(t, newArticle(1, "quokka", "example.org", at))
	existing := s.Corpus().c.Articles[0].ID
	dup := newArticle(2, "quokka", "example.org", at)
	dup["_id"] = existing
	noTitle := newArticle(3, "quokka", "example.org", at)
	delete(noTitle, "title")
	for _, tc := range []struct {
		name, method, body string
		status             int
		want               string
	}{
		{"empty body", http.MethodPost, "", 400,
			"the input holds no articles: send JSON Lines (one article object per line) or a JSON array of article objects"},
		{"an id the corpus has", http.MethodPost, good + jsonLines(t, dup), 400,
			`line 2: _id "` + existing + `" is already in the corpus; give every article its own _id (DELETE /_mock/articles returns to the start-up corpus)`},
		{"a missing title in an array", http.MethodPost, `[` + strings.TrimSpace(good) + `,` + strings.TrimSpace(jsonLines(t, noTitle)) + `]`, 400,
			`array item 2: required field "title" is missing or empty; every article needs _id, title, url, site and datePublished`},
		{"not JSON", http.MethodPost, "hello", 400,
			"line 1: expected a JSON object; write each article as one JSON object on its own line"},
		{"too big", http.MethodPost, strings.Repeat(good, 20), 413,
			"the articles are more than 4000 bytes: send them in several POST /_mock/articles calls"},
		{"wrong method", http.MethodPatch, good, 405,
			"/_mock/articles does not accept \"PATCH\": use GET or POST or PUT or DELETE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, s, tc.method, "/_mock/articles", tc.body)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Body)
			}
			if got := decode[failure](t, r); got.State != "FAILED" || got.Message != tc.want {
				t.Errorf("message\n got %s\nwant %s", got.Message, tc.want)
			}
			if got := s.counts(); got.Total != n {
				t.Errorf("a failed call changed the corpus: %+v", got)
			}
		})
	}
	if got := call(t, s, http.MethodPatch, "/_mock/articles", "").Header.Get("Allow"); got != "GET, POST, PUT, DELETE" {
		t.Errorf("Allow = %q", got)
	}
	// Go parity: the same message, with the method's prefix.
	_, err := s.AddArticles(strings.NewReader("hello"))
	if want := "mockserver: AddArticles: line 1: expected a JSON object; write each article as one JSON object on its own line"; err == nil || err.Error() != want {
		t.Errorf("AddArticles error %v, want %s", err, want)
	}
}

func TestArticlesInHeadlines(t *testing.T) {
	t.Parallel()
	clock := newTestClock(t0)
	s := start(t, WithClock(clock.Now))
	clock.Advance(72 * time.Hour) // past the corpus: no headlines
	if r := post(t, s, "/api/v2/headlines", nil); string(r.Body) != `{"headlines":[],"state":"SUCCESS"}` {
		t.Fatalf("headlines 72 h after the corpus: %s", r.Body)
	}
	now := s.Now()
	var arts []map[string]any
	for i := range 4 {
		a := newArticle(10+i, "wombat", "example.org", now.Add(-time.Duration(i+1)*time.Hour))
		a["title"] = "Wombat parliament votes on wombat tunnels"
		arts = append(arts, a)
	}
	if _, err := s.AddArticles(strings.NewReader(jsonLines(t, arts...))); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Headlines []struct {
			Count    int `json:"count"`
			Articles []struct {
				URL string `json:"url"`
			} `json:"articles"`
		} `json:"headlines"`
	}
	if err := json.Unmarshal(post(t, s, "/api/v2/headlines", nil).Body, &got); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, h := range got.Headlines {
		total += h.Count
		for _, a := range h.Articles {
			if !strings.HasPrefix(a.URL, "https://example.org/news/") {
				t.Errorf("headline article %s is not one of the added ones", a.URL)
			}
		}
	}
	if total != 4 {
		t.Errorf("headlines count %d articles, want the 4 added: %+v", total, got)
	}
}

// TestArticlesDuringLoad adds articles while other goroutines search: every
// answer is whole (no race, no error) and the last search sees every batch.
func TestArticlesDuringLoad(t *testing.T) {
	t.Parallel()
	s := start(t)
	n := s.Corpus().Len()
	const batches, perBatch = 4, 5
	at := t0.Add(-time.Hour)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			last := 0
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := post(t, s, "/api/v2/query", map[string]any{"query": "numbat"})
				if r.Status != http.StatusOK {
					t.Errorf("query during adds: %d %s", r.Status, r.Body)
					return
				}
				total := decode[queryReply](t, r).Results.TotalResults
				if total < last || total%perBatch != 0 {
					t.Errorf("a search saw %d numbat articles after %d: not a whole number of batches, or fewer", total, last)
					return
				}
				last = total
			}
		})
	}
	for b := range batches {
		var arts []map[string]any
		for i := range perBatch {
			arts = append(arts, newArticle(100+b*perBatch+i, "numbat", "example.org", at))
		}
		if r := call(t, s, http.MethodPost, "/_mock/articles", jsonLines(t, arts...)); r.Status != http.StatusOK {
			t.Fatalf("batch %d: %d %s", b, r.Status, r.Body)
		}
	}
	close(stop)
	wg.Wait()
	if got := query(t, s, map[string]any{"query": "numbat"}).Results.TotalResults; got != batches*perBatch {
		t.Errorf("after every batch: %d numbat articles, want %d", got, batches*perBatch)
	}
	if got := s.counts(); got.Total != n+batches*perBatch {
		t.Errorf("Articles() = %+v", got)
	}
}

// BenchmarkAddArticles10000 adds 10,000 articles to the embedded corpus in
// one call (which indexes them, and them only) and runs the first search.
func BenchmarkAddArticles10000(b *testing.B) {
	s := start(b)
	at := t0.Add(-time.Hour)
	var arts []map[string]any
	for i := range 10000 {
		arts = append(arts, newArticle(i, "bilby", "example.org", at.Add(-time.Duration(i)*time.Minute)))
	}
	body := jsonLines(b, arts...)
	for b.Loop() {
		s.resetArticles()
		if _, err := s.AddArticles(strings.NewReader(body)); err != nil {
			b.Fatal(err)
		}
		if got := query(b, s, map[string]any{"query": "bilby"}).Results.TotalResults; got != 10000 {
			b.Fatalf("%d bilby articles, want 10000", got)
		}
	}
}

// TestUploadedArticleArrays: an article uploaded with only the required
// fields is answered with the arrays api/openapi.yaml declares as arrays
// ([]), never null (service-facts.md: arrays are arrays).
func TestUploadedArticleArrays(t *testing.T) {
	t.Parallel()
	s := start(t)
	const minimal = `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b2c", "title": "Harbour bridge reopens after repairs", ` +
		`"url": "https://example.org/news/harbour-bridge", "site": "example.org", "datePublished": "2026-01-15 09:30:00"}]`
	if r := call(t, s, http.MethodPost, "/_mock/articles", minimal, "Content-Type", "application/json"); r.Status != http.StatusOK {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	r := post(t, s, "/api/v2/query", map[string]any{"query": "harbour bridge", "sites": []string{"example.org"},
		"start_date": "2026-01-01", "end_date": "2026-02-01"})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"totalResults":1`) {
		t.Fatalf("query: %d %.300s", r.Status, r.Body)
	}
	if body := string(r.Body); !strings.Contains(body, `"topics":[]`) || strings.Contains(body, `"topics":null`) {
		t.Errorf("an article without topics is answered %.600s; want \"topics\":[]", body)
	}
}
