package main

import (
	"bufio"
	"errors"
	"flag"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
)

// TestEnvSetsFlags: NEWSMOCK_<FLAG> sets each flag the command line leaves
// out; the command line wins; an empty variable and the clients'
// NEWSMOCK_BINARY and NEWSMOCK_URL are left alone; NEWSMOCK_FAULT holds a
// rule a line.
func TestEnvSetsFlags(t *testing.T) {
	t.Parallel()
	env := []string{"HOME=/x", "NEWSMOCK_WORLD_PER_KEY=true", "NEWSMOCK_ADDR=127.0.0.1:9999", "NEWSMOCK_KEYS=k1,k2",
		"NEWSMOCK_CLOCK=manual=2026-01-15T12:00:00Z", "NEWSMOCK_FAULT=endpoint=query;every=3;status=503\n\nendpoint=headlines;latency=1s\n",
		"NEWSMOCK_PENDING=", "NEWSMOCK_BINARY=/opt/newsmock", "NEWSMOCK_URL=http://mock:8080", "NEWSMOCK_MAX_JOBS=7", "NEWSMOCK_LOG_LEVEL=warn"}
	cfg, _, err := parseFlags([]string{"-addr", "127.0.0.1:0", "-max-jobs", "9"}, env)
	if err != nil {
		t.Fatal(err)
	}
	got := []any{cfg.worldPerKey, cfg.addr, cfg.keys, cfg.clock.String(), len(cfg.faults), cfg.pending, cfg.maxJobs, cfg.logLevel.String()}
	want := []any{true, "127.0.0.1:0", "k1,k2", "manual=2026-01-15T12:00:00Z", 2, time.Duration(0), 9, "warn"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("world-per-key, addr, keys, clock, faults, pending, max-jobs, log-level (-want +got):\n%s", diff)
	}
}

// TestEnvHelp: -h says how the environment sets flags, and names the
// health command.
func TestEnvHelp(t *testing.T) {
	t.Parallel()
	_, stdout, _ := runCmd(t, "-h")
	for _, want := range []string{"newsmock health [flags]", "NEWSMOCK_<FLAG>", "A flag on the command line wins", "exit code 2",
		"The clients'\nvariables are left alone: NEWSMOCK_BINARY", "NEWSMOCK_URL (a mock already running that they use)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-h does not say %q", want)
		}
	}
}

// TestEnvEveryFlag: every flag, those added later included, has its
// variable: each flag's default, given through it, is taken.
func TestEnvEveryFlag(t *testing.T) {
	t.Parallel()
	n := 0
	newFlagSet(new(config)).VisitAll(func(f *flag.Flag) {
		if f.DefValue == "" {
			return
		}
		n++
		fs := newFlagSet(new(config))
		set, err := setFromEnv(fs, []string{envName(f.Name) + "=" + f.DefValue})
		if err != nil || set[f.Name] != envName(f.Name) || fs.Lookup(f.Name).Value.String() != f.DefValue {
			t.Errorf("%s=%s: %v, set %v", envName(f.Name), f.DefValue, err, set)
		}
	})
	if n < 10 {
		t.Errorf("only %d flags tried", n)
	}
}

// TestEnvErrors: a NEWSMOCK_ variable that names no flag, or a value its
// flag refuses, is an error naming the variable; a check across flags says
// which came from a variable; a key never shows.
func TestEnvErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ env, want string }{
		{"NEWSMOCK_WORLD_PER_KY=true", "unknown environment variable NEWSMOCK_WORLD_PER_KY: newsmock reads NEWSMOCK_<FLAG> for each of its flags " +
			"(upper case, '-' as '_', e.g. NEWSMOCK_WORLD_PER_KEY for -world-per-key); fix its name or unset it"},
		{"NEWSMOCK_URLS=http://mock:8080", "unknown environment variable NEWSMOCK_URLS: newsmock reads NEWSMOCK_<FLAG> for each of its flags " +
			"(upper case, '-' as '_', e.g. NEWSMOCK_WORLD_PER_KEY for -world-per-key); fix its name or unset it"},
		{"NEWSMOCK_PENDING=5", `invalid value "5" for environment variable NEWSMOCK_PENDING (flag -pending): not a duration: write a number with a unit, e.g. 500ms, 2s or 1m`},
		{"NEWSMOCK_ALLOW_REMOTE=yes", `invalid value "yes" for environment variable NEWSMOCK_ALLOW_REMOTE (flag -allow-remote): want true or false`},
		{"NEWSMOCK_FAULT=endpoint=search", `invalid value "endpoint=search" for environment variable NEWSMOCK_FAULT (flag -fault): ` + faultRuleError("endpoint=search")},
		{"NEWSMOCK_BURST=5", "-burst needs -rate-limit: set -rate-limit too, or drop -burst (-burst came from NEWSMOCK_BURST)"},
		{"NEWSMOCK_KEYS=" + testKey + ",,other", "-keys: key 2 of 3 is blank: give non-empty keys separated by commas, e.g. -keys key1,key2 (-keys came from NEWSMOCK_KEYS)"},
	}
	for _, tt := range tests {
		_, _, err := parseFlags(nil, []string{tt.env})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v\nwant %s", tt.env, err, tt.want)
		}
	}
	_, _, err := parseFlags([]string{"-addr", "0.0.0.0:8080"}, []string{"NEWSMOCK_ADDR=127.0.0.1:1"})
	if err == nil || !strings.HasPrefix(err.Error(), "-addr 0.0.0.0:8080 listens on every network interface") || strings.Contains(err.Error(), "came from") {
		t.Errorf("-addr beyond the machine, on the command line: %v; want the refusal, with no variable named", err)
	}
}

