package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/api"
	"github.com/newssearch/newssearch-go/mockserver"
)

const testKey = "newsmock-test-key-7f3a"

// runMainEnv, set to 1 in a process's environment, makes this test binary
// run newsmock's main instead of the tests. The process tests run the
// program that way rather than compiling it again with go build: on a
// fresh machine that second build of the command took over a minute of the
// package's test time on two cores.
// Its name does not start with NEWSMOCK_, which newsmock would take for a
// flag's variable.
const runMainEnv = "GO_TEST_RUN_NEWSMOCK_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// newsmockCommand returns a command running newsmock (this test binary, as
// main) with args.
func newsmockCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	if testing.Short() {
		t.Skip("runs newsmock as a process; skipped with -short")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("finding this test binary to run as newsmock: %v", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	return cmd
}

// syncBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runCmd runs the command to its end, as for flags that make it exit at once.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(t.Context(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// running is an in-process newsmock serving in the background.
type running struct {
	url    string
	stderr *syncBuffer
	stop   context.CancelFunc
	done   chan struct{}
	exit   int
}

// start runs newsmock with args and returns once it has printed its URL.
// The test's cleanup stops it.
func start(t *testing.T, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	r := &running{stderr: new(syncBuffer), stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.exit = run(ctx, args, pw, r.stderr)
		pw.Close()
	}()
	t.Cleanup(func() { r.wait() })
	line, err := bufio.NewReader(pr).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if err != nil {
		t.Fatalf("newsmock printed no URL (%v); exit code %d; stderr:\n%s", err, r.wait(), r.stderr)
	}
	var ok bool
	r.url, ok = strings.CutPrefix(strings.TrimSuffix(line, "\n"), listenPrefix)
	if !ok || !strings.HasPrefix(r.url, "http://127.0.0.1:") {
		t.Fatalf("newsmock printed %q, want %q followed by a loopback URL", line, listenPrefix)
	}
	return r
}

// wait stops the server as a signal would and returns its exit code.
func (r *running) wait() int {
	r.stop()
	<-r.done
	return r.exit
}

func TestFlagErrors(t *testing.T) {
	t.Parallel()
	const hint = "\nRun newsmock -h to list the flags.\n"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-nope"}, "newsmock: flag provided but not defined: -nope"},
		{[]string{"serve"}, `newsmock: unexpected argument "serve": newsmock takes only flags (and the command health first)`},
		{[]string{"-addr", "8080"}, `newsmock: invalid value "8080" for flag -addr: want host:port, e.g. 127.0.0.1:8080, or 127.0.0.1:0 for a free port`},
		{[]string{"-addr", "127.0.0.1:http"}, `newsmock: invalid value "127.0.0.1:http" for flag -addr: want host:port, e.g. 127.0.0.1:8080, or 127.0.0.1:0 for a free port`},
		{[]string{"-pending", "5"}, `newsmock: invalid value "5" for flag -pending: not a duration: write a number with a unit, e.g. 500ms, 2s or 1m`},
		{[]string{"-pending", "-1s"}, `newsmock: invalid value "-1s" for flag -pending: must be at least 0s`},
		{[]string{"-job-ttl", "0s"}, `newsmock: invalid value "0s" for flag -job-ttl: must be at least 1ms`},
		{[]string{"-pending-polls", "two"}, `newsmock: invalid value "two" for flag -pending-polls: not a whole number: write e.g. 2`},
		{[]string{"-max-jobs", "0"}, `newsmock: invalid value "0" for flag -max-jobs: must be 1 or more`},
		{[]string{"-journal-size", "-5"}, `newsmock: invalid value "-5" for flag -journal-size: must be 0 or more`},
		{[]string{"-headline-clusters", "0"}, `newsmock: invalid value "0" for flag -headline-clusters: must be 1 or more`},
		{[]string{"-seed", "-1"}, `newsmock: invalid value "-1" for flag -seed: not a whole number from 0 to 18446744073709551615: write e.g. 42`},
		{[]string{"-rate-limit", "fast"}, `newsmock: invalid value "fast" for flag -rate-limit: not a rate: write requests per second as a number of 0 or more, e.g. 10 or 0.5 (0 means no limit)`},
		{[]string{"-rate-limit", "-2"}, `newsmock: invalid value "-2" for flag -rate-limit: not a rate: write requests per second as a number of 0 or more, e.g. 10 or 0.5 (0 means no limit)`},
		{[]string{"-burst", "5"}, "newsmock: -burst needs -rate-limit: set -rate-limit too, or drop -burst"},
		{[]string{"-log-level", "loud"}, `newsmock: invalid value "loud" for flag -log-level: unknown level: use debug, info, warn, error or off`},
		{[]string{"-drain-timeout", "soon"}, `newsmock: invalid value "soon" for flag -drain-timeout: not a duration: write a number with a unit, e.g. 500ms, 2s or 1m`},
		{[]string{"-fault", "endpoint=search;status=503"}, `newsmock: invalid value "endpoint=search;status=503" for flag -fault: ` + faultRuleError("endpoint=search;status=503")},
		{[]string{"-fault", "status=503;every=x"}, `newsmock: invalid value "status=503;every=x" for flag -fault: ` + faultRuleError("status=503;every=x")},
		{[]string{"-fault", "window=fortnight"}, `newsmock: invalid value "window=fortnight" for flag -fault: ` + faultRuleError("window=fortnight")},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCmd(t, tt.args...)
			if diff := cmp.Diff([3]any{exitUsage, "", tt.want + hint}, [3]any{code, stdout, stderr}); diff != "" {
				t.Errorf("exit code, stdout, stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// faultRuleError is the error ParseFaultRule gives for s.
func faultRuleError(s string) string {
	_, err := mockserver.ParseFaultRule(s)
	if err == nil {
		panic(fmt.Sprintf("ParseFaultRule(%q) accepted it", s))
	}
	return err.Error()
}

func TestKeysNeverPrinted(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCmd(t, "-keys", testKey+", ,other")
	want := "newsmock: -keys: key 2 of 3 is blank: give non-empty keys separated by commas, e.g. -keys key1,key2\n" +
		"Run newsmock -h to list the flags.\n"
	if diff := cmp.Diff([3]any{exitUsage, "", want}, [3]any{code, stdout, stderr}); diff != "" {
		t.Errorf("exit code, stdout, stderr (-want +got):\n%s", diff)
	}
}

func TestBadCorpusFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "corpus.jsonl")
	good := `{"_id": "5f1c0a9e3b2d4c6e8f7a1b2c", "title": "Harbour reopens", "url": "https://example.com/a", ` +
		`"site": "example.com", "datePublished": "2025-03-04"}`
	bad := `{"_id": "5f1c0a9e3b2d4c6e8f7a1b2d", "title": "No site"}`
	if err := os.WriteFile(path, []byte(good+"\n"+bad+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, loadErr := mockserver.LoadCorpusFile(path)
	if loadErr == nil || !strings.Contains(loadErr.Error(), "line 2") {
		t.Fatalf("LoadCorpusFile = %v, want an error naming line 2", loadErr)
	}
	code, stdout, stderr := runCmd(t, "-addr", "127.0.0.1:0", "-corpus", path)
	want := "newsmock: -corpus: " + loadErr.Error() + "\n"
	if diff := cmp.Diff([3]any{exitError, "", want}, [3]any{code, stdout, stderr}); diff != "" {
		t.Errorf("exit code, stdout, stderr (-want +got):\n%s", diff)
	}
}

func TestMissingCorpusFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "missing.jsonl")
	code, stdout, stderr := runCmd(t, "-corpus", path)
	want := "newsmock: -corpus: mockserver: LoadCorpusFile: open " + path +
		": no such file or directory; pass the path of a readable JSON Lines file\n"
	if diff := cmp.Diff([3]any{exitError, "", want}, [3]any{code, stdout, stderr}); diff != "" {
		t.Errorf("exit code, stdout, stderr (-want +got):\n%s", diff)
	}
}

func TestAddressInUse(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-log-level", "off")
	addr := strings.TrimPrefix(r.url, "http://")
	code, stdout, stderr := runCmd(t, "-addr", addr, "-log-level", "off")
	if code != exitError || stdout != "" ||
		!strings.HasPrefix(stderr, "newsmock: cannot listen on "+addr+": ") ||
		!strings.HasSuffix(stderr, "; pass a free address to -addr, e.g. 127.0.0.1:0 for any free port\n") {
		t.Errorf("exit code %d, stdout %q, stderr %q; want %d, nothing, and a message naming the address and the fix",
			code, stdout, stderr, exitError)
	}
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCmd(t, "-h")
	if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "Usage: newsmock [flags]\n") {
		t.Errorf("-h: exit code %d, stderr %q, stdout %q; want 0, nothing, and the usage", code, stderr, stdout)
	}
	for _, name := range []string{"addr", "allow-remote", "allow-host", "url-file", "keys", "corpus", "pending", "pending-polls", "seed", "rate-limit",
		"burst", "fault", "no-date-shift", "job-ttl", "max-jobs", "journal-size", "headline-clusters",
		"headline-articles", "log-level", "drain-timeout", "version"} {
		if !strings.Contains(stdout, "\n  -"+name+" ") && !strings.Contains(stdout, "\n  -"+name+"\n") {
			t.Errorf("-h does not list -%s", name)
		}
	}
	code, stdout, stderr = runCmd(t, "-version")
	if want := "newsmock " + newssearch.Version + " ("; code != exitOK || stderr != "" || !strings.HasPrefix(stdout, want) {
		t.Errorf("-version: exit code %d, stderr %q, stdout %q; want 0, nothing, and %q...", code, stderr, stdout, want)
	}
}

func TestServerLimits(t *testing.T) {
	t.Parallel()
	hs := newHTTPServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler))
	got := map[string]time.Duration{
		"ReadHeaderTimeout": hs.ReadHeaderTimeout, "ReadTimeout": hs.ReadTimeout, "IdleTimeout": hs.IdleTimeout,
	}
	for name, d := range got {
		if d <= 0 {
			t.Errorf("%s = %v, want a limit", name, d)
		}
	}
	if hs.WriteTimeout < mockserver.MaxFaultLatency+10*time.Second {
		t.Errorf("WriteTimeout = %v, want room for the longest latency fault (%v) and for sending the answer after it",
			hs.WriteTimeout, mockserver.MaxFaultLatency)
	}
	if hs.MaxHeaderBytes <= 0 || hs.MaxHeaderBytes > 1<<20 {
		t.Errorf("MaxHeaderBytes = %d, want a limit below the default 1 MiB", hs.MaxHeaderBytes)
	}
	if _, err := mockserver.ParseFault(fmt.Sprintf("latency=%v", mockserver.MaxFaultLatency)); err != nil {
		t.Errorf("mockserver.MaxFaultLatency %v is not the mock's limit: %v", mockserver.MaxFaultLatency, err)
	}
	if _, err := mockserver.ParseFault(fmt.Sprintf("latency=%v", mockserver.MaxFaultLatency+time.Millisecond)); err == nil {
		t.Errorf("the mock accepts latency faults beyond mockserver.MaxFaultLatency %v: raise it", mockserver.MaxFaultLatency)
	}
}

