package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// windowStarts counts the query-async requests of the journal by the
// start_date they asked for.
func windowStarts(t *testing.T, srv *mockserver.Server) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, e := range srv.Journal() {
		if e.Path != "/api/v2/query-async" {
			continue
		}
		var body struct {
			StartDate string `json:"start_date"`
		}
		if err := json.Unmarshal([]byte(e.Body), &body); err != nil {
			t.Fatalf("journal entry %d: %v", e.Seq, err)
		}
		out[body.StartDate]++
	}
	return out
}

// decodeJSONL decodes articles printed as JSON Lines.
func decodeJSONL(t *testing.T, s string) []newssearch.Article {
	t.Helper()
	var out []newssearch.Article
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var a newssearch.Article
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("decoding %q: %v", sc.Text(), err)
		}
		out = append(out, a)
	}
	return out
}

// TestRangeInterruptAndResume stops a 52-window range after some windows,
// resumes it from its checkpoint, and checks that the articles equal an
// uninterrupted run's (and the SDK's own SearchRange) while the finished
// windows were not searched again.
func TestRangeInterruptAndResume(t *testing.T) {
	t.Parallel()
	args := []string{"range", "earthquake", "--from", "2025-01-01T00:00:00Z", "--to", "2025-02-22T00:00:00Z",
		"--window", "1d", "--concurrency", "4", "-o", "jsonl"}
	const windows = 52

	// The reference: one uninterrupted run, and SearchRange itself.
	ref := newMock(t, mockserver.WithJournalSize(100_000))
	full := runCLI(t, ref, runOpts{}, args...)
	if full.code != 0 {
		t.Fatalf("uninterrupted run: exit %d, stderr %q", full.code, full.stderr)
	}
	want := decodeJSONL(t, full.stdout)
	if len(want) == 0 {
		t.Fatal("the uninterrupted run found no articles: pick a query the corpus holds")
	}
	if got := len(windowStarts(t, ref)); got != windows {
		t.Fatalf("the uninterrupted run searched %d distinct windows, want %d", got, windows)
	}
	sdk, err := ref.Client().SearchRange(context.Background(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
		Query: "earthquake", StartDate: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), EndDate: time.Date(2025, 2, 22, 0, 0, 0, 0, time.UTC)}},
		&newssearch.RangeOptions{Window: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := range sdk {
		sdk[i].DatePublished = machineDate(sdk[i].DatePublished) // the CLI prints dates in RFC 3339
	}
	if diff := cmp.Diff(sdk, want); diff != "" {
		t.Errorf("the CLI's range differs from SearchRange (-want +got):\n%s", diff)
	}

	// The interrupted run.
	srv := newMock(t, mockserver.WithJournalSize(100_000))
	ck := filepath.Join(t.TempDir(), "range.checkpoint")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	stopAt := 20
	first := runCLI(t, srv, runOpts{ctx: ctx, afterWindow: func(done int) {
		if done >= stopAt {
			once.Do(cancel)
		}
	}}, append(args, "--resume", ck)...)
	if first.code != exitInterrupted {
		t.Fatalf("interrupted run: exit %d, want %d; stderr %q", first.code, exitInterrupted, first.stderr)
	}
	if first.stdout != "" {
		t.Errorf("the interrupted run printed articles: %.200q", first.stdout)
	}
	saved := checkpointWindows(t, ck)
	if len(saved) < stopAt || len(saved) >= windows {
		t.Fatalf("the checkpoint holds %d windows, want %d..%d", len(saved), stopAt, windows-1)
	}
	wantMsg := "newssearch: interrupted: " + strconv.Itoa(len(saved)) + " of 52 windows are done"
	if !strings.HasPrefix(first.stderr, wantMsg) || !strings.Contains(first.stderr, "--resume "+ck) {
		t.Errorf("stderr = %q, want it to start %q and name --resume %s", first.stderr, wantMsg, ck)
	}
	firstStarts := windowStarts(t, srv)
	srv.Reset()

	// The resumed run.
	second := runCLI(t, srv, runOpts{}, append(args, "--resume", ck)...)
	if second.code != 0 {
		t.Fatalf("resumed run: exit %d, stderr %q", second.code, second.stderr)
	}
	if diff := cmp.Diff(want, decodeJSONL(t, second.stdout)); diff != "" {
		t.Errorf("interrupted and resumed run differs from an uninterrupted one (-want +got):\n%s", diff)
	}
	secondStarts := windowStarts(t, srv)
	if got, wantN := len(secondStarts), windows-len(saved); got != wantN {
		t.Errorf("the resumed run searched %d windows, want %d (52 minus the %d saved)", got, wantN, len(saved))
	}
	for start := range secondStarts {
		if saved[start] {
			t.Errorf("the resumed run searched the saved window starting %s again", start)
		}
	}
	for start, n := range secondStarts {
		if n != 1 {
			t.Errorf("the resumed run searched the window starting %s %d times", start, n)
		}
	}
	if len(firstStarts)+len(secondStarts) < windows {
		t.Errorf("the two runs searched %d+%d windows, fewer than %d", len(firstStarts), len(secondStarts), windows)
	}

	// A third run finds everything in the checkpoint and asks nothing.
	srv.Reset()
	third := runCLI(t, srv, runOpts{}, append(args, "--resume", ck)...)
	if third.code != 0 || third.stdout != full.stdout {
		t.Errorf("third run: exit %d, same output %v; stderr %q", third.code, third.stdout == full.stdout, third.stderr)
	}
	if n := len(srv.Journal()); n != 0 {
		t.Errorf("a run with every window saved made %d requests, want 0", n)
	}
	b, err := os.ReadFile(ck)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), srv.APIKey()) {
		t.Error("the checkpoint holds the API key")
	}
}

