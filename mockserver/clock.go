package mockserver

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"
)

// ErrRealClock is the error SetClock returns when the clock is not manual.
var ErrRealClock = errors.New("mockserver: the server clock is not manual, so it cannot be moved: start the server with WithManualClock (newsmock -clock manual)")

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
	if s.manual == nil {
		return time.Time{}, ErrRealClock
	}
	if d <= 0 {
		return time.Time{}, fmt.Errorf("mockserver: advance %v is not forward: pass a positive duration such as 2h, or set the clock to go back", d)
	}
	s.manual.mu.Lock()
	defer s.manual.mu.Unlock()
	to := s.manual.now.Add(d)
	if !inClockRange(to) {
		return time.Time{}, fmt.Errorf("mockserver: advance %v would take the clock from %s to %s, past %s: %s; advance by at most %v, or set the clock back first",
			d, s.manual.now.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano), maxClockText, clockRange, maxClock.Sub(s.manual.now))
	}
	s.manual.now = to
	return to, nil
}

// SetClock sets a manual clock to t, forward or back, within 1970-01-01 to
// 9700-01-01, and returns it.
func (s *Server) SetClock(t time.Time) (time.Time, error) {
	if s.manual == nil {
		return time.Time{}, ErrRealClock
	}
	if !inClockRange(t) {
		return time.Time{}, fmt.Errorf("mockserver: the clock cannot be set to %s: %s; pick a time within it, such as 2026-01-15T12:00:00Z",
			t.Format(time.RFC3339Nano), clockRange)
	}
	s.manual.mu.Lock()
	defer s.manual.mu.Unlock()
	s.manual.now = t
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

// resetClock sets a manual clock back to its start.
func (s *Server) resetClock() {
	if s.manual != nil {
		s.manual.mu.Lock()
		s.manual.now = s.manual.start
		s.manual.mu.Unlock()
	}
}

type clockAnswer struct {
	State  string    `json:"state"`
	Now    time.Time `json:"now"`
	Manual bool      `json:"manual"`
}

func (s *Server) adminClock(*adminCall) (any, *apiError) {
	return clockAnswer{"SUCCESS", s.Now(), s.manual != nil}, nil
}

func (s *Server) adminMoveClock(c *adminCall) (any, *apiError) {
	if s.manual == nil {
		return nil, &apiError{status: http.StatusConflict, msg: "the clock is the real one, so it cannot be moved: " +
			"start newsmock with -clock manual (or -clock manual=2026-01-15T12:00:00Z), or the Go server with mockserver.WithManualClock"}
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
	if err != nil {
		return nil, controlError(err)
	}
	return s.adminClock(c)
}
