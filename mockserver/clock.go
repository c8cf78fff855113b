package mockserver

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"
)

// ErrRealClock is the error SetClock returns when the clock is not manual.
var ErrRealClock = errors.New("mockserver: the world's clock is not manual, so it cannot be moved: switch the world to a manual clock " +
	"(Settings.Clock \"manual\" through SetSettings; PATCH /_mock/settings {\"clock\": \"manual\"}), or start the server with WithManualClock (newsmock -clock manual)")

// The range of the server clock, both ends included, which New, SetClock
// and WithManualClock enforce. A time the server writes is at most the
// clock's plus a time.Duration (292 years, a job's expiry), so it stays
// within the years 0 to 9999 that RFC 3339, JSON and HTTP dates can write.
// Many clients cannot represent a time before the Unix epoch.
const (
	minClockText = "1970-01-01T00:00:00Z"
	maxClockText = "9700-01-01T00:00:00Z"
)

// minClock and maxClock are minClockText and maxClockText as times.
var minClock, maxClock = time.Unix(0, 0).UTC(), time.Date(9700, 1, 1, 0, 0, 0, 0, time.UTC)

// clockRange is the range for messages.
const clockRange = "the server clock runs from " + minClockText + " to " + maxClockText

// inClockRange reports whether t lies within the clock range.
func inClockRange(t time.Time) bool { return !t.Before(minClock) && !t.After(maxClock) }

