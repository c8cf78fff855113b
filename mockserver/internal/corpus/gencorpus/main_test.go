package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

func TestRunWritesLoadableCorpus(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "corpus.jsonl")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-o", path, "-seed", "3", "-n", "400", "-days", "60"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := corpus.LoadJSONL(f)
	if err != nil {
		t.Fatal(err)
	}
	def := corpus.DefaultConfig()
	want := corpus.Generate(corpus.Config{Seed: 3, Articles: 400, End: def.End, Days: 60})
	// The file holds every vector the generator leaves to Vector.
	for i := range want.Articles {
		a := &want.Articles[i]
		a.Embedding, a.DerivedEmbedding = a.Vector(), false
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(corpus.Article{}, "Story")); diff != "" {
		t.Errorf("written corpus (-want +got):\n%s", diff)
	}
	fig := want.Figures()
	for _, line := range []string{"articles:  400 (", "sites:     ", "languages: 8", "stories:   ", "span:      "} {
		if !strings.Contains(stderr.String(), line) {
			t.Errorf("figures %q lack %q", stderr.String(), line)
		}
	}
	if !strings.Contains(stderr.String(), fig.Newest.Format("2006-01-02 15:04:05")) || stdout.Len() != 0 {
		t.Errorf("stdout %d bytes, stderr %q: want figures on stderr only", stdout.Len(), stderr.String())
	}
}

func TestRunStdout(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-o", "-", "-n", "50"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if lines := strings.Count(stdout.String(), "\n"); lines != 50 {
		t.Errorf("wrote %d lines, want 50", lines)
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "gencorpus: no output file; pass -o corpus.jsonl (or -o - for standard output)\n"},
		{[]string{"-o", "x", "-n", "0"}, 2, "gencorpus: -n 0 is out of range; pass a number of articles from 1 to 16777216\n"},
		{[]string{"-o", "x", "-days", "0"}, 2, "gencorpus: -days 0 is out of range; pass a positive number of days\n"},
		{[]string{"-o", "x", "extra"}, 2, "gencorpus: unexpected argument \"extra\"; pass options only\n"},
		{[]string{"-o", filepath.Join(t.TempDir(), "missing", "c.jsonl"), "-n", "5"}, 1, "gencorpus: creating the output: "},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != tc.code || !strings.HasPrefix(stderr.String(), tc.want) {
			t.Errorf("run(%q) = %d, stderr %q; want %d, %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}