func TestServe(t *testing.T) {
	t.Parallel()
	urlFile := filepath.Join(t.TempDir(), "url")
	r := start(t, "-addr", "127.0.0.1:0", "-keys", testKey+",second-key", "-url-file", urlFile, "-seed", "7")
	ctx := t.Context()

	if b, err := os.ReadFile(urlFile); err != nil || string(b) != r.url+"\n" {
		t.Errorf("-url-file holds %q (%v), want %q", b, err, r.url+"\n")
	}

	c := newClient(t, r.url, testKey, nil)
	res, err := c.Search(ctx, newssearch.SearchParams{Query: "earthquake"})
	if err != nil || len(res.Articles) != newssearch.PageSize {
		t.Fatalf("Search = %v, %v; want a full page", res, err)
	}
	_, err = newClient(t, r.url, "unknown-key", nil).Headlines(ctx)
	if !errors.Is(err, newssearch.ErrUnauthorized) {
		t.Errorf("Headlines with an unknown key: %v, want ErrUnauthorized", err)
	}

	resp := do(t, http.MethodGet, r.url+mockserver.OpenAPIPath, nil, nil)
	if diff := cmp.Diff([]any{200, "application/yaml", string(api.OpenAPI)},
		[]any{resp.StatusCode, resp.Header.Get("Content-Type"), resp.body}); diff != "" {
		t.Errorf("GET %s (-want +got):\n%s", mockserver.OpenAPIPath, diff)
	}
	resp = do(t, http.MethodHead, r.url+mockserver.OpenAPIPath, nil, nil)
	if diff := cmp.Diff([]any{200, int64(len(api.OpenAPI)), ""},
		[]any{resp.StatusCode, resp.ContentLength, resp.body}); diff != "" {
		t.Errorf("HEAD %s (-want +got):\n%s", mockserver.OpenAPIPath, diff)
	}
	resp = do(t, http.MethodPost, r.url+mockserver.OpenAPIPath, nil, nil)
	if diff := cmp.Diff([]any{405, "GET, HEAD", `{"state":"FAILED","message":"/openapi.yaml does not accept POST: fetch it with GET"}`},
		[]any{resp.StatusCode, resp.Header.Get("Allow"), resp.body}); diff != "" {
		t.Errorf("POST %s (-want +got):\n%s", mockserver.OpenAPIPath, diff)
	}
	resp = do(t, http.MethodGet, r.url+"/_mock/health", nil, nil)
	if resp.StatusCode != 200 || !strings.Contains(resp.body, `"articles":`) {
		t.Errorf("GET /_mock/health = %d %s, want 200 with the article count", resp.StatusCode, resp.body)
	}

	// A truncate fault: the client must get half a body, then a cut
	// connection.
	body := `{"api_key": "` + testKey + `"}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url+"/api/v2/headlines", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(mockserver.FaultHeader, "truncate")
	tr, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(tr.Body)
	tr.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("reading a truncated answer: %v, want io.ErrUnexpectedEOF", err)
	}

	if code := r.wait(); code != exitOK {
		t.Errorf("exit code %d after the stop, want 0; stderr:\n%s", code, r.stderr)
	}
	if _, err := os.Stat(urlFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("-url-file still exists after the stop (%v), want it removed", err)
	}
	logs := r.stderr.String()
	for _, want := range []string{`msg="newsmock: serving"`, `keys="2 accepted"`, `path=/api/v2/query status=200`,
		`msg="newsmock: shutting down; waiting for requests in flight"`, `msg="newsmock: stopped"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %s:\n%s", want, logs)
		}
	}
	if !regexp.MustCompile(`msg="newsmock: serving" .*corpus="(mapped from |built)`).MatchString(logs) {
		t.Errorf("the serving line does not say where the corpus came from:\n%s", logs)
	}
	if strings.Contains(logs, testKey) || strings.Contains(logs, "second-key") {
		t.Errorf("the log shows an API key:\n%s", logs)
	}
}

