package mockserver

import (
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
