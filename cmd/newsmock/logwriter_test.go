package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/internal/reqlog"
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

// TestLogHandlerAsText checks that logHandler's lines are slog.TextHandler's,
// byte for byte, over records of every kind of attribute and of strings
// that need quoting and that do not.
func TestLogHandlerAsText(t *testing.T) {
	strs := []string{"", "POST", "/api/v2/query", "a b", "a=b", `a"b`, `a\b`, "a\tb", "a\x00b", "a\x7fb", "µs", "a\u00a0b", "a\u200bb",
		"\xff", "a\xffb", "日本", "req-0123456789abcdef", "mockserver request", "rule 0: latency=150ms;drop", "é\u0301", "\u2028"}
	vals := []slog.Value{slog.IntValue(0), slog.IntValue(-42), slog.Int64Value(1 << 62), slog.Uint64Value(1<<64 - 1), slog.BoolValue(true),
		slog.DurationValue(0), slog.DurationValue(123456), slog.DurationValue(-3 * time.Second), slog.DurationValue(90 * time.Minute),
		slog.Float64Value(1.5), slog.TimeValue(time.Unix(1, 2)), slog.AnyValue([]int{1}), slog.GroupValue(slog.Int("x", 1))}
	for _, s := range strs {
		vals = append(vals, slog.StringValue(s))
	}
	loc := time.FixedZone("x", -(3*3600 + 30*60))
	now := time.Now()
	times := []time.Time{{}, time.Date(2026, 11, 26, 5, 50, 26, 601_999_999, time.UTC), time.Date(1999, 1, 2, 3, 4, 5, 0, loc),
		now, now.Add(time.Millisecond), now.Add(-999 * time.Millisecond), now.In(loc), time.Date(2026, 1, 1, 0, 0, 0, 999_600_000, time.UTC),
		time.Date(12000, 1, 1, 0, 0, 0, 5e6, time.UTC), time.Date(-5, 1, 1, 0, 0, 0, 5e6, time.UTC), time.Date(2026, 3, 29, 1, 0, 0, 7e6, time.Local)}
	levels := []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError, slog.LevelInfo + 2, slog.LevelError + 4}
	rnd := rand.New(rand.NewPCG(1, 2))
	// One handler for all, so that its formatted second is reused and
	// replaced; times move back and forth between records.
	var shared slog.Handler
	h := func(lw *logWriter) slog.Handler {
		if shared == nil {
			shared = newLogHandler(lw, slog.LevelDebug)
		}
		lh := shared.(logHandler)
		lh.w, lh.text = lw, slog.NewTextHandler(lw, &slog.HandlerOptions{Level: slog.LevelDebug})
		return lh
	}
	for i := range 5000 {
		r := slog.NewRecord(times[rnd.IntN(len(times))], levels[i%len(levels)], strs[rnd.IntN(len(strs))], 0)
		for range rnd.IntN(8) {
			key := strs[rnd.IntN(len(strs))]
			if rnd.IntN(4) > 0 {
				key = "status"
			}
			r.AddAttrs(slog.Attr{Key: key, Value: vals[rnd.IntN(len(vals))]})
		}
		var want, got countingBuffer
		if err := slog.NewTextHandler(&want, &slog.HandlerOptions{Level: slog.LevelDebug}).Handle(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		lw := newLogWriter(&got)
		if err := h(lw).Handle(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		lw.Close()
		if got.String() != want.String() {
			t.Fatalf("record %d:\n got %q\nwant %q", i, got.String(), want.String())
		}
	}
}

// BenchmarkLogHandler formats the line of a request with slog's
// TextHandler, with logHandler from its record, and with logHandler from
// the line itself (HandleLine, what newsmock does).
func BenchmarkLogHandler(b *testing.B) {
	attrs := []slog.Attr{slog.String("method", "POST"), slog.String("path", "/api/v2/query"), slog.Int("status", 200),
		slog.String("request_id", "req-0123456789abcdef"), slog.Duration("duration", 123456)}
	lw := newLogWriter(io.Discard)
	defer lw.Close()
	for _, h := range []struct {
		name string
		h    slog.Handler
	}{{"text", slog.NewTextHandler(lw, nil)}, {"fast", newLogHandler(lw, slog.LevelInfo)}} {
		b.Run(h.name, func(b *testing.B) {
			for b.Loop() {
				r := slog.NewRecord(time.Now(), slog.LevelInfo, "mockserver request", 0)
				r.AddAttrs(attrs...)
				_ = h.h.Handle(context.Background(), r)
			}
		})
	}
	b.Run("line", func(b *testing.B) {
		h := newLogHandler(lw, slog.LevelInfo).(reqlog.Handler)
		for b.Loop() {
			_ = h.HandleLine(reqlog.Line{Time: time.Now(), Method: "POST", Path: "/api/v2/query", Status: 200,
				RequestID: "req-0123456789abcdef", Duration: 123456})
		}
	})
}

// TestAppendDuration: appendDuration formats as time.Duration.String, at
// every unit's edges, at the extremes and over random durations of every
// magnitude.
func TestAppendDuration(t *testing.T) { // not parallel: AllocsPerRun
	ds := []time.Duration{0, 1, -1, 999, 1000, 1001, 1010, 1100, 999_999, 1_000_000, 1_000_001, 1_500_000, 999_999_999,
		time.Second, time.Second + 1, 1500 * time.Millisecond, time.Minute, time.Minute + 1, 59*time.Minute + 59*time.Second,
		time.Hour, time.Hour + 1, 100*time.Hour + 10*time.Millisecond, 123456, 90 * time.Minute, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	rnd := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		d := time.Duration(rnd.Int64N(1 << uint(rnd.IntN(63))))
		if rnd.IntN(2) == 0 {
			d = -d
		}
		ds = append(ds, d)
	}
	for _, d := range ds {
		if got, want := string(appendDuration([]byte("x="), d)), "x="+d.String(); got != want {
			t.Fatalf("appendDuration(%d) = %q, want %q", int64(d), got, want)
		}
	}
	buf := make([]byte, 0, 32)
	if n := testing.AllocsPerRun(100, func() { _ = appendDuration(buf[:0], 123456) }); n != 0 {
		t.Errorf("appendDuration allocated %v times a call, want 0", n)
	}
}

// FuzzAppendDuration: appendDuration agrees with time.Duration.String on
// any duration.
func FuzzAppendDuration(f *testing.F) {
	for _, d := range []int64{0, 1, -1, 1e3, 1e6, 1e9, 36e11, math.MaxInt64, math.MinInt64} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		if got, want := string(appendDuration(nil, time.Duration(n))), time.Duration(n).String(); got != want {
			t.Errorf("appendDuration(%d) = %q, want %q", n, got, want)
		}
	})
}