// A request whose body is still on its way when the drain timeout passes
// is cut off, and the exit code says so.
func TestDrainTimeoutCutsRequests(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-drain-timeout", "0s", "-log-level", "off")
	c, br := slowBody(t, r.url)
	code := r.wait()
	want := "newsmock: requests still running after -drain-timeout 0s were cut off; raise -drain-timeout to let them finish\n"
	if diff := cmp.Diff([2]any{exitError, want}, [2]any{code, r.stderr.String()}); diff != "" {
		t.Errorf("exit code and stderr (-want +got):\n%s", diff)
	}
	if resp, err := http.ReadResponse(br, nil); err == nil {
		t.Errorf("the request cut off by the drain timeout got an answer: %s", resp.Status)
	}
	c.Close()
}

// slowBody sends a query whose body never comes in full, and returns once
// the server's handler is reading it (it asked for the body with "100
// Continue").
func slowBody(t *testing.T, url string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a missing answer fails the test, not hangs it
	if _, err := io.WriteString(c, "POST /api/v2/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != http.StatusContinue {
		t.Fatalf("a request with Expect: 100-continue got %v, %v; want 100 Continue", resp, err)
	}
	if _, err := io.WriteString(c, `{"api_key": "k"`); err != nil {
		t.Fatal(err)
	}
	return c, br
}

