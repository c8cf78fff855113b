package main

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLogWriterBatches checks that lines wait, then leave together, whole
// and in order, within about logFlushDelay; that a warning is written at
// once; and that Close writes what waits and lets later lines through.
func TestLogWriterBatches(t *testing.T) {
	out := new(countingBuffer)
	lw := newLogWriter(out)
	logger := (&logLevel{level: slog.LevelInfo}).logger(lw)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				logger.Info("mockserver request", "g", g, "i", i)
			}
		})
	}
	wg.Wait()
	if n := out.writes(); n > 1 {
		t.Errorf("%d writes for 200 lines logged at once, want them to wait (at most one)", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "\n") < 200 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := strings.Count(out.String(), "\n"); got != 200 {
		t.Fatalf("%d lines written after the delay, want 200", got)
	}
	for g := range 4 {
		last := -1
		for line := range strings.SplitSeq(strings.TrimSuffix(out.String(), "\n"), "\n") {
			var lg, li int
			if _, err := fmt.Sscanf(line[strings.Index(line, " g="):], " g=%d i=%d", &lg, &li); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			if lg == g {
				if li != last+1 {
					t.Fatalf("goroutine %d: line %d after %d", g, li, last)
				}
				last = li
			}
		}
	}

	before := out.writes()
	logger.Info("quiet")
	logger.Warn("loud")
	if got := out.String(); !strings.Contains(got, "msg=quiet") || !strings.HasSuffix(got, "msg=loud\n") {
		t.Errorf("a warning did not flush the lines before it and itself at once:\n%s", got)
	}
	if out.writes() != before+1 {
		t.Errorf("%d writes for an info line and a warning, want 1", out.writes()-before)
	}

	logger.Info("last")
	if err := lw.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "msg=last") {
		t.Errorf("Close did not write the line waiting")
	}
	fmt.Fprintf(lw, "after\n")
	if !strings.HasSuffix(out.String(), "after\n") {
		t.Errorf("a write after Close did not go through at once")
	}
}

// TestLogWriterFull checks that a full buffer is written at once.
func TestLogWriterFull(t *testing.T) {
	out := new(countingBuffer)
	lw := newLogWriter(out)
	defer lw.Close()
	line := strings.Repeat("x", 1023) + "\n"
	for range logBufferMax / len(line) {
		lw.Write([]byte(line))
	}
	if out.writes() != 1 || out.len() != logBufferMax {
		t.Errorf("%d writes of %d bytes after %d bytes logged, want one write of them all", out.writes(), out.len(), logBufferMax)
	}
}

// countingBuffer is a buffer counting the writes it takes.
type countingBuffer struct {
	mu sync.Mutex
	b  strings.Builder
	n  int
}

func (c *countingBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.b.Write(p)
}

func (c *countingBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.b.String()
}

func (c *countingBuffer) writes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *countingBuffer) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.b.Len()
}
