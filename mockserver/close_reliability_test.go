package mockserver_test

import (
	"bytes"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"go.uber.org/goleak"
)

// awaitLingeringConns waits until no net/http server connection goroutine
// sleeps in closeWriteAndWait. It works around the bug
// TestCloseAfter413LeavesNoGoroutine shows, so that this package's
// goleak.VerifyTestMain does not report the goroutine.
func awaitLingeringConns() {
	buf := make([]byte, 8<<20)
	for {
		n := runtime.Stack(buf, true)
		if !bytes.Contains(buf[:n], []byte("net/http.(*conn).closeWriteAndWait")) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLimitsOverSocket checks the limits a client meets on the socket New
// opens: a body over 1 MiB is a 413 with the usual failure body, and
// headers over net/http's default 1 MiB are refused (431, with net/http's
// plain-text body) before the mock sees them.
func TestLimitsOverSocket(t *testing.T) {
	t.Parallel()
	srv := mockserver.New()
	defer awaitLingeringConns()
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

	req, err := http.NewRequest(http.MethodPost, srv.URL()+"/api/v2/headlines", strings.NewReader(`{"api_key":"k"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Padding", strings.Repeat("h", 2<<20))
	resp, err = srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("2 MiB of headers: HTTP %d, want 431", resp.StatusCode)
	}
}

// TestCloseAfter413LeavesNoGoroutine: Close must not return while a
// connection goroutine of the server is still running. After a 413,
// net/http's connection goroutine sleeps 500 ms (closeWriteAndWait) before
// it ends, and Close does not wait for it, so goleak.VerifyNone and
// VerifyTestMain in users' tests see it.
func TestCloseAfter413LeavesNoGoroutine(t *testing.T) {
	t.Skip("bug: Server.Close returns while net/http's connection goroutine still sleeps 500 ms after a 413, see report")
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	srv := mockserver.New()
	body := `{"api_key":"k","padding":"` + strings.Repeat("p", mockserver.MaxBodyBytes) + `"}`
	resp, err := srv.HTTPClient().Post(srv.URL()+"/api/v2/query", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("HTTP %d, want 413", resp.StatusCode)
	}
	srv.Close()
}
