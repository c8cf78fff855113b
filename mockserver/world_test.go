package mockserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
)

// worldCall sends a control call on behalf of key's world ("" for none).
func worldCall(t *testing.T, s *Server, key, method, path, body string) response2 {
	t.Helper()
	var r reply
	if key != "" {
		r = call(t, s, method, path, body, KeyHeader, key)
	} else {
		r = call(t, s, method, path, body)
	}
	return response2{r.Status, string(r.Body)}
}

type response2 struct {
	status int
	body   string
}

// TestWorldPerKeyIsolation: under WithWorldPerKey two keys each set a
// fault, move their clock and add an article through the control API, and
// each sees only its own: its fault, its clock, its article, its journal and
// its jobs; the default world sees none of it.
func TestWorldPerKeyIsolation(t *testing.T) {
	t.Parallel()
	s := start(t, WithWorldPerKey(), WithManualClock(t0), WithPendingPolls(0))
	keys := []string{"world-a", "world-b"}
	for i, key := range keys {
		if r := worldCall(t, s, key, http.MethodPost, "/_mock/faults", fmt.Sprintf(`{"endpoint":"query","times":1,"fault":{"status":%d}}`, 502+i)); r.status != 200 {
			t.Fatalf("%s: POST /_mock/faults: %d %s", key, r.status, r.body)
		}
		if r := worldCall(t, s, key, http.MethodPost, "/_mock/clock", fmt.Sprintf(`{"advance":"%dh"}`, i+1)); r.status != 200 {
			t.Fatalf("%s: POST /_mock/clock: %d %s", key, r.status, r.body)
		}
	}
	ctx := context.Background()
	for i, key := range keys {
		w := s.World(key)
		if got, want := w.Now(), t0.Add(time.Duration(i+1)*time.Hour); !got.Equal(want) {
			t.Errorf("%s: clock %v, want %v", key, got, want)
		}
		c := w.Client(newssearch.WithMaxRetries(0))
		_, err := c.Search(ctx, newssearch.SearchParams{Query: "bank"})
		var ae *newssearch.APIError
		if !errors.As(err, &ae) || ae.StatusCode != 502+i {
			t.Errorf("%s: first search: %v, want its own fault's %d", key, err, 502+i)
		}
		if _, err := c.Search(ctx, newssearch.SearchParams{Query: "bank"}); err != nil {
			t.Errorf("%s: second search: %v", key, err)
		}
		job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "bank"}})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(w.Jobs()); n != 1 || w.Jobs()[0].QueryID != job.QueryID {
			t.Errorf("%s: jobs %+v, want its one job", key, w.Jobs())
		}
		// Another world's key cannot read the job: 404, as an unknown id.
		other := s.World(keys[1-i]).Client(newssearch.WithMaxRetries(0))
		if _, err := other.GetResults(ctx, job.QueryID, 1); !errors.As(err, &ae) || ae.StatusCode != 404 {
			t.Errorf("%s's job read from the other world: %v, want a 404", key, err)
		}
		var paths []string
		for _, e := range w.Journal(JournalQuery{Path: "query"}, JournalQuery{Path: "query-async"}) {
			paths = append(paths, fmt.Sprint(e.Path, " ", e.Status, " ", e.World))
		}
		id := KeyFingerprint(key)
		want := []string{"/api/v2/query 50" + fmt.Sprint(2+i) + " " + id, "/api/v2/query 200 " + id, "/api/v2/query-async 200 " + id}
		if diff := cmp.Diff(want, paths); diff != "" {
			t.Errorf("%s: journal (-want +got):\n%s", key, diff)
		}
	}
	// The other world's get-results went to the other world's journal.
	if n := len(s.World("world-b").Journal(JournalQuery{Path: "get-results"})); n != 1 {
		t.Errorf("world-b journal holds %d get-results, want 1 (world-a's job asked for)", n)
	}
	if n := len(s.Journal()); n != 0 || !s.Now().Equal(t0) || len(s.Faults()) != 0 {
		t.Errorf("default world: %d journal entries, clock %v, %d faults; want none, t0, none", n, s.Now(), len(s.Faults()))
	}
	// Reset with the header resets that world alone.
	if r := worldCall(t, s, "world-a", http.MethodPost, "/_mock/reset", ""); r.status != 200 {
		t.Fatalf("reset: %d %s", r.status, r.body)
	}
	if a, b := s.World("world-a"), s.World("world-b"); len(a.Journal()) != 0 || !a.Now().Equal(t0) || len(b.Journal()) == 0 {
		t.Errorf("after world-a's reset: a has %d entries at %v, b %d entries", len(a.Journal()), a.Now(), len(b.Journal()))
	}
}