// checkpointWindows returns the start_date (as the SDK sends it) of each
// window saved in the checkpoint file.
func checkpointWindows(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var w struct {
			Window *int   `json:"window"`
			Start  string `json:"start"`
		}
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			t.Fatalf("checkpoint line %q: %v", sc.Text(), err)
		}
		if w.Window == nil {
			continue // the header
		}
		st, err := time.Parse(time.RFC3339Nano, w.Start)
		if err != nil {
			t.Fatal(err)
		}
		out[st.UTC().Format("2006-01-02T15:04:05.000Z")] = true
	}
	return out
}

func TestRangeResumeRefusesAnotherSearch(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	ck := filepath.Join(t.TempDir(), "ck")
	r := runCLI(t, srv, runOpts{}, "range", "earthquake", "--from", "2025-01-01", "--to", "2025-01-10", "--resume", ck, "-o", "csv", "--fields", "_id")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r = runCLI(t, srv, runOpts{}, "range", "flood", "--from", "2025-01-01", "--to", "2025-01-10", "--resume", ck)
	want := "newssearch: --resume " + ck + " was made for a different search (query was \"earthquake\", now \"flood\"): pass the same query and flags as the first run, or another file to start afresh\n"
	if r.code != exitUsage || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
}

func TestRangeResumeKeepsRelativeDates(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	ck := filepath.Join(t.TempDir(), "ck")
	args := []string{"range", "earthquake", "--since", "20d", "--resume", ck, "-o", "csv", "--fields", "_id"}
	a := runCLI(t, srv, runOpts{}, args...)
	// The same command on a later clock keeps the first run's dates.
	srv.Reset()
	b := runCLI(t, srv, runOpts{now: fixedNow.Add(5 * time.Hour)}, args...)
	if a.code != 0 || b.code != 0 || a.stdout != b.stdout {
		t.Errorf("exit %d and %d, same output %v: %q %q", a.code, b.code, a.stdout == b.stdout, a.stderr, b.stderr)
	}
	if n := len(srv.Journal()); n != 0 {
		t.Errorf("the resumed run made %d requests, want 0", n)
	}
}

