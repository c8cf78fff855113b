package main

import (
	"context"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// fixedNow is the clock of every in-process run: the mock's and the CLI's.
var fixedNow = time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC)

// newMock starts an in-process mock (no socket) on the fixed clock.
func newMock(t *testing.T, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	base := []mockserver.Option{mockserver.WithoutListener(), mockserver.WithClock(func() time.Time { return fixedNow }),
		mockserver.WithSeed(7)}
	srv, err := mockserver.Start(append(base, opts...)...)
	if err != nil {
		t.Fatalf("mockserver.Start: %v", err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// result is what one run printed.
type result struct {
	stdout, stderr string
	code           int
}

// runOpts adjust the environment of a run.
type runOpts struct {
	env         map[string]string // added to (or, with "", removed from) the default environment
	stdoutTTY   bool
	stderrTTY   bool
	stdin       string
	ctx         context.Context
	afterWindow func(int)
	now         time.Time         // the CLI's clock; zero means fixedNow
	transport   http.RoundTripper // nil means the mock's in-process transport
	cacheDir    string            // the user's cache directory; "" means a new temporary one
}

// runCLI runs the command line in process against srv, with the key and
// URL in the environment.
func runCLI(t *testing.T, srv *mockserver.Server, o runOpts, args ...string) result {
	t.Helper()
	vars := map[string]string{
		newssearch.EnvAPIKey:  srv.APIKey(),
		newssearch.EnvBaseURL: "http://newsmock.invalid",
	}
	for k, v := range o.env {
		vars[k] = v
	}
	if o.transport == nil {
		o.transport = srv.Transport()
	}
	clock := fixedNow
	if !o.now.IsZero() {
		clock = o.now
	}
	if o.cacheDir == "" {
		o.cacheDir = t.TempDir()
	}
	var stdout, stderr lockedBuffer
	e := &env{
		stdin:     strings.NewReader(o.stdin),
		stdout:    &stdout,
		stderr:    &stderr,
		getenv:    func(k string) string { return vars[k] },
		stdoutTTY: o.stdoutTTY,
		stderrTTY: o.stderrTTY,
		now:       func() time.Time { return clock },
		transport: o.transport,
		clientOptions: []newssearch.Option{
			newssearch.WithRetryWait(time.Millisecond, 5*time.Millisecond),
			&newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, Jitter: -1},
		},
		afterWindow: o.afterWindow,
		cacheDir:    func() (string, error) { return o.cacheDir, nil },
	}
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	code := run(ctx, e, args)
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// golden compares a run with testdata/golden/name.golden (or writes it with
// -update).
func golden(t *testing.T, name string, args []string, r result) {
	t.Helper()
	var b strings.Builder
	b.WriteString("$ newssearch " + strings.Join(quoteArgs(args), " ") + "\n")
	b.WriteString("exit: " + strconv.Itoa(r.code) + "\n")
	b.WriteString("--- stdout\n" + r.stdout)
	if r.stdout != "" && !strings.HasSuffix(r.stdout, "\n") {
		b.WriteString("\n[no newline at end]\n")
	}
	b.WriteString("--- stderr\n" + r.stderr)
	got := b.String()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run go test ./cmd/newssearch -run %s -update to create it", err, t.Name())
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs from %s (-want +got):\n%s\n(run with -update if the change is intended)", t.Name(), path, diff)
	}
}

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " '\"()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return out
}
