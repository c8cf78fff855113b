package main

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
)

// TestNothingMatchedHints checks that the hints after a search that found
// nothing suggest only what could find more.
func TestNothingMatchedHints(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	const prefix = `no articles matched: "xyzzyqq"`
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "xyzzyqq", "--since", "7d"}, prefix + " since 2025-03-07 12:00 UTC: try other words or a longer range (e.g. --since 30d)"},
		{[]string{"range", "xyzzyqq", "--since", "365d", "--window", "90d"}, prefix + " from 2024-03-14 12:00 to 2025-03-14 12:00 UTC: try other words or a longer range (e.g. --since 730d)"},
		{[]string{"async", "xyzzyqq", "--from", "2020-01-01", "--to", "2020-01-07"}, prefix + " from 2020-01-01 00:00 to 2020-01-07 23:59 UTC: try other words or a longer range (e.g. --from 2019-12-08)"},
		{[]string{"search", "xyzzyqq"}, prefix + ": try other words"},
		{[]string{"search", "xyzzyqq", "--since", "60d", "--lang", "en", "--site", "a.com"}, prefix + " since 2025-01-13 12:00 UTC, --site a.com, --lang en: try other words, a longer range (e.g. --since 120d) or fewer filters"},
		{[]string{"search", "xyzzyqq", "--lang", "all"}, prefix + ", --lang all: try other words"},
	} {
		r := runCLI(t, srv, runOpts{}, append(tc.args, "-o", "csv")...)
		if r.code != 0 || r.stdout != "" || r.stderr != tc.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0, nothing printed and\n%s", tc.args, r.code, r.stdout, r.stderr, tc.want)
		}
	}
	// results knows no search to suggest changes to.
	id := runCLI(t, srv, runOpts{}, "async", "xyzzyqq", "--since", "7d", "--no-wait")
	qid := strings.TrimSpace(id.stdout)
	r := runCLI(t, srv, runOpts{}, "results", qid)
	if want := "no articles matched: query " + qid + "\n"; id.code != 0 || r.code != 0 || r.stdout != "" || r.stderr != want {
		t.Errorf("results %s: exit %d, stdout %q, stderr %q; want exit 0 and %q", qid, r.code, r.stdout, r.stderr, want)
	}
}

// clockCounter serves with srv and counts the requests for /_mock/clock;
// with gone, it answers them 404 as the real service does.
type clockCounter struct {
	srv  *mockserver.Server
	gone bool
	mu   sync.Mutex
	n    int
}

func (c *clockCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/_mock/clock" {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
		if c.gone {
			return &http.Response{StatusCode: http.StatusNotFound, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
		}
	}
	return c.srv.Transport().RoundTrip(r)
}

func (c *clockCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// TestClockHint runs searches of relative dates against a mock whose clock
// is not this machine's: when nothing matches, a hint names the mock's
// clock and the --now that counts from it, which then finds articles. The
// clock is asked for only then, and a service without it gets no hint.
func TestClockHint(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	later := fixedNow.AddDate(0, 0, 300)
	week := []string{"search", "election", "--since", "7d", "-o", "csv", "--fields", "_id"}
	const hint = "The service's clock reads 2025-03-14T12:00:00Z, %s this machine's, and relative dates (--since 7d) count from this machine's: add --now 2025-03-14T12:00:00Z to count them from the service's.\n"
	for _, tc := range []struct {
		name   string
		now    time.Time
		args   []string
		gone   bool
		stderr string
		asked  int
	}{
		{name: "behind", now: later, args: week, asked: 1,
			stderr: `no articles matched: "election" since 2026-01-01 12:00 UTC: try other words or a longer range (e.g. --since 30d)` + "\n" + strings.Replace(hint, "%s", "300 days behind", 1)},
		{name: "ahead", now: fixedNow.Add(-3*time.Hour - 5*time.Minute), args: []string{"range", "xyzzyqq", "--since", "2d", "-o", "csv"}, asked: 1,
			stderr: `no articles matched: "xyzzyqq" from 2025-03-12 08:55 to 2025-03-14 08:55 UTC: try other words or a longer range (e.g. --since 30d)` + "\n" + strings.Replace(hint, "%s", "3h05m ahead of", 1)},
		{name: "same_clock", now: fixedNow, args: []string{"search", "xyzzyqq", "--since", "7d"}, asked: 1,
			stderr: `no articles matched: "xyzzyqq" since 2025-03-07 12:00 UTC: try other words or a longer range (e.g. --since 30d)` + "\n"},
		{name: "real_service", now: later, args: week, gone: true, asked: 1,
			stderr: `no articles matched: "election" since 2026-01-01 12:00 UTC: try other words or a longer range (e.g. --since 30d)` + "\n"},
		{name: "quiet", now: later, args: append(slices.Clone(week), "--quiet")},
		{name: "now_given", now: later, args: []string{"search", "xyzzyqq", "--since", "7d", "--now", "2025-03-14T12:00:00Z"},
			stderr: `no articles matched: "xyzzyqq" since 2025-03-07 12:00 UTC: try other words or a longer range (e.g. --since 30d)` + "\n"},
		{name: "absolute_dates", now: later, args: []string{"search", "xyzzyqq", "--from", "2025-03-01"},
			stderr: `no articles matched: "xyzzyqq" since 2025-03-01 00:00 UTC: try other words or a longer range (e.g. --since 628d)` + "\n"},
		{name: "matched", now: fixedNow, args: week},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := &clockCounter{srv: srv, gone: tc.gone}
			r := runCLI(t, srv, runOpts{now: tc.now, transport: tr}, tc.args...)
			if r.code != 0 || r.stderr != tc.stderr || tr.count() != tc.asked {
				t.Errorf("exit %d, stderr %q, asked the clock %d times; want exit 0, stderr\n%s\nand %d", r.code, r.stderr, tr.count(), tc.stderr, tc.asked)
			}
		})
	}
	// The --now the hint gives finds the articles of the mock's week.
	want := runCLI(t, srv, runOpts{}, week...)
	r := runCLI(t, srv, runOpts{now: later}, append(slices.Clone(week), "--now", "2025-03-14T12:00:00Z")...)
	if r.code != 0 || r.stdout != want.stdout || !strings.HasPrefix(r.stdout, "_id\n6") {
		t.Errorf("with --now: exit %d, stdout %.100q, stderr %q; want the articles found on the mock's clock", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, srv, runOpts{}, append(slices.Clone(week), "--now", "3d")...)
	if want := "newssearch: --now \"3d\": pass a time such as 2026-01-15T12:00:00Z or 2026-01-15 (relative dates count from it)\n"; r.code != exitUsage || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("--now 3d: exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
}