// newClient returns an SDK client of the server at url, with no retries
// and, when rt is not nil, that transport.
func newClient(t *testing.T, url, key string, rt http.RoundTripper) *newssearch.Client {
	t.Helper()
	c, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithBaseURL(url),
		newssearch.WithAPIKey(key), newssearch.WithMaxRetries(0), newssearch.WithHTTPClient(&http.Client{Transport: rt}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// response is an HTTP response with its body read.
type response struct {
	*http.Response
	body string
}

// do sends one request and reads the answer.
func do(t *testing.T, method, url string, body io.Reader, header http.Header) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return response{resp, string(b)}
}

// inFlight sends a headlines request through the SDK with the fault header
// set to fault. started is closed once the server's handler is running:
// the request asks "Expect: 100-continue", and the server sends its 100
// only when the handler starts reading the body. result gets the outcome.
func inFlight(t *testing.T, url, key, fault string) (started <-chan struct{}, result <-chan error) {
	t.Helper()
	s, res := make(chan struct{}), make(chan error, 1)
	var once sync.Once
	trace := &httptrace.ClientTrace{Got100Continue: func() { once.Do(func() { close(s) }) }}
	ctx := httptrace.WithClientTrace(t.Context(), trace)
	rt := headerTransport{
		base:   &http.Transport{ExpectContinueTimeout: time.Hour}, // the body waits for the 100
		header: http.Header{mockserver.FaultHeader: {fault}, "Expect": {"100-continue"}},
	}
	c := newClient(t, url, key, rt)
	go func() {
		_, err := c.Headlines(ctx)
		res <- err
		once.Do(func() { close(s) }) // a request that failed before the handler ran
		rt.base.CloseIdleConnections()
	}()
	return s, res
}

// headerTransport adds header to every request.
type headerTransport struct {
	base   *http.Transport
	header http.Header
}

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h.header {
		req.Header[k] = v
	}
	return h.base.RoundTrip(req)
}

