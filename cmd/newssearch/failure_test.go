package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/newssearch/newssearch-go/mockserver"
)

// failureArgs is a range of 10 weekly windows, each holding articles.
var failureArgs = []string{"range", "election", "--from", "2025-01-01T00:00:00Z", "--to", "2025-03-12T00:00:00Z", "--window", "7d", "-o", "jsonl"}

// resumeLine matches the last two lines of a failed range run made
// without --resume: what was kept and the command that resumes it.
var resumeLine = regexp.MustCompile(`(?m)^(\d+) of (\d+) windows are done \((\d+) articles?, printed\) and saved in (\S+): ` +
	`run this to search only the (\d+) missing and print the whole range:\n  (newssearch .*)\n\z`)

// stderrLines returns stderr without the SDK's log lines (-v).
func stderrLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if !strings.HasPrefix(l, "time=") {
			out = append(out, l)
		}
	}
	return out
}

// TestRangeFailureWithoutResume fails one window's job in a range run
// without --resume: the run prints the other windows' articles, exits 1,
// keeps them in a checkpoint in the cache directory and prints the command
// that resumes it, which then searches only that window and prints the
// whole range.
func TestRangeFailureWithoutResume(t *testing.T) {
	t.Parallel()
	args := append(slices.Clone(failureArgs), "--concurrency", "1")
	full := runCLI(t, newMock(t), runOpts{}, args...)
	if full.code != 0 || full.stdout == "" {
		t.Fatalf("uninterrupted run: exit %d, stderr %q", full.code, full.stderr)
	}
	srv := newMock(t, mockserver.WithJournalSize(10_000), mockserver.WithFaults(mockserver.FaultRule{
		Endpoint: "query-async", Every: 3, Times: 1, Fault: mockserver.Fault{Job: mockserver.JobFail}}))
	cache := t.TempDir()
	r := runCLI(t, srv, runOpts{cacheDir: cache}, args...)
	lines := stderrLines(r.stderr)
	wantErr := regexp.MustCompile(`^newssearch: window 2025-02-\d\dT00:00:00.000Z to 2025-02-\d\dT00:00:00.000Z: query job "[0-9a-f]+" ended in state "FAILED": ` +
		`the query job failed because a job=fail fault was injected when it was submitted: submit the query again without it: waiting cannot help; check the query and submit it again$`)
	m := resumeLine.FindStringSubmatch(r.stderr)
	if r.code != exitError || len(lines) != 3 || !wantErr.MatchString(lines[0]) || m == nil {
		t.Fatalf("exit %d, stderr %q; want exit 1, the failed window, what was kept and the command to resume", r.code, r.stderr)
	}
	if want := finishedOnly(t, full.stdout, r.stderr); r.stdout != want || want == full.stdout {
		t.Errorf("stdout has %d lines, want the %d of the finished windows (of %d in all)",
			strings.Count(r.stdout, "\n"), strings.Count(want, "\n"), strings.Count(full.stdout, "\n"))
	}
	ck := m[4]
	if m[1] != "9" || m[2] != "10" || m[5] != "1" || m[3] != strconv.Itoa(strings.Count(r.stdout, "\n")) {
		t.Errorf("counts %q, want 9 of 10 windows done, their %d articles, 1 missing", m[1:4], strings.Count(r.stdout, "\n"))
	}
	if filepath.Dir(ck) != filepath.Join(cache, "newssearch") || !strings.HasSuffix(ck, ".checkpoint") {
		t.Errorf("checkpoint %s, want a file of %s", ck, filepath.Join(cache, "newssearch"))
	}
	if want := "newssearch " + strings.Join(args, " ") + " --resume " + ck; m[6] != want {
		t.Errorf("resume command\n%s\nwant\n%s", m[6], want)
	}
	if b, err := os.ReadFile(ck); err != nil || strings.Contains(string(b), srv.APIKey()) {
		t.Errorf("checkpoint: %v, or it holds the API key", err)
	}

	// The command it printed searches only the failed window and prints
	// the whole range.
	srv.Reset()
	resumed := strings.Fields(strings.TrimPrefix(m[6], "newssearch "))
	r = runCLI(t, srv, runOpts{cacheDir: cache}, resumed...)
	if r.code != 0 || r.stdout != full.stdout || r.stderr != "" {
		t.Errorf("the resume command: exit %d, same articles as an uninterrupted run %v, stderr %q", r.code, r.stdout == full.stdout, r.stderr)
	}
	if got := len(windowStarts(t, srv)); got != 1 {
		t.Errorf("the resume command searched %d windows, want the 1 that failed", got)
	}
}

