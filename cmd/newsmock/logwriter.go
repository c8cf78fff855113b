package main

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/newssearch/newssearch-go/internal/reqlog"
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

// newLogHandler returns the log's handler at level on w.
func newLogHandler(w *logWriter, level slog.Level) slog.Handler {
	return logHandler{text: slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}), w: w, fast: true, second: new(atomic.Pointer[formattedSecond])}
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

// logHandler is the log's slog handler: slog's TextHandler, and the same
// text formatted here, byte for byte, for a record whose attributes are all
// strings, integers, booleans or durations, and for the line of every
// request, which the mock hands over without a record (HandleLine, a
// reqlog.Handler): the TextHandler took 6% of newsmock's CPU time per
// request under load, this a fraction of that. It flushes its logWriter
// after every record at level warn or above, so that warnings and errors
// are seen at once.
type logHandler struct {
	text slog.Handler // formats what the fast path does not
	w    *logWriter
	fast bool // no attributes or groups added (WithAttrs, WithGroup)
	// second is the last second formatted, so that a line in the same
	// second formats only its milliseconds; nil until the first.
	second *atomic.Pointer[formattedSecond]
}

// requestMessage is the request line's message as appendText formats it
// (quoted), once.
var requestMessage = appendText(nil, reqlog.Message)

// formattedSecond is a second of the log's time stamps, formatted.
type formattedSecond struct {
	unix   int64
	loc    *time.Location
	date   []byte // "2006-01-02T15:04:05"
	offset []byte // "Z" or "-07:00"
}

// appendTime appends t as appendRFC3339Millis does, from the last second
// formatted when t falls in it.
func (h logHandler) appendTime(b []byte, t time.Time) []byte {
	if h.second == nil {
		return appendRFC3339Millis(b, t)
	}
	sec, loc := t.Unix(), t.Location()
	f := h.second.Load()
	if f == nil || f.unix != sec || f.loc != loc {
		whole := appendRFC3339Millis(nil, t.Truncate(time.Second))
		const dateLen = len("2006-01-02T15:04:05")
		if len(whole) < dateLen+4 || whole[dateLen] != '.' {
			return appendRFC3339Millis(b, t) // a year beyond 9999
		}
		f = &formattedSecond{unix: sec, loc: loc, date: whole[:dateLen], offset: whole[dateLen+4:]}
		h.second.Store(f)
	}
	ms := t.Nanosecond() / 1e6
	b = append(b, f.date...)
	b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	return append(b, f.offset...)
}

// lineBufs recycles the buffers lines are formatted in.
var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

func (h logHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.text.Enabled(ctx, level)
}

func (h logHandler) Handle(ctx context.Context, r slog.Record) error {
	var err error
	if bp, ok := h.format(r); ok {
		err = h.write(bp)
	} else {
		err = h.text.Handle(ctx, r)
	}
	if r.Level >= slog.LevelWarn {
		if ferr := h.w.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

// HandleLine writes a request's line (reqlog.Handler): what Handle writes
// of l.Record(), without building the record and walking its attributes.
func (h logHandler) HandleLine(l reqlog.Line) error {
	if !h.fast {
		return h.Handle(context.Background(), l.Record())
	}
	bp := lineBufs.Get().(*[]byte)
	b := append(h.appendStart((*bp)[:0], l.Time, reqlog.Level), requestMessage...)
	b = appendText(append(b, " method="...), l.Method)
	b = appendText(append(b, " path="...), l.Path)
	b = strconv.AppendInt(append(b, " status="...), int64(l.Status), 10)
	b = appendText(append(b, " request_id="...), l.RequestID)
	b = appendDuration(append(b, " duration="...), l.Duration)
	if l.Fault != "" {
		b = appendText(append(b, " fault="...), l.Fault)
	}
	if l.QueryID != "" {
		b = appendText(append(b, " query_id="...), l.QueryID)
	}
	*bp = append(b, '\n')
	return h.write(bp) // below warn: not flushed
}

// write writes a line formatted in a buffer of lineBufs, and puts the
// buffer back.
func (h logHandler) write(bp *[]byte) error {
	_, err := h.w.Write(*bp)
	*bp = (*bp)[:0]
	lineBufs.Put(bp)
	return err
}

// appendStart appends what begins every line: its time and level, then
// the key of its message.
func (h logHandler) appendStart(b []byte, t time.Time, level slog.Level) []byte {
	if !t.IsZero() {
		b = append(b, "time="...)
		b = h.appendTime(b, t.Round(0))
		b = append(b, ' ')
	}
	b = append(b, "level="...)
	b = appendText(b, level.String())
	return append(b, " msg="...)
}

// format formats r as slog's TextHandler (with no options but the level)
// does, if its attributes are all of the kinds it knows.
func (h logHandler) format(r slog.Record) (*[]byte, bool) {
	if !h.fast {
		return nil, false
	}
	bp := lineBufs.Get().(*[]byte)
	b := appendText(h.appendStart((*bp)[:0], r.Time, r.Level), r.Message)
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "" {
			ok = false // empty attributes are left out, and empty keys quoted: let slog say which
			return false
		}
		b = append(b, ' ')
		b = appendText(b, a.Key)
		b = append(b, '=')
		switch v := a.Value; v.Kind() {
		case slog.KindString:
			b = appendText(b, v.String())
		case slog.KindInt64:
			b = strconv.AppendInt(b, v.Int64(), 10)
		case slog.KindUint64:
			b = strconv.AppendUint(b, v.Uint64(), 10)
		case slog.KindBool:
			b = strconv.AppendBool(b, v.Bool())
		case slog.KindDuration:
			b = appendDuration(b, v.Duration())
		default:
			ok = false
		}
		return ok
	})
	*bp = append(b, '\n')
	if !ok {
		*bp = (*bp)[:0]
		lineBufs.Put(bp)
		return nil, false
	}
	return bp, true
}

