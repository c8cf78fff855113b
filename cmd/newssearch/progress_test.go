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

// TestRangeBarText checks the range bar's text on a fake clock: the rate
// and the time left count only the windows this run searched, not those a
// checkpoint held.
func TestRangeBarText(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		saved, done, articles int
		elapsed               time.Duration
		want                  string
	}{
		{saved: 0, done: 0, articles: 0, elapsed: 0, want: "0/52 windows, 0 articles"},
		{saved: 0, done: 20, articles: 1, elapsed: 10 * time.Second, want: "20/52 windows, 1 article, 2.0 windows/s, 16s left"},
		{saved: 0, done: 52, articles: 1200, elapsed: 10 * time.Second, want: "52/52 windows, 1200 articles, 5.2 windows/s"},
		// A run resumed at 40 windows: no rate until it finishes one, then
		// the rate of its own windows (5 in 10s), not 45 in 10s.
		{saved: 40, done: 40, articles: 900, elapsed: 2 * time.Second, want: "40/52 windows, 900 articles"},
		{saved: 40, done: 45, articles: 1000, elapsed: 10 * time.Second, want: "45/52 windows, 1000 articles, 30.0 windows/min, 14s left"},
		{saved: 52, done: 52, articles: 1200, elapsed: time.Second, want: "52/52 windows, 1200 articles"},
		{saved: 0, done: 1, articles: 2, elapsed: 0, want: "1/52 windows, 2 articles"},
		{saved: 0, done: 1, articles: 2, elapsed: time.Hour, want: "1/52 windows, 2 articles, 1.0 windows/h, 51h0m0s left"},
	} {
		r := &rangeBar{now: func() time.Time { return start.Add(tc.elapsed) }, start: start, total: 52, saved: tc.saved}
		if got := r.text(tc.done, tc.articles); got != tc.want {
			t.Errorf("saved %d, done %d after %v: %q, want %q", tc.saved, tc.done, tc.elapsed, got, tc.want)
		}
	}
}
