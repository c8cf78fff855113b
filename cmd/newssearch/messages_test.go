package main

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rivo/uniseg"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// TestUsageErrorsExitTwo runs command lines whose flags are wrong and
// expects exit 2 and a first line saying what was wrong and how to fix it.
func TestUsageErrorsExitTwo(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	for _, tc := range []struct {
		args []string
		want string // the first line of stderr
	}{
		{[]string{"search", "x", "--lang", "klingon", "--since", "1d"}, `newssearch: POST /api/v2/query: 400 Bad Request: language "klingon" is not supported: use all, or one of de (German), en (English), es (Spanish), fr (French), it (Italian), nl (Dutch), pt (Portuguese), sv (Swedish) (code or English name, any case) (request ID REQ)`},
		{[]string{"search", "x", "--traffic-rank", "abc"}, "newssearch: --traffic-rank abc is not a whole number: pass one, e.g. --traffic-rank 95"},
		{[]string{"async", "x", "--since", "1d", "--max-wait", "soon"}, "newssearch: --max-wait soon is not a duration: pass a number and a unit (500ms, 30s, 10m, 1h), e.g. --max-wait 10m"},
		{[]string{"search", "x", "--lang"}, "newssearch: --lang needs a value: pass it after the flag, e.g. --lang en"},
		{[]string{"search", "x", "-o"}, "newssearch: --format needs a value: pass it after the flag, e.g. --format table"},
		{[]string{"search", "x", "--embeddings=maybe"}, "newssearch: --embeddings=maybe: a switch takes true or false: pass --embeddings alone to turn it on, or --embeddings=false"},
		{[]string{"search", "x", "--timeout", "0s"}, "newssearch: --timeout 0s is not a timeout: pass how long one attempt may take, e.g. --timeout 30s"},
		{[]string{"search", "x", "--max-retries", "-1"}, "newssearch: --max-retries -1 is negative: pass 0 to disable retries"},
		{[]string{"async", "x", "--sort", "sideways"}, `newssearch: --sort "sideways" is not an order: use relevance or date`},
		{[]string{"search", "x", "--since", "7d", "--from", "2025-01-01"}, "newssearch: --since and --from both set the start: pass one of them"},
	} {
		r := runCLI(t, srv, runOpts{}, tc.args...)
		first, _, _ := strings.Cut(requestIDs.ReplaceAllString(r.stderr, "request ID REQ"), "\n")
		if r.code != exitUsage || first != tc.want || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and first line\n%s", tc.args, r.code, r.stdout, r.stderr, tc.want)
		}
	}
	r := runCLI(t, srv, runOpts{}, "search", "x", "--lang", "klingon", "--since", "1d")
	if want := "The service refused --lang klingon: change it as the message above says, e.g. --lang en, or --lang all.\n"; !strings.HasSuffix(r.stderr, want) {
		t.Errorf("--lang klingon: stderr %q, want it to end %q", r.stderr, want)
	}
}

// TestNoArticlesMatched searches for what nothing matches: stdout holds no
// header (only [] for --format json), stderr says so, and the exit is 0.
func TestNoArticlesMatched(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	const msg = `no articles matched: "xyzzyqq" from 2025-03-07 00:00 to 2025-03-14 23:59 UTC: try other words or a longer range (e.g. --since 30d)` + "\n"
	week := []string{"--from", "2025-03-07", "--to", "2025-03-14"}
	for _, tc := range []struct {
		args   []string
		opts   runOpts
		stdout string
	}{
		{args: []string{"search", "xyzzyqq"}},
		{args: []string{"search", "xyzzyqq", "-o", "table"}},
		{args: []string{"search", "xyzzyqq"}, opts: runOpts{stdoutTTY: true}},
		{args: []string{"search", "xyzzyqq", "-o", "csv"}},
		{args: []string{"search", "xyzzyqq", "-o", "json"}, stdout: "[]\n"},
		{args: []string{"search", "xyzzyqq", "--all", "-o", "csv"}},
		{args: []string{"async", "xyzzyqq", "-o", "table"}},
		{args: []string{"range", "xyzzyqq", "-o", "csv"}},
	} {
		r := runCLI(t, srv, tc.opts, append(tc.args, week...)...)
		if r.code != 0 || r.stdout != tc.stdout || r.stderr != msg {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0, stdout %q, stderr %q", tc.args, r.code, r.stdout, r.stderr, tc.stdout, msg)
		}
	}
	r := runCLI(t, srv, runOpts{}, append([]string{"search", "xyzzyqq", "--quiet"}, week...)...)
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("--quiet: exit %d, stdout %q, stderr %q; want nothing", r.code, r.stdout, r.stderr)
	}
}

