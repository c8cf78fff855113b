//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// parentEnv, set to 1, makes this test binary a parent that starts newsmock
// (this binary, as main) with its own arguments, standard input and
// standard error, copies newsmock's first line to its standard output, and
// exits, leaving newsmock behind.
const parentEnv = "GO_TEST_NEWSMOCK_PARENT"

func init() {
	if os.Getenv(parentEnv) != "1" {
		return
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), parentEnv+"=0", runMainEnv+"=1")
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	fmt.Print(line)
	os.Exit(0)
}

// pipe returns an os.Pipe; the test's cleanup closes both ends.
func pipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// listeningURL reads newsmock's first line from stdout.
func listeningURL(t *testing.T, stdout *bufio.Reader) string {
	t.Helper()
	line, err := stdout.ReadString('\n')
	m := regexp.MustCompile(`^newsmock listening on (http://127\.0\.0\.1:[0-9]+)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line of stdout %q (%v), want \"newsmock listening on http://127.0.0.1:<port>\"", line, err)
	}
	return m[1]
}

// awaitExit reads newsmock's stderr to its end, which comes when newsmock
// has exited (nothing else holds it), and returns it.
func awaitExit(t *testing.T, stderr *os.File, why string) string {
	t.Helper()
	_ = stderr.SetReadDeadline(time.Now().Add(30 * time.Second))
	logs, err := io.ReadAll(stderr)
	if err != nil {
		t.Fatalf("newsmock still runs 30 s after %s (%v); stderr:\n%s", why, err, logs)
	}
	return string(logs)
}

// refused checks that nothing listens at url any more.
func refused(t *testing.T, url string) {
	t.Helper()
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(url, "http://"), 10*time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after newsmock exited", url)
	}
}

// With -exit-with-parent, newsmock stops (gracefully, exit 0) when its
// standard input, a pipe from the parent, closes.
func TestExitWithParentStdinClosed(t *testing.T) {
	t.Parallel()
	cmd := newsmockCommand(t, "-addr", "127.0.0.1:0", "-exit-with-parent", "-log-level", "info")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW := pipe(t)
	errR, errW := pipe(t)
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	errW.Close()
	stdout := bufio.NewReader(outR)
	url := listeningURL(t, stdout)
	if _, err := io.WriteString(stdin, "anything the parent writes is ignored\n"); err != nil {
		t.Fatal(err)
	}
	do(t, "GET", url+"/_mock/health", nil, nil) // still serving

	stdin.Close()
	logs := awaitExit(t, errR, "its standard input closed")
	if err := cmd.Wait(); err != nil {
		t.Errorf("newsmock exited with %v, want exit code 0; stderr:\n%s", err, logs)
	}
	for _, want := range []string{`reason="standard input closed"`, `msg="newsmock: stopped"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %s:\n%s", want, logs)
		}
	}
	refused(t, url)
}

// With -exit-with-parent, newsmock stops when its parent process dies, even
// while another process (here the test) still holds its standard input
// open.
func TestExitWithParentParentDied(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs newsmock as a process; skipped with -short")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := pipe(t) // inW stays open: the end of standard input cannot be what stops newsmock
	outR, outW := pipe(t)
	errR, errW := pipe(t)
	parent := exec.Command(exe, "-addr", "127.0.0.1:0", "-exit-with-parent", "-log-level", "info")
	parent.Env = append(os.Environ(), parentEnv+"=1")
	parent.Stdin, parent.Stdout, parent.Stderr = inR, outW, errW
	if err := parent.Run(); err != nil {
		t.Fatalf("the parent process: %v", err)
	}
	outW.Close()
	errW.Close()
	stdout := bufio.NewReader(outR)
	url := listeningURL(t, stdout)
	logs := awaitExit(t, errR, "its parent exited")
	for _, want := range []string{`reason="parent process exited"`, `msg="newsmock: stopped"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %s:\n%s", want, logs)
		}
	}
	refused(t, url)
	inW.Close()
}

// With -exit-with-parent and a standard input that is not a pipe (here
// /dev/null, whose end comes at once), newsmock watches only its parent
// process, and serves until stopped.
func TestExitWithParentStdinNotAPipe(t *testing.T) {
	t.Parallel()
	cmd := newsmockCommand(t, "-addr", "127.0.0.1:0", "-exit-with-parent", "-log-level", "info")
	outR, outW := pipe(t)
	errR, errW := pipe(t)
	cmd.Stdout, cmd.Stderr = outW, errW // cmd.Stdin nil: /dev/null
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	errW.Close()
	stdout := bufio.NewReader(outR)
	url := listeningURL(t, stdout)
	// Past a poll of the parent process id, newsmock still serves.
	time.Sleep(2 * parentPoll)
	do(t, "GET", url+"/_mock/health", nil, nil)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	logs := awaitExit(t, errR, "SIGTERM")
	if err := cmd.Wait(); err != nil {
		t.Errorf("newsmock exited with %v, want exit code 0; stderr:\n%s", err, logs)
	}
	if strings.Contains(logs, "is gone") {
		t.Errorf("newsmock took /dev/null's end for its parent's:\n%s", logs)
	}
}