func (h logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return logHandler{text: h.text.WithAttrs(attrs), w: h.w}
}

func (h logHandler) WithGroup(name string) slog.Handler {
	return logHandler{text: h.text.WithGroup(name), w: h.w}
}

// appendText appends s as slog's TextHandler writes a string: as it is, or
// quoted when it is empty or holds anything but printable characters other
// than space, '=' and '"'.
func appendText(b []byte, s string) []byte {
	if needsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

// needsQuoting is log/slog's.
func needsQuoting(s string) bool {
	if len(s) == 0 {
		return true
	}
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if quoted[b] {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

// quoted holds the ASCII bytes that make log/slog quote a string: those
// that need quoting in a JSON string except the backslash
// (encoding/json's safeSet: '"' and control characters; DEL is safe), and
// space and '='.
var quoted = func() (q [utf8.RuneSelf]bool) {
	for b := range q {
		q[b] = b < ' ' || b == ' ' || b == '=' || b == '"'
	}
	return q
}()

// appendRFC3339Millis is log/slog's.
func appendRFC3339Millis(b []byte, t time.Time) []byte {
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	t = t.Truncate(time.Millisecond).Add(time.Millisecond / 10)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...) // drop the 4th digit
}

// appendDuration appends d as d.String() formats it, without the string.
func appendDuration(b []byte, d time.Duration) []byte {
	u := uint64(d)
	if d < 0 {
		b = append(b, '-')
		u = -u
	}
	if u < uint64(time.Second) {
		// Less than a second: one unit, with a fraction.
		switch {
		case u == 0:
			return append(b, "0s"...)
		case u < uint64(time.Microsecond):
			return append(strconv.AppendUint(b, u, 10), "ns"...)
		case u < uint64(time.Millisecond):
			return append(appendFraction(b, u, 3), "µs"...)
		default:
			return append(appendFraction(b, u, 6), "ms"...)
		}
	}
	secs := u / uint64(time.Second)
	if h := secs / 3600; h > 0 {
		b = append(strconv.AppendUint(b, h, 10), 'h')
		b = append(strconv.AppendUint(b, secs/60%60, 10), 'm')
	} else if m := secs / 60; m > 0 {
		b = append(strconv.AppendUint(b, m, 10), 'm')
	}
	return append(appendFraction(b, secs%60*uint64(time.Second)+u%uint64(time.Second), 9), 's')
}

// appendFraction appends v / 10^digits in decimal, its fraction without
// trailing zeros (and without the point if nothing is left of it).
func appendFraction(b []byte, v uint64, digits int) []byte {
	div := uint64(1)
	for range digits {
		div *= 10
	}
	b = strconv.AppendUint(b, v/div, 10)
	frac := v % div
	if frac == 0 {
		return b
	}
	for frac%10 == 0 {
		frac /= 10
		div /= 10
	}
	b = append(b, '.')
	for p := div / 10; p > frac; p /= 10 {
		b = append(b, '0') // the fraction's leading zeros
	}
	return strconv.AppendUint(b, frac, 10)
}