// TestWorldWithoutFlag: without WithWorldPerKey every key uses the default
// world, a control call naming a key without a world is a 404 saying how
// to make one, and POST /_mock/worlds makes it.
func TestWorldWithoutFlag(t *testing.T) {
	t.Parallel()
	s := start(t)
	r := worldCall(t, s, "k1", http.MethodGet, "/_mock/faults", "")
	wantMsg := `the key in X-Newsmock-Key has no world: create it with POST /_mock/worlds (with the same header), or start the mock with a world per key (newsmock -world-per-key, mockserver.WithWorldPerKey)`
	if r.status != 404 || !strings.Contains(r.body, wantMsg) {
		t.Fatalf("control call for a key without a world: %d %s", r.status, r.body)
	}
	post(t, s, "/api/v2/query", map[string]any{"query": "bank", "api_key": "k1"})
	if n := len(s.Journal()); n != 1 {
		t.Fatalf("default world journal %d, want the request of k1", n)
	}
	if r := worldCall(t, s, "k1", http.MethodPost, "/_mock/worlds", ""); r.status != 200 || !strings.Contains(r.body, `"created":true`) {
		t.Fatalf("POST /_mock/worlds: %d %s", r.status, r.body)
	}
	post(t, s, "/api/v2/query", map[string]any{"query": "bank", "api_key": "k1"})
	if n, m := len(s.Journal()), len(s.World("k1").Journal()); n != 1 || m != 1 {
		t.Fatalf("journals: default %d, k1 %d; want 1 and 1", n, m)
	}
	r = worldCall(t, s, "", http.MethodGet, "/_mock/worlds", "")
	if r.status != 200 || !strings.Contains(r.body, `"id":"default"`) || !strings.Contains(r.body, `"id":"`+KeyFingerprint("k1")+`"`) || strings.Contains(r.body, "k1") {
		t.Fatalf("GET /_mock/worlds: %d %s", r.status, r.body)
	}
	if r := worldCall(t, s, "", http.MethodDelete, "/_mock/worlds/default", ""); r.status != 400 {
		t.Errorf("DELETE the default world: %d %s", r.status, r.body)
	}
	if r := worldCall(t, s, "", http.MethodDelete, "/_mock/worlds/"+KeyFingerprint("k1"), ""); r.status != 200 {
		t.Fatalf("DELETE k1's world: %d %s", r.status, r.body)
	}
	post(t, s, "/api/v2/query", map[string]any{"query": "bank", "api_key": "k1"})
	if n := len(s.Journal()); n != 2 {
		t.Fatalf("after its world is dropped, k1 uses the default world again: default journal %d, want 2", n)
	}
}

