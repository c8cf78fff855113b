package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// TestWorldPerKeyWorkers runs 16 workers in parallel against one newsmock
// -world-per-key on a real socket, each with its own key, through the
// control API and the SDK as a test suite in another process would: each
// sets its own fault, moves its own clock and adds its own article, then
// sees exactly its own journal, jobs and results, and none of another
// worker's jobs. Run it many times with -race to look for interference:
// go test -race -run TestWorldPerKeyWorkers -count 20 ./cmd/newsmock/
func TestWorldPerKeyWorkers(t *testing.T) {
	t.Parallel()
	start0 := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	r := start(t, "-addr", "127.0.0.1:0", "-world-per-key", "-clock", "manual="+start0.Format(time.RFC3339), "-pending-polls", "0", "-log-level", "off")
	const workers = 16
	var submitted sync.WaitGroup
	submitted.Add(workers)
	ids := make([]string, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			errs[i] = worldWorker(r.url, i, start0, ids, &submitted)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("worker %d: %v", i, err)
		}
	}
	// The default world saw none of it.
	var journal struct {
		Entries []mockserver.JournalEntry `json:"entries"`
	}
	if err := control(r.url, "", http.MethodGet, "/_mock/journal", "", &journal); err != nil || len(journal.Entries) != 0 {
		t.Errorf("default world's journal: %v, %d entries; want none", err, len(journal.Entries))
	}
}

// worldWorker is one worker of TestWorldPerKeyWorkers.
func worldWorker(url string, i int, start0 time.Time, ids []string, submitted *sync.WaitGroup) (err error) {
	defer func() {
		if err != nil {
			submitted.Done() // never leave the others waiting
		}
	}()
	ctx := context.Background()
	key := fmt.Sprintf("parallel-worker-%02d", i)
	status := 500 + i
	if err := control(url, key, http.MethodPost, "/_mock/faults", fmt.Sprintf(`{"endpoint":"query","times":1,"fault":{"status":%d}}`, status), nil); err != nil {
		return err
	}
	if err := control(url, key, http.MethodPost, "/_mock/clock", fmt.Sprintf(`{"advance":"%dh"}`, i+1), nil); err != nil {
		return err
	}
	word := fmt.Sprintf("quokkaworker%02d", i)
	article := fmt.Sprintf(`{"_id":"%024x","title":"%s census","url":"https://example.com/%s","site":"example.com","datePublished":"2026-01-15T11:00:00Z"}`, 0xbeef00+i, word, word)
	if err := control(url, key, http.MethodPost, "/_mock/articles", article, nil); err != nil {
		return err
	}
	c, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithBaseURL(url), newssearch.WithAPIKey(key), newssearch.WithMaxRetries(0))
	if err != nil {
		return err
	}
	var ae *newssearch.APIError
	if _, err := c.Search(ctx, newssearch.SearchParams{Query: "bank"}); !errors.As(err, &ae) || ae.StatusCode != status {
		return fmt.Errorf("first search: %v, want its own fault's %d", err, status)
	}
	for j := range 16 {
		page, err := c.Search(ctx, newssearch.SearchParams{Query: fmt.Sprintf("quokkaworker%02d", j)})
		if err != nil {
			return err
		}
		if want := map[bool]int{true: 1, false: 0}[i == j]; page.TotalResults != want {
			return fmt.Errorf("search for worker %d's word: %d results, want %d", j, page.TotalResults, want)
		}
	}
	job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: word}})
	if err != nil {
		return err
	}
	ids[i] = job.QueryID
	submitted.Done()
	submitted.Wait()
	// Every other worker's job is unknown here.
	for j, id := range ids {
		if j == i || id == "" {
			continue
		}
		if _, err := c.GetResults(ctx, id, 1); !errors.As(err, &ae) || ae.StatusCode != http.StatusNotFound {
			return fmt.Errorf("worker %d's job %s read with this key: %v, want a 404", j, id, err)
		}
	}
	page, err := c.GetResults(ctx, job.QueryID, 1)
	if err != nil || page.TotalResults != 1 {
		return fmt.Errorf("its own job: %v, %+v; want its one article", err, page)
	}
	var journal struct {
		Entries []mockserver.JournalEntry `json:"entries"`
	}
	if err := control(url, key, http.MethodGet, "/_mock/journal", "", &journal); err != nil {
		return err
	}
	wantClock := start0.Add(time.Duration(i+1) * time.Hour)
	var got []string
	for _, e := range journal.Entries {
		if e.World != mockserver.KeyFingerprint(key) || !e.Time.Equal(wantClock) {
			return fmt.Errorf("journal entry %d: world %s at %v, want %s at %v", e.Seq, e.World, e.Time, mockserver.KeyFingerprint(key), wantClock)
		}
		got = append(got, fmt.Sprint(e.Path, " ", e.Status))
	}
	want := []string{fmt.Sprintf("/api/v2/query %d", status)}
	for range 16 {
		want = append(want, "/api/v2/query 200")
	}
	want = append(want, "/api/v2/query-async 200")
	for range 15 {
		want = append(want, "/api/v2/get-results 404")
	}
	want = append(want, "/api/v2/get-results 200")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("journal:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var jobs struct {
		Jobs []struct {
			QueryID string `json:"query_id"`
		} `json:"jobs"`
	}
	if err := control(url, key, http.MethodGet, "/_mock/jobs", "", &jobs); err != nil {
		return err
	}
	if len(jobs.Jobs) != 1 || jobs.Jobs[0].QueryID != job.QueryID {
		return fmt.Errorf("jobs %+v, want its own one", jobs.Jobs)
	}
	return nil
}

