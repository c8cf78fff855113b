package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// rfc3339 matches the dates every machine output prints.
var rfc3339 = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// TestDatesInOneFormat prints the same articles and headlines as JSON,
// JSON Lines (whole and with --fields) and CSV: every date is the same
// RFC 3339 string.
func TestDatesInOneFormat(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	dates := func(args ...string) []string {
		t.Helper()
		r := runCLI(t, srv, runOpts{}, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
		out := regexp.MustCompile(`"datePublished":"([^"]*)"`).FindAllStringSubmatch(r.stdout, -1)
		var ds []string
		for _, m := range out {
			ds = append(ds, m[1])
		}
		if strings.HasSuffix(strings.Join(args, " "), "csv") {
			ds = append(ds, strings.Split(strings.TrimSpace(r.stdout), "\n")[1:]...)
		}
		if len(ds) == 0 {
			t.Fatalf("%v printed no date: %q", args, r.stdout)
		}
		for _, d := range ds {
			if !rfc3339.MatchString(d) {
				t.Errorf("%v printed the date %q, want RFC 3339", args, d)
			}
		}
		return ds
	}
	search := []string{"search", "election", "--from", "2025-03-07", "--to", "2025-03-14", "--limit", "3"}
	want := dates(append(search, "-o", "jsonl")...)
	for _, format := range [][]string{{"-o", "json"}, {"-o", "jsonl", "--fields", "date,title"}, {"-o", "json", "--fields", "date"}, {"--fields", "date", "-o", "csv"}} {
		if got := dates(append(slices.Clone(search), format...)...); !slices.Equal(got, want) {
			t.Errorf("%v: dates %v, want %v as in JSON Lines", format, got, want)
		}
	}
	want = dates("headlines", "-o", "jsonl")
	for _, format := range [][]string{{"-o", "json"}, {"-o", "jsonl", "--fields", "date"}, {"--fields", "date", "-o", "csv"}} {
		if got := dates(append([]string{"headlines"}, format...)...); !slices.Equal(got, want) {
			t.Errorf("headlines %v: dates %v, want %v as in JSON Lines", format, got, want)
		}
	}
}

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
