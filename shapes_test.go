package newssearch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// shapeQuery matches a few pages of the embedded corpus.
const shapeQuery = "vaccine"

// shapeRun is what the SDK read through the decode paths of the query and
// get-results answers: Search (pages 1 and 2), SubmitQuery then Poll,
// GetResults (page 2), and the SearchAll and Results iterators with the
// totals each page reported.
type shapeRun struct {
	Search1, Search2, Polled, Page2 *newssearch.Page
	All, Results                    []newssearch.Article
	AllTotals, ResultsTotals        []int
}

// shapeRecorder keeps the top-level member names of every successful answer
// the SDK read, by endpoint, so a test can tell which shape the mock sent.
type shapeRecorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen map[string][]string // path -> "a,b,c" per SUCCESS answer
}

func (r *shapeRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return resp, nil // the SDK sees the short body and reports it
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) == nil && string(m["state"]) == `"SUCCESS"` {
		r.mu.Lock()
		r.seen[req.URL.Path] = append(r.seen[req.URL.Path], strings.Join(slices.Sorted(maps.Keys(m)), ","))
		r.mu.Unlock()
	}
	return resp, nil
}

// runShapes reads the same search through every decode path.
func runShapes(t *testing.T, client *newssearch.Client) shapeRun {
	t.Helper()
	ctx := context.Background()
	params := newssearch.SearchParams{Query: shapeQuery}
	var run shapeRun
	var err error
	if run.Search1, err = client.Search(ctx, params); err != nil {
		t.Fatalf("Search: %v", err)
	}
	params.Page = 2
	if run.Search2, err = client.Search(ctx, params); err != nil {
		t.Fatalf("Search page 2: %v", err)
	}
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: shapeQuery}})
	if err != nil {
		t.Fatalf("SubmitQuery: %v", err)
	}
	if run.Polled, err = client.Poll(ctx, job.QueryID); err != nil {
		t.Fatalf("Poll: %v", err)
	}
	if run.Page2, err = client.GetResults(ctx, job.QueryID, 2); err != nil {
		t.Fatalf("GetResults page 2: %v", err)
	}
	run.Polled.QueryID, run.Page2.QueryID = "", "" // one job's id is not another's
	all := &newssearch.PageOptions{OnPage: func(p *newssearch.Page) { run.AllTotals = append(run.AllTotals, p.TotalResults) }}
	for a, err := range client.SearchAll(ctx, newssearch.SearchParams{Query: shapeQuery}, all) {
		if err != nil {
			t.Fatalf("SearchAll: %v", err)
		}
		run.All = append(run.All, a)
	}
	results := &newssearch.PageOptions{OnPage: func(p *newssearch.Page) { run.ResultsTotals = append(run.ResultsTotals, p.TotalResults) }}
	for a, err := range client.Results(ctx, job.QueryID, results) {
		if err != nil {
			t.Fatalf("Results: %v", err)
		}
		run.Results = append(run.Results, a)
	}
	return run
}

