package mockserver

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
)

// This file holds the Server methods behind the /_mock/ control endpoints
// (control_http.go): the HTTP handlers call them and nothing else, so Go
// tests and tests in other languages control the mock the same way.

// FaultRuleStatus is a fault rule with its counters, as Faults lists it.
type FaultRuleStatus struct {
	FaultRule
	// Index is the rule's place among the rules in force.
	Index int
	// Matched counts the requests the rule matched since it was set (or
	// since Reset).
	Matched uint64
	// Fired counts the times the rule applied.
	Fired int
	// Remaining is how many more times the rule may apply before Times
	// stops it, or -1 when Times is 0 (no limit).
	Remaining int
}

// Faults returns the fault rules in force, in order, with their counters.
func (s *Server) Faults() []FaultRuleStatus {
	st := s.faults.Status()
	out := make([]FaultRuleStatus, len(st))
	for i, r := range st {
		out[i] = FaultRuleStatus{
			FaultRule: faultRuleOf(r.Rule), Index: i,
			Matched:   r.Matched, Fired: r.Applied, Remaining: -1,
		}
		if r.Rule.Times > 0 {
			out[i].Remaining = max(0, r.Rule.Times-r.Applied)
		}
	}
	return out
}

// AddFault appends a fault rule after those in force, keeping their
// counters. On error nothing changes.
func (s *Server) AddFault(rule FaultRule) error {
	compiled, err := compileRule(rule)
	if err != nil {
		return fmt.Errorf("mockserver: fault rule %d: %w", len(s.faults.Status()), err)
	}
	if err := s.faults.Append(compiled); err != nil {
		return fmt.Errorf("mockserver: %w", err)
	}
	return nil
}

// ErrNoFaultRule is the error RemoveFault returns (wrapped, with the
// rules in force) for an index that holds no rule.
var ErrNoFaultRule = errors.New("mockserver: no fault rule has this index: Faults (GET /_mock/faults) lists the rules in force")

// noFaultRuleError says which index was asked for (in decimal, which may
// be too large for an int) and how many rules there are; it is an
// ErrNoFaultRule.
type noFaultRuleError struct {
	index string
	n     int
}

func (e noFaultRuleError) Error() string {
	var held string
	switch e.n {
	case 0:
		held = "no fault rule is in force"
	case 1:
		held = "the only rule in force is rule 0"
	default:
		held = fmt.Sprintf("the rules in force are 0 to %d", e.n-1)
	}
	return fmt.Sprintf("mockserver: there is no fault rule %s: %s; Faults (GET /_mock/faults) lists them", e.index, held)
}

func (e noFaultRuleError) Is(target error) bool { return target == ErrNoFaultRule }

// RemoveFault removes the fault rule at index (its place in Faults) and
// returns it. The other rules keep their counters, and a Probability rule
// keeps firing on the same requests; the rules after it move up one place.
// An index that holds no rule is an ErrNoFaultRule, and nothing changes.
func (s *Server) RemoveFault(index int) (FaultRule, error) {
	r, _, err := s.removeFault(index, nil)
	return r, err
}

// removeFault removes rule index if accept (when not nil) accepts it. It
// returns the rule at index whether or not it was removed, and whether it
// was; accept runs under the rules' lock.
func (s *Server) removeFault(index int, accept func(FaultRule) bool) (FaultRule, bool, error) {
	var seen FaultRule
	n, found, removed := s.faults.Remove(index, func(r fault.Rule) bool {
		seen = faultRuleOf(r)
		return accept == nil || accept(seen)
	})
	if !found {
		return FaultRule{}, false, noFaultRuleError{strconv.Itoa(index), n}
	}
	return seen, removed, nil
}

// faultRuleOf is the FaultRule of a compiled rule.
func faultRuleOf(r fault.Rule) FaultRule {
	return FaultRule{Endpoint: r.Endpoint, Every: r.Every, Probability: r.Probability, Times: r.Times, Fault: faultOf(r.Action), Optional: r.Optional}
}

// String returns the rule in the syntax of ParseFaultRule (and newsmock's
// -fault flag), e.g. "endpoint=query;times=2;status=503".
func (r FaultRule) String() string {
	var items []string
	if r.Endpoint != "" {
		items = append(items, "endpoint="+r.Endpoint)
	}
	if r.Every != 0 {
		items = append(items, "every="+strconv.Itoa(r.Every))
	}
	if r.Probability != 0 {
		items = append(items, "probability="+strconv.FormatFloat(r.Probability, 'g', -1, 64))
	}
	if r.Times != 0 {
		items = append(items, "times="+strconv.Itoa(r.Times))
	}
	if f := r.Fault.String(); f != "" {
		items = append(items, f)
	}
	if r.Optional {
		items = append(items, "optional")
	}
	return strings.Join(items, ";")
}

// JobInfo describes a live job for Jobs and ForceJob.
type JobInfo struct {
	QueryID string
	// Owner is KeyFingerprint of the API key that submitted the job; the key
	// itself is never kept.
	Owner string
	State JobState
	// Query is the query text submitted; Body is the whole submitted body,
	// with api_key redacted as in the journal.
	Query string
	Body  string
	// Message is the failure message given to ForceJob, if any.
	Message string
	Created time.Time // server clock
	// LastUsed is the submission or the last get-results poll; the job
	// expires at Expires, the job TTL after it.
	LastUsed time.Time
	Expires  time.Time
	// Polls counts the get-results polls of the job.
	Polls int
}

// KeyFingerprint returns the name under which the mock shows an API key
// (JobInfo.Owner): "sha256:" and the first 16 hex digits of the key's
// SHA-256, which identify a key without revealing it.
func KeyFingerprint(key string) string {
	return fingerprint(sha256.Sum256([]byte(key)))
}

