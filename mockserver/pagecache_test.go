package mockserver

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// privateCorpus returns a corpus of the default corpus's newest n articles
// that no other test shares, so that its caches can be inspected and reset.
func privateCorpus(t *testing.T, n int) *Corpus {
	t.Helper()
	def := DefaultCorpus().c
	return newCorpus(&corpus.Corpus{Articles: def.Articles[len(def.Articles)-n:], Languages: def.Languages})
}

// uncached answers a request as the mock would with an empty result and
// page cache, by emptying the cache of the server's corpus first.
func uncached(t *testing.T, s *Server, path, body string, headers ...string) reply {
	t.Helper()
	s.Corpus().answers.reset()
	return call(t, s, http.MethodPost, path, body, headers...)
}

// TestPageCacheAnswersAsWithout checks that answers served from the encoded
// page cache are byte for byte those encoded afresh, for sync queries and
// for every page of a finished job, with and without embeddings.
func TestPageCacheAnswersAsWithout(t *testing.T) {
	t.Parallel()
	c := privateCorpus(t, 400)
	s := start(t, WithCorpus(c))
	key := `"api_key":"` + s.APIKey() + `"`
	for _, body := range []string{
		`{` + key + `,"query":"*"}`,
		`{` + key + `,"query":"*","page":3}`,
		`{` + key + `,"query":"*","embeddings":true}`,
		`{` + key + `,"query":"*","sites":["` + c.c.Articles[0].Site + `"],"page":2}`,
	} {
		want := uncached(t, s, "/api/v2/query", body)
		for range 2 {
			got := call(t, s, http.MethodPost, "/api/v2/query", body)
			if got.Status != http.StatusOK || !bytes.Equal(got.Body, want.Body) {
				t.Fatalf("%s: cached answer %d differs from the fresh one:\n%.300s\nwant\n%.300s", body, got.Status, got.Body, want.Body)
			}
		}
	}
	id := submit(t, s, map[string]any{"query": "*", "embeddings": true, "sort_order": "Date Published"})
	results(t, s, id, 1) // no longer pending
	for _, page := range []string{"1", "10", "16", "17"} {
		body := `{` + key + `,"query_id":"` + id + `","page":` + page + `}`
		want := uncached(t, s, "/api/v2/get-results", body)
		if want.Status != http.StatusOK {
			t.Fatalf("page %s: %d %s", page, want.Status, want.Body)
		}
		got := call(t, s, http.MethodPost, "/api/v2/get-results", body)
		if !bytes.Equal(got.Body, want.Body) {
			t.Fatalf("get-results page %s: cached answer differs:\n%.300s\nwant\n%.300s", page, got.Body, want.Body)
		}
	}
	// The same search with and without embeddings gets its own page each.
	plain := call(t, s, http.MethodPost, "/api/v2/query", `{`+key+`,"query":"*","toggle_state":"Encoded Articles"}`)
	job := results(t, s, submit(t, s, map[string]any{"query": "*", "embeddings": true, "toggle_state": "Encoded Articles"}), 1).Articles
	if n := bytes.Count(plain.Body, []byte(`"embeddings":`)); n != 0 || len(job) != pageSize || job[0].Embeddings == nil {
		t.Fatalf("embeddings mixed up between cached pages: sync page has %d, job's first article %v", n, job[0].Embeddings)
	}
}

