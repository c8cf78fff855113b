package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver"
)

// TestRemoteAddrNeedsFlag: an -addr beyond this machine is refused before
// anything listens, whatever -log-level, with a message naming
// -allow-remote; with it newsmock serves, warns, and still checks Host.
func TestRemoteAddrNeedsFlag(t *testing.T) {
	t.Parallel()
	const fix = ", where anyone who can reach the port could change the mock (faults, jobs, clock, articles) through /_mock/: " +
		"listen on a loopback address such as 127.0.0.1:8080 (the default), or add -allow-remote if other machines must reach it " +
		"(in a container, for example)\nRun newsmock -h to list the flags.\n"
	for _, tc := range []struct{ addr, where string }{
		{"0.0.0.0:8080", "every network interface"},
		{":8080", "every network interface"},
		{"[::]:0", "every network interface"},
		{"192.0.2.7:8080", "an address other machines can reach"},
	} {
		code, stdout, stderr := runCmd(t, "-addr", tc.addr, "-log-level", "off")
		want := "newsmock: -addr " + tc.addr + " listens on " + tc.where + fix
		if diff := cmp.Diff([3]any{exitUsage, "", want}, [3]any{code, stdout, stderr}); diff != "" {
			t.Errorf("-addr %s: exit code, stdout, stderr (-want +got):\n%s", tc.addr, diff)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		r := start(t, "-addr", addr, "-log-level", "warn")
		if got := httpGet(t, r.url+"/_mock/health", "").StatusCode; got != http.StatusOK {
			t.Errorf("-addr %s: GET /_mock/health %d", addr, got)
		}
		if strings.Contains(r.stderr.String(), "beyond this machine") {
			t.Errorf("-addr %s warns of listening beyond this machine:\n%s", addr, r.stderr)
		}
	}

	r := start(t, "-addr", "0.0.0.0:0", "-allow-remote", "-log-level", "warn")
	if got := httpGet(t, r.url+"/_mock/health", "").StatusCode; got != http.StatusOK {
		t.Errorf("-addr 0.0.0.0:0 -allow-remote: GET /_mock/health %d", got)
	}
	if want := "newsmock: listening beyond this machine (-allow-remote): anyone who can reach the port can use the mock and change it through /_mock/"; !strings.Contains(r.stderr.String(), want) {
		t.Errorf("-allow-remote: the log does not warn %q:\n%s", want, r.stderr)
	}
	if resp := httpGet(t, r.url+"/_mock/health", "rebound.example"); resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("-allow-remote, Host rebound.example: %d %s, want 421", resp.StatusCode, resp.body)
	}
}

// httpGet sends a GET, with host as its Host header unless "".
func httpGet(t *testing.T, url, host string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp, string(b)}
}

// TestAllowHostFlag: -allow-host adds names to those Host may carry; any
// other name is a 421 whose message names the flag, and the refusal is
// logged. Bad values are refused saying why.
func TestAllowHostFlag(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-allow-host", "mock.internal", "-allow-host", "*.example.test,Other.Test")
	port := r.url[strings.LastIndexByte(r.url, ':')+1:]
	for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "mock.internal:" + port, "a.example.test", "other.test", "app.localhost"} {
		if resp := httpGet(t, r.url+"/_mock/health", host); resp.StatusCode != http.StatusOK {
			t.Errorf("Host %s: %d %s, want 200", host, resp.StatusCode, resp.body)
		}
	}
	resp := httpGet(t, r.url+"/_mock/health", "attacker.example:"+port)
	want := `{"state":"FAILED","message":"the Host header \"attacker.example:` + port + `\" is not a name this mock answers to: ` +
		`it answers to localhost, *.localhost, IP addresses and the names given to newsmock -allow-host (mockserver.WithAllowedHosts in Go), ` +
		`so that a web page whose domain is made to resolve to this machine (DNS rebinding) cannot reach it; if you reach the mock by this ` +
		`name on purpose, start newsmock with -allow-host attacker.example"}`
	if resp.StatusCode != http.StatusMisdirectedRequest || resp.body != want {
		t.Errorf("Host attacker.example: %d %s\nwant 421 %s", resp.StatusCode, resp.body, want)
	}
	if log := r.stderr.String(); !strings.Contains(log, `msg="mockserver: refused a request" reason="host not allowed" method=GET path=/_mock/health host=attacker.example:`+port) {
		t.Errorf("the refusal is not logged:\n%s", log)
	}

	for _, tc := range []struct{ value, want string }{
		{"mock.internal:8080", `"mock.internal:8080" has a port: give the name alone, e.g. mock.internal (every port is allowed)`},
		{"http://mock.internal", `"http://mock.internal" is a URL: give the host name alone, e.g. mock.internal`},
		{"a,,b", "a host name is blank: give names separated by commas, e.g. mock.internal,*.example.test"},
		{"*.*.test", `"*.*.test" is not a host name: give a name such as mock.internal, *.example.test for every name under it, or * for any`},
	} {
		code, stdout, stderr := runCmd(t, "-allow-host", tc.value)
		want := fmt.Sprintf("newsmock: invalid value %q for flag -allow-host: %s\nRun newsmock -h to list the flags.\n", tc.value, tc.want)
		if diff := cmp.Diff([3]any{exitUsage, "", want}, [3]any{code, stdout, stderr}); diff != "" {
			t.Errorf("-allow-host %s (-want +got):\n%s", tc.value, diff)
		}
	}
}

