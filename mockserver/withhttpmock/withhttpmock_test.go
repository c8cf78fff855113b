package withhttpmock_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/mockserver/withhttpmock"
)

func TestRegister(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithoutListener())
	defer srv.Close()
	mt := httpmock.NewMockTransport()
	got := withhttpmock.Register(mt, srv, "https://app.runathena.com/")
	var want []string
	for _, r := range mockserver.Routes() {
		if prefix, templated := strings.CutSuffix(r.Path, "/{id}"); templated {
			want = append(want, r.Method+` =~^https://app\.runathena\.com`+prefix+`/[^/?]+(\?.*)?$`)
			continue
		}
		if r.Path == "/_mock/faults/{index}" {
			want = append(want, r.Method+` =~^https://app\.runathena\.com/_mock/faults/[^/?]+(\?.*)?$`)
			continue
		}
		want = append(want, r.Method+" https://app.runathena.com"+r.Path)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("registered routes (-want +got):\n%s", diff)
	}
	c, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithAPIKey("k"),
		newssearch.WithHTTPClient(&http.Client{Transport: mt}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Search(ctx, newssearch.SearchParams{Query: "*"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Headlines(ctx); err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: mt}).Get("https://app.runathena.com/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /openapi.yaml: status %d", resp.StatusCode)
	}
	calls := mt.GetCallCountInfo()
	for route, n := range map[string]int{
		"POST https://app.runathena.com/api/v2/query":     1,
		"POST https://app.runathena.com/api/v2/headlines": 1,
		"GET https://app.runathena.com/openapi.yaml":      1,
		"GET https://app.runathena.com/_mock/journal":     0,
	} {
		if calls[route] != n {
			t.Errorf("calls[%q] = %d, want %d (all: %v)", route, calls[route], n, calls)
		}
	}
	// Another host is not registered: httpmock answers with its own error.
	_, err = (&http.Client{Transport: mt}).Post("https://elsewhere.example/api/v2/query", "application/json", strings.NewReader(`{}`))
	if err == nil || !strings.Contains(err.Error(), "no responder found") {
		t.Errorf("unregistered host: err %v, want httpmock's no responder error", err)
	}
}

func TestResponder(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithoutListener())
	defer srv.Close()
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(withhttpmock.Responder(srv))
	resp, err := (&http.Client{Transport: mt}).Post("http://anywhere/api/v2/query", "application/json", strings.NewReader(`{"api_key":"k"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("query without a query: status %d, want 400", resp.StatusCode)
	}
	srv.Close()
	_, err = (&http.Client{Transport: mt}).Post("http://anywhere/api/v2/headlines", "application/json", strings.NewReader(`{"api_key":"k"}`))
	if err == nil || !strings.Contains(err.Error(), "the server is closed") || errors.Is(err, mockserver.ErrDropped) {
		t.Fatalf("after Close: %v, want the closed-server error", err)
	}
}

// Register serves the mock's endpoints from an httpmock transport, under
// whatever base URL the code under test uses.
func Example() {
	srv := mockserver.New(mockserver.WithoutListener())
	defer srv.Close()

	mt := httpmock.NewMockTransport()
	routes := withhttpmock.Register(mt, srv, "https://app.runathena.com")
	for _, route := range routes[:4] { // then /_mock/… and /openapi.yaml
		fmt.Println(route)
	}
	c, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithAPIKey("my-key"),
		newssearch.WithHTTPClient(&http.Client{Transport: mt}))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := c.Search(context.Background(), newssearch.SearchParams{Query: "bank"}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("calls:", mt.GetCallCountInfo()["POST https://app.runathena.com/api/v2/query"])
	// Output:
	// POST https://app.runathena.com/api/v2/query
	// POST https://app.runathena.com/api/v2/query-async
	// POST https://app.runathena.com/api/v2/get-results
	// POST https://app.runathena.com/api/v2/headlines
	// calls: 1
}
