package newssearch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Defaults of PollOptions (see its doc; TestPollScheduleBounds checks the
// arithmetic for the worst jitter).
const (
	// defaultPollMinDelay is the wait before the first poll.
	defaultPollMinDelay = 100 * time.Millisecond
	// defaultPollMaxDelay caps every wait between polls.
	defaultPollMaxDelay = 2900 * time.Millisecond
	// defaultPollMultiplier is the growth of the wait from one poll to the
	// next.
	defaultPollMultiplier = 3.0
	// defaultPollJitter spreads every wait by up to ±20% at random.
	defaultPollJitter = 0.2
	// defaultPollMaxWait bounds the total time Poll waits for a job.
	defaultPollMaxWait = 10 * time.Minute
)

// Sentinel errors of polling. Test for them with errors.Is.
var (
	// ErrPollTimeout matches a *PollTimeoutError.
	ErrPollTimeout = errors.New("newssearch: poll timed out")
	// ErrJobFailed matches a *JobFailedError.
	ErrJobFailed = errors.New("newssearch: query job failed")
)

// PollOptions configure how Poll, Results and each range window wait for a
// job: waits from MinDelay growing by Multiplier to MaxDelay, with Jitter,
// for at most MaxWait (schedule: docs/retries.md). A zero field means the
// default.
type PollOptions struct {
	// MinDelay is the wait before the first request; 0 means 100 ms.
	MinDelay time.Duration
	// MaxDelay caps every wait; 0 means 2.9 s.
	MaxDelay time.Duration
	// Multiplier is the growth of the wait, at least 1; 0 means 3.
	Multiplier float64
	// Jitter is the random fraction of every wait, below 1; 0 means 0.2, a
	// negative value none.
	Jitter float64
	// MaxWait bounds the whole poll, requests included; 0 means 10 minutes.
	MaxWait time.Duration
	// Pending reports whether a state means the job still runs (nil:
	// State.IsPending); a state it rejects is a *JobFailedError.
	Pending func(State) bool
	// OnPoll, when set, is called after every answered request.
	OnPoll func(PollEvent)
}

// PollEvent describes one get-results request of a poll; see
// PollOptions.OnPoll.
type PollEvent struct {
	// QueryID is the job being polled.
	QueryID string
	// Attempt counts the requests of this poll, from 1.
	Attempt int
	// Elapsed is the time since the poll started.
	Elapsed time.Duration
	// State is the state the service reported.
	State State
	// Next is the wait before the next request, or 0.
	Next time.Duration
}

// JobFailedError reports a query job the service says failed: waiting
// cannot help. Unwrap returns the answer's *APIError, if any.
type JobFailedError struct {
	// QueryID is the job that failed.
	QueryID string
	// State is the failure state, as the service sent it.
	State State
	// Message is the service's explanation, if any.
	Message string
	// Err is the service's answer as an *APIError, or nil.
	Err error
}

// Error names the job, its state and the service's message.
func (e *JobFailedError) Error() string {
	var b strings.Builder
	b.WriteString("newssearch: query job " + strconv.Quote(e.QueryID) + " ended in state " + strconv.Quote(string(e.State)))
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	b.WriteString(": waiting cannot help; check the query and submit it again")
	return b.String()
}

// Is makes errors.Is(err, ErrJobFailed) hold.
func (e *JobFailedError) Is(target error) bool { return target == ErrJobFailed }

// Unwrap returns the service's answer.
func (e *JobFailedError) Unwrap() error { return e.Err }

// PollTimeoutError reports a job still pending when PollOptions.MaxWait
// ran out; call Client.Poll again with QueryID to keep waiting.
type PollTimeoutError struct {
	// QueryID is the job, still running on the service.
	QueryID string
	// Waited is the time the poll lasted.
	Waited time.Duration
	// Attempts is the number of get-results requests made.
	Attempts int
	// LastState is the last answer's state, or "" when none came.
	LastState State
}

// Error names the job and how long it was polled.
func (e *PollTimeoutError) Error() string {
	if e.LastState == "" {
		return fmt.Sprintf("newssearch: query job %q: get-results did not answer within PollOptions.MaxWait (%v, %s): call Poll again with this query ID to keep waiting, or raise PollOptions.MaxWait",
			e.QueryID, e.Waited.Round(time.Millisecond), plural(e.Attempts, "request"))
	}
	return fmt.Sprintf("newssearch: query job %q still in state %q after %v and %s: call Poll again with this query ID to keep waiting, or raise PollOptions.MaxWait",
		e.QueryID, e.LastState, e.Waited.Round(time.Millisecond), plural(e.Attempts, "poll"))
}

// Is makes errors.Is(err, ErrPollTimeout) hold.
func (e *PollTimeoutError) Is(target error) bool { return target == ErrPollTimeout }

// plural writes n and word, with an "s" unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// pollConfig is a resolved and validated PollOptions.
type pollConfig struct {
	minDelay, maxDelay, maxWait time.Duration
	multiplier, jitter          float64
	pending                     func(State) bool
	onPoll                      func(PollEvent)
}

func (*PollOptions) pollOption()    {}
func (*PollOptions) resultsOption() {}
func (*PollOptions) rangeOption()   {}

// apply makes o a CallOption: its non-zero fields override, one by one, the
// poll settings given before (by the Client, or earlier in the call).
func (o *PollOptions) apply(s *settings) {
	if o == nil {
		return
	}
	m := *o
	if d := s.poll; d != nil {
		m.MinDelay = cmp.Or(m.MinDelay, d.MinDelay)
		m.MaxDelay = cmp.Or(m.MaxDelay, d.MaxDelay)
		m.MaxWait = cmp.Or(m.MaxWait, d.MaxWait)
		m.Multiplier = cmp.Or(m.Multiplier, d.Multiplier)
		m.Jitter = cmp.Or(m.Jitter, d.Jitter)
		if m.Pending == nil {
			m.Pending = d.Pending
		}
		if m.OnPoll == nil {
			m.OnPoll = d.OnPoll
		}
	}
	s.poll = &m
}

// resolve applies the defaults to o and validates the result.
func (o *PollOptions) resolve() (pollConfig, error) {
	if o == nil {
		o = &PollOptions{}
	}
	invalid := func(field, problem string) (pollConfig, error) {
		return pollConfig{}, &ValidationError{Field: "PollOptions." + field, Problem: problem}
	}
	switch {
	case o.MinDelay < 0:
		return invalid("MinDelay", o.MinDelay.String()+" is negative: pass a positive wait, or 0 for the default "+defaultPollMinDelay.String())
	case o.MaxDelay < 0:
		return invalid("MaxDelay", o.MaxDelay.String()+" is negative: pass a positive cap, or 0 for the default "+defaultPollMaxDelay.String())
	case o.MaxWait < 0:
		return invalid("MaxWait", o.MaxWait.String()+" is negative: pass a positive limit, or 0 for the default "+defaultPollMaxWait.String())
	case o.Multiplier != 0 && !(o.Multiplier >= 1 && o.Multiplier <= 1e6):
		return invalid("Multiplier", strconv.FormatFloat(o.Multiplier, 'g', -1, 64)+" is not a growth factor: pass a number from 1 (constant waits) to 1e6, or 0 for the default")
	case math.IsNaN(o.Jitter) || o.Jitter >= 1:
		return invalid("Jitter", strconv.FormatFloat(o.Jitter, 'g', -1, 64)+" is not a fraction below 1: pass e.g. 0.2 for ±20%, 0 for the default, or a negative value for no jitter")
	}
	cfg := pollConfig{
		minDelay:   cmp.Or(o.MinDelay, defaultPollMinDelay),
		maxDelay:   cmp.Or(o.MaxDelay, defaultPollMaxDelay),
		maxWait:    cmp.Or(o.MaxWait, defaultPollMaxWait),
		multiplier: cmp.Or(o.Multiplier, defaultPollMultiplier),
		jitter:     max(cmp.Or(o.Jitter, defaultPollJitter), 0),
		pending:    o.Pending,
		onPoll:     o.OnPoll,
	}
	if cfg.minDelay > cfg.maxDelay {
		return invalid("MinDelay", "the first wait "+cfg.minDelay.String()+" exceeds the cap MaxDelay "+cfg.maxDelay.String()+": set MaxDelay at or above MinDelay")
	}
	if cfg.pending == nil {
		cfg.pending = State.IsPending
	}
	return cfg, nil
}

// delay returns the n-th wait (n from 1) for the random draw u in [-1, 1].
func (p *pollConfig) delay(n int, u float64) time.Duration {
	d := float64(p.minDelay) * math.Pow(p.multiplier, float64(n-1)) * (1 + p.jitter*u)
	if !(d < float64(p.maxDelay)) { // also catches +Inf
		return p.maxDelay
	}
	return time.Duration(d)
}

// jitterDraw returns a uniform draw in [-1, 1) from the client's jitter
// source, or 0 when jitter is off.
func (c *Client) jitterDraw(p *pollConfig) float64 {
	if p.jitter == 0 {
		return 0
	}
	c.cfg.mu.Lock()
	defer c.cfg.mu.Unlock()
	return 2*c.cfg.rng.Float64() - 1
}

// checkCall rejects an unusable Client or a nil context before any work.
func (c *Client) checkCall(ctx context.Context, method string) error {
	if c == nil || c.cfg == nil {
		return errNoClient
	}
	if ctx == nil {
		return errors.New("newssearch: " + method + ": nil context: pass context.Background() or a request context")
	}
	return nil
}

// Poll waits for the job queryID to finish and returns its first page,
// asking after a first wait and then ever longer ones (PollOptions), riding
// out short outages. A failed job is a *JobFailedError, MaxWait running out
// a *PollTimeoutError; any other error names the job, which may still run:
// Poll again to resume.
func (c *Client) Poll(ctx context.Context, queryID string, opts ...PollOption) (*Page, error) {
	if err := c.checkCall(ctx, "Poll"); err != nil {
		return nil, err
	}
	ctx, cs, err := begin(c, ctx, opts)
	if err != nil {
		return nil, err
	}
	cfg, _ := cs.poll.resolve() // begin validated it
	return c.poll(ctx, queryID, 1, &cfg, true)
}

// pollStopped reports a poll stopped by err, after attempts requests.
func pollStopped(queryID string, attempts int, err error) error {
	hint := ""
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		hint = " (the job may still be running: call Poll with this query ID and a live context to resume)"
	}
	return wrapError(fmt.Sprintf("newssearch: polling query job %q stopped after %s: ", queryID, plural(attempts, "request")), err, hint)
}