// control sends a control call for key's world ("" for the default one)
// and decodes its answer into v (when not nil).
func control(url, key, method, path, body string, v any) error {
	req, err := http.NewRequest(method, url+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set(mockserver.KeyHeader, key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	if v != nil {
		return json.Unmarshal(b, v)
	}
	return nil
}

// TestIssue45FromPython runs testdata/issue45_urllib.py, Python's urllib
// alone, against a newsmock on a socket: fault rules matching body members
// (from -fault and the control API), a clock switched per world with the
// 409 naming Python's way, and strictness asked for (-strict).
func TestIssue45FromPython(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("python3 is not installed: %v", err)
	}
	r := start(t, "-addr", "127.0.0.1:0", "-log-level", "off", "-world-per-key", "-strict",
		"-fault", "endpoint=query;body.query=storm;status=503;optional")
	out, err := exec.CommandContext(t.Context(), "python3", filepath.Join("testdata", "issue45_urllib.py"), r.url).CombinedOutput()
	if err != nil || !strings.HasSuffix(string(out), "PASS\n") {
		t.Fatalf("issue45_urllib.py: %v\n%s", err, out)
	}
}

// TestRealClockConflictCurl: from curl, the 409 for moving a real clock
// names the curl command that switches the world; that command, run as
// printed, does, and the clock then moves.
func TestRealClockConflictCurl(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skipf("curl is not installed: %v", err)
	}
	r := start(t, "-addr", "127.0.0.1:0", "-log-level", "off")
	curl := func(args ...string) string {
		t.Helper()
		out, err := exec.CommandContext(t.Context(), "curl", append([]string{"-sS"}, args...)...).Output()
		if err != nil {
			t.Fatalf("curl %v: %v", args, err)
		}
		return string(out)
	}
	advance := []string{"-X", "POST", r.url + "/_mock/clock", "-H", "Content-Type: application/json", "-d", `{"advance": "2h"}`}
	var conflict struct{ Message string }
	if err := json.Unmarshal([]byte(curl(advance...)), &conflict); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`first with (curl -X PATCH .*'); or start`).FindStringSubmatch(conflict.Message)
	if m == nil || strings.Contains(conflict.Message, "Python") {
		t.Fatalf("the 409 to curl: %q; want the curl command alone", conflict.Message)
	}
	if out, err := exec.CommandContext(t.Context(), "bash", "-c", m[1]+" -sS").CombinedOutput(); err != nil || !strings.Contains(string(out), `"clock":"manual"`) {
		t.Fatalf("%s: %v\n%s", m[1], err, out)
	}
	if out := curl(advance...); !strings.Contains(out, `"manual":true`) || !strings.Contains(out, `"state":"SUCCESS"`) {
		t.Fatalf("advance after the switch: %s", out)
	}
}
