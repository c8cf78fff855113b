package main

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A request waiting out an injected latency when newsmock is stopped gets
// its answer at once, instead of holding the stop for the rest of the
// delay (or being cut off by -drain-timeout).
func TestStopEndsInjectedLatency(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-keys", testKey, "-log-level", "info")
	started, result := inFlight(t, r.url, testKey, "latency=5m")
	<-started
	if code := r.wait(); code != exitOK {
		t.Errorf("exit code %d, want 0: the 5 minutes of latency were waited out past -drain-timeout; stderr:\n%s", code, r.stderr)
	}
	if err := <-result; err != nil {
		t.Errorf("the request in its latency at the stop: %v, want its answer", err)
	}
	if logs := r.stderr.String(); !strings.Contains(logs, `path=/api/v2/headlines status=200`) {
		t.Errorf("the log has no 200 for the request in its latency:\n%s", logs)
	}
}

// Connections that are idle, or open but with nothing sent yet (as Node's
// fetch leaves one when a request is aborted), are closed at once at the
// stop: net/http's Shutdown leaves the latter alone for 5 seconds, which
// here is past the drain timeout.
func TestStopClosesIdleAndFreshConnections(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-drain-timeout", "3s", "-log-level", "off")
	client := &http.Client{Transport: &http.Transport{}}
	resp, err := client.Post(r.url+"/api/v2/headlines", "application/json", strings.NewReader(`{"api_key": "k"}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close() // the connection goes back to the pool, idle
	fresh, err := net.Dial("tcp", strings.TrimPrefix(r.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	// The server has accepted it once it answers a request on another
	// connection made after it: the listener's queue is in order.
	resp, err = http.Post(r.url+"/api/v2/headlines", "application/json", strings.NewReader(`{"api_key": "k"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	if code := r.wait(); code != exitOK {
		t.Errorf("exit code %d, want 0: a connection held the shutdown past -drain-timeout 3s; stderr:\n%s", code, r.stderr)
	}
	_ = fresh.SetReadDeadline(time.Now().Add(30 * time.Second))
	if n, err := fresh.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("reading the connection that sent nothing after the stop: %d bytes, %v; want io.EOF (closed by the server)", n, err)
	}
}

// Two newsmocks given the same -url-file: the file holds the URL of the
// last to start, and the first to stop leaves it to the other.
func TestURLFileSharedByTwo(t *testing.T) {
	t.Parallel()
	urlFile := filepath.Join(t.TempDir(), "url")
	read := func() string {
		b, err := os.ReadFile(urlFile)
		if err != nil {
			return err.Error()
		}
		return string(b)
	}
	a := start(t, "-addr", "127.0.0.1:0", "-url-file", urlFile, "-log-level", "off")
	if got := read(); got != a.url+"\n" {
		t.Fatalf("-url-file holds %q, want the first one's URL %q", got, a.url+"\n")
	}
	b := start(t, "-addr", "127.0.0.1:0", "-url-file", urlFile, "-log-level", "off")
	if got := read(); got != b.url+"\n" {
		t.Fatalf("-url-file holds %q, want the second one's URL %q", got, b.url+"\n")
	}
	if code := a.wait(); code != exitOK {
		t.Fatalf("the first one exited with %d; stderr:\n%s", code, a.stderr)
	}
	if got := read(); got != b.url+"\n" {
		t.Errorf("after the first one stopped, -url-file holds %q, want the second one's URL %q", got, b.url+"\n")
	}
	if code := b.wait(); code != exitOK {
		t.Fatalf("the second one exited with %d; stderr:\n%s", code, b.stderr)
	}
	if _, err := os.Stat(urlFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("-url-file is still there after both stopped (%v): %q", err, read())
	}
}
