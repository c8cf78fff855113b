package reqlog

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

// lineTaker is a Handler that keeps the lines it is given.
type lineTaker struct {
	slog.Handler
	lines []Line
}

func (h *lineTaker) HandleLine(l Line) error {
	h.lines = append(h.lines, l)
	return nil
}

// TestLog: a line goes to a Handler's HandleLine, to any other handler as
// its record (message, level, attributes in order, fault and query_id
// only when set), and nowhere when the handler is not enabled at info.
func TestLog(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	l := Line{Time: at, Method: "POST", Path: "/api/v2/get-results", Status: 200, RequestID: "req-1", Duration: 1500 * time.Microsecond}

	var text strings.Builder
	Log(slog.NewTextHandler(&text, nil), l)
	lf := l
	lf.Fault, lf.QueryID = "rule 0: status=503", "abc"
	Log(slog.NewTextHandler(&text, nil), lf)
	want := `time=2026-11-26T09:00:00.000Z level=INFO msg="mockserver request" method=POST path=/api/v2/get-results status=200 request_id=req-1 duration=1.5ms` + "\n" +
		`time=2026-11-26T09:00:00.000Z level=INFO msg="mockserver request" method=POST path=/api/v2/get-results status=200 request_id=req-1 duration=1.5ms fault="rule 0: status=503" query_id=abc` + "\n"
	if text.String() != want {
		t.Errorf("through a TextHandler:\n got %q\nwant %q", text.String(), want)
	}

	var quiet strings.Builder
	Log(slog.NewTextHandler(&quiet, &slog.HandlerOptions{Level: slog.LevelWarn}), l)
	if quiet.Len() != 0 {
		t.Errorf("a handler at level warn wrote %q, want nothing", quiet.String())
	}

	var under strings.Builder
	taker := &lineTaker{Handler: slog.NewTextHandler(&under, nil)}
	Log(taker, lf)
	if len(taker.lines) != 1 || taker.lines[0] != lf || under.Len() != 0 {
		t.Errorf("a Handler was given %v and its Handle wrote %q; want HandleLine given the line once, Handle nothing", taker.lines, under.String())
	}
	taker = &lineTaker{Handler: slog.NewTextHandler(&under, &slog.HandlerOptions{Level: slog.LevelError})}
	Log(taker, lf)
	if len(taker.lines) != 0 {
		t.Errorf("a Handler not enabled at info was given %v, want nothing", taker.lines)
	}
}
