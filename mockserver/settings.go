package mockserver

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
)

// Settings are how a world answers, changed at run time by SetSettings
// (PATCH /_mock/settings); Reset restores the options' values.
type Settings struct {
	// PendingPolls and Pending are those of WithPendingPolls and
	// WithPendingDuration.
	PendingPolls int           `json:"pending_polls"`
	Pending      time.Duration `json:"pending"`
	// RateLimit and Burst are those of WithRateLimit; 0 is no limit.
	RateLimit float64 `json:"rate_limit"`
	Burst     int     `json:"burst"`
	// JobTTL and MaxJobs are those of Limits.
	JobTTL  time.Duration `json:"job_ttl"`
	MaxJobs int           `json:"max_jobs"`
	Shape   AnswerShape   `json:"shape"`
	// Strict makes Verify fail for a request no expectation matched (see
	// WithStrictExpectations); without it they are only listed.
	Strict bool `json:"strict"`
	// Clock is the world's clock, "real" or "manual". SetSettings also
	// takes "manual=<RFC 3339 time>", and "" to keep it: "manual" switches
	// this world alone to a manual clock at its time now (a manual clock
	// stays as it is), which SetClock then moves; Reset restores the
	// server's clock.
	Clock string `json:"clock"`
}

// AnswerShape chooses among the answer shapes the service is known to send;
// the zero value is the usual one.
type AnswerShape struct {
	// Results is where query puts articles and totalResults: "nested"
	// (default) or "top-level".
	Results string `json:"results,omitempty"`
	// Totals is which counts get-results sends: "both" (default),
	// "totalResults" or "totalArticles".
	Totals string `json:"totals,omitempty"`
}

// check reports what is wrong with st, naming the JSON fields.
func (st Settings) check() error {
	var bad []string
	if st.PendingPolls < 0 {
		bad = append(bad, fmt.Sprintf("pending_polls %d is negative: pass 0 or more polls", st.PendingPolls))
	}
	if st.Pending < 0 {
		bad = append(bad, fmt.Sprintf("pending %v is negative: pass a duration of 0 or more", st.Pending))
	}
	if st.RateLimit < 0 || st.Burst < 0 || st.RateLimit == 0 && st.Burst != 0 {
		bad = append(bad, fmt.Sprintf("rate_limit %v with burst %d: pass a positive rate and a burst of 0 (the rate rounded up) or more, or 0 and 0 for no limit", st.RateLimit, st.Burst))
	}
	if st.JobTTL <= 0 {
		bad = append(bad, fmt.Sprintf("job_ttl %v is not positive: pass a duration such as \"1h\"", st.JobTTL))
	}
	if st.MaxJobs < 1 {
		bad = append(bad, fmt.Sprintf("max_jobs %d: pass 1 or more", st.MaxJobs))
	}
	if err := (fault.Action{Results: st.Shape.Results, Totals: st.Shape.Totals}).Validate(); err != nil {
		bad = append(bad, "shape: "+err.Error())
	}
	if _, _, err := parseClock(st.Clock); err != nil {
		bad = append(bad, err.Error())
	}
	if len(bad) > 0 {
		return fmt.Errorf("mockserver: settings: %s", strings.Join(bad, "; "))
	}
	return nil
}

// Settings returns the world's settings.
func (s *Server) Settings() Settings {
	st := *s.settings()
	st.Clock = s.clockName()
	return st
}

// SetSettings replaces the world's settings from the next request on; on error
// nothing changes.
func (s *Server) SetSettings(st Settings) error {
	if err := st.check(); err != nil {
		return err
	}
	name, at, _ := parseClock(st.Clock)
	s.useClock(name, at, s.startClk)
	s.applySettings(st)
	return nil
}

func (s *Server) settings() *Settings { return s.world.settings.Load() }

// applySettings puts valid settings in force.
func (w *world) applySettings(st Settings) {
	w.settings.Store(&st)
	w.jobs.SetConfig(jobs.Config{TTL: st.JobTTL, Max: st.MaxJobs, PendingPolls: st.PendingPolls, PendingFor: st.Pending})
	var l *rateLimiter
	if st.RateLimit > 0 {
		l = newRateLimiter(st.RateLimit, st.Burst)
	}
	w.limiter.Store(l)
}

// shape is a request's answer shape: its fault's, else the world's.
func (s *Server) shape(x *exchange) AnswerShape {
	sh := s.settings().Shape
	if x.fault.Results != "" {
		sh.Results = x.fault.Results
	}
	if x.fault.Totals != "" {
		sh.Totals = x.fault.Totals
	}
	return sh
}

