package readme_test

// Each region between "// readme:begin" and "// readme:end" is a ```go block
// of README.md or docs/*.md, indented one level deeper than its marker
// comment. TestSnippets checks that they match; the compiler checks the
// rest. Change the document and the region together.

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/examples/testing/newsdigest"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/mockserver/withhttpmock"
)

func asyncSearch(ctx context.Context, client *newssearch.Client, from, to time.Time) (*newssearch.Page, error) {
	// readme:begin
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "central bank", StartDate: from, EndDate: to},
		SortOrder:    newssearch.SortDatePublished,
	})
	if err != nil {
		return nil, err
	}
	page, err := client.Poll(ctx, job.QueryID, &newssearch.PollOptions{
		OnPoll: func(e newssearch.PollEvent) { log.Printf("poll %d after %v: %s", e.Attempt, e.Elapsed, e.State) },
	})
	// readme:end
	return page, err
}

func searchAll(ctx context.Context, client *newssearch.Client, params newssearch.SearchParams, enough func() bool) error {
	// readme:begin
	for article, err := range client.SearchAll(ctx, params) {
		if err != nil {
			return err
		}
		fmt.Println(article.Title)
		if enough() {
			break // stops every request, including pages fetched ahead
		}
	}
	// readme:end
	return nil
}

func searchRange(ctx context.Context, client *newssearch.Client, jan1, apr1 time.Time) ([]newssearch.Article, error) {
	// readme:begin
	articles, err := client.SearchRange(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "climate summit", StartDate: jan1, EndDate: apr1},
	}, &newssearch.RangeOptions{
		OnProgress: func(p newssearch.RangeProgress) {
			log.Printf("%d/%d windows, %d articles", p.WindowsDone, p.WindowsTotal, p.Articles)
		},
	})
	// readme:end
	return articles, err
}

// readme:begin
func TestTopSites(t *testing.T) {
	t.Parallel()
	srv := mockserver.New()
	t.Cleanup(srv.Close)

	got, err := newsdigest.TopSites(t.Context(), srv.Client(), "earthquake", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Errorf("TopSites = %v, want the 3 sites with the most earthquake articles", got)
	}
}

// readme:end

func faultRule(t *testing.T) {
	// readme:begin
	srv := mockserver.New(mockserver.WithFaults(mockserver.FaultRule{
		Endpoint: mockserver.EndpointQuery,
		Times:    2,
		Fault:    mockserver.Fault{Status: http.StatusServiceUnavailable},
	}))
	t.Cleanup(srv.Close)
	// ... call your code: it succeeds, and srv.Journal() shows 503, 503, 200.
	// readme:end
}

func faultHeaders(ctx context.Context, srv *mockserver.Server, params newssearch.SearchParams) (*newssearch.Client, *newssearch.Page, error) {
	// readme:begin
	// Every request of this client is answered 503 (and retried, then reported).
	client := srv.Client(newssearch.WithHeader(mockserver.FaultHeader, "status=503"))

	// One call only: a 429 with Retry-After: 1, retried after the pause.
	page, err := srv.Client().Search(ctx, params, newssearch.WithHeader(mockserver.FaultHeader, "status=429;retry-after=1"))
	// readme:end
	return client, page, err
}

func journalBody(t *testing.T, srv *mockserver.Server) {
	// readme:begin
	journal := srv.Journal()
	var body map[string]any
	if err := json.Unmarshal([]byte(journal[0].Body), &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"api_key": "[redacted]", "query": "harbour", "page": 1.0}
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("request body (-want +got):\n%s", diff)
	}
	// readme:end
}

func expectations(t *testing.T, srv *mockserver.Server) {
	// readme:begin
	srv.Expect(t,
		mockserver.Expectation{Endpoint: mockserver.EndpointQueryAsync, Body: map[string]string{"query": "election"}, Min: 1, Max: 1},
		mockserver.Expectation{Endpoint: mockserver.EndpointGetResults, Max: -1}, // any number of polls
		mockserver.Expectation{Endpoint: mockserver.EndpointHeadlines})           // never
	// readme:end
}