// TestRangeResumeAfterCutLine resumes from checkpoints whose last line has
// no newline, as a run killed while writing leaves them: a line cut short
// is searched again and dropped from the file, a whole line is kept, and
// either way the file stays readable by the runs after.
func TestRangeResumeAfterCutLine(t *testing.T) {
	t.Parallel()
	args := []string{"range", "earthquake", "--from", "2025-01-01T00:00:00Z", "--to", "2025-01-10T00:00:00Z", "--window", "1d", "-o", "jsonl"}
	ref := newMock(t)
	full := runCLI(t, ref, runOpts{}, args...)
	if full.code != 0 || full.stdout == "" {
		t.Fatalf("uninterrupted run: exit %d, %d bytes; stderr %q", full.code, len(full.stdout), full.stderr)
	}
	for _, tc := range []struct {
		name string
		cut  func(line []byte) []byte // what is left of the last line
		// searched is the windows the first resumed run must search.
		searched int
	}{
		{name: "cut_short", cut: func(l []byte) []byte { return l[:len(l)/2] }, searched: 1},
		{name: "no_newline", cut: func(l []byte) []byte { return l[:len(l)-1] }, searched: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newMock(t, mockserver.WithJournalSize(10_000))
			ck := filepath.Join(t.TempDir(), "ck")
			withCk := append(append([]string{}, args...), "--resume", ck)
			if r := runCLI(t, srv, runOpts{}, withCk...); r.code != 0 {
				t.Fatalf("first run: exit %d, stderr %q", r.code, r.stderr)
			}
			b, err := os.ReadFile(ck)
			if err != nil {
				t.Fatal(err)
			}
			last := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
			if err := os.WriteFile(ck, append(b[:last:last], tc.cut(b[last:])...), 0o600); err != nil {
				t.Fatal(err)
			}
			for run := 1; run <= 2; run++ {
				srv.Reset()
				r := runCLI(t, srv, runOpts{}, withCk...)
				if r.code != 0 {
					t.Fatalf("resumed run %d: exit %d, stderr %q", run, r.code, r.stderr)
				}
				if r.stdout != full.stdout {
					t.Errorf("resumed run %d printed other articles than an uninterrupted run", run)
				}
				want := tc.searched
				if run == 2 {
					want = 0
				}
				if got := len(windowStarts(t, srv)); got != want {
					t.Errorf("resumed run %d searched %d windows, want %d", run, got, want)
				}
			}
			after, err := os.ReadFile(ck)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(after, b) {
				t.Errorf("after the resumed runs the checkpoint is not what an uninterrupted run writes:\n got %q\nwant %q", shortDiff(after), shortDiff(b))
			}
		})
	}
}

// shortDiff shortens a checkpoint for a message.
func shortDiff(b []byte) string {
	if len(b) > 400 {
		return string(b[:200]) + "…" + string(b[len(b)-200:])
	}
	return string(b)
}

// TestRangeFailedWindowKeepsFinished fails the third window's job: the
// other windows go on, range prints their articles, exits 1 naming the
// failure and what was kept, and the same command run again searches only
// the window that was not finished.
func TestRangeFailedWindowKeepsFinished(t *testing.T) {
	t.Parallel()
	args := []string{"range", "earthquake", "--from", "2025-01-01T00:00:00Z", "--to", "2025-01-10T00:00:00Z", "--window", "1d",
		"--concurrency", "1", "-o", "jsonl"}
	full := runCLI(t, newMock(t), runOpts{}, args...)
	if full.code != 0 {
		t.Fatalf("uninterrupted run: exit %d, stderr %q", full.code, full.stderr)
	}
	srv := newMock(t, mockserver.WithJournalSize(10_000), mockserver.WithFaults(mockserver.FaultRule{
		Endpoint: "query-async", Every: 3, Times: 1, Fault: mockserver.Fault{Job: mockserver.JobFail}}))
	ck := filepath.Join(t.TempDir(), "ck")
	args = append(args, "--resume", ck)
	r := runCLI(t, srv, runOpts{}, args...)
	want := regexp.MustCompile(`^newssearch: .*query job "[0-9a-f]+" ended in state "FAILED": .*\n` +
		`8 of 9 windows are done \(\d+ articles?\) and saved in ` + regexp.QuoteMeta(ck) +
		`: run the same command again \(with --resume ` + regexp.QuoteMeta(ck) + `\) to search only the 1 missing\n$`)
	if r.code != exitError || !want.MatchString(r.stderr) || r.stdout != finishedOnly(t, full.stdout, r.stderr) {
		t.Fatalf("exit %d, stdout %.100q, stderr %q; want exit 1, the finished windows' articles printed and stderr matching %s", r.code, r.stdout, r.stderr, want)
	}
	srv = newMock(t, mockserver.WithJournalSize(10_000)) // Reset would restore the fault
	r = runCLI(t, srv, runOpts{}, args...)
	if r.code != 0 || r.stdout != full.stdout {
		t.Errorf("the run after the failure: exit %d, same articles as an uninterrupted run %v; stderr %q", r.code, r.stdout == full.stdout, r.stderr)
	}
	if got := len(windowStarts(t, srv)); got != 1 {
		t.Errorf("the run after the failure searched %d windows, want the 1 not finished", got)
	}
}

