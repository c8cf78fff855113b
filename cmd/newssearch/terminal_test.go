package main

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/newssearch/newssearch-go/mockserver"
)

// TestProgressOnlyOnTerminal runs range, async and check in process with
// standard error as a terminal or not, with and without --quiet and
// --no-progress, and compares what standard error shows.
func TestProgressOnlyOnTerminal(t *testing.T) {
	t.Parallel()
	rangeArgs := []string{"range", "earthquake", "--from", "2025-02-20", "--to", "2025-03-13", "--window", "7d", "-o", "csv", "--fields", "_id"}
	ref := runCLI(t, newMock(t), runOpts{}, rangeArgs...)
	if ref.code != 0 || ref.stderr != "" || !strings.HasPrefix(ref.stdout, "_id\n") {
		t.Fatalf("range in a pipe: exit %d, stdout %.100q, stderr %q", ref.code, ref.stdout, ref.stderr)
	}
	bar := regexp.MustCompile(` 100% \|█+\| +\[\d+s\] 4/4 windows, \d+ articles ?\n`)
	submitted := regexp.MustCompile(`^query [0-9a-f]+ submitted\n`)
	spinner := regexp.MustCompile(`query [0-9a-f]+: (PENDING|SUCCESS) \(poll \d+, `)

	t.Run("range", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			name  string
			flags []string
			tty   bool
			// check judges stderr of the first run (a new checkpoint) and
			// of the second (resumed from it).
			check func(t *testing.T, ck, first, second string)
		}{
			{name: "terminal", tty: true, check: func(t *testing.T, ck, first, second string) {
				if !bar.MatchString(first) {
					t.Errorf("no finished bar on the terminal: %q", first)
				}
				if !strings.HasSuffix(first, "\nall 4 windows done; "+ck+" may be deleted\n") {
					t.Errorf("the first run does not end saying the checkpoint may go: %q", first)
				}
				if want := "resuming from " + ck + ": 4 of 4 windows already done\n"; !strings.HasPrefix(second, want) {
					t.Errorf("the resumed run's stderr = %q, want it to start %q", second, want)
				}
				if !strings.Contains(second, "4/4 windows, ") {
					t.Errorf("the resumed run does not draw the bar at the saved windows: %q", second)
				}
			}},
			{name: "no-progress", tty: true, flags: []string{"--no-progress"}, check: func(t *testing.T, ck, first, second string) {
				if want := "all 4 windows done; " + ck + " may be deleted\n"; first != want {
					t.Errorf("stderr = %q, want %q", first, want)
				}
				if want := "resuming from " + ck + ": 4 of 4 windows already done\nall 4 windows done; " + ck + " may be deleted\n"; second != want {
					t.Errorf("resumed stderr = %q, want %q", second, want)
				}
			}},
			{name: "quiet", tty: true, flags: []string{"--quiet"}, check: func(t *testing.T, ck, first, second string) {
				if first != "" || second != "" {
					t.Errorf("stderr = %q then %q, want nothing with --quiet", first, second)
				}
			}},
			{name: "pipe", check: func(t *testing.T, ck, first, second string) {
				if first != "" || second != "" {
					t.Errorf("stderr = %q then %q, want nothing when it is not a terminal", first, second)
				}
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				srv := newMock(t)
				ck := filepath.Join(t.TempDir(), "ck")
				args := append(append(append([]string{}, rangeArgs...), "--resume", ck), tc.flags...)
				var stderr [2]string
				for i := range stderr {
					r := runCLI(t, srv, runOpts{stderrTTY: tc.tty}, args...)
					if r.code != 0 || r.stdout != ref.stdout {
						t.Fatalf("run %d: exit %d, same stdout as in a pipe %v; stderr %q", i+1, r.code, r.stdout == ref.stdout, r.stderr)
					}
					stderr[i] = r.stderr
				}
				tc.check(t, ck, stderr[0], stderr[1])
			})
		}
	})

	t.Run("async", func(t *testing.T) {
		t.Parallel()
		args := []string{"async", "earthquake", "--since", "60d", "--limit", "2", "-o", "csv", "--fields", "_id"}
		srv := newMock(t, mockserver.WithPendingPolls(2))
		r := runCLI(t, srv, runOpts{stderrTTY: true}, args...)
		if r.code != 0 || !submitted.MatchString(r.stderr) || !spinner.MatchString(r.stderr) {
			t.Errorf("on a terminal: exit %d, stderr %q; want the query ID and the spinner with the job's state", r.code, r.stderr)
		}
		r = runCLI(t, srv, runOpts{stderrTTY: true}, append(args, "--no-progress")...)
		if r.code != 0 || !submitted.MatchString(r.stderr) || strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, "\r") {
			t.Errorf("--no-progress: exit %d, stderr %q; want only the line naming the query", r.code, r.stderr)
		}
		for _, o := range []runOpts{{stderrTTY: true}, {}} {
			flags := []string{"--quiet"}
			if !o.stderrTTY {
				flags = nil
			}
			r = runCLI(t, srv, o, append(args, flags...)...)
			if r.code != 0 || r.stderr != "" || r.stdout != "_id\n6a1724e5a18e17dfe5c6b6b9\n69fb23100e3008060ac6b0bc\n" {
				t.Errorf("terminal %v, flags %v: exit %d, stdout %q, stderr %q; want the articles and nothing on stderr", o.stderrTTY, flags, r.code, r.stdout, r.stderr)
			}
		}
	})

	t.Run("search", func(t *testing.T) {
		t.Parallel()
		srv := newMock(t)
		args := []string{"search", "election", "--from", "2025-02-15", "--to", "2025-03-14", "-o", "csv", "--fields", "_id"}
		pipe := runCLI(t, srv, runOpts{}, args...)
		r := runCLI(t, srv, runOpts{stderrTTY: true}, args...)
		want := "page 1 of 2 (28 articles in all): --page 2 prints the next, --all every page\n"
		if r.code != 0 || r.stderr != want || r.stdout != pipe.stdout || pipe.stderr != "" {
			t.Errorf("on a terminal: exit %d, stderr %q; want %q and the articles printed in a pipe", r.code, r.stderr, want)
		}
		for _, extra := range [][]string{{"--page", "2"}, {"--quiet"}, {"--all", "--limit", "30"}} {
			r = runCLI(t, srv, runOpts{stderrTTY: true}, append(append([]string{}, args...), extra...)...)
			if r.code != 0 || r.stderr != "" {
				t.Errorf("%v on a terminal: exit %d, stderr %q; want nothing (the last page, --quiet, --all)", extra, r.code, r.stderr)
			}
		}
	})

	t.Run("check", func(t *testing.T) {
		t.Parallel()
		srv := newMock(t)
		r := runCLI(t, srv, runOpts{stderrTTY: true}, "check", "-o", "json")
		if r.code != 0 || !strings.Contains(r.stderr, "checking /api/v2/headlines") {
			t.Errorf("on a terminal: exit %d, stderr %q; want the spinner naming each endpoint", r.code, r.stderr)
		}
		for _, flag := range []string{"--quiet", "--no-progress"} {
			r = runCLI(t, srv, runOpts{stderrTTY: true}, "check", "-o", "json", flag)
			if r.code != 0 || r.stderr != "" {
				t.Errorf("%s: exit %d, stderr %q; want nothing", flag, r.code, r.stderr)
			}
		}
	})
}