// TestMessyFaultFlags: the data and timing items as -fault rules.
func TestMessyFaultFlags(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-keys", testKey, "-fault", "endpoint=query;times=1;empty-page=2",
		"-fault", "endpoint=query;overlap=2;latency=1ms..3ms;dribble=10ms")
	page := func(n int) (total int, ids []string) {
		resp := do(t, http.MethodPost, r.url+"/api/v2/query", strings.NewReader(fmt.Sprintf(`{"api_key": %q, "query": "election", "page": %d}`, testKey, n)), nil)
		var v struct {
			Results struct {
				TotalResults int
				Articles     []struct {
					ID string `json:"_id"`
				}
			}
		}
		if err := json.Unmarshal([]byte(resp.body), &v); err != nil || resp.StatusCode != 200 {
			t.Fatalf("page %d: %d %s", n, resp.StatusCode, resp.body)
		}
		for _, a := range v.Results.Articles {
			ids = append(ids, a.ID)
		}
		return v.Results.TotalResults, ids
	}
	total, first := page(1)
	if emptied, ids := page(2); emptied != total || len(ids) != 0 {
		t.Errorf("page 2 under empty-page=2: %d articles of %d, want none of %d", len(ids), emptied, total)
	}
	if _, ids := page(2); len(ids) != newssearch.PageSize+2 || !slices.Equal(ids[:2], first[newssearch.PageSize-2:]) {
		t.Errorf("page 2 under overlap=2 starts %v, want page 1's last two %v", ids[:min(2, len(ids))], first[newssearch.PageSize-2:])
	}
	resp := do(t, http.MethodGet, r.url+"/_mock/faults", nil, nil)
	for _, want := range []string{`"text":"endpoint=query;times=1;empty-page=2"`, `"text":"endpoint=query;latency=1ms..3ms;overlap=2;dribble=10ms"`} {
		if !strings.Contains(resp.body, want) {
			t.Errorf("GET /_mock/faults lacks %s: %s", want, resp.body)
		}
	}
}
