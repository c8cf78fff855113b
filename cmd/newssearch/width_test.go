//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rivo/uniseg"

	"github.com/newssearch/newssearch-go/mockserver"
)

// onTerminal runs the binary with standard output on a pseudo-terminal of
// cols columns (standard error a pipe) and returns the screen's lines.
func onTerminal(t *testing.T, bin string, srv *mockserver.Server, cols uint16, args ...string) []string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = processEnv(srv)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	screen, err := onPTY(t, cmd, 50, cols, func(tty *os.File) { cmd.Stdout = tty })
	if err != nil {
		t.Fatalf("newssearch %v: %v; stderr %q", args, err, stderr.String())
	}
	out := strings.ReplaceAll(screen, "\r\n", "\n")
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// TestProcessTableFitsTerminal runs search with standard output on a
// pseudo-terminal 80 and then 100 columns wide: every line fits, and long
// titles are cut with an ellipsis; --wide prints them whole.
func TestProcessTableFitsTerminal(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	srv := mockserver.New()
	t.Cleanup(srv.Close)
	// Every run counts --since from the same time: a real clock moving
	// between them could move an article in or out of the range.
	args := []string{"search", "election", "--since", "30d", "--now", srv.Now().Format(time.RFC3339Nano)}

	// The titles, whole, from a pipe.
	cmd := exec.Command(bin, append(args, "--fields", "title")...)
	cmd.Env = processEnv(srv)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the titles in a pipe: %v", err)
	}
	var titles []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var a struct{ Title string }
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatal(err)
		}
		titles = append(titles, a.Title)
	}
	if len(titles) == 0 {
		t.Fatal("the search found nothing")
	}
	long := 0
	for _, ti := range titles {
		if uniseg.StringWidth(ti) > 40 {
			long++
		}
	}
	if long == 0 {
		t.Fatalf("no title is longer than 40 columns: nothing to cut (%q)", titles)
	}

	for _, cols := range []int{80, 100} {
		lines := onTerminal(t, bin, srv, uint16(cols), args...)
		if len(lines) != len(titles)+1 || !strings.HasPrefix(lines[0], "DATEPUBLISHED") || !strings.HasSuffix(lines[0], "TITLE") {
			t.Fatalf("%d columns: %d lines, want a header and %d rows:\n%s", cols, len(lines), len(titles), strings.Join(lines, "\n"))
		}
		cut := 0
		for i, l := range lines {
			if w := uniseg.StringWidth(l); w > cols {
				t.Errorf("%d columns: line %d is %d columns wide: %q", cols, i, w, l)
			}
			if i == 0 {
				continue
			}
			title := titles[i-1]
			switch {
			case strings.HasSuffix(l, title):
			case strings.HasSuffix(l, "…") && strings.HasPrefix(title, strings.TrimSuffix(l[strings.LastIndex(l, "  ")+2:], "…")):
				cut++
			default:
				t.Errorf("%d columns: row %d %q ends neither with its title %q nor with its start and an ellipsis", cols, i, l, title)
			}
		}
		if cut == 0 {
			t.Errorf("%d columns: no title was cut with an ellipsis:\n%s", cols, strings.Join(lines, "\n"))
		}
	}

	lines := onTerminal(t, bin, srv, 80, append(args, "--wide")...)
	wider := false
	for i, l := range lines[1:] {
		if uniseg.StringWidth(l) > 80 {
			wider = true
		}
		if !strings.HasSuffix(l, titles[i]) && uniseg.StringWidth(titles[i]) <= maxCell {
			t.Errorf("--wide: row %d %q does not end with its whole title %q", i+1, l, titles[i])
		}
	}
	if !wider {
		t.Error("--wide: every line fits in 80 columns; want the full titles to make some wider")
	}
}

// sh runs a shell command line with the binary as $NS and returns its
// standard output.
func sh(t *testing.T, bin string, srv *mockserver.Server, line string) (string, string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Env = append(processEnv(srv), "NS="+bin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Skipf("no /bin/sh: %v", err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return stdout.String(), stderr.String(), err
	case <-time.After(2 * time.Minute): // a safety bound, not a measurement
		_ = cmd.Process.Kill()
		t.Fatalf("%s did not finish within 2 minutes", line)
	}
	return "", "", nil
}

// TestProcessKeyPhraseSuggestionsAccepted pastes the flag a --key-phrases
// mistake suggests back into a shell command line: the command accepts it.
func TestProcessKeyPhraseSuggestionsAccepted(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	srv := mockserver.New()
	t.Cleanup(srv.Close)
	suggestion := regexp.MustCompile(`(?m)^This would be accepted: (--key-phrases .+)$`)
	for _, bad := range []string{`"elon"`, `'elon' AND 'musk'`, `elon musk or tesla)`, `“elon” && !'musk'`,
		`('elon' or`, `'elon' 'musk'`, `()`, `'x' not 'y'`, `'yahoo!' or "$HOME"`, `NOT 'sam altman' OR x`, `elon`} {
		cmd := exec.Command(bin, "async", "election", "--since", "7d", "--no-wait", "--key-phrases", bad)
		cmd.Env = processEnv(srv)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		m := suggestion.FindStringSubmatch(stderr.String())
		if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || m == nil {
			t.Errorf("--key-phrases %s: %v, stderr %q; want exit 2 and a suggested flag", bad, err, stderr.String())
			continue
		}
		out, errOut, err := sh(t, bin, srv, `"$NS" async election --since 7d --no-wait `+m[1])
		if err != nil || !regexp.MustCompile(`^[0-9a-f]+\n$`).MatchString(out) {
			t.Errorf("the suggestion %s for %s, pasted back: %v, stdout %q, stderr %q; want it accepted", m[1], bad, err, out, errOut)
		}
	}
}

// TestProcessAsyncNoWaitInAPipe runs what the docs promise:
// newssearch results $(newssearch async ... --no-wait).
func TestProcessAsyncNoWaitInAPipe(t *testing.T) {
	bin := binary(t)
	t.Parallel()
	srv := mockserver.New(mockserver.WithPendingPolls(1))
	t.Cleanup(srv.Close)
	id, errOut, err := sh(t, bin, srv, `"$NS" async earthquake --since 60d --no-wait`)
	if err != nil || !regexp.MustCompile(`^[0-9a-f]+\n$`).MatchString(id) || errOut != "" {
		t.Fatalf("async --no-wait in a pipe: %v, stdout %q, stderr %q; want the query ID alone", err, id, errOut)
	}
	out, errOut, err := sh(t, bin, srv, `"$NS" results $("$NS" async earthquake --since 60d --no-wait) --limit 3 -o csv --fields _id`)
	if err != nil || !regexp.MustCompile(`^_id\n([0-9a-f]+\n){3}$`).MatchString(out) {
		t.Errorf("results $(async --no-wait): %v, stdout %q, stderr %q; want a header and 3 IDs", err, out, errOut)
	}
}