// cancelOn returns a transport that serves with srv and cancels the
// returned context when the n-th request to path arrives (and fails that
// request as a cancelled one would).
func cancelOn(srv *mockserver.Server, path string, n int) (http.RoundTripper, context.Context) {
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	seen := 0
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == path {
			mu.Lock()
			seen++
			hit := seen == n
			mu.Unlock()
			if hit {
				cancel()
				return nil, context.Canceled
			}
		}
		return srv.Transport().RoundTrip(r)
	}), ctx
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestInterruptedCommands interrupts commands the way Ctrl-C does (their
// context is cancelled) and expects exit 130 and a message saying what to
// do next.
func TestInterruptedCommands(t *testing.T) {
	t.Parallel()

	t.Run("range_without_resume", func(t *testing.T) {
		t.Parallel()
		srv := newMock(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r := runCLI(t, srv, runOpts{ctx: ctx, afterWindow: func(done int) {
			if done == 3 {
				cancel()
			}
		}}, "range", "earthquake", "--from", "2025-01-01T00:00:00Z", "--to", "2025-01-10T00:00:00Z", "--window", "1d", "--concurrency", "1")
		want := regexp.MustCompile(`^newssearch: interrupted: 3 of 9 windows were done \(\d+ articles?\), and none was kept: ` +
			`run the command again with --resume FILE to keep finished windows in FILE\n$`)
		if r.code != exitInterrupted || !want.MatchString(r.stderr) || r.stdout != "" {
			t.Errorf("exit %d, stdout %.100q, stderr %q; want exit 130, nothing printed and stderr matching %s", r.code, r.stdout, r.stderr, want)
		}
	})

	t.Run("async", func(t *testing.T) {
		t.Parallel()
		srv := newMock(t, mockserver.WithPendingPolls(3))
		tr, ctx := cancelOn(srv, "/api/v2/get-results", 2)
		r := runCLI(t, srv, runOpts{ctx: ctx, transport: tr}, "async", "earthquake", "--since", "60d", "-o", "csv", "--fields", "_id")
		m := regexp.MustCompile(`^newssearch: interrupted: the query is still on the service: print its articles with 'newssearch results ([0-9a-f]+)'\n$`).
			FindStringSubmatch(r.stderr)
		if r.code != exitInterrupted || m == nil {
			t.Fatalf("exit %d, stderr %q; want exit 130 and the results command to run", r.code, r.stderr)
		}
		// The command the message gives prints the articles.
		r = runCLI(t, srv, runOpts{}, "results", m[1], "-o", "csv", "--fields", "_id", "--limit", "2")
		if r.code != 0 || r.stdout != "_id\n6a1724e5a18e17dfe5c6b6b9\n69fb23100e3008060ac6b0bc\n" {
			t.Errorf("results %s: exit %d, stdout %q, stderr %q", m[1], r.code, r.stdout, r.stderr)
		}
	})

	t.Run("search_all", func(t *testing.T) {
		t.Parallel()
		srv := newMock(t)
		tr, ctx := cancelOn(srv, "/api/v2/query", 2)
		r := runCLI(t, srv, runOpts{ctx: ctx, transport: tr}, "search", "earthquake", "--since", "120d", "--all", "-o", "csv", "--fields", "_id")
		if r.code != exitInterrupted || r.stderr != "newssearch: interrupted\n" {
			t.Errorf("exit %d, stderr %q; want exit 130 and %q", r.code, r.stderr, "newssearch: interrupted\n")
		}
	})

	t.Run("search", func(t *testing.T) {
		t.Parallel()
		srv := newMock(t)
		args := []string{"search", "election", "--from", "2025-02-15", "--to", "2025-03-14", "-o", "csv", "--fields", "_id"}
		pipe := runCLI(t, srv, runOpts{}, args...)
		r := runCLI(t, srv, runOpts{stderrTTY: true}, args...)
		want := "page 1 of 2 (28 articles in all): --page 2 prints the next, --all every page\n"
		if r.code != 0 || r.stderr != want || r.stdout != pipe.stdout || pipe.stderr != "" {
			t.Errorf("on a terminal: exit %d, stderr %q; want %q and the articles printed in a pipe", r.code, r.stderr, want)
		}
		for _, extra := range [][]string{{"--page", "2"}, {"--quiet"}, {"--all", "--limit", "30"}} {
			r = runCLI(t, srv, runOpts{stderrTTY: true}, append(append([]string{}, args...), extra...)...)
			if r.code != 0 || r.stderr != "" {
				t.Errorf("%v on a terminal: exit %d, stderr %q; want nothing (the last page, --quiet, --all)", extra, r.code, r.stderr)
			}
		}
	})

	t.Run("check", func(t *testing.T) {
		t.Parallel()
		srv := newMock(t)
		tr, ctx := cancelOn(srv, "/api/v2/get-results", 1)
		r := runCLI(t, srv, runOpts{ctx: ctx, transport: tr}, "check")
		if want := "newssearch: interrupted: the check did not finish\n"; r.code != exitInterrupted || r.stderr != want || r.stdout != "" {
			t.Errorf("exit %d, stdout %.100q, stderr %q; want exit 130, nothing printed and %q", r.code, r.stdout, r.stderr, want)
		}
	})
}