// TestHandleLineAsText: the line of a request, written by HandleLine, is
// what slog's TextHandler writes of the line's record, byte for byte, with
// and without a fault and a query_id, for values that need quoting and
// values that do not; a handler with attributes added writes it through
// its record.
func TestHandleLineAsText(t *testing.T) {
	t.Parallel()
	strs := []string{"", "POST", "GET", "/api/v2/query", "/a b", "req-0123456789abcdef", "rule 0: latency=150ms;drop",
		`x"y`, "a\tb", "日本", "\xff", "9bb441030fb66fe54fa607bfa9652ab0"}
	times := []time.Time{{}, time.Date(2026, 11, 26, 5, 50, 26, 601_999_999, time.UTC), time.Now(), time.Now().In(time.FixedZone("x", 5400))}
	rnd := rand.New(rand.NewPCG(5, 6))
	pick := func() string { return strs[rnd.IntN(len(strs))] }
	for i := range 3000 {
		l := reqlog.Line{Time: times[rnd.IntN(len(times))], Method: pick(), Path: pick(), Status: []int{200, 404, 503, -1, 0}[rnd.IntN(5)],
			RequestID: pick(), Duration: time.Duration(rnd.Int64N(1 << 40)), Fault: pick(), QueryID: pick()}
		var want, got strings.Builder
		_ = slog.NewTextHandler(&want, nil).Handle(context.Background(), l.Record())
		lw := newLogWriter(&got)
		if err := newLogHandler(lw, slog.LevelInfo).(reqlog.Handler).HandleLine(l); err != nil {
			t.Fatal(err)
		}
		lw.Close()
		if got.String() != want.String() {
			t.Fatalf("line %d:\n got %q\nwant %q", i, got.String(), want.String())
		}
	}
	l := reqlog.Line{Time: times[1], Method: "POST", Path: "/api/v2/query", Status: 200, RequestID: "req-1", Duration: time.Millisecond}
	var want, got strings.Builder
	_ = slog.NewTextHandler(&want, nil).WithAttrs([]slog.Attr{slog.String("world", "w1")}).Handle(context.Background(), l.Record())
	lw := newLogWriter(&got)
	if err := newLogHandler(lw, slog.LevelInfo).WithAttrs([]slog.Attr{slog.String("world", "w1")}).(reqlog.Handler).HandleLine(l); err != nil {
		t.Fatal(err)
	}
	lw.Close()
	if got.String() != want.String() {
		t.Errorf("with attributes added:\n got %q\nwant %q", got.String(), want.String())
	}
}
