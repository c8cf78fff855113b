package main

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

func TestRecordFlagErrors(t *testing.T) {
	t.Parallel()
	const hint = "\nRun newsmock -h to list the flags.\n"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-record", "http://127.0.0.1:1"}, "-record needs -record-to: name the JSON Lines file to record into, e.g. -record-to news.jsonl"},
		{[]string{"-record-to", "a.jsonl"}, "-record-to, -record-headlines, -record-refused and -record-drop need -record: add -record URL of the service to record from"},
		{[]string{"-record-refused", "r.jsonl"}, "-record-to, -record-headlines, -record-refused and -record-drop need -record: add -record URL of the service to record from"},
		{[]string{"-record-drop", "bodyText"}, "-record-to, -record-headlines, -record-refused and -record-drop need -record: add -record URL of the service to record from"},
		{[]string{"-record", "http://127.0.0.1:1", "-record-to", "a.jsonl", "-corpus", "b.jsonl"}, "-record makes a recording and -corpus and -headlines serve one: record first, then serve it in another run"},
		{[]string{"-record-drop", "a,,b"}, `invalid value "a,,b" for flag -record-drop: a field name is blank: write names separated by commas, e.g. bodyText,embeddings`},
		{[]string{"-record", "http://127.0.0.1:1", "-record-to", "a.jsonl", "-fault", "status=503", "-keys", "k", "-pending-polls", "3", "-seed", "4"},
			"-record passes every request to the service, which answers it: -pending-polls would have no effect; " +
				"leave them out (-fault and -keys do apply to a recorder's answers; to make a mock upstream fail, give that mock -fault, " +
				"or send the X-Mock-Fault header through the recorder)"},
		{[]string{"-no-date-shift", "-record", "http://127.0.0.1:1", "-record-to", "a.jsonl", "-rate-limit", "5", "-burst", "2"},
			"-record passes every request to the service, which answers it: -burst, -no-date-shift, -rate-limit would have no effect; " +
				"leave them out (-fault and -keys do apply to a recorder's answers; to make a mock upstream fail, give that mock -fault, " +
				"or send the X-Mock-Fault header through the recorder)"},
	} {
		code, stdout, stderr := runCmd(t, tt.args...)
		if diff := cmp.Diff([3]any{exitUsage, "", "newsmock: " + tt.want + hint}, [3]any{code, stdout, stderr}); diff != "" {
			t.Errorf("%q: exit code, stdout, stderr (-want +got):\n%s", tt.args, diff)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-record", "ftp://x", "-record-to", "a.jsonl"}, `newsmock: mockserver: WithRecord: Upstream "ftp://x" is not a base URL: pass one such as "https://app.runathena.com"` + "\n"},
		{[]string{"-record", "http://127.0.0.1:1", "-record-to", "a.jsonl", "-record-drop", "title"}, `newsmock: mockserver: WithRecord: cannot drop "title": a corpus article needs _id, title, url, site, datePublished` + "\n"},
		{[]string{"-record", "http://127.0.0.1:1", "-record-to", filepath.Join(t.TempDir(), "a.jsonl"), "-fault", "times=1;job=fail"},
			`newsmock: mockserver: WithRecord: fault rule 0 (job=fail) sets the fate of a job, but a recording server's jobs are the upstream's: ` +
				`leave job outcomes out of its rules, or give them to a mock upstream` + "\n"},
		{[]string{"-headlines", filepath.Join(t.TempDir(), "none.jsonl")}, ""},
	} {
		code, _, stderr := runCmd(t, tt.args...)
		if code != exitError || (tt.want != "" && stderr != tt.want) || !strings.HasPrefix(stderr, "newsmock: ") {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", tt.args, code, stderr, exitError, tt.want)
		}
	}
}

// TestRecordCommand records a session of the SDK's calls through newsmock
// -record in front of a mock, then serves the recording with -corpus and
// -headlines and runs the session again.
func TestRecordCommand(t *testing.T) {
	t.Parallel()
	clock := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	up := mockserver.New(mockserver.WithClock(func() time.Time { return clock }), mockserver.WithAPIKeys(testKey))
	t.Cleanup(up.Close)
	dir := t.TempDir()
	path := filepath.Join(dir, "news.jsonl")
	rec := start(t, "-addr", "127.0.0.1:0", "-record", up.URL(), "-record-to", path, "-record-drop", "bodyText,embeddings")

	session := func(url string) (ids []string, headlines []byte) {
		t.Helper()
		c := newClient(t, url, testKey, nil)
		res, err := c.Search(t.Context(), newssearch.SearchParams{Query: "vaccine", Embeddings: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range res.Articles {
			ids = append(ids, a.ID)
		}
		slices.Sort(ids)
		r := do(t, http.MethodPost, url+"/api/v2/headlines", strings.NewReader(`{"api_key":"`+testKey+`"}`), nil)
		return ids, []byte(r.body)
	}
	recordedIDs, recordedHeadlines := session(rec.url)
	direct := do(t, http.MethodPost, up.URL()+"/api/v2/headlines", strings.NewReader(`{"api_key":"`+testKey+`"}`), nil)
	if direct.body != string(recordedHeadlines) {
		t.Fatalf("headlines through the recorder differ from the upstream's")
	}
	r := do(t, http.MethodGet, rec.url+"/_mock/record", nil, nil)
	var sum mockserver.RecordSummary
	if err := json.Unmarshal([]byte(r.body), &sum); err != nil || sum.RequestsProxied != 2 || sum.ArticlesInFile != 25+sum.HeadlineStubs {
		t.Fatalf("GET /_mock/record: %s (%v)", r.body, err)
	}
	if code := rec.wait(); code != exitOK {
		t.Fatalf("exit code %d; stderr:\n%s", code, rec.stderr)
	}
	stderr := rec.stderr.String()
	wantSummary := "newsmock: recording summary\nrecorded from " + up.URL() + " into " + path + " and " + filepath.Join(dir, "news.headlines.jsonl") +
		"\nrequests proxied: 2 (headlines 1, query 1); outcomes: 200 2\n"
	if !strings.Contains(stderr, wantSummary) || strings.Contains(stderr, testKey) {
		t.Errorf("stderr lacks %q or holds the key:\n%s", wantSummary, stderr)
	}

	replay := start(t, "-addr", "127.0.0.1:0", "-corpus", path, "-headlines", filepath.Join(dir, "news.headlines.jsonl"), "-no-date-shift", "-keys", testKey)
	ids, headlines := session(replay.url)
	if diff := cmp.Diff(recordedIDs, ids); diff != "" {
		t.Errorf("search on the replay (-recorded +replayed):\n%s", diff)
	}
	if diff := cmp.Diff(string(recordedHeadlines), string(headlines)); diff != "" {
		t.Errorf("headlines on the replay (-recorded +replayed):\n%s", diff)
	}
}

// readAll reads a response body for the kill test.
func readAll(r io.Reader) string { b, _ := io.ReadAll(r); return string(b) }