// manualClock is a clock that moves only when told.
type manualClock struct {
	mu    sync.Mutex
	start time.Time
	now   time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// worldClock is a world's clock: now reads it, wall says it is time.Now (a
// request's own reading of it serves), manual is set for a manual clock.
type worldClock struct {
	now    func() time.Time
	wall   bool
	manual *manualClock
}

// startClock is a fresh copy of c: a manual clock of its own at c's start.
func (c *worldClock) startClock() *worldClock {
	if c.manual == nil {
		return c
	}
	m := &manualClock{start: c.manual.start, now: c.manual.start}
	return &worldClock{now: m.Now, manual: m}
}

// clock reads the world's clock in force.
func (w *world) clock() time.Time { return w.clk.Load().now() }

// manual is the world's manual clock, nil for a real one.
func (w *world) manual() *manualClock { return w.clk.Load().manual }

// clockName is Settings.Clock of the clock in force.
func (w *world) clockName() string {
	if w.manual() != nil {
		return "manual"
	}
	return "real"
}

// parseClock checks Settings.Clock: "" keeps the clock, "real", "manual",
// or "manual=<RFC 3339 time>" (at).
func parseClock(mode string) (name string, at time.Time, err error) {
	name, text, hasAt := strings.Cut(strings.TrimSpace(mode), "=")
	switch {
	case name == "manual" && hasAt:
		if at, err = time.Parse(time.RFC3339Nano, strings.TrimSpace(text)); err != nil || !inClockRange(at) {
			return "", at, fmt.Errorf("clock %s: the time is not an RFC 3339 time within range (%s): write e.g. \"manual=2026-01-15T12:00:00Z\"",
				quoteShort(mode), clockRange)
		}
	case hasAt || name != "" && name != "real" && name != "manual":
		return "", at, fmt.Errorf("clock %s is not a clock: write \"real\", \"manual\" (from the world's time now) or \"manual=2026-01-15T12:00:00Z\"", quoteShort(mode))
	}
	return name, at, nil
}

// useClock puts a clock parseClock accepted in force: "manual" keeps a
// manual clock in force (set to at if given) or starts one at at, else at
// the world's time now; "real" returns to the server's real clock.
func (w *world) useClock(name string, at time.Time, startClk *worldClock) {
	m := w.manual()
	switch {
	case name == "real" && m != nil && startClk.manual == nil:
		w.clk.Store(startClk)
	case name == "real" && m != nil:
		w.clk.Store(&worldClock{now: time.Now, wall: true})
	case name == "manual" && m != nil && !at.IsZero():
		m.set(at)
	case name == "manual" && m == nil:
		if at.IsZero() {
			at = w.clock()
		}
		m = &manualClock{start: at, now: at}
		w.clk.Store(&worldClock{now: m.Now, manual: m})
	}
}

// WithManualClock starts a server clock at start (now if zero) that moves only
// through SetClock or POST /_mock/clock; Reset sets it back.
func WithManualClock(start time.Time) Option {
	return func(c *config) {
		if start.IsZero() {
			start = time.Now()
		}
		if !inClockRange(start) {
			c.fail("WithManualClock(%s): the start is out of range: %s; pass a time within it, or the zero time for now",
				start.Format(time.RFC3339Nano), clockRange)
			return
		}
		mc := &manualClock{start: start, now: start}
		c.manual = mc
		c.clock, c.wallClock = mc.Now, false
	}
}

// Now returns the server clock's time.
func (s *Server) Now() time.Time { return s.clock() }

// advanceClock moves a manual clock forward by d > 0, at most to maxClock,
// and returns the new time.
func (s *Server) advanceClock(d time.Duration) (time.Time, error) {
	m := s.manual()
	if m == nil {
		return time.Time{}, ErrRealClock
	}
	if d <= 0 {
		return time.Time{}, fmt.Errorf("mockserver: advance %v is not forward: pass a positive duration such as 2h, or set the clock to go back", d)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	to := m.now.Add(d)
	if !inClockRange(to) {
		return time.Time{}, fmt.Errorf("mockserver: advance %v would take the clock from %s to %s, past %s: %s; advance by at most %v, or set the clock back first",
			d, m.now.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano), maxClockText, clockRange, maxClock.Sub(m.now))
	}
	m.now = to
	return to, nil
}

// SetClock sets a manual clock to t, forward or back, within 1970-01-01 to
// 9700-01-01, and returns it.
func (s *Server) SetClock(t time.Time) (time.Time, error) {
	m := s.manual()
	if m == nil {
		return time.Time{}, ErrRealClock
	}
	if !inClockRange(t) {
		return time.Time{}, fmt.Errorf("mockserver: the clock cannot be set to %s: %s; pick a time within it, such as 2026-01-15T12:00:00Z",
			t.Format(time.RFC3339Nano), clockRange)
	}
	m.set(t)
	return t, nil
}

// dateShift reads the clock once at start, checks its range, and returns
// the date shift for c: now minus its newest article's date, in whole
// seconds (0 WithoutDateShift). A shift past 292 years is an error.
func dateShift(cfg config, c *Corpus) (time.Duration, error) {
	now := cfg.clock()
	if !inClockRange(now) {
		return 0, fmt.Errorf("mockserver: the server clock reads %s at start, out of range: %s; give WithClock a clock within it",
			now.Format(time.RFC3339Nano), clockRange)
	}
	if cfg.noDateShift || c.Len() == 0 {
		return 0, nil
	}
	newest := c.Newest()
	shift := now.Sub(newest)
	if !newest.Add(shift).Equal(now) { // Sub saturated
		lo := newest.Add(math.MinInt64).Add(time.Second - 1).Truncate(time.Second)
		hi := newest.Add(math.MaxInt64)
		if lo.Before(minClock) {
			lo = minClock
		}
		if hi.After(maxClock) {
			hi = maxClock
		}
		return 0, fmt.Errorf("mockserver: the server clock reads %s at start, more than 292 years from the corpus's newest article (%s), "+
			"farther than the date shift reaches: start the clock between %s and %s, or serve the dates as stored (WithoutDateShift; newsmock -no-date-shift)",
			now.Format(time.RFC3339), newest.Format(time.RFC3339), lo.Format(time.RFC3339), hi.Format(time.RFC3339))
	}
	return shift.Truncate(time.Second), nil
}

// resetClock returns the world to the clock it started with, at its start.
func (w *world) resetClock() {
	if m := w.startClk.manual; m != nil {
		m.set(m.start)
	}
	w.clk.Store(w.startClk)
}

type clockAnswer struct {
	State  string    `json:"state"`
	Now    time.Time `json:"now"`
	Manual bool      `json:"manual"`
}

func (s *Server) adminClock(*adminCall) (any, *apiError) {
	return clockAnswer{"SUCCESS", s.Now(), s.manual() != nil}, nil
}

func (s *Server) adminMoveClock(c *adminCall) (any, *apiError) {
	if s.manual() == nil {
		return nil, &apiError{status: http.StatusConflict, msg: realClockMessage(c.r)}
	}
	var in struct {
		Advance *string `json:"advance"`
		Set     *string `json:"set"`
	}
	const example = `{"advance": "2h"} or {"set": "2026-01-15T12:00:00Z"}`
	if aerr := decodeStrict(c.body, &in, example, "advance or set"); aerr != nil {
		return nil, aerr
	}
	var err error
	switch {
	case (in.Advance == nil) == (in.Set == nil):
		return nil, badRequest("give exactly one of advance and set: send %s", example)
	case in.Advance != nil:
		d, perr := time.ParseDuration(*in.Advance)
		if perr != nil {
			return nil, badRequest("advance %s is not a duration: write e.g. \"90s\", \"2h\" or \"1h30m\"", quoteShort(*in.Advance))
		}
		_, err = s.advanceClock(d)
	default:
		t, perr := time.Parse(time.RFC3339Nano, *in.Set)
		if perr != nil {
			return nil, badRequest("set %s is not an RFC 3339 time: write e.g. \"2026-01-15T12:00:00Z\" (%s)", quoteShort(*in.Set), clockRange)
		}
		_, err = s.SetClock(t)
	}
	if errors.Is(err, ErrRealClock) { // switched to real since the check above
		return nil, &apiError{status: http.StatusConflict, msg: realClockMessage(c.r)}
	}
	if err != nil {
		return nil, controlError(err)
	}
	return s.adminClock(c)
}

// switchClock is how each caller switches its world to a manual clock, by
// the User-Agent of the callers it can tell; the last is the HTTP call.
var switchClock = []struct{ agent, how string }{
	{"newsmock-python/", "mock.use_manual_clock() (Python)"},
	{"newsmock-node/", "await mock.useManualClock() (Node)"},
	{"", `st := srv.Settings(); st.Clock = "manual"; srv.SetSettings(st) (Go, package mockserver)`},
	{"curl/", "curl -X PATCH http://%s/_mock/settings -H 'Content-Type: application/json'%s -d '{\"clock\": \"manual\"}'"},
}

// realClockMessage is the 409 for moving a real clock: it names the way to
// switch in the caller's language where its User-Agent tells, else all.
func realClockMessage(r *http.Request) string {
	var ways []string
	for _, sw := range switchClock {
		ways = append(ways, sw.how)
		if sw.agent != "" && strings.HasPrefix(r.UserAgent(), sw.agent) {
			ways = ways[len(ways)-1:]
			break
		}
	}
	key := ""
	if r.Header.Get(KeyHeader) != "" {
		key = " -H '" + KeyHeader + ": <the key>'"
	}
	if curl := &ways[len(ways)-1]; strings.HasPrefix(*curl, "curl") {
		*curl = fmt.Sprintf(*curl, r.Host, key)
	}
	return "the world's clock is the real one, so it cannot be moved: switch this world to a manual clock first with " +
		strings.Join(ways, ", or ") + "; or start newsmock with -clock manual (-clock manual=2026-01-15T12:00:00Z) for every world"
}