// TestEnvProcess: newsmock as a process, configured by its environment
// only, serves as configured (the clients' NEWSMOCK_URL and NEWSMOCK_BINARY
// in its environment too), and its health command finds it by
// NEWSMOCK_ADDR; a misspelt variable stops it with exit code 2 and says so.
func TestEnvProcess(t *testing.T) {
	t.Parallel()
	cmd := newsmockCommand(t)
	cmd.Env = append(cmd.Env, "NEWSMOCK_ADDR=127.0.0.1:0", "NEWSMOCK_KEYS="+testKey, "NEWSMOCK_LOG_LEVEL=off",
		"NEWSMOCK_URL=http://127.0.0.1:1", "NEWSMOCK_BINARY=/nowhere/newsmock")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	m := regexp.MustCompile(`^newsmock listening on (http://127\.0\.0\.1:([0-9]+))\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line %q, want the listening line", line)
	}
	ctx := t.Context()
	if _, err := newClient(t, m[1], testKey, nil).Search(ctx, newssearch.SearchParams{Query: "storm"}); err != nil {
		t.Errorf("search with NEWSMOCK_KEYS's key: %v", err)
	}
	if _, err := newClient(t, m[1], "another-key", nil).Search(ctx, newssearch.SearchParams{Query: "storm"}); !errors.Is(err, newssearch.ErrUnauthorized) {
		t.Errorf("search with a key NEWSMOCK_KEYS does not list: %v, want ErrUnauthorized", err)
	}

	health := newsmockCommand(t, "health")
	health.Env = append(health.Env, "NEWSMOCK_ADDR=127.0.0.1:"+m[2])
	out, err := health.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "answered 200") {
		t.Errorf("newsmock health with NEWSMOCK_ADDR: %v\n%s", err, out)
	}

	bad := newsmockCommand(t, "-addr", "127.0.0.1:0")
	bad.Env = append(bad.Env, "NEWSMOCK_WORLD_PR_KEY=true")
	badErr := new(syncBuffer)
	bad.Stderr = badErr
	if err := bad.Start(); err != nil {
		t.Fatal(err)
	}
	stop := time.AfterFunc(time.Minute, func() { _ = bad.Process.Kill() }) // it served instead: fail, not hang
	err = bad.Wait()
	stop.Stop()
	var exit *exec.ExitError
	out = []byte(badErr.String())
	if !errors.As(err, &exit) || exit.ExitCode() != exitUsage || !strings.HasPrefix(string(out), "newsmock: unknown environment variable NEWSMOCK_WORLD_PR_KEY: ") {
		t.Errorf("with NEWSMOCK_WORLD_PR_KEY: %v\n%s\nwant exit code %d and the variable named", err, out, exitUsage)
	}
}

// TestHealth: newsmock health exits 0 when the server on -addr answers
// 200, 1 when it answers otherwise or not at all, 2 with port 0; an
// address on every interface is asked on the loopback.
func TestHealth(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-log-level", "off")
	port := r.url[strings.LastIndex(r.url, ":")+1:]
	for _, args := range [][]string{{"-addr", "127.0.0.1:" + port}, {"-addr", "0.0.0.0:" + port, "-allow-remote"}} {
		code, stdout, stderr := runCmd(t, append([]string{"health"}, args...)...)
		if code != exitOK || !strings.HasPrefix(stdout, "newsmock health: http://127.0.0.1:"+port+"/_mock/health answered 200: {") || stderr != "" {
			t.Errorf("health %v: exit code %d, stdout %q, stderr %q; want 0 and the answer", args, code, stdout, stderr)
		}
	}

	sick := http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "not yet", http.StatusServiceUnavailable) })}
	ln := listen(t)
	go func() { _ = sick.Serve(ln) }()
	t.Cleanup(func() { _ = sick.Close() })
	code, _, stderr := runCmd(t, "health", "-addr", ln.Addr().String())
	if want := "newsmock health: http://" + ln.Addr().String() + "/_mock/health answered 503 Service Unavailable: not yet\n\n"; code != exitError || stderr != want {
		t.Errorf("health of a server answering 503: exit code %d, stderr %q; want %d, %q", code, stderr, exitError, want)
	}

	closed := listen(t)
	closed.Close()
	code, _, stderr = runCmd(t, "health", "-addr", closed.Addr().String())
	if code != exitError || !strings.HasPrefix(stderr, "newsmock health: no answer from http://"+closed.Addr().String()+"/_mock/health: ") {
		t.Errorf("health of a closed port: exit code %d, stderr %q; want %d and no answer", code, stderr, exitError)
	}

	code, _, stderr = runCmd(t, "health", "-addr", "127.0.0.1:0")
	if code != exitUsage || !strings.Contains(stderr, "port 0") {
		t.Errorf("health -addr 127.0.0.1:0: exit code %d, stderr %q; want %d and a word on port 0", code, stderr, exitUsage)
	}
}

// listen listens on a free loopback port; the test's cleanup closes it.
func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}
