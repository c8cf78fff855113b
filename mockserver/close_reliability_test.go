package mockserver_test

import (
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/mockserver"
	"go.uber.org/goleak"
)

// headerLimit is the header size New's socket accepts (MaxHeaderBytes, 64
// KiB; net/http allows 4 KiB more before it answers 431).
const headerLimit = 64 << 10

// TestLimitsOverSocket checks the limits a client meets on the socket New
// opens: a body over 1 MiB is a 413 with the usual failure body; headers
// just under 64 KiB reach the mock, and headers over it are refused (431,
// with net/http's plain-text body) before the mock sees them.
func TestLimitsOverSocket(t *testing.T) {
	t.Parallel()
	srv := mockserver.New()
	defer srv.Close()
	body := `{"api_key":"k","query":"x","padding":"` + strings.Repeat("p", mockserver.MaxBodyBytes) + `"}`
	resp, err := srv.HTTPClient().Post(srv.URL()+"/api/v2/query", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"state":"FAILED","message":"the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"}`
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(got) != want {
		t.Errorf("oversized body: HTTP %d %s, want 413 %s", resp.StatusCode, got, want)
	}

	for _, tc := range []struct {
		padding    int
		wantStatus int
		wantType   string
	}{
		{headerLimit - 1<<10, http.StatusUnauthorized, "application/json"}, // reaches the mock, which wants a key
		{2 * headerLimit, http.StatusRequestHeaderFieldsTooLarge, "text/plain; charset=utf-8"},
	} {
		req, err := http.NewRequest(http.MethodPost, srv.URL()+"/api/v2/headlines", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Padding", strings.Repeat("h", tc.padding))
		resp, err := srv.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.wantStatus || resp.Header.Get("Content-Type") != tc.wantType {
			t.Errorf("%d bytes of headers: HTTP %d %s, want %d %s", tc.padding, resp.StatusCode,
				resp.Header.Get("Content-Type"), tc.wantStatus, tc.wantType)
		}
	}
}

// TestCloseAfter413LeavesNoGoroutine: Close must not return while a
// connection goroutine of the server is still running. After a 413,
// net/http's connection goroutine sleeps 500 ms (closeWriteAndWait) before
// it ends; Close waits for it, so that goleak.VerifyNone and VerifyTestMain
// in users' tests do not see it. Not parallel: it counts goroutines.
func TestCloseAfter413LeavesNoGoroutine(t *testing.T) {
	checkCloseLeavesNoGoroutine(t, 0, mockserver.MaxBodyBytes, http.StatusRequestEntityTooLarge)
}

// TestCloseAfter431LeavesNoGoroutine is TestCloseAfter413LeavesNoGoroutine
// for headers over the limit, which net/http refuses before the mock sees
// the request.
func TestCloseAfter431LeavesNoGoroutine(t *testing.T) {
	checkCloseLeavesNoGoroutine(t, 2*headerLimit, 0, http.StatusRequestHeaderFieldsTooLarge)
}

// checkCloseLeavesNoGoroutine sends a request with header and body bytes
// of padding, expects wantStatus, closes the server and checks that no
// goroutine is left: none in closeWriteAndWait right after Close, and none
// at all (goleak, which retries for a while) at the end.
func checkCloseLeavesNoGoroutine(t *testing.T, header, body, wantStatus int) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	srv := mockserver.New()
	req, err := http.NewRequest(http.MethodPost, srv.URL()+"/api/v2/query",
		strings.NewReader(`{"api_key":"k","padding":"`+strings.Repeat("p", body)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	if header > 0 {
		req.Header.Set("X-Padding", strings.Repeat("h", header))
	}
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != wantStatus {
		t.Errorf("HTTP %d, want %d", resp.StatusCode, wantStatus)
	}
	srv.Close()
	if stack := lingeringConns(); stack != "" {
		t.Errorf("Close returned while a connection goroutine lingers:\n%s", stack)
	}
}

// lingeringConns returns the stacks of the goroutines that sit in
// net/http's closeWriteAndWait, or "" when there are none.
func lingeringConns() string {
	buf := make([]byte, 8<<20)
	var found []string
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "net/http.(*conn).closeWriteAndWait") {
			found = append(found, g)
		}
	}
	return strings.Join(found, "\n\n")
}