// newShapeMock returns a mock on a fixed clock, so that every one shifts
// the corpus's dates alike.
func newShapeMock(t *testing.T) *mockserver.Server {
	t.Helper()
	now := time.Date(2026, time.January, 15, 12, 0, 0, 0, time.UTC)
	srv := mockserver.New(mockserver.WithoutListener(), mockserver.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	return srv
}

// shapeClient returns srv's client, with opts, whose answers rec sees.
func shapeClient(srv *mockserver.Server, rec *shapeRecorder, opts ...newssearch.Option) *newssearch.Client {
	rec.next, rec.seen = srv.HTTPClient().Transport, map[string][]string{}
	return srv.Client(append([]newssearch.Option{newssearch.WithHTTPClient(&http.Client{Transport: rec})}, opts...)...)
}

// TestAnswerShapes runs the SDK against the mock sending each answer shape
// the document allows (the query answer nested or at the top level;
// get-results pages with both counts, totalResults alone or totalArticles
// alone), asked for by a world's settings, by fault rules, by the fault
// header and in a key's own world, and requires the same pages, articles
// and totals as from the usual shape. The recorder proves the shape asked
// for is the one the SDK read.
func TestAnswerShapes(t *testing.T) {
	t.Parallel()
	usual := newShapeMock(t)
	rec := &shapeRecorder{}
	want := runShapes(t, shapeClient(usual, rec))
	if want.Search1.TotalResults <= newssearch.PageSize || len(want.All) != want.Search1.TotalResults || len(want.Results) != want.Polled.TotalResults {
		t.Fatalf("%q: %d results, %d from SearchAll, %d from Results: the test wants a search of a few pages read whole",
			shapeQuery, want.Search1.TotalResults, len(want.All), len(want.Results))
	}
	checkShape(t, rec, mockserver.AnswerShape{})

	shape := func(results, totals string) mockserver.AnswerShape {
		return mockserver.AnswerShape{Results: results, Totals: totals}
	}
	for _, tc := range []struct {
		name  string
		shape mockserver.AnswerShape
		how   string // "settings", "rules", "header" or "world"
	}{
		{"settings top-level, totalArticles", shape("top-level", "totalArticles"), "settings"},
		{"settings nested, totalResults", shape("nested", "totalResults"), "settings"},
		{"settings top-level, both", shape("top-level", "both"), "settings"},
		{"rules top-level, totalResults", shape("top-level", "totalResults"), "rules"},
		{"rules nested, totalArticles", shape("nested", "totalArticles"), "rules"},
		{"header top-level, totalArticles", shape("top-level", "totalArticles"), "header"},
		{"a key's world top-level, totalArticles", shape("top-level", "totalArticles"), "world"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newShapeMock(t)
			rec := &shapeRecorder{}
			var client *newssearch.Client
			switch tc.how {
			case "settings", "world":
				target := srv
				if tc.how == "world" {
					target = srv.World("shapes-" + t.Name())
				}
				st := target.Settings()
				st.Shape = tc.shape
				if err := target.SetSettings(st); err != nil {
					t.Fatal(err)
				}
				client = shapeClient(target, rec)
			case "rules":
				err := srv.SetFaults(
					mockserver.FaultRule{Endpoint: mockserver.EndpointQuery, Fault: mockserver.Fault{Shape: mockserver.AnswerShape{Results: tc.shape.Results}}},
					mockserver.FaultRule{Endpoint: mockserver.EndpointGetResults, Fault: mockserver.Fault{Shape: mockserver.AnswerShape{Totals: tc.shape.Totals}}})
				if err != nil {
					t.Fatal(err)
				}
				client = shapeClient(srv, rec)
			case "header":
				client = shapeClient(srv, rec, newssearch.WithHeader(mockserver.FaultHeader, "results="+tc.shape.Results+";totals="+tc.shape.Totals))
			}
			got := runShapes(t, client)
			checkShape(t, rec, tc.shape)
			timestamps := cmp.Comparer(func(a, b newssearch.Timestamp) bool { return a.Raw() == b.Raw() && a.Time.Equal(b.Time) })
			if diff := cmp.Diff(want, got, timestamps); diff != "" {
				t.Errorf("the SDK read other pages than from the usual shape (-usual +%s):\n%s", tc.name, diff)
			}
			if tc.how == "world" {
				rec := &shapeRecorder{}
				runShapes(t, shapeClient(srv, rec))
				checkShape(t, rec, mockserver.AnswerShape{}) // the default world keeps the usual shape
			}
			if err := srv.Verify(); err != nil {
				t.Errorf("the shape rules did not all fire: %v", err)
			}
		})
	}
}

// checkShape fails unless every successful query and get-results answer
// rec saw has the members of shape.
func checkShape(t *testing.T, rec *shapeRecorder, shape mockserver.AnswerShape) {
	t.Helper()
	query := "results,state"
	if shape.Results == "top-level" {
		query = "articles,state,totalResults"
	}
	results := map[string]string{
		"": "articles,page,query_id,state,totalArticles,totalResults", "both": "articles,page,query_id,state,totalArticles,totalResults",
		"totalResults": "articles,page,query_id,state,totalResults", "totalArticles": "articles,page,query_id,state,totalArticles",
	}[shape.Totals]
	for path, want := range map[string]string{"/api/v2/query": query, "/api/v2/get-results": results} {
		seen := rec.seen[path]
		if len(seen) == 0 {
			t.Errorf("no successful answer of %s was seen", path)
		}
		for i, got := range seen {
			if got != want {
				t.Errorf("answer %d of %s has the members %s, want %s (shape %+v)", i+1, path, got, want, shape)
			}
		}
	}
}
