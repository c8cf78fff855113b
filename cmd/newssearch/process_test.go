//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"

	"github.com/newssearch/newssearch-go/mockserver"
)

// runMainEnv, set to 1 in a process's environment, makes this test binary
// run newssearch's main instead of the tests. The process tests run the
// program that way rather than compiling it again with go build: on a
// fresh machine that second build (cobra, libopenapi and the rest, without
// the race detector, so nothing of the test build's cache helps) took over a
// minute of the package's test time on two cores.
const runMainEnv = "NEWSSEARCH_TEST_RUN_MAIN"

// binary returns the program the process tests run: this test binary,
// which runs main when processEnv's environment says so.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs newssearch as a process; skipped with -short")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("finding this test binary to run as newssearch: %v", err)
	}
	return exe
}

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// processEnv is the environment of the binary: only what it needs, pointed
// at srv.
func processEnv(srv *mockserver.Server) []string {
	return []string{runMainEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "TERM=xterm",
		"NEWSSEARCH_API_KEY=" + srv.APIKey(), "NEWSSEARCH_BASE_URL=" + srv.URL()}
}

// progressCounts matches the "done/total windows, N articles" part of the
// bar.
var progressCounts = regexp.MustCompile(`(\d+)/(\d+) windows, \d+ articles?`)

// TestProcessProgressOnTerminal runs range with stderr on a pseudo-terminal
// and watches the bar move from window to window.
func TestProcessProgressOnTerminal(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	srv := mockserver.New(mockserver.WithPendingPolls(1))
	t.Cleanup(srv.Close)

	cmd := exec.Command(bin, "range", "earthquake", "--since", "6d", "--window", "1d", "--concurrency", "1",
		"-o", "csv", "--fields", "_id")
	cmd.Env = processEnv(srv)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	screen, err := onPTY(t, cmd, 24, 120, func(tty *os.File) { cmd.Stderr = tty })
	if err != nil {
		t.Fatalf("newssearch range: %v\nterminal:\n%q", err, screen)
	}

	var seen []int
	for _, m := range progressCounts.FindAllStringSubmatch(screen, -1) {
		n, _ := strconv.Atoi(m[1])
		if m[2] != "6" {
			t.Errorf("the bar shows a total of %s windows, want 6", m[2])
		}
		if len(seen) == 0 || seen[len(seen)-1] != n {
			seen = append(seen, n)
		}
	}
	if len(seen) < 3 || seen[len(seen)-1] != 6 {
		t.Errorf("the bar showed windows done %v, want it to move through at least 3 values up to 6; terminal:\n%q", seen, screen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] {
			t.Errorf("the bar went back from %d to %d windows", seen[i-1], seen[i])
		}
	}
	if !regexp.MustCompile(`\d+% \|[█ ]+\| +\[\d+s\] \d+/6 windows, \d+ articles?, [0-9.]+ windows/(s|min|h), \d+(m\d+)?s left`).MatchString(screen) {
		t.Errorf("the bar does not show the windows, the articles, the rate and the time left; terminal:\n%q", screen)
	}
	if lines := strings.Count(stdout.String(), "\n"); lines < 2 || !strings.HasPrefix(stdout.String(), "_id\n") {
		t.Errorf("stdout is not the CSV of the articles: %.200q", stdout.String())
	}
	if strings.ContainsRune(stdout.String(), '\r') {
		t.Error("progress bytes reached stdout")
	}
}

// TestProcessSpinnerOnTerminal runs async with stderr on a
// pseudo-terminal and sees the spinner report the job's state.
func TestProcessSpinnerOnTerminal(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	srv := mockserver.New(mockserver.WithPendingPolls(3))
	t.Cleanup(srv.Close)
	cmd := exec.Command(bin, "async", "earthquake", "--since", "60d", "--limit", "2", "--fields", "_id")
	cmd.Env = processEnv(srv)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	screen, err := onPTY(t, cmd, 24, 160, func(tty *os.File) { cmd.Stderr = tty })
	if err != nil {
		t.Fatalf("newssearch async: %v; terminal %q", err, screen)
	}
	if !regexp.MustCompile(`query [0-9a-f]+ submitted`).MatchString(screen) {
		t.Errorf("the terminal does not show the query ID: %q", screen)
	}
	if !regexp.MustCompile(`query [0-9a-f]+: PENDING \(poll \d+, `).MatchString(screen) {
		t.Errorf("the spinner does not show the PENDING state: %q", screen)
	}
	if n := strings.Count(stdout.String(), "\n"); n != 2 || strings.ContainsRune(stdout.String(), '\r') {
		t.Errorf("stdout = %q, want two JSON lines and no progress bytes", stdout.String())
	}
}