// failedWindow matches the window a failure message names.
var failedWindow = regexp.MustCompile(`newssearch: window (\S+) to (\S+): `)

// finishedOnly returns the JSON Lines of full (a whole range's articles)
// without those of the windows the failure message stderr names: what a
// run that failed them prints.
func finishedOnly(t *testing.T, full, stderr string) string {
	t.Helper()
	var windows [][2]time.Time
	for _, m := range failedWindow.FindAllStringSubmatch(stderr, -1) {
		from, err1 := time.Parse(time.RFC3339Nano, m[1])
		to, err2 := time.Parse(time.RFC3339Nano, m[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("failed window %q: %v %v", m[0], err1, err2)
		}
		windows = append(windows, [2]time.Time{from, to})
	}
	if len(windows) == 0 {
		t.Fatalf("stderr names no failed window: %q", stderr)
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(full, "\n") {
		if line == "" {
			continue
		}
		var a newssearch.Article
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatal(err)
		}
		in := false
		for _, w := range windows { // a window owns the articles after its start, up to its end
			in = in || a.DatePublished.Time.After(w[0]) && !a.DatePublished.Time.After(w[1])
		}
		if !in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestRangeEachArticleOnceUnderFaults: against a service that widens each
// job's bounds to whole days and overlaps its pages, with a range starting
// a fraction into a second, range prints each article of one job over the
// range once, uninterrupted and interrupted then resumed (issue 42).
func TestRangeEachArticleOnceUnderFaults(t *testing.T) {
	t.Parallel()
	from, to := fixedNow.Add(-20*24*time.Hour+300*time.Millisecond), fixedNow.Add(-2*time.Hour)
	args := []string{"range", "police", "--from", from.Format(time.RFC3339Nano), "--to", to.Format(time.RFC3339Nano),
		"--window", "2d", "--concurrency", "3", "-o", "jsonl"}
	clean := newMock(t)
	c := clean.Client()
	job, err := c.SubmitQuery(t.Context(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "police", StartDate: from, EndDate: to}})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for a, err := range c.Results(t.Context(), job.QueryID) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, a.ID)
	}
	slices.Sort(want)
	faults := mockserver.WithFaults(mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Fault: mockserver.Fault{WindowDay: true}},
		mockserver.FaultRule{Endpoint: mockserver.EndpointGetResults, Fault: mockserver.Fault{Overlap: 5}})
	ids := func(out string) []string {
		var got []string
		for _, a := range decodeJSONL(t, out) {
			got = append(got, a.ID)
		}
		slices.Sort(got)
		return got
	}
	if r := runCLI(t, newMock(t, faults), runOpts{}, args...); r.code != 0 || !slices.Equal(ids(r.stdout), want) {
		t.Errorf("range under faults: exit %d, %d articles %v; want %d each once %v; stderr %q", r.code, len(ids(r.stdout)), ids(r.stdout), len(want), want, r.stderr)
	}
	srv := newMock(t, faults)
	ck := filepath.Join(t.TempDir(), "range.checkpoint")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if r := runCLI(t, srv, runOpts{ctx: ctx, afterWindow: func(done int) {
		if done == 4 {
			cancel()
		}
	}}, append(args, "--resume", ck)...); r.code != exitInterrupted {
		t.Fatalf("interrupted run: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, srv, runOpts{}, append(args, "--resume", ck)...); r.code != 0 || !slices.Equal(ids(r.stdout), want) {
		t.Errorf("resumed range under faults: exit %d, %d articles; want %d each once; stderr %q", r.code, len(ids(r.stdout)), len(want), r.stderr)
	}
}