// TestRangeFailureCountsRetries fails the polls of two windows of a range
// run four windows at a time, while every other window's requests fail
// once and succeed on their retry: the hint counts the attempts of the
// failed calls, as -v logs them, not of the last request that failed.
func TestRangeFailureCountsRetries(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	var mu sync.Mutex
	jobs := map[string]int{}  // query ID -> order of its first request
	seen := map[string]bool{} // request bodies seen
	tr := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if strings.HasSuffix(r.URL.Path, "/get-results") {
			body, _ := r.GetBody()
			var in struct {
				QueryID string `json:"query_id"`
				Page    int    `json:"page"`
			}
			_ = json.NewDecoder(body).Decode(&in)
			key := in.QueryID + "/" + strconv.Itoa(in.Page)
			mu.Lock()
			if _, ok := jobs[in.QueryID]; !ok {
				jobs[in.QueryID] = len(jobs)
			}
			fail := jobs[in.QueryID] < 2 || !seen[key]
			seen[key] = true
			mu.Unlock()
			if fail {
				r = r.Clone(r.Context())
				r.Header.Set(mockserver.FaultHeader, "status=500")
			}
		}
		return srv.Transport().RoundTrip(r)
	})
	r := runCLI(t, srv, runOpts{transport: tr}, append(slices.Clone(failureArgs), "--concurrency", "4", "--verbose")...)
	lines := stderrLines(r.stderr)
	const hint = "The service failed after 3 retries (4 attempts): try again later (or raise --max-retries); if it keeps failing, send the service's support the message above with its request ID."
	if r.code != exitError || len(lines) != 5 || lines[2] != hint || !resumeLine.MatchString(r.stderr) {
		t.Fatalf("exit %d, stderr without the log %q; want exit 1, two failed windows, the hint\n%s\nand the command to resume", r.code, lines, hint)
	}
	for _, l := range lines[:2] {
		if !strings.Contains(l, "POST /api/v2/get-results: 500 Internal Server Error") {
			t.Errorf("%q does not name the failed request", l)
		}
	}
	most := 0
	for _, m := range regexp.MustCompile(`endpoint=/api/v2/get-results attempt=(\d+) status=500`).FindAllStringSubmatch(r.stderr, -1) {
		n, _ := strconv.Atoi(m[1])
		most = max(most, n)
	}
	if most != 4 {
		t.Errorf("-v logged at most attempt=%d of a failed get-results, want 4 as the hint says", most)
	}
}

// TestRangeEveryWindowFails fails every poll, without retries: the run
// names the first five failed windows and counts the others, says that no
// request was retried, and prints and keeps nothing.
func TestRangeEveryWindowFails(t *testing.T) {
	t.Parallel()
	srv := newMock(t, mockserver.WithFaults(mockserver.FaultRule{Endpoint: "get-results", Fault: mockserver.Fault{Status: 503}}))
	cache := t.TempDir()
	r := runCLI(t, srv, runOpts{cacheDir: cache}, append(slices.Clone(failureArgs), "--max-retries", "0")...)
	lines := stderrLines(r.stderr)
	want := []string{
		"newssearch: and 5 more windows failed",
		"The service failed and the request was not retried (--max-retries 0): try again later, or allow retries with --max-retries 3; " +
			"if it keeps failing, send the service's support the message above with its request ID.",
	}
	if r.code != exitError || r.stdout != "" || len(lines) != 7 || !slices.Equal(lines[5:], want) {
		t.Fatalf("exit %d, stdout %.100q, stderr %q; want exit 1, nothing printed, five windows named and then\n%s", r.code, r.stdout, r.stderr, strings.Join(want, "\n"))
	}
	var starts []string
	for i, l := range lines[:5] {
		m := failedWindow.FindStringSubmatch(l)
		if m == nil || !strings.Contains(l, ": 503 Service Unavailable: ") {
			t.Fatalf("line %d %q does not name a window that failed with a 503", i+1, l)
		}
		starts = append(starts, m[1])
	}
	if !slices.IsSorted(starts) || starts[0] != "2025-01-01T00:00:00.000Z" {
		t.Errorf("the windows named are %v, want the earliest five in date order", starts)
	}
	if entries, _ := os.ReadDir(filepath.Join(cache, "newssearch")); len(entries) != 0 {
		t.Errorf("a run that finished no window left %d checkpoints", len(entries))
	}
}
