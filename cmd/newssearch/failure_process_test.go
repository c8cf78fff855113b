//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
)

// failingMock is a mock on a loopback socket whose third submitted job
// fails, once.
func failingMock(t *testing.T) *mockserver.Server {
	srv := mockserver.New(mockserver.WithClock(func() time.Time { return fixedNow }), mockserver.WithJournalSize(10_000),
		mockserver.WithFaults(mockserver.FaultRule{Endpoint: "query-async", Every: 3, Times: 1, Fault: mockserver.Fault{Job: mockserver.JobFail}}))
	t.Cleanup(srv.Close)
	return srv
}

// cacheEnv points the user's cache directory (where a failed range keeps
// its windows) at a new temporary directory.
func cacheEnv(t *testing.T, srv *mockserver.Server) []string {
	dir := t.TempDir()
	return append(processEnv(srv), "HOME="+dir, "XDG_CACHE_HOME="+dir)
}

// referenceRange runs failureArgs in a pipe against a mock without faults
// and returns what it printed.
func referenceRange(t *testing.T, bin string) string {
	ref := mockserver.New(mockserver.WithClock(func() time.Time { return fixedNow }))
	t.Cleanup(ref.Close)
	cmd := exec.Command(bin, failureArgs...)
	cmd.Env = processEnv(ref)
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("the range without faults: %v, %d bytes", err, len(out))
	}
	return string(out)
}

// resumeWithShell runs a resume command as printed, in /bin/sh, with the
// binary for newssearch; it must succeed and print want.
func resumeWithShell(t *testing.T, bin string, srv *mockserver.Server, env []string, command, want string) {
	t.Helper()
	before := len(srv.Journal())
	cmd := exec.Command("/bin/sh", "-c", `"$NS"`+strings.TrimPrefix(command, "newssearch"))
	cmd.Env = append(slices.Clone(env), "NS="+bin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() != 0 {
		t.Fatalf("the resume command %s: %v, stderr %q", command, err, stderr.String())
	}
	if stdout.String() != want {
		t.Errorf("the resume command printed %d lines, want the %d of the whole range", strings.Count(stdout.String(), "\n"), strings.Count(want, "\n"))
	}
	submits := 0
	for _, e := range srv.Journal()[before:] {
		if e.Path == "/api/v2/query-async" {
			submits++
		}
	}
	if submits != 1 {
		t.Errorf("the resume command submitted %d jobs, want 1: the failed window's", submits)
	}
}

// TestProcessRangeFailureResume runs range as a process in a pipe with one
// window failing: it prints the others' articles, exits 1 and names the
// command to resume, which, run in a shell, prints the whole range.
func TestProcessRangeFailureResume(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	full := referenceRange(t, bin)
	srv := failingMock(t)
	env := cacheEnv(t, srv)
	cmd := exec.Command(bin, append(slices.Clone(failureArgs), "--concurrency", "1")...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	m := resumeLine.FindStringSubmatch(stderr.String())
	if !errors.As(err, &ee) || ee.ExitCode() != exitError || m == nil || strings.Count(stderr.String(), "\n") != 3 {
		t.Fatalf("%v, stderr %q; want exit 1, the failed window, what was kept and the command to resume", err, stderr.String())
	}
	if want := finishedOnly(t, full, stderr.String()); stdout.String() != want || want == full {
		t.Errorf("stdout has %d lines, want the %d of the finished windows", strings.Count(stdout.String(), "\n"), strings.Count(want, "\n"))
	}
	resumeWithShell(t, bin, srv, env, m[6], full)
}

// ansi matches the terminal's control sequences.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// TestProcessRangeFailureOnTerminal runs the same failing range on a
// pseudo-terminal, as a person would: the bar moves, the finished windows
// print as a table, and the messages end with the command to resume, which
// then completes the range.
func TestProcessRangeFailureOnTerminal(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	full := referenceRange(t, bin)
	srv := failingMock(t)
	env := cacheEnv(t, srv)
	args := []string{"range", "election", "--from", "2025-01-01T00:00:00Z", "--to", "2025-03-12T00:00:00Z", "--window", "7d", "--concurrency", "1"}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	screen, err := onPTY(t, cmd, 40, 250, func(tty *os.File) { cmd.Stdout, cmd.Stderr = tty, tty })
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitError {
		t.Fatalf("newssearch range on a terminal: %v, want exit 1; terminal:\n%q", err, screen)
	}
	if !progressCounts.MatchString(screen) || !strings.Contains(screen, "/10 windows") {
		t.Errorf("no progress bar on the terminal: %q", screen)
	}
	text := ansi.ReplaceAllString(strings.ReplaceAll(screen, "\r\n", "\n"), "")
	if !regexp.MustCompile(`(?m)^DATEPUBLISHED +SITE +SCORE +TITLE$`).MatchString(text) {
		t.Errorf("the finished windows are not printed as a table: %q", text)
	}
	if !regexp.MustCompile(`(?m)^newssearch: window \S+ to \S+: query job "[0-9a-f]+" ended in state "FAILED": `).MatchString(text) {
		t.Errorf("the terminal does not name the failed window: %q", text)
	}
	m := resumeLine.FindStringSubmatch(text)
	if m == nil || m[1] != "9" || m[5] != "1" {
		t.Fatalf("the terminal does not end with what was kept and the command to resume:\n%s", text)
	}
	if want := "newssearch " + strings.Join(args, " ") + " --resume " + m[4]; m[6] != want {
		t.Errorf("resume command %q, want %q", m[6], want)
	}
	// Run in a pipe, the command prints the whole range as JSON Lines.
	resumeWithShell(t, bin, srv, env, m[6], full)
}
