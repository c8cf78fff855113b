package mockserver

import (
	"math"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
)

// rateLimiter is a token bucket per API key (by hash), on the server clock.
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

// maxBuckets bounds the limiter's memory when many keys are used: past it,
// buckets that have refilled completely (and so behave as new ones) are
// dropped.
const maxBuckets = 10_000

func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	return &rateLimiter{rate: perSecond, burst: float64(burst), keys: map[jobs.Owner]*bucket{}}
}

// allow takes a token for key at now. When none is left it reports how
// many whole seconds to wait for the next one (at least 1).
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
// 1e-30 per second the wait would not fit an int (and converting it would
// give a meaningless number). About 68 years is as good as never.
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

func (l *rateLimiter) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.keys)
}