func fingerprint(owner jobs.Owner) string {
	return "sha256:" + hex.EncodeToString(owner[:8])
}

// Jobs returns the live jobs in submission order, whoever owns them.
func (s *Server) Jobs() []JobInfo {
	list := s.jobs.List(s.clock())
	out := make([]JobInfo, len(list))
	for i, j := range list {
		out[i] = jobInfo(j)
	}
	return out
}

// JobState is the state of a job, as get-results reports it.
type JobState string

// Job states.
const (
	// JobPending is a job not ready yet.
	JobPending JobState = "PENDING"
	// JobSuccess is a job whose results get-results pages.
	JobSuccess JobState = "SUCCESS"
	// JobFailed is a job that failed.
	JobFailed JobState = "FAILED"
)

func jobInfo(j jobs.Info[jobQuery]) JobInfo {
	state := JobPending
	switch j.State {
	case jobs.Succeeded:
		state = JobSuccess
	case jobs.Failed:
		state = JobFailed
	}
	return JobInfo{QueryID: j.ID, Owner: fingerprint(j.Owner), State: state, Query: j.Query.query.Text, Body: string(redactBody(j.Query.body)),
		Message: j.Message, Created: j.Created, LastUsed: j.Used, Expires: j.Expires, Polls: j.Polls}
}

// ErrUnknownJob is the error ForceJob and ExpireJob return for a query id
// the server does not hold (never issued, expired or already removed).
var ErrUnknownJob = errors.New("mockserver: no live job has this query_id: Jobs (GET /_mock/jobs) lists the live ones")

// ForceJob sets the state of job id, whoever owns it: JobSuccess makes its
// next get-results succeed, JobFailed makes it answer FAILED with message
// (a default message when blank), JobPending keeps it PENDING until it is
// forced again or expires. It counts as no use of the job.
func (s *Server) ForceJob(id string, state JobState, message string) (JobInfo, error) {
	var st jobs.State
	switch state {
	case JobPending:
		st = jobs.Pending
	case JobSuccess:
		st = jobs.Succeeded
	case JobFailed:
		st = jobs.Failed
	default:
		return JobInfo{}, fmt.Errorf("mockserver: job state %s is unknown: use %q, %q or %q", quoteShort(string(state)), JobSuccess, JobFailed, JobPending)
	}
	if state != JobFailed && message != "" {
		return JobInfo{}, fmt.Errorf("mockserver: a message goes only with state %q: drop it, or force %q", JobFailed, JobFailed)
	}
	if state == JobFailed && strings.TrimSpace(message) == "" {
		message = "the query job failed because the mock server was told to fail it (POST /_mock/jobs/{id} or ForceJob): submit the query again"
	}
	info, ok := s.jobs.Force(id, st, message, s.clock())
	if !ok {
		return JobInfo{}, ErrUnknownJob
	}
	return jobInfo(info), nil
}

// ExpireJob forgets job id at once: its next get-results is the 404 an
// expired query id gets.
func (s *Server) ExpireJob(id string) error {
	if !s.jobs.Remove(id, s.clock()) {
		return ErrUnknownJob
	}
	return nil
}

// ErrRealClock is the error SetClock returns for a server whose clock is
// not manual.
var ErrRealClock = errors.New("mockserver: the server clock is not manual, so it cannot be moved: start the server with WithManualClock (newsmock -clock manual)")

// The range of the server clock, both ends included, in RFC 3339.
// WithManualClock and SetClock (POST /_mock/clock, newsmock -clock
// manual=<time>) refuse a time outside it, and New refuses a clock
// (WithClock) that reads outside it at start; a WithClock function must stay
// within it afterwards too.
//
// Every time the server writes is the clock's time, an article's date at
// most the clock's time at New (the date shift), or the clock's time plus a
// time.Duration, at most 292 years (a job's expiry: its last use plus the job
// TTL). The upper end plus 292 years is still in year 9992, so every time stays
// within the years 0 to 9999 that RFC 3339, JSON and HTTP dates can write,
// whatever the options. The lower end is the Unix epoch, before which many
// clients cannot represent a time.
const (
	minClockText = "1970-01-01T00:00:00Z"
	maxClockText = "9700-01-01T00:00:00Z"
)

// minClock and maxClock are minClockText and maxClockText as times.
var minClock, maxClock = mustParseTime(minClockText), mustParseTime(maxClockText)

func mustParseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

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

// WithManualClock starts the server clock at start (time.Now() when start
// is the zero time) and moves it only through SetClock (POST
// /_mock/clock); Reset sets it back to start. Everything WithClock
// drives follows it: the date shift (fixed at New), job pending times and
// TTLs, rate-limit buckets, the headline window and journal times. Latency
// faults still wait in real time. start must lie within
// 1970-01-01 to 9700-01-01.
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

// advanceClock moves a manual clock forward by d (which must be positive)
// and returns the new time (POST /_mock/clock {"advance": …}). A move past
// maxClock is refused, and the clock stays where it is.
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

// SetClock sets a manual clock (WithManualClock) to t, forward or back, and
// returns it; to advance it by d, pass s.Now().Add(d). A time outside
// 1970-01-01 to 9700-01-01 (the zero time among them) is refused, and the
// clock stays where it is. A server whose clock is not manual answers
// ErrRealClock.
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

// dateShift reads the clock once at start, checks that it is within
// the clock range, and returns the date shift for corpus c: the
// clock's time minus its newest article's date, in whole seconds (0
// WithoutDateShift). A shift a time.Duration cannot hold (more than 292
// years) is an error rather than a shift that stops short.
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
