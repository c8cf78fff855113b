package mockserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSocketLimits reads back the limits of the http.Server New starts: the
// same kind as cmd/newsmock's, with a write timeout that outlasts the
// longest latency fault.
func TestSocketLimits(t *testing.T) {
	t.Parallel()
	srv := New()
	defer srv.Close()
	hs := srv.httpServer
	got := map[string]any{
		"ReadHeaderTimeout": hs.ReadHeaderTimeout, "ReadTimeout": hs.ReadTimeout,
		"WriteTimeout": hs.WriteTimeout, "IdleTimeout": hs.IdleTimeout, "MaxHeaderBytes": hs.MaxHeaderBytes,
	}
	want := map[string]any{
		"ReadHeaderTimeout": 10 * time.Second, "ReadTimeout": 30 * time.Second,
		"WriteTimeout": 5*time.Minute + 30*time.Second, "IdleTimeout": 2 * time.Minute, "MaxHeaderBytes": 64 << 10,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
	if hs.WriteTimeout <= MaxFaultLatency {
		t.Errorf("WriteTimeout %v does not outlast the longest latency fault (%v)", hs.WriteTimeout, MaxFaultLatency)
	}
	if hs.ConnState == nil {
		t.Error("no ConnState hook: Close cannot wait for the connection goroutines")
	}
}

// TestConnCounter checks the count Close waits on: closed is ready only once
// every connection that reached StateNew has reached StateClosed or
// StateHijacked, and the states in between change nothing.
func TestConnCounter(t *testing.T) {
	t.Parallel()
	ready := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	var empty connCounter
	if !ready(empty.closed()) {
		t.Fatal("closed is not ready without connections")
	}
	var c connCounter
	c.track(nil, http.StateNew)
	c.track(nil, http.StateNew)
	c.track(nil, http.StateActive)
	c.track(nil, http.StateIdle)
	ch := c.closed()
	c.track(nil, http.StateClosed)
	if ready(ch) || c.open() != 1 {
		t.Fatalf("closed is ready, or %d open, with one connection left, want 1", c.open())
	}
	c.track(nil, http.StateHijacked)
	if !ready(ch) || c.open() != 0 {
		t.Fatalf("closed is not ready, or %d open, after the last connection ended", c.open())
	}
}