// poll drives get-results for page of queryID until its state is not
// pending. waitFirst makes it wait before the first request.
func (c *Client) poll(ctx context.Context, queryID string, page int, cfg *pollConfig, waitFirst bool) (*Page, error) {
	if strings.TrimSpace(queryID) == "" {
		return nil, &ValidationError{Field: "queryID", Problem: "the query ID is empty: pass the QueryID of the job SubmitQuery returned"}
	}
	// Every wait and every request of the poll ends by MaxWait: the
	// requests run under pctx, which MaxWait cancels.
	pctx, cancel := context.WithTimeoutCause(ctx, cfg.maxWait, errPollDeadline)
	defer cancel()
	pctx = withOutageBudget(pctx, cfg.maxWait)
	start := c.cfg.now()
	var last State // state of the last answer, "" before the first
	timedOut := func(attempts int) error {
		return &PollTimeoutError{QueryID: queryID, Waited: c.cfg.now().Sub(start), Attempts: attempts, LastState: last}
	}
	waits := 0
	var wait time.Duration
	if waitFirst {
		waits++
		wait = min(cfg.delay(waits, c.jitterDraw(cfg)), max(cfg.maxWait-cfg.minDelay, 0))
	}
	for attempt := 1; ; attempt++ {
		if wait > 0 {
			if err := sleepContext(pctx, wait); err != nil {
				if ctx.Err() == nil {
					return nil, timedOut(attempt - 1)
				}
				return nil, pollStopped(queryID, attempt-1, ctx.Err())
			}
		}
		answer, hint, err := c.getResults(pctx, queryID, page)
		var state State
		var failed *JobFailedError
		switch {
		case err == nil:
			state = answer.State
		case ctx.Err() == nil && pctx.Err() != nil:
			// MaxWait ran out inside the request.
			return nil, timedOut(attempt)
		case errors.As(err, &failed):
			state = failed.State
		default:
			return nil, pollStopped(queryID, attempt, err)
		}
		last = state
		elapsed := c.cfg.now().Sub(start)
		event := PollEvent{QueryID: queryID, Attempt: attempt, Elapsed: elapsed, State: state}
		if state.IsSuccess() || !cfg.pending(state) {
			cfg.report(event)
			switch {
			case failed != nil:
				return nil, failed
			case !state.IsSuccess():
				// A state PollOptions.Pending rejects.
				return nil, &JobFailedError{QueryID: queryID, State: state, Message: c.scrub(answer.Message)}
			}
			return answer, nil
		}
		// The last wait is shortened so that the last request still has
		// MinDelay to be answered before MaxWait runs out; with less time
		// left than that, the poll ends now.
		left := cfg.maxWait - elapsed
		if left <= cfg.minDelay {
			cfg.report(event)
			return nil, &PollTimeoutError{QueryID: queryID, Waited: elapsed, Attempts: attempt, LastState: state}
		}
		waits++
		wait = cfg.delay(waits, c.jitterDraw(cfg))
		if hint > wait {
			// The service said when to ask again: not before, and
			// spread so that jobs it gave the same hint are not all
			// polled at once.
			wait = c.cfg.spread(min(hint, maxPollHint))
		}
		wait = min(wait, left-cfg.minDelay)
		event.Next = wait
		cfg.report(event)
	}
}

// maxPollHint caps the wait a pending answer's Retry-After header can ask
// for before the next poll.
const maxPollHint = 5 * time.Minute

// spread returns d lengthened by a random fraction of up to a tenth (at
// most a second), so that calls told to wait the same d do not all wake
// at once; it is never shorter than d.
func (cfg *config) spread(d time.Duration) time.Duration {
	j := min(d/10, time.Second)
	if j <= 0 {
		return d
	}
	cfg.mu.Lock()
	defer cfg.mu.Unlock()
	return d + time.Duration(cfg.rng.Int64N(int64(j)+1))
}

// errPollDeadline is the cause of a poll's context cancelled by MaxWait.
var errPollDeadline = errors.New("newssearch: PollOptions.MaxWait ran out")

// report passes e to the OnPoll callback, if any.
func (p *pollConfig) report(e PollEvent) {
	if p.onPoll != nil {
		p.onPoll(e)
	}
}

// sleepContext waits for d or until ctx is done, whichever comes first, and
// returns ctx.Err() in the latter case. Its timer is always stopped.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
