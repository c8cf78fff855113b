package codegen_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tests/codegen/oapiclient"
)

func ptr[T any](v T) *T { return &v }

// TestOapiCodegenClient drives the client oapi-codegen generated from
// api/openapi.yaml against a mock server on loopback: every endpoint, every
// form of get-results' answer and an error, each answer decoded into the
// generated types and compared, encoded again, with the bytes the mock sent.
func TestOapiCodegenClient(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	rec := newRecorder()
	c, err := oapiclient.NewClientWithResponses(srv.URL(), oapiclient.WithHTTPClient(rec.client()))
	if err != nil {
		t.Fatalf("oapiclient.NewClientWithResponses: %v", err)
	}
	ctx := context.Background()
	key := srv.APIKey()

	// /api/v2/query with every member of its body.
	search, err := c.SearchWithResponse(ctx, oapiclient.SearchRequest{
		ApiKey: key, Query: "million", Page: ptr(1), Sites: &oapiclient.Sites{},
		StartDate: ptr("2024-01-01"), EndDate: ptr("2025-03-10T23:59:59.999Z"),
		ToggleState: ptr(oapiclient.AllArticles), Embeddings: ptr(false), Language: ptr("en"), TrafficRank: ptr(0),
	})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	x := rec.last(t)
	wantRequestMembers(t, x, map[string]any{
		"api_key": key, "query": "million", "page": 1.0, "sites": []any{},
		"start_date": "2024-01-01", "end_date": "2025-03-10T23:59:59.999Z",
		"toggle_state": "All Articles", "embeddings": false, "language": "en", "traffic_rank": 0.0,
	})
	if search.StatusCode() != http.StatusOK || search.JSON200 == nil {
		t.Fatalf("Search: status %d, JSON200 %v; body %s", search.StatusCode(), search.JSON200, search.Body)
	}
	wrapped, err := search.JSON200.AsSearchAnswer0()
	if err != nil {
		t.Fatalf("Search: the answer is not the wrapped form: %v", err)
	}
	if len(wrapped.Results.Articles) == 0 || wrapped.Results.TotalResults == nil || *wrapped.Results.TotalResults < len(wrapped.Results.Articles) {
		t.Fatalf("Search: %d articles of totalResults %v; want some articles and their total", len(wrapped.Results.Articles), wrapped.Results.TotalResults)
	}
	sameJSON(t, "Search", x.respBody, jsonMarshaler{wrapped})
	checkOapiImages(t, "Search", x.respBody, []string{"results", "articles"}, wrapped.Results.Articles)

	// /api/v2/query-async with the asynchronous members.
	submit, err := c.SubmitQueryWithResponse(ctx, oapiclient.AsyncSearchRequest{
		ApiKey: key, Query: "million", ToggleState: ptr(oapiclient.EncodedArticles), Embeddings: ptr(true),
		SortOrder: ptr(oapiclient.SortOrderDatePublished), KeyPhrases: ptr("'million' or 'bank'"),
	})
	if err != nil {
		t.Fatalf("SubmitQuery: %v", err)
	}
	x = rec.last(t)
	if submit.StatusCode() != http.StatusOK || submit.JSON200 == nil || submit.JSON200.QueryId == "" {
		t.Fatalf("SubmitQuery: status %d, JSON200 %+v; body %s", submit.StatusCode(), submit.JSON200, submit.Body)
	}
	sameJSON(t, "SubmitQuery", x.respBody, jsonMarshaler{submit.JSON200})
	id := submit.JSON200.QueryId

	// /api/v2/get-results: PENDING at the first poll, then a page.
	pending, err := c.GetResultsWithResponse(ctx, oapiclient.GetResultsRequest{ApiKey: key, QueryId: id})
	if err != nil {
		t.Fatalf("GetResults: %v", err)
	}
	x = rec.last(t)
	if pending.StatusCode() != http.StatusOK || pending.JSON200 == nil {
		t.Fatalf("GetResults: status %d; body %s", pending.StatusCode(), pending.Body)
	}
	v, err := pending.JSON200.ValueByDiscriminator()
	if err != nil {
		t.Fatalf("GetResults: %v", err)
	}
	p, ok := v.(oapiclient.GetResultsPending)
	if !ok || p.QueryId != id {
		t.Fatalf("GetResults at the first poll decoded as %#v, want GetResultsPending of %s", v, id)
	}
	sameJSON(t, "GetResults (pending)", x.respBody, jsonMarshaler{p})

	done, err := c.GetResultsWithResponse(ctx, oapiclient.GetResultsRequest{ApiKey: key, QueryId: id, Page: ptr(1)})
	if err != nil {
		t.Fatalf("GetResults: %v", err)
	}
	x = rec.last(t)
	if done.StatusCode() != http.StatusOK || done.JSON200 == nil {
		t.Fatalf("GetResults: status %d; body %s", done.StatusCode(), done.Body)
	}
	if v, err = done.JSON200.ValueByDiscriminator(); err != nil {
		t.Fatalf("GetResults: %v", err)
	}
	page, ok := v.(oapiclient.GetResultsDone)
	if !ok || len(page.Articles) == 0 || page.Page != 1 || page.TotalResults == nil || page.TotalArticles == nil {
		t.Fatalf("GetResults at the second poll decoded as %#v, want a GetResultsDone page 1 with articles and both totals", v)
	}
	a := page.Articles[0]
	if a.Entities == nil || a.Embeddings == nil || len(*a.Embeddings) == 0 {
		t.Errorf("GetResults: an encoded article decoded without entities or embeddings: %+v", a)
	}
	sameJSON(t, "GetResults (done)", x.respBody, jsonMarshaler{page})
	checkOapiImages(t, "GetResults", x.respBody, []string{"articles"}, page.Articles)

	// A job the mock is told to fail answers FAILED.
	failing, err := c.SubmitQueryWithResponse(ctx, oapiclient.AsyncSearchRequest{ApiKey: key, Query: "bank"})
	if err != nil || failing.JSON200 == nil {
		t.Fatalf("SubmitQuery: %v (body %s)", err, failing.Body)
	}
	if _, err := srv.ForceJob(failing.JSON200.QueryId, mockserver.JobFailed, ""); err != nil {
		t.Fatalf("ForceJob: %v", err)
	}
	failed, err := c.GetResultsWithResponse(ctx, oapiclient.GetResultsRequest{ApiKey: key, QueryId: failing.JSON200.QueryId})
	if err != nil || failed.JSON200 == nil {
		t.Fatalf("GetResults: %v (body %s)", err, failed.Body)
	}
	x = rec.last(t)
	if v, err = failed.JSON200.ValueByDiscriminator(); err != nil {
		t.Fatalf("GetResults: %v", err)
	}
	f, ok := v.(oapiclient.GetResultsFailed)
	if !ok || f.Message == "" {
		t.Fatalf("GetResults of a failed job decoded as %#v, want GetResultsFailed with a message", v)
	}
	sameJSON(t, "GetResults (failed)", x.respBody, jsonMarshaler{f})

	// /api/v2/headlines.
	heads, err := c.HeadlinesWithResponse(ctx, oapiclient.HeadlinesRequest{ApiKey: key})
	if err != nil {
		t.Fatalf("Headlines: %v", err)
	}
	x = rec.last(t)
	if heads.StatusCode() != http.StatusOK || heads.JSON200 == nil || len(heads.JSON200.Headlines) == 0 || len(heads.JSON200.Headlines[0].Articles) == 0 {
		t.Fatalf("Headlines: status %d, want clusters with articles; body %s", heads.StatusCode(), heads.Body)
	}
	sameJSON(t, "Headlines", x.respBody, jsonMarshaler{heads.JSON200})

	// An unknown key: the error body decodes as the 401 answer.
	denied, err := c.HeadlinesWithResponse(ctx, oapiclient.HeadlinesRequest{ApiKey: "not-a-key"})
	if err != nil {
		t.Fatalf("Headlines: %v", err)
	}
	x = rec.last(t)
	if denied.StatusCode() != http.StatusUnauthorized || denied.JSON401 == nil || denied.JSON401.State != oapiclient.ErrorStateFAILED || denied.JSON401.Message == "" {
		t.Fatalf("Headlines with an unknown key: status %d, JSON401 %+v; want 401 with a FAILED state and a message", denied.StatusCode(), denied.JSON401)
	}
	sameJSON(t, "Headlines (401)", x.respBody, jsonMarshaler{denied.JSON401})

	want := []string{
		"POST /api/v2/query OK", "POST /api/v2/query-async OK", "POST /api/v2/get-results OK", "POST /api/v2/get-results OK",
		"POST /api/v2/query-async OK", "POST /api/v2/get-results OK", "POST /api/v2/headlines OK", "POST /api/v2/headlines Unauthorized",
	}
	if diff := cmp.Diff(want, rec.calls()); diff != "" {
		t.Errorf("the generated client's calls (-want +got):\n%s", diff)
	}
}

// checkOapiImages checks that each article's image decoded into the branch
// of the Image union its JSON type names (one URL, several, or null).
func checkOapiImages(t *testing.T, what string, body []byte, list []string, articles []oapiclient.Article) {
	t.Helper()
	raw, _ := member(generic(t, what, body), list...).([]any)
	if len(raw) != len(articles) {
		t.Fatalf("%s: %d articles decoded, the mock sent %d", what, len(articles), len(raw))
	}
	for i, a := range articles {
		switch want := member(raw[i], "image").(type) {
		case nil:
			if a.Image != nil {
				t.Errorf("%s: article %d: image null decoded as %v", what, i, a.Image)
			}
		case string:
			got, err := a.Image.AsImage0()
			if err != nil || got != want {
				t.Errorf("%s: article %d: image %q decoded as %q (%v)", what, i, want, got, err)
			}
		default:
			got, err := a.Image.AsImage1()
			if err != nil || len(got) != len(want.([]any)) {
				t.Errorf("%s: article %d: image %v decoded as %q (%v)", what, i, want, got, err)
			}
		}
	}
}