// TestPagesCannotControlNewsmock: through newsmock's own server, what a
// web page of another site can send changes nothing: a cross-site request
// is a 403, a control POST of a type a page can send is a 415, and the
// OPTIONS preflight grants nothing. A program's JSON POST works.
func TestPagesCannotControlNewsmock(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-log-level", "off")
	send := func(method, path, body string, header ...string) response {
		t.Helper()
		h := http.Header{}
		for i := 0; i+1 < len(header); i += 2 {
			h.Add(header[i], header[i+1])
		}
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		return do(t, method, r.url+path, rd, h)
	}
	failure := func(resp response) (int, string) {
		var m struct{ State, Message string }
		if err := json.Unmarshal([]byte(resp.body), &m); err != nil || m.State != "FAILED" {
			t.Errorf("%d %s: not a FAILED answer", resp.StatusCode, resp.body)
		}
		return resp.StatusCode, m.Message
	}
	status, msg := failure(send(http.MethodPost, "/_mock/faults", "status=503", "Origin", "http://evil.example", "Content-Type", "text/plain"))
	if status != http.StatusForbidden || !strings.HasPrefix(msg, `the mock takes no request from a web page of another site (this one has Origin: "http://evil.example", not this server's "127.0.0.1:`) {
		t.Errorf("cross-site text/plain POST: %d %q", status, msg)
	}
	status, msg = failure(send(http.MethodPut, "/_mock/faults", `[]`, "Sec-Fetch-Site", "cross-site", "Content-Type", "application/json"))
	if status != http.StatusForbidden || !strings.Contains(msg, `(this one has Sec-Fetch-Site: "cross-site")`) {
		t.Errorf("cross-site PUT: %d %q", status, msg)
	}
	status, msg = failure(send(http.MethodPost, "/_mock/faults", "status=503", "Content-Type", "text/plain"))
	if want := `POST /_mock/faults needs Content-Type: application/json (this request has Content-Type "text/plain"): the mock takes control ` +
		`requests only in a form that a web page cannot send it, so that a page open in your browser cannot change it; with curl add ` +
		`-H 'Content-Type: application/json'; to send a rule in newsmock's -fault text syntax, send the header X-Newsmock-Control: 1 with it`; status != http.StatusUnsupportedMediaType || msg != want {
		t.Errorf("text/plain POST: %d %q\nwant 415 %q", status, msg, want)
	}
	pre := send(http.MethodOptions, "/_mock/faults", "", "Origin", "http://evil.example", "Access-Control-Request-Method", "PUT")
	for name := range pre.Header {
		if strings.HasPrefix(strings.ToLower(name), "access-control-") {
			t.Errorf("the preflight got %s: %q", name, pre.Header[name])
		}
	}
	if got := send(http.MethodGet, "/_mock/faults", "").body; got != `{"state":"SUCCESS","rules":[]}` {
		t.Errorf("after the refused requests: %s, want no rule", got)
	}
	if resp := send(http.MethodPost, "/_mock/faults", `{"endpoint": "query", "times": 1, "fault": {"status": 503}}`, "Content-Type", "application/json"); resp.StatusCode != http.StatusOK {
		t.Errorf("a program's JSON POST: %d %s", resp.StatusCode, resp.body)
	}
	if resp := send(http.MethodPost, "/_mock/faults", "endpoint=headlines;every=3;latency=1ms", mockserver.ControlHeader, "1", "Content-Type", "text/plain"); resp.StatusCode != http.StatusOK {
		t.Errorf("a program's text rule with %s: %d %s", mockserver.ControlHeader, resp.StatusCode, resp.body)
	}
}

// TestOversizedUploadRefusedAtOnce: newsmock answers a body announced
// over the limit with a 413 before the body is sent, and closes the
// connection.
func TestOversizedUploadRefusedAtOnce(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-log-level", "off")
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := "POST /_mock/articles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 314572800\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil { // a safety limit, not a measure
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to the header of a 300 MiB upload: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"state":"FAILED","message":"the articles are more than 268435456 bytes: send them in several POST /_mock/articles calls"}`
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(b) != want || !resp.Close {
		t.Errorf("%d %s (Connection: close %v)\nwant 413 %s with Connection: close", resp.StatusCode, b, resp.Close, want)
	}
	if _, err := br.ReadByte(); err == nil {
		t.Error("the connection stays open after the 413")
	}
}

// TestHelpCurlExamples runs the curl examples of -h against a newsmock:
// each control POST they show is accepted.
func TestHelpCurlExamples(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skipf("curl is not installed: %v", err)
	}
	_, help, _ := runCmd(t, "-h")
	examples := regexp.MustCompile(`(?m)^  (curl .*)$`).FindAllStringSubmatch(help, -1)
	if len(examples) < 3 {
		t.Fatalf("-h shows %d curl examples, want 3:\n%s", len(examples), help)
	}
	r := start(t, "-addr", "127.0.0.1:0", "-log-level", "off")
	for _, ex := range examples {
		cmd := strings.ReplaceAll(ex[1], "http://127.0.0.1:8080", r.url)
		out, err := exec.CommandContext(t.Context(), "bash", "-c", strings.Replace(cmd, "curl ", "curl -fsS ", 1)).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), `{"state":"SUCCESS"`) {
			t.Errorf("%s: %v\n%s", cmd, err, out)
		}
	}
}