// TestKeyPhraseSuggestionIsAFlag checks the last line of a --key-phrases
// mistake: a whole flag, quoted for the shell (its running back through
// the command is TestProcessKeyPhraseSuggestionsAccepted).
func TestKeyPhraseSuggestionIsAFlag(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	for in, want := range map[string]string{
		`"elon"`:                `--key-phrases "'elon'"`,
		`'elon' AND 'musk'`:     `--key-phrases "'elon' and 'musk'"`,
		`elon musk or tesla)`:   `--key-phrases "'elon musk' or 'tesla'"`,
		`“elon” && !'musk'`:     `--key-phrases "'elon' and not 'musk'"`,
		`('elon' or`:            `--key-phrases "('elon')"`,
		`'elon' 'musk'`:         `--key-phrases "'elon' and 'musk'"`,
		`()`:                    exampleKeyPhrases,
		`'it''s'`:               `--key-phrases "'it' and 's'"`,
		`'x' not 'y'`:           `--key-phrases "'x' and not 'y'"`,
		`'yahoo!' or "$HOME"`:   `--key-phrases ''\''yahoo!'\'' or '\''$HOME'\'''`,
		`NOT 'sam altman' OR x`: `--key-phrases "not 'sam altman' or 'x'"`,
	} {
		r := runCLI(t, srv, runOpts{}, "async", "x", "--since", "1d", "--no-wait", "--key-phrases", in)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != exitUsage || len(lines) != 3 || lines[1] != "This would be accepted: "+want {
			t.Errorf("--key-phrases %s: exit %d, stderr %q; want exit 2 and the line %q", in, r.code, r.stderr, "This would be accepted: "+want)
		}
	}
}

// TestServerErrorCountsRealRetries forces 5xx answers with the mock's fault
// header and expects the hint to count the attempts the call really made:
// a 501 is never retried, a 503 is (up to --max-retries).
func TestServerErrorCountsRealRetries(t *testing.T) {
	t.Parallel()
	withFault := func(srv *mockserver.Server, fault string) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			r = r.Clone(r.Context())
			r.Header.Set(mockserver.FaultHeader, fault)
			return srv.Transport().RoundTrip(r)
		})
	}
	const support = "if it keeps failing, send the service's support the message above with its request ID."
	for _, tc := range []struct {
		fault string
		args  []string
		want  string
		calls int
	}{
		{"status=501", []string{"headlines"}, "The service does not implement this request (501 Not Implemented), which a retry cannot change, so it was not retried: check --base-url; " + support, 1},
		{"status=503", []string{"headlines", "--max-retries", "2"}, "The service failed after 2 retries (3 attempts): try again later (or raise --max-retries); " + support, 3},
		{"status=500", []string{"headlines", "--max-retries", "1"}, "The service failed after 1 retry (2 attempts): try again later (or raise --max-retries); " + support, 2},
		{"status=503", []string{"headlines", "--max-retries", "0"}, "The service failed and the request was not retried (--max-retries 0): try again later, or allow retries with --max-retries 3; " + support, 1},
		{"status=503", []string{"async", "x", "--since", "1d"}, "The service failed and the request was not retried (the SDK retries a request that creates a job only when the service cannot have received it): try again later; " + support, 1},
	} {
		srv := newMock(t)
		r := runCLI(t, srv, runOpts{transport: withFault(srv, tc.fault)}, tc.args...)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != exitError || len(lines) != 2 || lines[1] != tc.want {
			t.Errorf("%s, %v: exit %d, stderr %q; want exit 1 and the hint\n%s", tc.fault, tc.args, r.code, r.stderr, tc.want)
		}
		if n := len(srv.Journal()); n != tc.calls {
			t.Errorf("%s, %v: the mock saw %d requests, want %d", tc.fault, tc.args, n, tc.calls)
		}
	}
}