// TestProcessNoProgressWithoutTerminal runs the commands that show progress
// with stdout and stderr as pipes: stderr stays empty and stdout is JSON
// Lines.
func TestProcessNoProgressWithoutTerminal(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	srv := mockserver.New(mockserver.WithPendingPolls(2))
	t.Cleanup(srv.Close)
	for _, args := range [][]string{
		{"range", "earthquake", "--since", "60d", "--window", "14d", "--concurrency", "2"},
		{"async", "earthquake", "--since", "10d", "--limit", "3"},
		{"check"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Env = processEnv(srv)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%v: %v; stderr %q", args, err, stderr.String())
			continue
		}
		if stderr.Len() != 0 {
			t.Errorf("%v wrote %d bytes to stderr, which is not a terminal: %q", args, stderr.Len(), stderr.String())
		}
		sc := bufio.NewScanner(&stdout)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		n := 0
		for sc.Scan() {
			n++
			if !json.Valid(sc.Bytes()) {
				t.Errorf("%v: stdout line %d is not JSON: %.100q", args, n, sc.Text())
			}
		}
		if n == 0 {
			t.Errorf("%v printed nothing", args)
		}
	}
}

// TestProcessInterruptAndResume sends SIGINT to a range run with --resume
// once some windows are saved, expects exit 130 and the message saying how
// to resume, then resumes it.
func TestProcessInterruptAndResume(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	srv := mockserver.New(mockserver.WithPendingPolls(1), mockserver.WithJournalSize(100_000))
	t.Cleanup(srv.Close)
	ck := filepath.Join(t.TempDir(), "ck.jsonl")
	args := []string{"range", "earthquake", "--from", "2025-01-01", "--to", "2025-01-21", "--window", "1d", "--concurrency", "1",
		"--resume", ck, "-o", "csv", "--fields", "_id"}
	cmd := exec.Command(bin, args...)
	cmd.Env = processEnv(srv)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		b, _ := os.ReadFile(ck)
		if bytes.Count(b, []byte("\n")) >= 3 { // the header and two windows
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("no window was saved within 2 minutes; stderr %q", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("after SIGINT: %v, want exit %d; stderr %q", err, exitInterrupted, stderr.String())
	}
	msg := regexp.MustCompile(`^newssearch: interrupted: (\d+) of 21 windows are done \(\d+ articles?\) and saved in ` + regexp.QuoteMeta(ck) +
		`: run the same command again \(with --resume ` + regexp.QuoteMeta(ck) + `\) to search only the (\d+) missing\n$`)
	m := msg.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("stderr = %q, want it to match %s", stderr.String(), msg)
	}
	if stdout.Len() != 0 {
		t.Errorf("the interrupted run printed %q", stdout.String())
	}
	done, _ := strconv.Atoi(m[1])
	before := len(srv.Journal())

	cmd = exec.Command(bin, args...)
	cmd.Env = processEnv(srv)
	stdout.Reset()
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("resumed run: %v; stderr %q", err, stderr.String())
	}
	submits := 0
	for _, e := range srv.Journal()[before:] {
		if e.Path == "/api/v2/query-async" {
			submits++
		}
	}
	if submits != 21-done {
		t.Errorf("the resumed run submitted %d jobs, want %d (21 windows, %d saved)", submits, 21-done, done)
	}
	// The mock's articles end now, so these dates may hold none: then
	// nothing is printed, not even the header, and stderr says so.
	if !strings.HasPrefix(stdout.String(), "_id\n") && (stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), "no articles matched: ")) {
		t.Errorf("resumed run printed %.100q, stderr %q", stdout.String(), stderr.String())
	}
}

