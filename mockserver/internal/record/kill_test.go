//go:build unix

package record

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// killHelperEnv, when set to a corpus path, makes the test binary a
// recorder that kills itself with SIGKILL halfway through writing an
// answer's lines (see TestKilledMidWrite).
const killHelperEnv = "NEWSSEARCH_RECORD_KILL_HELPER"

func TestMain(m *testing.M) {
	if path := os.Getenv(killHelperEnv); path != "" {
		os.Exit(killHelper(path))
	}
	os.Exit(m.Run())
}

// answerOf returns a search answer with articles n to n+count-1.
func answerOf(n, count int) []byte {
	var arts []string
	for i := n; i < n+count; i++ {
		arts = append(arts, fmt.Sprintf(`{"_id":"%024x","title":"Article %d","url":"https://a.example/%d","site":"a.example","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","bodyText":"%s"}`,
			i, i, i, strings.Repeat("text ", 40)))
	}
	return []byte(`{"results":{"totalResults":1000,"articles":[` + strings.Join(arts, ",") + `]},"state":"SUCCESS"}`)
}

// killHelper records one answer and is killed while writing it; it
// returns only if the kill did not come.
func killHelper(path string) int {
	r, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	r.testMidWrite = func() error {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal ends the process
	}
	err = r.Answer("query", nil, answerOf(100, 3))
	fmt.Fprintf(os.Stderr, "the recorder was not killed while it wrote (Answer returned %v)\n", err)
	return 3
}

// TestKilledMidWrite kills a recorder with SIGKILL when half of an
// answer's lines are appended, then loads the file it left: the file
// before that answer is there byte for byte, with the whole lines of the
// answer written before the kill after it, and a last line cut short,
// which the loader skips. A recorder opened next cuts that line off and
// appends after the whole ones.
func TestKilledMidWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	r, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Answer("query", nil, answerOf(1, 2)); err != nil {
		t.Fatal(err)
	}
	before := read(t, path)

	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killHelperEnv+"="+path)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the helper recorder ended with %v, not killed by SIGKILL; output:\n%s", err, out)
	}

	// The kill came mid-write: the earlier records, unchanged, then one
	// whole line of the answer (article 100) and half of the next.
	cut := read(t, path)
	if !strings.HasPrefix(cut, before) || strings.HasSuffix(cut, "\n") || strings.Count(cut[len(before):], "\n") != 1 {
		t.Fatalf("the file does not hold the old lines, one new line and half a line:\n%s", cut)
	}
	if n, err := loaded(cut); err != nil || n != 3 {
		t.Fatalf("the recording left by the killed recorder: %d articles, error %v; want 3 (the half line skipped) and none", n, err)
	}

	// A recorder opened next cuts the half line off and records on.
	again, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, path), cut[:strings.LastIndexByte(cut, '\n')+1]; got != want {
		t.Fatalf("after reopening, the file is\n%s\nwant the whole lines only:\n%s", got, want)
	}
	if s := again.Summary(); s.ArticlesInFile != 3 {
		t.Errorf("the reopened recorder counts %d articles in the file, want 3", s.ArticlesInFile)
	}
	if err := again.Answer("query", nil, answerOf(100, 3)); err != nil {
		t.Fatal(err)
	}
	after := read(t, path)
	if !strings.HasPrefix(after, cut[:strings.LastIndexByte(cut, '\n')+1]) {
		t.Errorf("the reopened recorder rewrote the old lines:\n%s", after)
	}
	if n, err := loaded(after); err != nil || n != 5 {
		t.Errorf("after recording on: %d articles, error %v; want 5 and none", n, err)
	}
}
