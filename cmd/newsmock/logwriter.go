package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// The log's buffering: lines wait at most logFlushDelay before they are
// written, or until logBufferMax bytes wait.
const (
	logFlushDelay = 100 * time.Millisecond
	logBufferMax  = 64 << 10
)

// logWriter is standard error for everything newsmock writes there: it
// gathers the lines and writes them to w in one system call at most
// logFlushDelay after the first of them, so that the log line of each
// request (log level info) does not cost a write of its own. Under load
// that write was a fifth of newsmock's CPU time per request. The lines and
// their order are unchanged; Flush writes what waits at once (after the
// start-up lines, a warning or an error, and before exit), and Write
// flushes itself once logBufferMax bytes wait, so a reader that does not
// keep up slows the server down as before rather than the buffer growing.
//
// What a process killed at once (a second signal, SIGKILL, a crash of the
// runtime) had not flushed, at most logFlushDelay of lines, is lost.
type logWriter struct {
	w io.Writer

	// out serializes writes to w, so that lines leave in order; it is held
	// without mu while w is written, so that the lines of other requests
	// gather meanwhile.
	out sync.Mutex

	mu     sync.Mutex
	buf    []byte      // the lines waiting
	spare  []byte      // the buffer last written, for reuse
	timer  *time.Timer // flushes buf; armed while buf holds lines
	armed  bool
	closed bool // after Close, writes go to w at once
	err    error
}

// newLogWriter returns a logWriter writing to w.
func newLogWriter(w io.Writer) *logWriter {
	l := &logWriter{w: w}
	l.timer = time.AfterFunc(time.Hour, func() { _ = l.Flush() })
	l.timer.Stop()
	return l
}

// Write adds p (one log line, as slog's handlers write them) to the lines
// waiting. It reports the error of an earlier write to w, if any.
func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		l.out.Lock()
		defer l.out.Unlock()
		return l.w.Write(p)
	}
	l.buf = append(l.buf, p...)
	full, err := len(l.buf) >= logBufferMax, l.err
	if !full && !l.armed {
		l.armed = true
		l.timer.Reset(logFlushDelay)
	}
	l.mu.Unlock()
	if full {
		err = l.Flush()
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the lines waiting, in one write.
func (l *logWriter) Flush() error {
	l.out.Lock()
	defer l.out.Unlock()
	l.mu.Lock()
	b := l.buf
	l.buf, l.spare = l.spare[:0], nil
	if l.armed {
		l.armed = false
		l.timer.Stop()
	}
	l.mu.Unlock()
	if len(b) == 0 {
		l.mu.Lock()
		l.spare = b
		err := l.err
		l.mu.Unlock()
		return err
	}
	_, err := l.w.Write(b)
	l.mu.Lock()
	if err != nil && l.err == nil {
		l.err = err
	}
	if cap(b) <= logBufferMax*2 {
		l.spare = b[:0]
	}
	err = l.err
	l.mu.Unlock()
	return err
}

// Close flushes the lines waiting; later writes go to w at once.
func (l *logWriter) Close() error {
	err := l.Flush()
	l.mu.Lock()
	l.closed = true
	l.timer.Stop()
	l.mu.Unlock()
	return err
}

// flushingHandler is a slog handler that flushes its logWriter after every
// record at level warn or above, so that warnings and errors are seen at
// once.
type flushingHandler struct {
	slog.Handler
	w *logWriter
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		_ = h.w.Flush()
	}
	return err
}

func (h flushingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(attrs), h.w}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.w}
}
