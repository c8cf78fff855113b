// Package reqlog is the line the mock server logs for every request it
// answers, and the way a log handler can take that line without a
// slog.Record: newsmock's handler writes it itself, which under load costs
// a third of what building and walking the record did.
//
// Line.Record is the line as a record, for any other handler; a Handler's
// HandleLine must write exactly what its Handle writes of that record.
package reqlog

import (
	"context"
	"log/slog"
	"time"
)

// Message is the line's message.
const Message = "mockserver request"

// Level is the line's level.
const Level = slog.LevelInfo

// Line is what the mock server logs of one request.
type Line struct {
	Time      time.Time // when it was answered
	Method    string
	Path      string
	Status    int
	RequestID string
	Duration  time.Duration
	Fault     string // the fault applied, "" for none
	QueryID   string // the query_id it created or polled, "" for none
}

// Record returns the line as a record: at Level, with Message and the
// attributes method, path, status, request_id and duration, then fault and
// query_id when they are not empty. It has no program counter: a source
// position would name the mock's logging function whoever made the request.
func (l Line) Record() slog.Record {
	r := slog.NewRecord(l.Time, Level, Message, 0)
	r.AddAttrs(
		slog.String("method", l.Method),
		slog.String("path", l.Path),
		slog.Int("status", l.Status),
		slog.String("request_id", l.RequestID),
		slog.Duration("duration", l.Duration),
	)
	if l.Fault != "" {
		r.AddAttrs(slog.String("fault", l.Fault))
	}
	if l.QueryID != "" {
		r.AddAttrs(slog.String("query_id", l.QueryID))
	}
	return r
}

// Handler is a slog.Handler that writes a request's line itself.
// HandleLine(l) must write what Handle(ctx, l.Record()) would; it is
// called only when Enabled(ctx, Level) is true.
type Handler interface {
	slog.Handler
	HandleLine(l Line) error
}

// Log logs l with h: through HandleLine if h is a Handler, through Handle
// and l.Record otherwise; nothing if h is not enabled at Level.
func Log(h slog.Handler, l Line) {
	ctx := context.Background()
	if !h.Enabled(ctx, Level) {
		return
	}
	if lh, ok := h.(Handler); ok {
		_ = lh.HandleLine(l)
		return
	}
	_ = h.Handle(ctx, l.Record())
}
