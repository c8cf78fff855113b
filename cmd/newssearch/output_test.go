package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestHeadlinesLimit prints the first clusters only.
func TestHeadlinesLimit(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	all := runCLI(t, srv, runOpts{}, "headlines", "-o", "jsonl")
	clusters := strings.SplitAfter(all.stdout, "\n")
	if all.code != 0 || len(clusters) < 4 {
		t.Fatalf("headlines: exit %d, %d clusters, stderr %q", all.code, len(clusters)-1, all.stderr)
	}
	r := runCLI(t, srv, runOpts{}, "headlines", "-o", "jsonl", "--limit", "2")
	if r.code != 0 || r.stdout != clusters[0]+clusters[1] {
		t.Errorf("--limit 2: exit %d, stdout %.200q; want the first 2 clusters", r.code, r.stdout)
	}
	var first struct {
		Topic    string
		Articles []json.RawMessage
	}
	if err := json.Unmarshal([]byte(clusters[0]), &first); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, srv, runOpts{}, "headlines", "-o", "csv", "--fields", "topic", "--limit", "1")
	if want := "topic\n" + strings.Repeat(csvQuote(first.Topic)+"\n", len(first.Articles)); r.code != 0 || r.stdout != want {
		t.Errorf("--limit 1 as CSV: exit %d, stdout %q; want the rows of the first cluster, %q", r.code, r.stdout, want)
	}
	r = runCLI(t, srv, runOpts{}, "headlines", "--limit", "-1")
	if want := "newssearch: --limit -1 is negative: pass the most clusters to print, or 0 for all\n"; r.code != exitUsage || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("--limit -1: exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
}

// csvQuote quotes a CSV field as encoding/csv does.
func csvQuote(s string) string {
	if strings.ContainsAny(s, "\",\n\r") || strings.HasPrefix(s, " ") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
