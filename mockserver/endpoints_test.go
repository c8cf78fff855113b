package mockserver

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// articleKeys are the members of a search-result article without embeddings.
var articleKeys = []string{
	"_id", "bodyText", "category", "datePublished", "description", "entities", "entity_relationships",
	"favicon", "image", "language", "score", "sentiment", "site", "title", "topics", "url",
}

func keysOf(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// byID indexes the corpus articles by id.
func byID(s *Server) map[string]*corpus.Article {
	m := make(map[string]*corpus.Article, s.Corpus().Len())
	for i := range s.Corpus().c.Articles {
		a := &s.Corpus().c.Articles[i]
		m[a.ID] = a
	}
	return m
}

// titleWords counts, per corpus, the titles each plain lower-case word of
// five letters or more appears in.
var titleWords sync.Map // *Corpus -> map[string]int

func wordCounts(s *Server) map[string]int {
	if m, ok := titleWords.Load(s.Corpus()); ok {
		return m.(map[string]int)
	}
	counts := map[string]int{}
	for _, a := range s.Corpus().c.Articles {
		for _, w := range strings.Fields(strings.ToLower(a.Title)) {
			if len(w) >= 5 && strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 {
				counts[w]++
			}
		}
	}
	titleWords.Store(s.Corpus(), counts)
	return counts
}

// commonWord returns a word of the corpus found in a few pages' worth of
// titles: the rarest word in at least 3 pages of titles (ties by spelling).
func commonWord(t testing.TB, s *Server) string {
	t.Helper()
	best, n := "", 0
	for w, c := range wordCounts(s) {
		if c >= 3*pageSize+1 && (n == 0 || c < n || c == n && w < best) {
			best, n = w, c
		}
	}
	if n == 0 {
		t.Fatalf("no word shared by %d titles", 3*pageSize+1)
	}
	return best
}

func TestQueryArticleShape(t *testing.T) {
	t.Parallel()
	s := start(t)
	corpusByID := byID(s)
	for _, embeddings := range []bool{false, true} {
		r := post(t, s, "/api/v2/query", map[string]any{"query": "*", "embeddings": embeddings})
		if r.Status != http.StatusOK {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if got := r.Header.Get("Content-Type"); got != "application/json" {
			t.Errorf("Content-Type %q", got)
		}
		var raw struct {
			Results struct {
				TotalResults int                          `json:"totalResults"`
				Articles     []map[string]json.RawMessage `json:"articles"`
			} `json:"results"`
			State string `json:"state"`
		}
		if err := json.Unmarshal(r.Body, &raw); err != nil {
			t.Fatal(err)
		}
		if raw.State != "SUCCESS" || raw.Results.TotalResults != s.Corpus().Len() || len(raw.Results.Articles) != pageSize {
			t.Fatalf("state %q, total %d (corpus %d), %d articles", raw.State, raw.Results.TotalResults, s.Corpus().Len(), len(raw.Results.Articles))
		}
		want := articleKeys
		if embeddings {
			want = append(slices.Clone(articleKeys), "embeddings")
			sort.Strings(want)
		}
		for _, m := range raw.Results.Articles {
			if diff := cmp.Diff(want, keysOf(m)); diff != "" {
				t.Fatalf("article keys (-want +got):\n%s", diff)
			}
		}
		for _, a := range decode[queryReply](t, r).Results.Articles {
			c := corpusByID[a.ID]
			if c == nil {
				t.Fatalf("article %s is not in the corpus", a.ID)
			}
			want := wireArticle{
				ID: c.ID, Title: c.Title, Description: c.Description, BodyText: c.Body, URL: c.URL, Site: c.Site,
				Image: nullable(c.Image), Favicon: c.Favicon, Category: nullable(c.Category), Language: c.Language,
				DatePublished: c.Published.Add(s.DateShift()).UTC().Format(http.TimeFormat),
				Score:         0, Topics: c.Topics,
				Sentiment: map[string]float64{"title": c.Sentiment.Title, "description": c.Sentiment.Description},
			}
			// Entities and relationships are compared by count: their
			// encoding is covered by the SDK round trip.
			if len(a.Entities) != len(c.Entities) || (a.Entities == nil) != (c.Entities == nil) ||
				len(a.EntityRelationships) != len(c.Relationships) || (a.EntityRelationships == nil) != (c.Relationships == nil) {
				t.Errorf("%s: entities %v / relationships %v do not match the corpus", a.ID, a.Entities, a.EntityRelationships)
			}
			if embeddings {
				want.Embeddings = c.Vector()
			}
			a.Entities, a.EntityRelationships = nil, nil
			if diff := cmp.Diff(want, a); diff != "" {
				t.Errorf("article %s (-want +got):\n%s", a.ID, diff)
			}
		}
	}
}

func TestQueryPagePastTheEnd(t *testing.T) {
	t.Parallel()
	s := start(t)
	word := commonWord(t, s)
	first := query(t, s, map[string]any{"query": word})
	past := post(t, s, "/api/v2/query", map[string]any{"query": word, "page": first.Results.TotalResults/pageSize + 2})
	want := `{"results":{"totalResults":` + itoa(first.Results.TotalResults) + `,"articles":[]},"state":"SUCCESS"}`
	if diff := cmp.Diff(want, string(past.Body)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// allPages fetches every page of a search through fetch.
func allPages(t *testing.T, total int, fetch func(page int) []wireArticle) []string {
	t.Helper()
	var got []string
	for page := 1; page <= (total+pageSize-1)/pageSize; page++ {
		arts := fetch(page)
		if want := min(pageSize, total-(page-1)*pageSize); len(arts) != want {
			t.Fatalf("page %d has %d articles, want %d", page, len(arts), want)
		}
		got = append(got, ids(arts)...)
	}
	return got
}

func engineIDs(t *testing.T, s *Server, q search.Query) []string {
	t.Helper()
	res, err := s.Corpus().index().Search(q, 0, s.Corpus().Len())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = s.Corpus().c.Articles[h.Doc].ID
	}
	return out
}

func TestPaginationIsConsistent(t *testing.T) {
	t.Parallel()
	s := start(t)
	word := commonWord(t, s)
	first := query(t, s, map[string]any{"query": word})
	total := first.Results.TotalResults
	got := allPages(t, total, func(page int) []wireArticle {
		r := query(t, s, map[string]any{"query": word, "page": page})
		if r.Results.TotalResults != total {
			t.Fatalf("page %d: total %d, page 1 said %d", page, r.Results.TotalResults, total)
		}
		return r.Results.Articles
	})
	if diff := cmp.Diff(engineIDs(t, s, search.Query{Text: word}), got); diff != "" {
		t.Fatalf("sync pages (-whole result +pages):\n%s", diff)
	}
	seen := map[string]bool{}
	for _, id := range got {
		if seen[id] {
			t.Fatalf("article %s on two pages", id)
		}
		seen[id] = true
	}
	for _, order := range []string{"Relevance", "Date Published"} {
		id := submit(t, s, map[string]any{"query": word, "sort_order": order})
		got := allPages(t, total, func(page int) []wireArticle { return results(t, s, id, page).Articles })
		q := search.Query{Text: word}
		if order == "Date Published" {
			q.Order = search.ByDate
		}
		if diff := cmp.Diff(engineIDs(t, s, q), got); diff != "" {
			t.Fatalf("async %s pages (-whole result +pages):\n%s", order, diff)
		}
	}
}

func TestSortOrders(t *testing.T) {
	t.Parallel()
	s := start(t)
	word := commonWord(t, s)
	byRelevance := results(t, s, submit(t, s, map[string]any{"query": word}), 1).Articles
	for i := 1; i < len(byRelevance); i++ {
		a, b := byRelevance[i-1], byRelevance[i]
		if a.Score < b.Score || a.Score == b.Score && a.ID > b.ID {
			t.Fatalf("relevance order broken at %d: %v/%s before %v/%s", i, a.Score, a.ID, b.Score, b.ID)
		}
	}
	if byRelevance[0].Score <= 0 {
		t.Fatalf("top score %v, want > 0", byRelevance[0].Score)
	}
	byDate := results(t, s, submit(t, s, map[string]any{"query": word, "sort_order": "Date Published"}), 1).Articles
	for i := 1; i < len(byDate); i++ {
		a, b := byDate[i-1], byDate[i]
		ta, _ := time.Parse(http.TimeFormat, a.DatePublished)
		tb, _ := time.Parse(http.TimeFormat, b.DatePublished)
		if ta.Before(tb) || ta.Equal(tb) && a.ID > b.ID {
			t.Fatalf("date order broken at %d: %s/%s before %s/%s", i, a.DatePublished, a.ID, b.DatePublished, b.ID)
		}
	}
	if slices.Equal(ids(byRelevance), ids(byDate)) {
		t.Fatal("both orders gave the same page")
	}
}

func TestFilters(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := s.Corpus().c
	shift := s.DateShift()
	mid := c.Articles[len(c.Articles)/2].Published.Add(shift) // in served time
	day := mid.UTC().Format(time.DateOnly)
	dayStart, _ := time.Parse(time.DateOnly, day)
	site0, site1 := c.Sites[0], c.Sites[len(c.Sites)-1]
	lang := c.Languages[len(c.Languages)-1]
	top5 := topSites(c.Sites, 95)
	// The highest traffic_rank that still keeps site0: 100 - ceil(100*(p+1)/S).
	site0Pos := slices.IndexFunc(bySiteTraffic(c.Sites), func(s corpus.Site) bool { return s.Domain == site0.Domain })
	site0Rank := 100 - (100*(site0Pos+1)+len(c.Sites)-1)/len(c.Sites)
	tests := []struct {
		name   string
		fields map[string]any
		keep   func(a *corpus.Article) bool
	}{
		{"sites", map[string]any{"sites": []string{site0.Domain, site1.Domain}},
			func(a *corpus.Article) bool { return a.Site == site0.Domain || a.Site == site1.Domain }},
		{"site written as a URL", map[string]any{"sites": []string{"https://www." + strings.ToUpper(site0.Domain) + "/"}},
			func(a *corpus.Article) bool { return a.Site == site0.Domain }},
		{"language code", map[string]any{"language": lang.Code},
			func(a *corpus.Article) bool { return a.Language == lang.Code }},
		{"language name in capitals", map[string]any{"language": strings.ToUpper(lang.Name)},
			func(a *corpus.Article) bool { return a.Language == lang.Code }},
		{"language all", map[string]any{"language": "ALL"}, func(*corpus.Article) bool { return true }},
		{"traffic rank", map[string]any{"traffic_rank": 95}, func(a *corpus.Article) bool { return top5[a.Site] }},
		{"traffic rank 0", map[string]any{"traffic_rank": 0}, func(*corpus.Article) bool { return true }},
		{"encoded articles", map[string]any{"toggle_state": "Encoded Articles"}, (*corpus.Article).Encoded},
		{"all articles", map[string]any{"toggle_state": "All Articles"}, func(*corpus.Article) bool { return true }},
		{"start date RFC 3339", map[string]any{"start_date": mid.Format(time.RFC3339Nano)},
			func(a *corpus.Article) bool { return !a.Published.Add(shift).Before(mid) }},
		{"start date in lower case", map[string]any{"start_date": strings.ToLower(mid.Format(time.RFC3339))},
			func(a *corpus.Article) bool { return !a.Published.Add(shift).Before(mid.Truncate(time.Second)) }},
		{"end date with offset and fraction", map[string]any{"end_date": mid.In(time.FixedZone("", -5*3600)).Format("2006-01-02T15:04:05.000000-07:00")},
			func(a *corpus.Article) bool { return !a.Published.Add(shift).After(mid.Truncate(time.Microsecond)) }},
		{"one whole day", map[string]any{"start_date": day, "end_date": day},
			func(a *corpus.Article) bool {
				p := a.Published.Add(shift)
				return !p.Before(dayStart) && p.Before(dayStart.Add(24*time.Hour))
			}},
		{"everything at once", map[string]any{"sites": []string{site0.Domain}, "language": site0.Language, "traffic_rank": site0Rank,
			"toggle_state": "Encoded Articles", "end_date": day},
			func(a *corpus.Article) bool {
				return a.Site == site0.Domain && a.Language == site0.Language && a.Encoded() &&
					a.Published.Add(shift).Before(dayStart.Add(24*time.Hour))
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var want []string
			for i := range c.Articles {
				if tt.keep(&c.Articles[i]) {
					want = append(want, c.Articles[i].ID)
				}
			}
			if len(want) == 0 || len(want) == len(c.Articles) && !strings.Contains(tt.name, "all") && !strings.Contains(tt.name, " 0") {
				t.Fatalf("filter keeps %d of %d articles: pick another value", len(want), len(c.Articles))
			}
			sort.Strings(want) // "*" scores every article 0, so the order is by id
			fields := map[string]any{"query": "*"}
			for k, v := range tt.fields {
				fields[k] = v
			}
			got := query(t, s, fields)
			if got.Results.TotalResults != len(want) {
				t.Fatalf("totalResults %d, want %d", got.Results.TotalResults, len(want))
			}
			if diff := cmp.Diff(want[:min(len(want), pageSize)], ids(got.Results.Articles)); diff != "" {
				t.Fatalf("first page (-want +got):\n%s", diff)
			}
		})
	}
}

// bySiteTraffic returns the sites busiest first, ties by domain: the order
// traffic_rank's percentiles are ranks in.
func bySiteTraffic(sites []corpus.Site) []corpus.Site {
	out := slices.Clone(sites)
	slices.SortFunc(out, func(a, b corpus.Site) int {
		if a.Traffic != b.Traffic {
			return b.Traffic - a.Traffic
		}
		return strings.Compare(a.Domain, b.Domain)
	})
	return out
}

// topSites returns the domains traffic_rank n keeps: the first
// floor(len*(100-n)/100) sites by traffic.
func topSites(sites []corpus.Site, n int) map[string]bool {
	keep := map[string]bool{}
	for _, s := range bySiteTraffic(sites)[:len(sites)*(100-n)/100] {
		keep[s.Domain] = true
	}
	return keep
}

// TestTrafficRankKeepsAShareOfSites checks that traffic_rank N keeps exactly
// the top (100-N)% of sites by traffic rank, on the embedded corpus (400
// sites: 90 keeps 40, 95 keeps 20) and on a loaded one whose traffic values
// are bunched near the top, where a bound on raw traffic would keep far more.
func TestTrafficRankKeepsAShareOfSites(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 20 {
		// Sites s00..s19 with traffic 99, 98, ..., 80: all "above 90" but half.
		fmt.Fprintf(&b, `{"_id":"%024x","title":"rates","description":"d","url":"https://s%02d.example/a","site":"s%02d.example","datePublished":"2025-03-04T10:00:00Z","language":"en","traffic":%d}`+"\n",
			i+1, i, i, 99-i)
	}
	loaded, err := LoadCorpus(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		opts      []Option
		rank      int
		wantSites int
	}{
		{"embedded 90", nil, 90, 40},
		{"embedded 95", nil, 95, 20},
		{"embedded 50", nil, 50, 200},
		{"embedded 0", nil, 0, 400},
		{"embedded 100", nil, 100, 0},
		{"loaded 90", []Option{WithCorpus(loaded)}, 90, 2},
		{"loaded 95", []Option{WithCorpus(loaded)}, 95, 1},
		{"loaded 50", []Option{WithCorpus(loaded)}, 50, 10},
		{"loaded 96", []Option{WithCorpus(loaded)}, 96, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, tt.opts...)
			c := s.Corpus().c
			keep := topSites(c.Sites, tt.rank)
			if len(keep) != tt.wantSites {
				t.Fatalf("the test's own ranking keeps %d sites, want %d", len(keep), tt.wantSites)
			}
			want := 0
			for _, a := range c.Articles {
				if keep[a.Site] {
					want++
				}
			}
			got := query(t, s, map[string]any{"query": "*", "traffic_rank": tt.rank})
			if got.Results.TotalResults != want {
				t.Fatalf("traffic_rank %d: totalResults %d, want %d (the articles of the top %d of %d sites)",
					tt.rank, got.Results.TotalResults, want, tt.wantSites, len(c.Sites))
			}
			for _, a := range got.Results.Articles {
				if !keep[a.Site] {
					t.Errorf("traffic_rank %d served %s of %s, which is not among the top %d sites", tt.rank, a.ID, a.Site, tt.wantSites)
				}
			}
		})
	}
}

func TestDateShift(t *testing.T) {
	t.Parallel()
	at := time.Date(2030, 6, 1, 8, 30, 15, 999, time.UTC)
	s := start(t, WithClock(func() time.Time { return at }))
	newest := s.Corpus().Newest()
	if want := at.Sub(newest).Truncate(time.Second); s.DateShift() != want {
		t.Fatalf("DateShift %v, want %v", s.DateShift(), want)
	}
	if s.DateShift()%time.Second != 0 {
		t.Fatalf("DateShift %v is not whole seconds", s.DateShift())
	}
	r := results(t, s, submit(t, s, map[string]any{"query": "*", "sort_order": "Date Published"}), 1)
	got, err := time.Parse(http.TimeFormat, r.Articles[0].DatePublished)
	if err != nil {
		t.Fatal(err)
	}
	// The newest article is published within the second before the clock;
	// datePublished shows its whole second.
	if d := at.Sub(newest.Add(s.DateShift())); d < 0 || d >= time.Second || !got.Equal(newest.Add(s.DateShift()).Truncate(time.Second)) {
		t.Fatalf("newest article published %v, dated %v, clock %v", newest.Add(s.DateShift()), got, at)
	}
	plain := start(t, WithoutDateShift(), WithClock(func() time.Time { return at }))
	if plain.DateShift() != 0 {
		t.Fatalf("WithoutDateShift: DateShift %v", plain.DateShift())
	}
	r = results(t, plain, submit(t, plain, map[string]any{"query": "*", "sort_order": "Date Published"}), 1)
	if want := newest.UTC().Format(http.TimeFormat); r.Articles[0].DatePublished != want {
		t.Fatalf("WithoutDateShift: newest dated %s, want %s", r.Articles[0].DatePublished, want)
	}
}

func TestHeadlines(t *testing.T) {
	t.Parallel()
	clock := newTestClock(t0)
	s := start(t, WithClock(clock.Now))
	r := post(t, s, "/api/v2/headlines", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	var raw struct {
		Headlines []struct {
			Topic    string                       `json:"topic"`
			Count    int                          `json:"count"`
			Articles []map[string]json.RawMessage `json:"articles"`
		} `json:"headlines"`
		State string `json:"state"`
	}
	if err := json.Unmarshal(r.Body, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.State != "SUCCESS" || len(raw.Headlines) == 0 || len(raw.Headlines) > defaultHeadlineClusters {
		t.Fatalf("state %q, %d clusters", raw.State, len(raw.Headlines))
	}
	wantKeys := []string{"category", "datePublished", "favicon", "image", "site", "title", "url"}
	for i, h := range raw.Headlines {
		if h.Topic == "" || len(h.Articles) == 0 || len(h.Articles) > defaultHeadlineArticles || h.Count < len(h.Articles) {
			t.Errorf("cluster %d: topic %q, count %d, %d articles", i, h.Topic, h.Count, len(h.Articles))
		}
		if i > 0 && h.Count > raw.Headlines[i-1].Count {
			t.Errorf("cluster %d (count %d) follows a smaller one (%d)", i, h.Count, raw.Headlines[i-1].Count)
		}
		for _, a := range h.Articles {
			if diff := cmp.Diff(wantKeys, keysOf(a)); diff != "" {
				t.Fatalf("headline article keys (-want +got):\n%s", diff)
			}
			var date string
			if err := json.Unmarshal(a["datePublished"], &date); err != nil {
				t.Fatal(err)
			}
			at, err := time.Parse(time.DateTime, date)
			if err != nil {
				t.Fatalf("datePublished %q: %v", date, err)
			}
			if at.After(t0) || at.Before(t0.Add(-HeadlineWindow-time.Second)) {
				t.Errorf("datePublished %s outside the 48 hours before %s", date, t0)
			}
		}
	}
	// Same window, same bytes; a later clock moves the window.
	if again := post(t, s, "/api/v2/headlines", nil); string(again.Body) != string(r.Body) {
		t.Fatal("second headlines call differs")
	}
	clock.Advance(72 * time.Hour)
	later := post(t, s, "/api/v2/headlines", nil)
	if diff := cmp.Diff(`{"headlines":[],"state":"SUCCESS"}`, string(later.Body)); diff != "" {
		t.Fatalf("headlines 72 h after the newest article (-want +got):\n%s", diff)
	}
}

func TestHeadlineLimits(t *testing.T) {
	t.Parallel()
	s := start(t, WithLimits(Limits{HeadlineClusters: 2, HeadlineArticles: 1}))
	r := post(t, s, "/api/v2/headlines", nil)
	var got struct {
		Headlines []struct {
			Count    int              `json:"count"`
			Articles []map[string]any `json:"articles"`
		} `json:"headlines"`
	}
	if err := json.Unmarshal(r.Body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Headlines) != 2 {
		t.Fatalf("%d clusters, want 2", len(got.Headlines))
	}
	for _, h := range got.Headlines {
		if len(h.Articles) != 1 {
			t.Fatalf("%d articles in a cluster of %d, want 1", len(h.Articles), h.Count)
		}
	}
}

// TestPageOffset checks the page arithmetic in int64: on a 32-bit platform
// (CI builds and vets GOARCH=386) page 1e9 must stay past the end instead of
// wrapping negative and serving page 1.
func TestPageOffset(t *testing.T) {
	t.Parallel()
	last := int64(maxPage-1) * pageSize // 24,999,999,975: more than a 32-bit int holds
	want := int(min(last, int64(math.MaxInt)))
	tests := []struct{ page, want int }{{1, 0}, {2, pageSize}, {40, 39 * pageSize}, {maxPage, want}}
	for _, tt := range tests {
		if got := pageOffset(tt.page); got != tt.want || got < 0 {
			t.Errorf("pageOffset(%d) = %d, want %d", tt.page, got, tt.want)
		}
	}
	s := start(t)
	got := query(t, s, map[string]any{"query": "*", "page": maxPage})
	if len(got.Results.Articles) != 0 || got.Results.TotalResults != len(s.Corpus().c.Articles) {
		t.Fatalf("page %d: %d articles of %d, want none of %d", maxPage, len(got.Results.Articles), got.Results.TotalResults, len(s.Corpus().c.Articles))
	}
}
