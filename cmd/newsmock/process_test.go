//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/api"
)

// TestProcess runs newsmock as a process, as another language's test suite
// would, and stops it with SIGTERM while a request is in flight.
func TestProcess(t *testing.T) {
	t.Parallel()
	cmd := newsmockCommand(t, "-addr", "127.0.0.1:0", "-keys", testKey, "-log-level", "info")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := new(syncBuffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	t.Cleanup(func() {
		if !exited {
			_ = cmd.Process.Kill() // the test failed before the SIGTERM
			_ = cmd.Wait()
		}
	})

	line, err := bufio.NewReader(stdout).ReadString('\n')
	m := regexp.MustCompile(`^newsmock listening on (http://127\.0\.0\.1:[0-9]+)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line of stdout %q (%v), want \"newsmock listening on http://127.0.0.1:<port>\"; stderr:\n%s",
			line, err, stderr)
	}
	url := m[1]

	// The four endpoints, through the SDK.
	ctx := t.Context()
	c := newClient(t, url, testKey, nil)
	res, err := c.Search(ctx, newssearch.SearchParams{Query: "election"})
	if err != nil || len(res.Articles) != newssearch.PageSize || res.TotalResults <= newssearch.PageSize {
		t.Fatalf("Search = %+v, %v; want a full first page of several", res, err)
	}
	job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election"}})
	if err != nil {
		t.Fatal(err)
	}
	var states []newssearch.State
	for range 2 { // the default -pending-polls 1: PENDING once, then SUCCESS
		page, err := c.GetResults(ctx, job.QueryID, 1)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, page.State)
		if page.State.IsSuccess() && page.TotalResults != res.TotalResults {
			t.Errorf("the job found %d articles, the sync search %d", page.TotalResults, res.TotalResults)
		}
	}
	if diff := cmp.Diff([]newssearch.State{newssearch.StatePending, newssearch.StateSuccess}, states); diff != "" {
		t.Errorf("get-results states (-want +got):\n%s", diff)
	}
	h, err := c.Headlines(ctx)
	if err != nil || len(h.Headlines) == 0 {
		t.Fatalf("Headlines = %+v, %v; want clusters", h, err)
	}

	resp := do(t, http.MethodGet, url+"/openapi.yaml", nil, nil)
	if resp.StatusCode != http.StatusOK || resp.body != string(api.OpenAPI) {
		t.Errorf("GET /openapi.yaml = %d with %d bytes, want 200 and api.OpenAPI (%d bytes)",
			resp.StatusCode, len(resp.body), len(api.OpenAPI))
	}

	// The journal saw the four API calls, without the key.
	resp = do(t, http.MethodGet, url+"/_mock/journal", nil, nil)
	var journal struct {
		Entries []struct {
			Path   string `json:"path"`
			Status int    `json:"status"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(resp.body), &journal); err != nil {
		t.Fatalf("GET /_mock/journal: %v in %s", err, resp.body)
	}
	var paths []string
	for _, e := range journal.Entries {
		paths = append(paths, e.Path)
	}
	wantPaths := []string{"/api/v2/query", "/api/v2/query-async", "/api/v2/get-results", "/api/v2/get-results", "/api/v2/headlines"}
	if diff := cmp.Diff(wantPaths, paths); diff != "" {
		t.Errorf("journal paths (-want +got):\n%s", diff)
	}
	if strings.Contains(resp.body, testKey) {
		t.Error("the journal shows the API key")
	}

	// SIGTERM with a request in flight: it finishes, then the process exits 0.
	started, result := inFlight(t, url, testKey, "latency=300ms")
	<-started
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-result; err != nil {
		t.Errorf("the request in flight at SIGTERM failed: %v", err)
	}
	err = cmd.Wait()
	exited = true
	if err != nil {
		t.Errorf("newsmock exited with %v after SIGTERM, want exit code 0; stderr:\n%s", err, stderr)
	}

	logs := stderr.String()
	for _, want := range []string{`msg="newsmock: shutting down; waiting for requests in flight"`,
		`path=/api/v2/headlines status=200`, `fault="header: latency=300ms"`, `msg="newsmock: stopped"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %s:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, testKey) {
		t.Errorf("stderr shows the API key:\n%s", logs)
	}
}
