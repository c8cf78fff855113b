package newssearch

import (
	"context"
	"math"
	"net/http"
	"sync"
	"time"
)

// limiter paces a Client's attempts with a token bucket and holds them all
// during a pause asked for by Retry-After.
type limiter struct {
	now   func() time.Time
	rate  float64 // tokens per second; 0: no pacing
	burst float64

	mu     sync.Mutex
	eff    float64 // the rate in force: rate, lowered after a 429
	tokens float64
	last   time.Time
	pause  time.Time // no attempt starts before it

	// spread lengthens a wait for a pause at random (never shortens it),
	// so that the attempts it held do not all start at once; nil: not.
	spread func(time.Duration) time.Duration
}

// newLimiter returns a limiter; rate 0 only pauses.
func newLimiter(now func() time.Time, rate float64, burst int) *limiter {
	return &limiter{now: now, rate: rate, eff: rate, burst: float64(burst), tokens: float64(burst)}
}

// Adaptation of the paced rate: a service counting the same rate at arrival
// sees requests bunched by network jitter, so a 429 lowers the rate in
// force by 10% (to at most half the configured one) and empties the
// bucket, and each success wins back 0.1% of the configured rate.
const (
	rateCut     = 0.9
	rateFloor   = 0.5
	rateRecover = 0.001
)

// throttled records a 429 answer.
func (l *limiter) throttled() {
	if l.rate <= 0 {
		return
	}
	l.mu.Lock()
	l.eff = max(l.rate*rateFloor, l.eff*rateCut)
	l.tokens = min(l.tokens, 0)
	l.mu.Unlock()
}

// succeeded records an answer that was not a 429.
func (l *limiter) succeeded() {
	if l.rate <= 0 {
		return
	}
	l.mu.Lock()
	l.eff = min(l.rate, l.eff+l.rate*rateRecover)
	l.mu.Unlock()
}

// reserve takes a token and returns how long its holder must wait. The
// bucket may go into debt: later callers then wait longer, which keeps the
// order of arrival.
func (l *limiter) reserve() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	wait := max(l.pause.Sub(now), 0)
	if l.rate <= 0 {
		return wait
	}
	if l.last.IsZero() {
		l.last = now
	}
	if elapsed := now.Sub(l.last).Seconds(); elapsed > 0 {
		l.tokens = math.Min(l.burst, l.tokens+elapsed*l.eff)
		l.last = now
	}
	l.tokens--
	if l.tokens < 0 {
		wait = max(wait, time.Duration(-l.tokens/l.eff*float64(time.Second)))
	}
	return wait
}

// cancel gives back a token whose holder stopped waiting.
func (l *limiter) cancel() {
	if l.rate <= 0 {
		return
	}
	l.mu.Lock()
	l.tokens = math.Min(l.burst, l.tokens+1)
	l.mu.Unlock()
}

// pauseFor holds every attempt for d from now, unless a longer pause is on.
func (l *limiter) pauseFor(d time.Duration) {
	l.mu.Lock()
	if until := l.now().Add(d); until.After(l.pause) {
		l.pause = until
	}
	l.mu.Unlock()
}

// pauseError reports an attempt not sent because a Retry-After pause
// outlasts what its call may wait.
type pauseError struct{ left time.Duration }

func (e *pauseError) Error() string { return "paused by Retry-After for " + e.left.String() }

// wait blocks until the caller may send, or ctx is done. A pause longer
// than waitMax or ctx's deadline allows is a *pauseError at once.
func (l *limiter) wait(ctx context.Context, waitMax time.Duration) error {
	l.mu.Lock()
	now := l.now()
	left := l.pause.Sub(now)
	l.mu.Unlock()
	if left > 0 && tooLong(ctx, left, waitMax, now) {
		return &pauseError{left}
	}
	d := l.reserve()
	if d <= 0 {
		return nil
	}
	if err := sleepContext(ctx, l.spreadPause(d)); err != nil {
		l.cancel()
		return err
	}
	// A pause may have begun while this attempt waited for its token.
	for {
		l.mu.Lock()
		d = l.pause.Sub(l.now())
		l.mu.Unlock()
		if d <= 0 {
			return nil
		}
		if err := sleepContext(ctx, l.spreadPause(d)); err != nil {
			return err
		}
	}
}

// spreadPause returns the wait d, lengthened by l.spread when a pause is
// on, so that the attempts a Retry-After held do not start together.
func (l *limiter) spreadPause(d time.Duration) time.Duration {
	l.mu.Lock()
	paused := l.pause.After(l.now())
	l.mu.Unlock()
	if paused && l.spread != nil {
		return l.spread(d)
	}
	return d
}

// clientTransport is the outer transport of every Client: it applies the
// rate limit and Retry-After pauses, then hands the attempt to the
// attemptGuard (its stall and total limits), the middleware chain and the
// HTTP client's own transport. Like attemptGuard it has no
// CloseIdleConnections method: the caller's connections are theirs.
type clientTransport struct {
	lim      *limiter
	defaults *settings // the Client's, for a request without call settings
	next     http.RoundTripper
}

// RoundTrip sends one attempt.
func (t *clientTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	cs := callFrom(req.Context())
	if cs == nil {
		cs = t.defaults
	}
	if err := t.lim.wait(req.Context(), cs.waitMax); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		t.lim.throttled()
	} else {
		t.lim.succeeded()
	}
	if d, ok := retryAfter(resp, t.lim.now()); ok && d > 0 {
		t.lim.pauseFor(d)
	}
	return resp, nil
}

// baseTransport stands for http.DefaultTransport as it is at each request,
// for an HTTP client whose Transport is nil.
type baseTransport struct{}

// RoundTrip sends r through http.DefaultTransport.
func (baseTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return http.DefaultTransport.RoundTrip(r)
}
