package mockserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/api"
)

func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	s := start(t)
	get := call(t, s, "GET", OpenAPIPath, "", FaultHeader, "status=503")
	if diff := cmp.Diff([]any{200, "application/yaml", string(api.OpenAPI)},
		[]any{get.Status, get.Header.Get("Content-Type"), string(get.Body)}); diff != "" {
		t.Errorf("GET %s, with a fault header it must ignore (-want +got):\n%s", OpenAPIPath, diff)
	}
	if get.Header.Get("X-Request-Id") == "" {
		t.Errorf("GET %s: no X-Request-Id", OpenAPIPath)
	}
	post := call(t, s, "POST", OpenAPIPath, "{}")
	if diff := cmp.Diff([]any{405, "GET, HEAD", `{"state":"FAILED","message":"/openapi.yaml does not accept POST: fetch it with GET"}`},
		[]any{post.Status, post.Header.Get("Allow"), string(post.Body)}); diff != "" {
		t.Errorf("POST %s (-want +got):\n%s", OpenAPIPath, diff)
	}
	if n := len(s.Journal()); n != 0 {
		t.Errorf("the journal holds %d entries after fetching the document, want 0", n)
	}
}
