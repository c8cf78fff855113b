package codegen_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tests/codegen/ogenclient"
)

// TestOgenClient drives the client ogen generated from api/openapi.yaml
// against a mock server on loopback: every endpoint, every form of
// get-results' answer and an error, each answer decoded (and validated, as
// ogen's client does) into the generated types and compared, encoded again,
// with the bytes the mock sent. ogen also validates the requests it sends,
// dates against the document's pattern included.
func TestOgenClient(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	rec := newRecorder()
	c, err := ogenclient.NewClient(srv.URL(), ogenclient.WithClient(rec.client()))
	if err != nil {
		t.Fatalf("ogenclient.NewClient: %v", err)
	}
	ctx := context.Background()
	key := ogenclient.ApiKey(srv.APIKey())

	// /api/v2/query with every member of its body.
	res, err := c.Search(ctx, &ogenclient.SearchRequest{
		APIKey: key, Query: "million", Page: ogenclient.NewOptPage(1), Sites: ogenclient.NewOptNilSites(ogenclient.Sites{}),
		StartDate: ogenclient.NewOptRequestDate("2024-01-01"), EndDate: ogenclient.NewOptRequestDate("2025-03-10T23:59:59.999Z"),
		ToggleState: ogenclient.NewOptToggleState(ogenclient.ToggleStateAllArticles), Embeddings: ogenclient.NewOptEmbeddings(false),
		Language: ogenclient.NewOptLanguage("en"), TrafficRank: ogenclient.NewOptTrafficRank(0),
	})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	x := rec.last(t)
	wantRequestMembers(t, x, map[string]any{
		"api_key": string(key), "query": "million", "page": 1.0, "sites": []any{},
		"start_date": "2024-01-01", "end_date": "2025-03-10T23:59:59.999Z",
		"toggle_state": "All Articles", "embeddings": false, "language": "en", "traffic_rank": 0.0,
	})
	search, ok := res.(*ogenclient.SearchAnswerHeaders)
	if !ok {
		t.Fatalf("Search answered %T, want *SearchAnswerHeaders; body %s", res, x.respBody)
	}
	if search.XRequestID == "" || !search.Response.IsSearchAnswer0() {
		t.Fatalf("Search: X-Request-Id %q, answer of type %s; want a request id and the wrapped form", search.XRequestID, search.Response.Type)
	}
	wrapped := search.Response.SearchAnswer0
	if len(wrapped.Results.Articles) == 0 || int(wrapped.Results.TotalResults.Or(-1)) < len(wrapped.Results.Articles) {
		t.Fatalf("Search: %d articles of totalResults %v; want some articles and their total", len(wrapped.Results.Articles), wrapped.Results.TotalResults)
	}
	sameJSON(t, "Search", x.respBody, &wrapped)
	checkOgenImages(t, "Search", x.respBody, []string{"results", "articles"}, imagesOf(wrapped.Results.Articles))

	// /api/v2/query-async with the asynchronous members.
	sres, err := c.SubmitQuery(ctx, &ogenclient.AsyncSearchRequest{
		APIKey: key, Query: "million", ToggleState: ogenclient.NewOptToggleState(ogenclient.ToggleStateEncodedArticles),
		Embeddings: ogenclient.NewOptEmbeddings(true), SortOrder: ogenclient.NewOptSortOrder(ogenclient.SortOrderDatePublished),
		KeyPhrases: ogenclient.NewOptKeyPhrases("'million' or 'bank'"),
	})
	if err != nil {
		t.Fatalf("SubmitQuery: %v", err)
	}
	x = rec.last(t)
	submit, ok := sres.(*ogenclient.SubmitQueryAnswerHeaders)
	if !ok || submit.Response.QueryID == "" {
		t.Fatalf("SubmitQuery answered %#v, want *SubmitQueryAnswerHeaders with a query_id; body %s", sres, x.respBody)
	}
	sameJSON(t, "SubmitQuery", x.respBody, &submit.Response)
	id := submit.Response.QueryID

	// /api/v2/get-results: PENDING at the first poll, then a page.
	getResults := func(id ogenclient.QueryId, page ogenclient.OptPage) ogenclient.GetResultsAnswer {
		t.Helper()
		res, err := c.GetResults(ctx, &ogenclient.GetResultsRequest{APIKey: key, QueryID: id, Page: page})
		if err != nil {
			t.Fatalf("GetResults: %v", err)
		}
		ok, isOK := res.(*ogenclient.GetResultsAnswerHeaders)
		if !isOK {
			t.Fatalf("GetResults answered %T, want *GetResultsAnswerHeaders; body %s", res, rec.last(t).respBody)
		}
		return ok.Response
	}
	pending := getResults(id, ogenclient.OptPage{})
	x = rec.last(t)
	if !pending.IsGetResultsPending() || pending.GetResultsPending.QueryID != id {
		t.Fatalf("GetResults at the first poll decoded as %+v, want GetResultsPending of %s", pending, id)
	}
	sameJSON(t, "GetResults (pending)", x.respBody, &pending.GetResultsPending)

	done := getResults(id, ogenclient.NewOptPage(1))
	x = rec.last(t)
	page := done.GetResultsDone
	if !done.IsGetResultsDone() || len(page.Articles) == 0 || page.Page != 1 || !page.TotalResults.IsSet() || !page.TotalArticles.IsSet() {
		t.Fatalf("GetResults at the second poll decoded as %+v, want a GetResultsDone page 1 with articles and both totals", done)
	}
	if a := page.Articles[0]; a.Entities == nil || len(a.Embeddings.Or(nil)) == 0 {
		t.Errorf("GetResults: an encoded article decoded without entities or embeddings: %+v", a)
	}
	sameJSON(t, "GetResults (done)", x.respBody, &page)
	checkOgenImages(t, "GetResults", x.respBody, []string{"articles"}, imagesOf(page.Articles))

	// A job the mock is told to fail answers FAILED.
	fres, err := c.SubmitQuery(ctx, &ogenclient.AsyncSearchRequest{APIKey: key, Query: "bank"})
	failing, ok := fres.(*ogenclient.SubmitQueryAnswerHeaders)
	if err != nil || !ok {
		t.Fatalf("SubmitQuery: %v (answer %T)", err, fres)
	}
	if _, err := srv.ForceJob(string(failing.Response.QueryID), mockserver.JobFailed, ""); err != nil {
		t.Fatalf("ForceJob: %v", err)
	}
	failed := getResults(failing.Response.QueryID, ogenclient.OptPage{})
	x = rec.last(t)
	if !failed.IsGetResultsFailed() || failed.GetResultsFailed.Message == "" {
		t.Fatalf("GetResults of a failed job decoded as %+v, want GetResultsFailed with a message", failed)
	}
	sameJSON(t, "GetResults (failed)", x.respBody, &failed.GetResultsFailed)

	// /api/v2/headlines.
	hres, err := c.Headlines(ctx, &ogenclient.HeadlinesRequest{APIKey: key})
	if err != nil {
		t.Fatalf("Headlines: %v", err)
	}
	x = rec.last(t)
	heads, ok := hres.(*ogenclient.HeadlinesAnswerHeaders)
	if !ok || len(heads.Response.Headlines) == 0 || len(heads.Response.Headlines[0].Articles) == 0 {
		t.Fatalf("Headlines answered %#v, want clusters with articles; body %s", hres, x.respBody)
	}
	sameJSON(t, "Headlines", x.respBody, &heads.Response)
	var images []ogenclient.Image
	for _, a := range heads.Response.Headlines[0].Articles {
		images = append(images, a.Image)
	}
	checkOgenImages(t, "Headlines", x.respBody, []string{"headlines", "0", "articles"}, images)

	// An unknown key: the error body decodes as the 401 answer.
	dres, err := c.Headlines(ctx, &ogenclient.HeadlinesRequest{APIKey: "not-a-key"})
	if err != nil {
		t.Fatalf("Headlines: %v", err)
	}
	x = rec.last(t)
	denied, ok := dres.(*ogenclient.UnauthorizedHeaders)
	if !ok || denied.Response.State != "FAILED" || denied.Response.Message == "" || denied.XRequestID == "" {
		t.Fatalf("Headlines with an unknown key answered %#v, want *UnauthorizedHeaders with a FAILED state, a message and a request id", dres)
	}
	sameJSON(t, "Headlines (401)", x.respBody, &denied.Response)

	// ogen checks a request against the document before sending it.
	if _, err := c.Search(ctx, &ogenclient.SearchRequest{APIKey: key, Query: "million", StartDate: ogenclient.NewOptRequestDate("yesterday")}); err == nil {
		t.Error("Search with start_date \"yesterday\": no error, want ogen's validation error (the document's date pattern)")
	}

	want := []string{
		"POST /api/v2/query OK", "POST /api/v2/query-async OK", "POST /api/v2/get-results OK", "POST /api/v2/get-results OK",
		"POST /api/v2/query-async OK", "POST /api/v2/get-results OK", "POST /api/v2/headlines OK", "POST /api/v2/headlines Unauthorized",
	}
	if diff := cmp.Diff(want, rec.calls()); diff != "" {
		t.Errorf("the generated client's calls (-want +got):\n%s", diff)
	}
}