// TestWorldHandleClose: Close on a World handle drops the world and leaves
// the server serving; a handle prints its world's id, never the key.
func TestWorldHandleClose(t *testing.T) {
	t.Parallel()
	s := start(t)
	w := s.World("secret-world-key")
	if got, want := fmt.Sprintf("%v %#v", w, w), "mockserver.Server(http://mockserver.invalid, world "+KeyFingerprint("secret-world-key")+")"; got != want+" "+want {
		t.Errorf("printed %q", got)
	}
	if _, err := w.Client().Search(context.Background(), newssearch.SearchParams{Query: "bank"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := s.Client().Search(context.Background(), newssearch.SearchParams{Query: "bank"}); err != nil {
		t.Fatalf("the server stopped with the world: %v", err)
	}
	if r := worldCall(t, s, "", http.MethodGet, "/_mock/worlds", ""); strings.Contains(r.body, KeyFingerprint("secret-world-key")) {
		t.Errorf("the closed world is still listed: %s", r.body)
	}
}

// TestWorldsEvictLeastRecentlyUsed: past Limits.MaxWorlds, making a world
// drops the least recently used one.
func TestWorldsEvictLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	s := start(t, WithWorldPerKey(), WithLimits(Limits{MaxWorlds: 2}))
	for _, k := range []string{"a", "b", "a", "c"} {
		post(t, s, "/api/v2/query", map[string]any{"query": "bank", "api_key": k})
	}
	r := worldCall(t, s, "", http.MethodGet, "/_mock/worlds", "")
	if strings.Contains(r.body, KeyFingerprint("b")) || !strings.Contains(r.body, KeyFingerprint("a")) || !strings.Contains(r.body, `"evicted":1`) {
		t.Errorf("worlds after a, b, a, c with room for 2: %s; want a and c, b evicted", r.body)
	}
}

// TestWorldsInParallel: 16 workers, each with its own key and world on one
// server, each set their own fault, clock and article, and see exactly
// their own journal, jobs and results.
func TestWorldsInParallel(t *testing.T) {
	t.Parallel()
	s := start(t, WithWorldPerKey(), WithManualClock(t0), WithPendingPolls(0))
	const workers = 16
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for i := range workers {
		wg.Go(func() {
			if err := worldWorker(s, i); err != nil {
				errs <- fmt.Errorf("worker %d: %w", i, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// worldWorker is one worker of TestWorldsInParallel.
func worldWorker(s *Server, i int) error {
	ctx := context.Background()
	w := s.World(fmt.Sprintf("worker-%d", i))
	if err := w.SetFaults(FaultRule{Endpoint: EndpointQuery, Times: 1, Fault: Fault{Status: 500 + i}}); err != nil {
		return err
	}
	if _, err := w.SetClock(t0.Add(time.Duration(i) * time.Minute)); err != nil {
		return err
	}
	title := fmt.Sprintf("zyxworker%d article", i)
	article := fmt.Sprintf(`{"_id":"%024x","title":%q,"url":"https://example.com/w%d","site":"example.com","datePublished":"2026-01-15T11:00:00Z"}`, 0xabc000+i, title, i)
	if _, err := w.AddArticles(strings.NewReader(article)); err != nil {
		return err
	}
	c := w.Client(newssearch.WithMaxRetries(0))
	var ae *newssearch.APIError
	if _, err := c.Search(ctx, newssearch.SearchParams{Query: "bank"}); !errors.As(err, &ae) || ae.StatusCode != 500+i {
		return fmt.Errorf("first search: %v, want the fault %d", err, 500+i)
	}
	for j := range workers(16) {
		page, err := c.Search(ctx, newssearch.SearchParams{Query: fmt.Sprintf("zyxworker%d", j)})
		if err != nil {
			return err
		}
		if want := map[bool]int{true: 1, false: 0}[i == j]; page.TotalResults != want {
			return fmt.Errorf("search for worker %d's article: %d results, want %d", j, page.TotalResults, want)
		}
	}
	job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "bank"}})
	if err != nil {
		return err
	}
	if jobs := w.Jobs(); len(jobs) != 1 || jobs[0].QueryID != job.QueryID {
		return fmt.Errorf("jobs %d, want its own one", len(jobs))
	}
	if n := len(w.Journal()); n != 18 {
		return fmt.Errorf("journal holds %d requests, want its own 18", n)
	}
	if got, want := w.Now(), t0.Add(time.Duration(i)*time.Minute); !got.Equal(want) {
		return fmt.Errorf("clock %v, want %v", got, want)
	}
	return nil
}

// workers ranges over n, for readability.
func workers(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestReplaceArticles: PUT /_mock/articles makes a world search just the
// articles given, at a cost of what they are; other worlds keep the
// start-up corpus; a later POST adds to the new corpus; DELETE goes back.
func TestReplaceArticles(t *testing.T) {
	t.Parallel()
	s := start(t, WithWorldPerKey())
	body := `{"_id":"aaaaaaaaaaaaaaaaaaaaaaa1","title":"Quokka census","url":"https://example.com/q1","site":"example.com","datePublished":"2026-01-15T10:00:00Z"}
{"_id":"aaaaaaaaaaaaaaaaaaaaaaa2","title":"Quokka habitat","url":"https://example.com/q2","site":"example.com","datePublished":"2026-01-15T11:00:00Z"}`
	r := call(t, s, http.MethodPut, "/_mock/articles", body, KeyHeader, "replacer")
	if r.Status != 200 || !strings.Contains(string(r.Body), `"start_articles":2,"added_articles":0,"articles":2`) {
		t.Fatalf("PUT /_mock/articles: %d %s", r.Status, r.Body)
	}
	all := post(t, s, "/api/v2/query", map[string]any{"query": "*", "api_key": "replacer"})
	if got := decode[queryReply](t, all).Results.TotalResults; got != 2 {
		t.Errorf("the replaced world finds %d articles, want its 2", got)
	}
	if got := decode[queryReply](t, post(t, s, "/api/v2/query", map[string]any{"query": "*", "api_key": "other"})).Results.TotalResults; got != s.start.Len() {
		t.Errorf("another world finds %d articles, want the start-up %d", got, s.start.Len())
	}
	more := `{"_id":"aaaaaaaaaaaaaaaaaaaaaaa3","title":"Quokka diet","url":"https://example.com/q3","site":"example.com","datePublished":"2026-01-15T12:00:00Z"}`
	if r := call(t, s, http.MethodPost, "/_mock/articles", more, KeyHeader, "replacer"); r.Status != 200 || !strings.Contains(string(r.Body), `"start_articles":2,"added_articles":1,"articles":3`) {
		t.Fatalf("POST after PUT: %d %s", r.Status, r.Body)
	}
	if r := call(t, s, http.MethodDelete, "/_mock/articles", "", KeyHeader, "replacer"); r.Status != 200 || !strings.Contains(string(r.Body), fmt.Sprintf(`"articles":%d`, s.start.Len())) {
		t.Fatalf("DELETE after PUT: %d %s", r.Status, r.Body)
	}
	if r := call(t, s, http.MethodPut, "/_mock/articles", `{"_id":"bad"}`, KeyHeader, "replacer"); r.Status != 400 {
		t.Fatalf("PUT of a bad article: %d %s", r.Status, r.Body)
	}
}