// TestProcessKilledAndResumed kills the binary with SIGKILL (no chance to
// clean up) in the middle of a 52-window range with --resume, resumes it,
// and expects the articles of an uninterrupted run (cmp.Diff) while the
// journal shows that no saved window was searched again and every missing
// one was searched once.
func TestProcessKilledAndResumed(t *testing.T) {
	if os.Getenv("NEWSSEARCH_LONG_TESTS") != "1" {
		t.Skip("runs a 52-window range three times as a process (several seconds): set NEWSSEARCH_LONG_TESTS=1 to run it")
	}
	bin := binary(t)
	t.Parallel()
	srv := mockserver.New(mockserver.WithClock(func() time.Time { return fixedNow }), mockserver.WithPendingPolls(1),
		mockserver.WithJournalSize(100_000))
	t.Cleanup(srv.Close)
	args := []string{"range", "earthquake", "--from", "2025-01-01T00:00:00Z", "--to", "2025-02-22T00:00:00Z",
		"--window", "1d", "--concurrency", "4", "-o", "jsonl"}
	const windows = 52
	runBin := func(extra ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(bin, append(append([]string{}, args...), extra...)...)
		cmd.Env = processEnv(srv)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("newssearch %v: %v; stderr %q", extra, err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}

	ref, _ := runBin()
	want := decodeJSONL(t, ref)
	if len(want) == 0 {
		t.Fatal("the uninterrupted run found no articles")
	}
	if got := len(windowStarts(t, srv)); got != windows {
		t.Fatalf("the uninterrupted run searched %d windows, want %d", got, windows)
	}

	// The killed run.
	ck := filepath.Join(t.TempDir(), "ck.jsonl")
	cmd := exec.Command(bin, append(append([]string{}, args...), "--resume", ck)...)
	cmd.Env = processEnv(srv)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	srv.Reset()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute) // a safety bound, not a measurement
	for {
		b, _ := os.ReadFile(ck)
		if bytes.Count(b, []byte("\n")) >= 1+20 { // the header and 20 windows
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("20 windows were not saved within 2 minutes; stderr %q", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != -1 {
		t.Fatalf("after SIGKILL: %v, want a process killed by the signal", err)
	}
	b, err := os.ReadFile(ck)
	if err != nil {
		t.Fatal(err)
	}
	saved := map[string]bool{}
	lines := bytes.Split(b, []byte("\n"))
	for _, l := range lines[1 : len(lines)-1] { // the header, then whole lines only
		var w struct {
			Start string `json:"start"`
		}
		if err := json.Unmarshal(l, &w); err != nil {
			t.Fatalf("checkpoint line %q: %v", l, err)
		}
		st, err := time.Parse(time.RFC3339Nano, w.Start)
		if err != nil {
			t.Fatal(err)
		}
		saved[st.UTC().Format("2006-01-02T15:04:05.000Z")] = true
	}
	if len(saved) < 20 || len(saved) >= windows {
		t.Fatalf("the killed run saved %d windows, want 20..%d", len(saved), windows-1)
	}

	// The resumed run.
	srv.Reset()
	out, errOut := runBin("--resume", ck)
	if diff := cmp.Diff(want, decodeJSONL(t, out)); diff != "" {
		t.Errorf("killed and resumed run differs from an uninterrupted one (-want +got):\n%s", diff)
	}
	if errOut != "" {
		t.Errorf("the resumed run wrote %q to stderr, which is not a terminal", errOut)
	}
	starts := windowStarts(t, srv)
	t.Logf("killed with %d of %d windows saved (%d bytes of checkpoint); the resumed run searched %d windows and printed %d articles",
		len(saved), windows, len(b), len(starts), len(want))
	if len(starts) != windows-len(saved) {
		t.Errorf("the resumed run searched %d windows, want %d (52 minus the %d saved)", len(starts), windows-len(saved), len(saved))
	}
	for start, n := range starts {
		if saved[start] {
			t.Errorf("the resumed run searched the saved window starting %s again", start)
		}
		if n != 1 {
			t.Errorf("the resumed run searched the window starting %s %d times", start, n)
		}
	}
}

// onPTY runs cmd with attach's streams on a pseudo-terminal of rows and
// cols (attach sets them to tty), and returns what the terminal showed and
// cmd's exit error; a cmd still running after 2 minutes is killed. The test
// is skipped where there is no pseudo-terminal.
func onPTY(t *testing.T, cmd *exec.Cmd, rows, cols uint16, attach func(tty *os.File)) (string, error) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		t.Fatal(err)
	}
	attach(tty)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = tty.Close()
	var screen bytes.Buffer
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(&screen, ptmx) // ends with EIO once the process exits
	}()
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	select {
	case err = <-waitErr:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("%v did not finish within 2 minutes", cmd.Args)
	}
	// Read what the process wrote before it exited (the copy ends once
	// it is drained); closing the terminal first would lose it. The
	// bound is for a process that left the terminal open to another.
	select {
	case <-copied:
	case <-time.After(time.Minute):
	}
	_ = ptmx.Close()
	<-copied
	return screen.String(), err
}
