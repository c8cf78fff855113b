package main

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the writers of a run (the
// progress bar, the spinner and the SDK's logger write from their own
// goroutines).
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSpinnerStopsAtOnce stops spinners right after starting them, as a
// command does when its first request fails, and twice, as printJob does
// on an error: stop must return every time (it waited forever when its
// goroutine had not yet begun to wait for the stop).
func TestSpinnerStopsAtOnce(t *testing.T) {
	t.Parallel()
	var stderr lockedBuffer
	a := &app{env: &env{stderr: &stderr, stderrTTY: true, getenv: func(string) string { return "" }}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 200 {
			sp := a.newSpinner("waiting")
			sp.describe("still waiting")
			sp.stop()
			sp.stop()
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // a safety bound, not a measurement
		t.Fatal("spinner.stop did not return within a minute")
	}
	if stderr.String() == "" {
		t.Error("the spinners drew nothing on a terminal stderr")
	}
}
