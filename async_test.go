package newssearch

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

func TestSubmitQueryThenGetResults(t *testing.T) {
	t.Parallel()
	c, s := serveScript(t, []scripted{
		{path: pathQueryAsync,
			body:     `{"api_key":"` + sdkKey + `","query":"tesla","page":1,"key_phrases":"('tesla takedown')","sort_order":"Relevance"}`,
			response: `{"query_id":"job-42","state":"SUCCESS"}`},
		{path: pathGetResults,
			body:     `{"api_key":"` + sdkKey + `","query_id":"job-42","page":1}`,
			response: `{"query_id":"job-42","state":"PENDING"}`},
		{path: pathGetResults,
			body: `{"api_key":"` + sdkKey + `","query_id":"job-42","page":2}`,
			response: `{"query_id":"job-42","page":2,"totalResults":27,"totalArticles":27,"articles":` +
				wireArticles(2) + `,"state":"SUCCESS"}`},
	})
	ctx := context.Background()
	job, err := c.SubmitQuery(ctx, AsyncSearchParams{SearchParams: SearchParams{Query: "tesla"},
		KeyPhrases: "('tesla takedown')", SortOrder: SortRelevance})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&QueryJob{QueryID: "job-42", State: StateSuccess}, job); diff != "" {
		t.Errorf("QueryJob mismatch (-want +got):\n%s", diff)
	}
	pending, err := c.GetResults(ctx, job.QueryID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&Page{QueryID: "job-42", Number: 1, State: StatePending}, pending); diff != "" {
		t.Errorf("pending page mismatch (-want +got):\n%s", diff)
	}
	if !pending.State.IsPending() {
		t.Error("State.IsPending() = false")
	}
	page, err := c.GetResults(ctx, job.QueryID, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := &Page{QueryID: "job-42", Number: 2, TotalResults: 27, Articles: wantArticles(2), State: StateSuccess}
	if diff := cmp.Diff(want, page); diff != "" {
		t.Errorf("page mismatch (-want +got):\n%s", diff)
	}
	if n := s.calls.Load(); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

func TestGetResultsValidation(t *testing.T) {
	t.Parallel()
	c, s := serveScript(t, nil)
	_, err := c.GetResults(context.Background(), " ", 1)
	checkValidation(t, err, "newssearch: invalid queryID: the query ID is empty: pass the QueryID of the job SubmitQuery returned")
	_, err = c.GetResults(context.Background(), "job-1", -2)
	checkValidation(t, err, "newssearch: invalid page: page -2 is negative: pages start at 1; pass 0 or 1 for the first page")
	if n := s.calls.Load(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

func TestGetResultsUnknownJob(t *testing.T) {
	t.Parallel()
	c, _ := serveScript(t, []scripted{{path: pathGetResults, status: 404,
		response: `{"state":"FAILED","message":"unknown query_id \"nope\": submit the query again with /api/v2/query-async"}`}})
	_, err := c.GetResults(context.Background(), "nope", 3)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("error = %v, want ErrNotFound", err)
	}
	want := `newssearch: POST /api/v2/get-results: 404 Not Found: unknown query_id "nope": submit the query again with /api/v2/query-async`
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestGetResultsWithMock(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockURL(pathGetResults), func(r *http.Request) (*http.Response, error) {
		assertRequest(t, r, sdkPrefix+pathGetResults, `{"api_key":"`+sdkKey+`","query_id":"q","page":1}`)
		// A page past the end: no articles, the true totals, no page number.
		return httpmock.NewStringResponse(200, `{"query_id":"q","totalArticles":3,"articles":[],"state":"success"}`), nil
	})
	got, err := mockClient(t, mt).GetResults(context.Background(), "q", 1)
	if err != nil {
		t.Fatal(err)
	}
	want := &Page{QueryID: "q", Number: 1, TotalResults: 3, Articles: []Article{}, State: "success"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("page mismatch (-want +got):\n%s", diff)
	}
}

func TestHeadlines(t *testing.T) {
	t.Parallel()
	c, _ := serveScript(t, []scripted{{path: pathHeadlines, body: `{"api_key":"` + sdkKey + `"}`,
		response: `{"headlines":[{"topic":"Storm hits coast","count":7,"articles":[
			{"category":null,"datePublished":"2025-01-19 01:04:00","favicon":"https://a.com/favicon.ico","image":null,"site":"a.com","title":"Storm hits coast","url":"https://a.com/1"},
			{"category":"Weather","datePublished":"2025-01-19 02:00:00","favicon":"https://b.com/f.ico","image":"https://b.com/i.jpg","site":"b.com","title":"Coast braces","url":"https://b.com/2"}]},
			{"topic":"Empty","count":0,"articles":[]}],"state":"SUCCESS"}`}})
	got, err := c.Headlines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := ParseTimestamp("2025-01-19 01:04:00")
	d2, _ := ParseTimestamp("2025-01-19 02:00:00")
	want := &HeadlinesResponse{State: StateSuccess, Headlines: []HeadlineCluster{
		{Topic: "Storm hits coast", Count: 7, Articles: []HeadlineArticle{
			{DatePublished: d1, Favicon: "https://a.com/favicon.ico", Site: "a.com", Title: "Storm hits coast", URL: "https://a.com/1"},
			{Category: "Weather", DatePublished: d2, Favicon: "https://b.com/f.ico", Image: ImageList{"https://b.com/i.jpg"},
				Site: "b.com", Title: "Coast braces", URL: "https://b.com/2"},
		}},
		{Topic: "Empty", Count: 0, Articles: []HeadlineArticle{}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Headlines mismatch (-want +got):\n%s", diff)
	}
}

func TestHeadlinesBadShape(t *testing.T) {
	t.Parallel()
	c, _ := serveScript(t, []scripted{{path: pathHeadlines, response: `{"headlines":{"topic":"x"},"state":"SUCCESS"}`}})
	_, err := c.Headlines(context.Background())
	want := "newssearch: POST /api/v2/headlines: malformed response (HTTP 200): json: cannot unmarshal object into Go struct field .headlines of type []newssearch.HeadlineCluster: " +
		"the service's answer does not have the documented shape; report it with the request id"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}
