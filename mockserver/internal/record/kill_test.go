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
	r.testMidWrite = func() {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal ends the process
	}
	err = r.Answer("query", nil, answerOf(100, 3))
	fmt.Fprintf(os.Stderr, "the recorder was not killed while it wrote (Answer returned %v)\n", err)
	return 3
}

// TestKilledMidWrite kills a recorder with SIGKILL when half of an answer's
// lines are written, then loads the file it left: it is the file before
// that answer, whole; the cut line is only in the temporary file, which a
// recorder opened next removes before recording on.
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

	// The kill came mid-write: the temporary file holds the old lines and
	// half of the new ones, the last cut short.
	stale, _ := filepath.Glob(filepath.Join(dir, ".c.jsonl.tmp-*"))
	if len(stale) != 1 {
		t.Fatalf("temporary files after the kill: %q; want one", stale)
	}
	cut := read(t, stale[0])
	if !strings.HasPrefix(cut, before) || len(cut) <= len(before) || strings.HasSuffix(cut, "\n") {
		t.Fatalf("the temporary file does not end in a half line after the old content:\n%s", cut)
	}
	if _, err := loaded(cut); err == nil {
		t.Fatal("the half-written temporary file loads; the test did not cut a line")
	}

	// The recording itself is the file before the answer, and it loads.
	if got := read(t, path); got != before {
		t.Fatalf("the recording changed although its answer was cut:\n%s", got)
	}
	if n, err := loaded(read(t, path)); err != nil || n != 2 {
		t.Fatalf("the recording left by the killed recorder: %d articles, error %v; want 2 and none", n, err)
	}

	// A recorder opened next clears the temporary file and records on.
	again, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)})
	if err != nil {
		t.Fatal(err)
	}
	if stale, _ := filepath.Glob(filepath.Join(dir, ".c.jsonl.tmp-*")); len(stale) != 0 {
		t.Errorf("temporary files after reopening: %q", stale)
	}
	if err := again.Answer("query", nil, answerOf(100, 3)); err != nil {
		t.Fatal(err)
	}
	after := read(t, path)
	if !strings.HasPrefix(after, before) {
		t.Errorf("the reopened recorder rewrote the old lines:\n%s", after)
	}
	if n, err := loaded(after); err != nil || n != 5 {
		t.Errorf("after recording on: %d articles, error %v; want 5 and none", n, err)
	}
}
