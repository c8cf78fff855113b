package record

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRefused: a refused exchange is one JSON line with the status, the
// answer's headers (cookies and hop-by-hop ones left out) and both bodies,
// scrubbed of the key in every form; a body that is not JSON, or too long,
// is kept as text, scrubbed then cut; the count survives a restart.
func TestRefused(t *testing.T) {
	t.Parallel()
	const key = "refused-key-0123456789"
	r, path := open(t)
	red := Redactor(key)
	err := r.Refused(Refusal{
		Endpoint: "query", Method: "POST", Path: "/api/v2/query", Status: 401,
		Header: http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"req-" + key}, "Set-Cookie": {"session=abc"},
			"Retry-After": {"3"}, "X-Echo": {"k=refused-key-%30123456789&x"}, "Connection": {"close"}},
		Request: []byte(`{"api_key":"` + key + `","query":"\u0072efused-key-0123456789"}`),
		Answer:  []byte(`{"state":"FAILED","message":"key \u0072\u0065fused-key-0123456789 is not valid"}`),
	}, red)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("<p>"+key+"</p>", 10000)
	if err := r.Refused(Refusal{Endpoint: "headlines", Method: "POST", Path: "/api/v2/headlines", Status: 502, Answer: []byte(long)}, red); err != nil {
		t.Fatal(err)
	}
	got := read(t, RefusedPathFor(path))
	if strings.Contains(got, key) || strings.Contains(got, "fused-key") || strings.Contains(got, "session=abc") {
		t.Fatalf("the refused file holds the key or a cookie:\n%s", got)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), got)
	}
	want := `{"recorded_at":"2025-01-19T01:04:00Z","endpoint":"query","method":"POST","path":"/api/v2/query","status":401,` +
		`"headers":{"Content-Type":["application/json"],"Retry-After":["3"],"X-Echo":["k=[redacted]&x"],"X-Request-Id":["req-[redacted]"]},` +
		`"request":{"api_key":"[redacted]","query":"[redacted]"},"answer":{"state":"FAILED","message":"key [redacted] is not valid"}}`
	if diff := cmp.Diff(want, lines[0]); diff != "" {
		t.Errorf("first line (-want +got):\n%s", diff)
	}
	var second struct {
		Status     int    `json:"status"`
		AnswerText string `json:"answer_text"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	if second.Status != 502 || !strings.HasPrefix(second.AnswerText, "<p>[redacted]</p><p>[redacted]</p>") ||
		!strings.HasSuffix(second.AnswerText, " more bytes not recorded]") || len(second.AnswerText) > maxRefusedBody+100 {
		t.Errorf("second line: status %d, answer_text of %d bytes: %.80q…", second.Status, len(second.AnswerText), second.AnswerText)
	}
	if s := r.Summary(); s.RefusedRecorded != 2 || s.RefusedInFile != 2 {
		t.Errorf("summary: %d refused recorded, %d in the file; want 2 and 2", s.RefusedRecorded, s.RefusedInFile)
	}
	again, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)})
	if err != nil {
		t.Fatal(err)
	}
	if s := again.Summary(); s.RefusedRecorded != 0 || s.RefusedInFile != 2 {
		t.Errorf("reopened summary: %d refused recorded, %d in the file; want 0 and 2", s.RefusedRecorded, s.RefusedInFile)
	}
}

// TestFailedAnswersAreNotArticles: a 2xx answer whose state is FAILED
// records no article and no headline answer (it is a refusal), and a
// headline answer without a headlines array is not written where the
// replay would refuse it.
func TestFailedAnswersAreNotArticles(t *testing.T) {
	t.Parallel()
	r, path := open(t)
	for _, a := range []struct{ endpoint, body string }{
		{"get-results", `{"query_id":"q","state":"FAILED","message":"the job failed","articles":[` + art2 + `]}`},
		{"headlines", `{"state":"Failed","message":"try later","headlines":[]}`},
		{"headlines", `{"state":"SUCCESS"}`},
	} {
		if !Failed([]byte(a.body)) && a.endpoint != "headlines" {
			t.Errorf("Failed(%s) = false", a.body)
		}
		if err := r.Answer(a.endpoint, nil, []byte(a.body)); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(t, path) + read(t, HeadlinesPathFor(path)); got != "" {
		t.Errorf("failed answers were recorded:\n%s", got)
	}
	if Failed([]byte(`{"state":"SUCCESS"}`)) || Failed([]byte(`not json`)) {
		t.Error("Failed is true for an answer that did not fail")
	}
}

func TestRefusedFileChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	if err := writeFile(RefusedPathFor(path), `{"status":429}`+"\n"+`{"status":"x"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	_, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)})
	if err == nil || !strings.HasSuffix(err.Error(), `c.refused.jsonl line 2: is not a refused exchange; each line is a JSON object such as {"recorded_at": "2025-01-19T01:04:00Z", "status": 429, …}; record into a new file, or fix that line`) {
		t.Errorf("Open on a bad refused file: %v", err)
	}
}