func noSocket(t *testing.T) (*newssearch.Client, error) {
	// readme:begin
	srv := mockserver.New(mockserver.WithoutListener())
	t.Cleanup(srv.Close)
	client, err := newssearch.NewClient(
		newssearch.WithoutEnvironment(),
		newssearch.WithAPIKey("any-key"),
		newssearch.WithHTTPClient(&http.Client{Transport: srv.Transport()}),
	)
	// readme:end
	return client, err
}

func withHTTPMock(srv *mockserver.Server) int {
	// readme:begin
	mt := httpmock.NewMockTransport()
	withhttpmock.Register(mt, srv, newssearch.DefaultBaseURL) // every route in mockserver.Routes()
	// ... a client with &http.Client{Transport: mt} ...
	calls := mt.GetCallCountInfo()["POST https://app.runathena.com/api/v2/query"]
	// readme:end
	return calls
}

// The snippets above that are not tests are compiled, and these calls
// keep them from being reported as unused.
var _ = []any{asyncSearch, searchAll, searchRange, faultRule, faultHeaders, journalBody, expectations, noSocket, withHTTPMock}

// TestReadmeSynctest runs the README's testing/synctest example.
func TestReadmeSynctest(t *testing.T) {
	// readme:begin
	synctest.Test(t, func(t *testing.T) {
		srv := mockserver.New(mockserver.WithoutListener(), mockserver.WithPendingDuration(10*time.Minute))
		defer srv.Close()
		client := srv.Client()
		ctx := context.Background()

		start := time.Now() // the bubble's clock: 2000-01-01 00:00 UTC
		job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "bank"}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.Poll(ctx, job.QueryID, &newssearch.PollOptions{MaxWait: time.Hour, MinDelay: time.Second, MaxDelay: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(start); waited < 10*time.Minute || res.TotalResults == 0 {
			t.Fatalf("waited %v on the bubble's clock for %d results", waited, res.TotalResults)
		}
	})
	// readme:end
}

// readme:begin
var mock *mockserver.Server

func TestMain(m *testing.M) {
	mock = mockserver.New()
	code := m.Run()
	mock.Close()
	os.Exit(code)
}

func TestSearchRetriesA503(t *testing.T) {
	t.Parallel()
	w := mock.World(t.Name()) // this test's world; its key is the test's name
	t.Cleanup(w.Close)        // drops the world, not the server
	c := w.Client()

	if err := w.AddFault(mockserver.FaultRule{Endpoint: mockserver.EndpointQuery, Times: 1,
		Fault: mockserver.Fault{Status: 503}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(t.Context(), newssearch.SearchParams{Query: "earthquake"}); err != nil {
		t.Fatal(err)
	}
	if got := w.Journal(mockserver.JournalQuery{Path: "query"}); len(got) != 2 || got[0].Status != 503 {
		t.Errorf("journal %v, want this test's 503 and its retry alone", got)
	}
}

// readme:end

// TestClockPerWorld: docs/mockserver.md's snippet switches one world to a
// manual clock and moves it; the default world keeps the real clock.
func TestClockPerWorld(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithoutListener())
	t.Cleanup(srv.Close)
	// readme:begin
	w := srv.World(t.Name())
	st := w.Settings()
	st.Clock = "manual" // this world only: the others keep theirs
	if err := w.SetSettings(st); err != nil {
		t.Fatal(err)
	}
	if _, err := w.SetClock(w.Now().Add(2 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	// readme:end
	if ahead := w.Now().Sub(srv.Now()); ahead < time.Hour || srv.Settings().Clock != "real" {
		t.Fatalf("the world is %v ahead of the default world, whose clock is %q; want 2h and real", ahead, srv.Settings().Clock)
	}
}