// TestCheckCannotReach runs check against a closed loopback port: it says
// it cannot reach the address rather than that the service differs.
func TestCheckCannotReach(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	srv := newMock(t)
	r := runCLI(t, srv, runOpts{transport: http.DefaultTransport, env: map[string]string{newssearch.EnvBaseURL: url}}, "check")
	want := "newssearch: cannot reach " + url + ": connection refused: check the URL and that the service is running\n"
	if r.code != exitError || r.stderr != want || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1, nothing printed and %q", r.code, r.stdout, r.stderr, want)
	}
}

// TestNoDoubledPrefix runs failing commands whose SDK errors wrap others and
// expects "newssearch:" once per line.
func TestNoDoubledPrefix(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	for _, args := range [][]string{
		{"results", "no-such-query"},
		{"results", "no-such-query", "--page", "1"},
		{"search", "x", "--lang", "klingon"},
	} {
		r := runCLI(t, srv, runOpts{}, args...)
		if r.code == 0 {
			t.Errorf("%v succeeded", args)
		}
		for _, l := range strings.Split(r.stderr, "\n") {
			if strings.Count(l, "newssearch:") > 1 {
				t.Errorf("%v: the line %q says newssearch: more than once", args, l)
			}
		}
	}
}

// TestLongAttemptTimeoutOnSlowService: the CLI's HTTP client has no
// Timeout of its own, so a call given a long WithAttemptTimeout waits for a
// slow answer even when --timeout (the client's limit) is shorter, and the
// client's limit still ends an attempt without one.
func TestLongAttemptTimeoutOnSlowService(t *testing.T) {
	t.Parallel()
	srv := newMock(t, mockserver.WithFaults(mockserver.FaultRule{Endpoint: "headlines", Fault: mockserver.Fault{Latency: 700 * time.Millisecond}}))
	a := &app{env: &env{getenv: func(k string) string {
		return map[string]string{newssearch.EnvAPIKey: srv.APIKey(), newssearch.EnvBaseURL: "http://newsmock.invalid"}[k]
	}, transport: srv.Transport()}, timeout: 100 * time.Millisecond}
	c, err := a.client(nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Headlines(ctx, newssearch.WithAttemptTimeout(time.Minute), newssearch.WithMaxRetries(0)); err != nil {
		t.Errorf("with a one-minute attempt timeout: %v", err)
	}
	_, err = c.Headlines(ctx, newssearch.WithMaxRetries(0))
	if err == nil || !strings.Contains(err.Error(), "the attempt outlasted 100ms (WithAttemptTimeout)") {
		t.Errorf("with the client's 100ms: %v, want the attempt to time out", err)
	}

	r := runCLI(t, srv, runOpts{}, "headlines", "--timeout", "1m", "-o", "csv", "--fields", "topic")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "topic\n") {
		t.Errorf("--timeout 1m: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestFitColumns fits tables to widths, by display width.
func TestFitColumns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"Central bank raises rates", 12, "Central ban…"},
		{"日本銀行が金利を引き上げ", 9, "日本銀行…"},              // wide characters count 2: 8 columns and the ellipsis
		{"Cafe\u0301 de Flore", 5, "Cafe\u0301…"}, // the accent stays with its letter
		{"🇯🇵🇫🇷 flags", 4, "🇯🇵…"},                  // a flag is one cluster of 2 columns
		{"short", 10, "short"},
	} {
		got := shorten(tc.s, tc.n)
		if got != tc.want || uniseg.StringWidth(got) > tc.n {
			t.Errorf("shorten(%q, %d) = %q (%d columns), want %q", tc.s, tc.n, got, uniseg.StringWidth(got), tc.want)
		}
	}
	var b strings.Builder
	writeTable(&b, []string{"DATE", "SITE", "TITLE"}, [][]string{
		{"2025-03-14 12:00", "example.com", strings.Repeat("long title ", 10)},
		{"2025-03-14 12:00", "例え.jp", "日本銀行が金利を引き上げ、市場は反応した"},
	}, 50, 2)
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if w := uniseg.StringWidth(l); w > 50 {
			t.Errorf("line %q is %d columns, want at most 50", l, w)
		}
		if !strings.HasPrefix(l, "DATE") && !strings.HasSuffix(l, "…") {
			t.Errorf("line %q: the title is not cut with an ellipsis", l)
		}
	}
}