func imagesOf(articles []ogenclient.Article) []ogenclient.Image {
	var out []ogenclient.Image
	for _, a := range articles {
		out = append(out, a.Image)
	}
	return out
}

// checkOgenImages checks that each image decoded into the variant of the
// Image sum type its JSON type names (one URL, several, or null).
func checkOgenImages(t *testing.T, what string, body []byte, list []string, images []ogenclient.Image) {
	t.Helper()
	var raw []any
	v := generic(t, what, body)
	for _, p := range list {
		if p == "0" { // the first element of an array
			if a, ok := v.([]any); ok && len(a) > 0 {
				v = a[0]
			}
			continue
		}
		v = member(v, p)
	}
	raw, _ = v.([]any)
	if len(raw) != len(images) {
		t.Fatalf("%s: %d articles decoded, the mock sent %d", what, len(images), len(raw))
	}
	for i, img := range images {
		switch want := member(raw[i], "image").(type) {
		case nil:
			if !img.IsNull() {
				t.Errorf("%s: article %d: image null decoded as %+v", what, i, img)
			}
		case string:
			if !img.IsString() || img.String != want {
				t.Errorf("%s: article %d: image %q decoded as %+v", what, i, want, img)
			}
		default:
			if !img.IsStringArray() || len(img.StringArray) != len(want.([]any)) {
				t.Errorf("%s: article %d: image %v decoded as %+v", what, i, want, img)
			}
		}
	}
}
