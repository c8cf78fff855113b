package mockserver

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// refusedLine is a line of a recording's refused file, as a test reads it.
type refusedLine struct {
	RecordedAt string              `json:"recorded_at"`
	Endpoint   string              `json:"endpoint"`
	Method     string              `json:"method"`
	Path       string              `json:"path"`
	Status     int                 `json:"status"`
	Headers    map[string][]string `json:"headers"`
	Request    json.RawMessage     `json:"request"`
	Answer     json.RawMessage     `json:"answer"`
	AnswerText string              `json:"answer_text"`
}

func readRefused(t *testing.T, path string) []refusedLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []refusedLine
	for l := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
		var r refusedLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("refused file line %q: %v", l, err)
		}
		out = append(out, r)
	}
	return out
}

// TestRecordRefusedAnswers: every complete answer the upstream refuses (a
// status of 400 or more, or a 200 whose state is FAILED) is appended to the
// refused file with its status, headers and both bodies, the key redacted;
// an answer cut short, a dropped connection and a success are not. The
// corpus is untouched by them and still loads, and a replay of it serves
// its own answers: the refused file is only read by people.
func TestRecordRefusedAnswers(t *testing.T) {
	t.Parallel()
	const key = "refused-session-key-42"
	dir := t.TempDir()
	path := filepath.Join(dir, "news.jsonl")
	upstream := listening(t, WithSeed(4), WithAPIKeys(key), WithPendingPolls(1), WithPendingDuration(0))
	rec := listening(t, WithRecord(RecordOptions{Upstream: upstream.URL(), CorpusPath: path}))
	k := `"api_key":"` + key + `"`

	steps := []struct {
		path, body string
		headers    []string
		status     int
	}{
		{"/api/v2/query", `{"api_key":"wrong-key-123456","query":"x"}`, nil, 401},
		{"/api/v2/query", `{` + k + `,"query":"vaccine"}`, nil, 200},
		{"/api/v2/nowhere", `{` + k + `}`, nil, 404},
		{"/api/v2/query", `{` + k + `,"query":"x"}`, []string{FaultHeader, "status=429;retry-after=3"}, 429},
		{"/api/v2/query", `{` + k + `,"query":"x"}`, []string{FaultHeader, "status=503"}, 503},
		{"/api/v2/query", `{` + k + `,"query":"x"}`, []string{FaultHeader, "status=503;truncate"}, -1}, // cut short: not recorded
		{"/api/v2/query", `{` + k + `,"query":"x"}`, []string{FaultHeader, "drop"}, -1},                // no answer: not recorded
		{"/api/v2/query-async", `{` + k + `,"query":"strike"}`, []string{FaultHeader, "job=fail"}, 200},
	}
	var qid string
	for i, st := range steps {
		r, err := tryCall(rec, http.MethodPost, st.path, st.body, st.headers...)
		if st.status < 0 {
			if err == nil {
				t.Fatalf("step %d: %d %s; want the connection cut", i, r.Status, r.Body)
			}
			continue
		}
		if err != nil || r.Status != st.status {
			t.Fatalf("step %d: %d %s (%v); want %d", i, r.Status, r.Body, err, st.status)
		}
		if strings.HasSuffix(st.path, "query-async") {
			qid = decode[struct {
				QueryID string `json:"query_id"`
			}](t, r).QueryID
		}
	}
	var failed reply
	for range 3 { // PENDING, then FAILED
		failed = call(t, rec, http.MethodPost, "/api/v2/get-results", `{`+k+`,"query_id":"`+qid+`"}`)
		if !strings.Contains(string(failed.Body), "PENDING") {
			break
		}
	}
	if !strings.Contains(string(failed.Body), `"FAILED"`) || failed.Status != http.StatusOK {
		t.Fatalf("the failed job answered %d %s", failed.Status, failed.Body)
	}

	got := readRefused(t, filepath.Join(dir, "news.refused.jsonl"))
	var summary []string
	for _, r := range got {
		summary = append(summary, r.Endpoint+" "+r.Method+" "+r.Path+" "+http.StatusText(r.Status))
	}
	want := []string{
		"query POST /api/v2/query Unauthorized",
		"/api/v2/nowhere POST /api/v2/nowhere Not Found",
		"query POST /api/v2/query Too Many Requests",
		"query POST /api/v2/query Service Unavailable",
		"get-results POST /api/v2/get-results OK",
	}
	if diff := cmp.Diff(want, summary); diff != "" {
		t.Fatalf("refused exchanges (-want +got):\n%s", diff)
	}
	if r := got[2]; r.Headers["Retry-After"][0] != "3" || r.Headers["Content-Type"][0] != "application/json" || len(r.Headers["X-Request-Id"]) != 1 ||
		string(r.Request) != `{"api_key":"[redacted]","query":"x"}` || !strings.Contains(string(r.Answer), `"state":"FAILED"`) || r.RecordedAt != "2026-01-15T12:00:00Z" {
		t.Errorf("the 429 is recorded as %+v", r)
	}
	if r := got[0]; string(r.Request) != `{"api_key":"[redacted]","query":"x"}` || !strings.Contains(string(r.Answer), "api_key is not accepted") {
		t.Errorf("the 401 is recorded as %+v", r)
	}
	if r := got[4]; !strings.Contains(string(r.Answer), `"state":"FAILED"`) || !strings.Contains(string(r.Answer), qid) {
		t.Errorf("the FAILED job is recorded as %+v", r)
	}
	all, _ := os.ReadFile(filepath.Join(dir, "news.refused.jsonl"))
	if strings.Contains(string(all), key) || strings.Contains(string(all), "wrong-key-123456") {
		t.Errorf("the refused file holds a key:\n%s", all)
	}

	s := rec.RecordSummary()
	if s.RefusedRecorded != 5 || s.RefusedInFile != 5 || s.RefusedFile != filepath.Join(dir, "news.refused.jsonl") ||
		!strings.Contains(s.String(), "refused answers: 5 recorded, 5 in "+s.RefusedFile+"\n") {
		t.Errorf("summary: %s", s)
	}
	c, err := LoadCorpusFile(path)
	if err != nil || c.Len() != 25 {
		t.Fatalf("the corpus holds %v articles (%v); want the 25 of the one search", c, err)
	}
	if _, err := LoadCorpusFile(filepath.Join(dir, "news.refused.jsonl")); err == nil {
		t.Error("the refused file loads as a corpus")
	}
	replay := start(t, WithCorpus(c), WithoutDateShift())
	if r := call(t, replay, http.MethodPost, "/api/v2/query", `{"api_key":"any","query":"vaccine"}`); r.Status != http.StatusOK {
		t.Errorf("the replay answers %d %s", r.Status, r.Body)
	}

	// A recorder restarted on the files counts the refused exchanges there
	// and appends after them.
	again := listening(t, WithRecord(RecordOptions{Upstream: upstream.URL(), CorpusPath: path, RefusedPath: filepath.Join(dir, "news.refused.jsonl")}))
	call(t, again, http.MethodPost, "/api/v2/headlines", `{"api_key":"nope-nope-nope"}`)
	if s := again.RecordSummary(); s.RefusedRecorded != 1 || s.RefusedInFile != 6 {
		t.Errorf("restarted: %d refused recorded, %d in the file; want 1 and 6", s.RefusedRecorded, s.RefusedInFile)
	}
	if n := len(readRefused(t, filepath.Join(dir, "news.refused.jsonl"))); n != 6 {
		t.Errorf("%d lines in the refused file after the restart, want 6", n)
	}
}