// TestPageCacheNeverCrossesServers checks that a page cached for one server
// is not served by another sharing its corpus under another clock (the
// dates in a page are shifted per server), nor by a server on another
// corpus.
func TestPageCacheNeverCrossesServers(t *testing.T) {
	t.Parallel()
	c := privateCorpus(t, 300)
	later := t0.Add(49*time.Hour + 17*time.Minute + 3*time.Second)
	a := start(t, WithCorpus(c))
	b := start(t, WithCorpus(c), WithClock(func() time.Time { return later }))
	if a.shift == b.shift {
		t.Fatal("the two servers have the same date shift")
	}
	body := func(s *Server) string { return `{"api_key":"` + s.APIKey() + `","query":"*"}` }
	ra := call(t, a, http.MethodPost, "/api/v2/query", body(a))
	rb := call(t, b, http.MethodPost, "/api/v2/query", body(b)) // a's page is cached by now
	if bytes.Equal(ra.Body, rb.Body) {
		t.Fatal("two servers with different clocks answered the same bytes")
	}
	if want := uncached(t, b, "/api/v2/query", body(b)); !bytes.Equal(rb.Body, want.Body) {
		t.Fatalf("server b got a page encoded for another shift:\n%.300s\nwant\n%.300s", rb.Body, want.Body)
	}
	first := decode[queryReply](t, rb).Results.Articles[0]
	for _, art := range c.c.Articles {
		if art.ID == first.ID {
			if want := art.Published.Add(b.shift).UTC().Format(http.TimeFormat); first.DatePublished != want {
				t.Fatalf("b's first article is dated %q, want %q", first.DatePublished, want)
			}
		}
	}
	other := start(t, WithCorpus(privateCorpus(t, 200)))
	ro := call(t, other, http.MethodPost, "/api/v2/query", body(other))
	if !strings.Contains(string(ro.Body), `"totalResults":200,`) {
		t.Fatalf("a server on another corpus got: %.200s", ro.Body)
	}
}

// TestPageCacheLeavesFaultsAlone checks that a cached page never hides a
// fault: injected statuses, truncation and failed jobs are decided per
// request, after the page is known.
func TestPageCacheLeavesFaultsAlone(t *testing.T) {
	t.Parallel()
	s := start(t, WithCorpus(privateCorpus(t, 300)))
	body := `{"api_key":"` + s.APIKey() + `","query":"*"}`
	full := call(t, s, http.MethodPost, "/api/v2/query", body) // cached from now on
	if r := call(t, s, http.MethodPost, "/api/v2/query", body, FaultHeader, "status=503"); r.Status != http.StatusServiceUnavailable ||
		!strings.Contains(string(r.Body), "injected fault") {
		t.Fatalf("status fault on a cached page: %d %.200s", r.Status, r.Body)
	}
	if _, err := tryCall(s, http.MethodPost, "/api/v2/query", body, FaultHeader, "truncate"); err == nil {
		t.Fatal("truncate fault on a cached page: the whole answer arrived")
	}
	id := submit(t, s, map[string]any{"query": "*"}, FaultHeader, "job=fail")
	if r := results(t, s, id, 1); r.State != "FAILED" || len(r.Articles) != 0 {
		t.Fatalf("failed job with a cached page: state %s, %d articles", r.State, len(r.Articles))
	}
	if r := call(t, s, http.MethodPost, "/api/v2/query", body); !bytes.Equal(r.Body, full.Body) {
		t.Fatal("after the faults the page differs")
	}
}

// TestPageCacheBounded checks that the encoded pages a corpus keeps stay
// within two generations of pageCacheBytes however many are asked for.
func TestPageCacheBounded(t *testing.T) {
	t.Parallel()
	c := privateCorpus(t, 2000)
	s := start(t, WithCorpus(c))
	for page := 1; page <= 80; page++ {
		for _, emb := range []bool{false, true} {
			query(t, s, map[string]any{"query": "*", "page": page, "embeddings": emb})
		}
	}
	rc := &c.answers
	rc.mu.Lock()
	defer rc.mu.Unlock()
	total := 0
	for _, m := range []map[any][]byte{rc.cur, rc.prev} {
		for _, p := range m {
			total += len(p)
		}
	}
	if total == 0 || total > 2*answerCacheBytes || rc.prev == nil {
		t.Fatalf("pages cached: %d bytes (bound %d), previous generation %v", total, 2*answerCacheBytes, rc.prev != nil)
	}
}

// reset forgets every answer.
func (ac *answerCache) reset() {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	ac.cur, ac.prev, ac.curBytes = nil, nil, 0
}