// rateLimiter is a token bucket per API key (by hash), on the world clock.
type rateLimiter struct {
	rate  float64 // tokens per second
	burst float64
	mu    sync.Mutex
	keys  map[jobs.Owner]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// maxBuckets bounds the buckets; past it, full ones (as good as new) go.
const maxBuckets = 10_000

// newRateLimiter returns a limiter; burst 0 is the rate rounded up.
func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	if burst == 0 {
		burst = int(min(math.Ceil(perSecond), math.MaxInt32))
	}
	return &rateLimiter{rate: perSecond, burst: float64(burst), keys: map[jobs.Owner]*bucket{}}
}

// allow takes a token for key at now, or reports how many whole seconds to
// wait for one (1 to maxRetryAfter).
func (l *rateLimiter) allow(key jobs.Owner, now time.Time) (ok bool, retryAfter int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, found := l.keys[key]
	if !found {
		if len(l.keys) >= maxBuckets {
			l.prune(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.keys[key] = b
	}
	l.refill(b, now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := (1 - b.tokens) / l.rate
	return false, int(min(max(1, math.Ceil(wait)), maxRetryAfter))
}

// maxRetryAfter bounds the seconds allow reports: with a rate such as
// 1e-30 per second the wait would not fit an int.
const maxRetryAfter = math.MaxInt32

func (l *rateLimiter) refill(b *bucket, now time.Time) {
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.tokens = min(l.burst, b.tokens+elapsed*l.rate)
		b.last = now
	}
}

func (l *rateLimiter) prune(now time.Time) {
	for k, b := range l.keys {
		if l.refill(b, now); b.tokens >= l.burst {
			delete(l.keys, k)
		}
	}
	if len(l.keys) >= maxBuckets { // every key is busy: start afresh
		clear(l.keys)
	}
}

// settingsJSON is Settings on the wire, durations as Go durations ("1h0m0s").
type settingsJSON struct {
	PendingPolls int         `json:"pending_polls"`
	Pending      string      `json:"pending"`
	RateLimit    float64     `json:"rate_limit"`
	Burst        int         `json:"burst"`
	JobTTL       string      `json:"job_ttl"`
	MaxJobs      int         `json:"max_jobs"`
	Shape        AnswerShape `json:"shape"`
	Strict       bool        `json:"strict"`
	Clock        string      `json:"clock"`
}

func (s *Server) adminSettings(*adminCall) (any, *apiError) {
	return struct {
		State    string       `json:"state"`
		Settings settingsJSON `json:"settings"`
	}{"SUCCESS", wireSettings(s.Settings())}, nil
}

func wireSettings(st Settings) settingsJSON {
	return settingsJSON{st.PendingPolls, st.Pending.String(), st.RateLimit, st.Burst, st.JobTTL.String(), st.MaxJobs, st.Shape, st.Strict, st.Clock}
}

// adminPatchSettings answers PATCH /_mock/settings: the body is decoded over
// the settings in force, so the fields given change and the others stay.
func (s *Server) adminPatchSettings(c *adminCall) (any, *apiError) {
	old := s.Settings()
	in := wireSettings(old)
	const example = `{"pending": "10s", "pending_polls": 2}, {"strict": true} or {"clock": "manual"}`
	if aerr := decodeStrict(c.body, &in, example, "pending_polls, pending, rate_limit, burst, job_ttl, max_jobs, shape, strict and clock"); aerr != nil {
		return nil, aerr
	}
	st := Settings{PendingPolls: in.PendingPolls, RateLimit: in.RateLimit, Burst: in.Burst, MaxJobs: in.MaxJobs, Shape: in.Shape,
		Strict: in.Strict, Clock: in.Clock}
	for _, d := range []struct {
		name, text string
		to         *time.Duration
	}{{"pending", in.Pending, &st.Pending}, {"job_ttl", in.JobTTL, &st.JobTTL}} {
		v, err := time.ParseDuration(d.text)
		if err != nil {
			return nil, badRequest("%s %s is not a duration: write e.g. \"10s\" or \"1h30m\"", d.name, quoteShort(d.text))
		}
		*d.to = v
	}
	if st.RateLimit == 0 && old.RateLimit != 0 && st.Burst == old.Burst {
		st.Burst = 0 // no limit: no burst either, unless one is given (then check refuses it)
	}
	if err := s.SetSettings(st); err != nil {
		return nil, controlError(err)
	}
	return s.adminSettings(c)
}
