package mockserver_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/api"
	"github.com/newssearch/newssearch-go/mockserver"
)

func TestRoutes(t *testing.T) {
	t.Parallel()
	routes := mockserver.Routes()
	var got []string
	for _, r := range routes {
		got = append(got, r.String())
	}
	// The API endpoints come first in documentation order, OpenAPIPath last;
	// the /_mock/ endpoints in between are sorted by path.
	wantAPI := []string{
		"POST /api/v2/query",
		"POST /api/v2/query-async",
		"POST /api/v2/get-results",
		"POST /api/v2/headlines",
	}
	if len(got) < len(wantAPI)+1 {
		t.Fatalf("Routes() = %q: want the API endpoints, the /_mock/ endpoints and GET /openapi.yaml", got)
	}
	if diff := cmp.Diff(wantAPI, got[:len(wantAPI)]); diff != "" {
		t.Errorf("API routes (-want +got):\n%s", diff)
	}
	if last := got[len(got)-1]; last != "GET "+mockserver.OpenAPIPath {
		t.Errorf("last route %q, want GET %s", last, mockserver.OpenAPIPath)
	}
	admin := got[len(wantAPI) : len(got)-1]
	for _, want := range []string{"GET /_mock/health", "GET /_mock/journal", "DELETE /_mock/journal", "POST /_mock/reset", "GET /_mock/ui"} {
		if !slices.Contains(admin, want) {
			t.Errorf("/_mock/ routes %q lack %q", admin, want)
		}
	}
	for i := 1; i < len(admin); i++ {
		if routes[len(wantAPI)+i-1].Path > routes[len(wantAPI)+i].Path {
			t.Errorf("/_mock/ routes not sorted by path: %q", admin)
		}
	}

	// Every route answers its method on a real server, with no 404 or 405.
	// A path with {id} gets the id of a live job.
	s := mockserver.New(mockserver.WithoutListener())
	defer s.Close()
	hc := s.HTTPClient()
	for _, r := range routes {
		if !strings.HasPrefix(r.Path, "/_mock/") && r.Path != mockserver.OpenAPIPath {
			continue // API endpoints answer 400/401 to an empty body; tested elsewhere
		}
		body := "{}"
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "{id}") {
			body = `{"state": "SUCCESS"}`
		}
		path := r.Path
		if path == "/_mock/worlds/{id}" {
			s.World("routes-test")
			path = "/_mock/worlds/" + mockserver.KeyFingerprint("routes-test")
		}
		if strings.Contains(path, "{id}") {
			job, err := s.Client().SubmitQuery(context.Background(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "bank"}})
			if err != nil {
				t.Fatal(err)
			}
			path = strings.ReplaceAll(path, "{id}", job.QueryID)
		}
		req, err := http.NewRequest(r.Method, "http://mock.invalid"+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			t.Errorf("%s: status %d, want the route to be served", r, resp.StatusCode)
		}
	}
}

// TestRoutesAreDocumented: every route Routes lists is an operation of the
// OpenAPI document, and every /_mock/ route a row of the table in
// docs/control-api.md, so that an endpoint added to the server cannot be
// left out of either.
func TestRoutesAreDocumented(t *testing.T) {
	t.Parallel()
	doc := string(api.OpenAPI)
	table, err := os.ReadFile(filepath.Join("..", "docs", "control-api.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mockserver.Routes() {
		start := strings.Index(doc, "\n  "+r.Path+":\n")
		if start < 0 {
			t.Errorf("api/openapi.yaml has no path %s: document %s", r.Path, r)
		} else {
			block := doc[start+1:]
			if end := strings.Index(block[1:], "\n  /"); end >= 0 {
				block = block[:end+1]
			}
			if !strings.Contains(block, "\n    "+strings.ToLower(r.Method)+":\n") {
				t.Errorf("api/openapi.yaml has no operation %s: document it", r)
			}
		}
		if strings.HasPrefix(r.Path, "/_mock/") && !strings.Contains(string(table), "\n| `"+r.String()+"` |") {
			t.Errorf("the table of docs/control-api.md has no row for %s: add one", r)
		}
	}
}
