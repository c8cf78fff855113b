package newssearch

import (
	"context"
	"sync"
)

// aimd is the client's one controller of work in flight under a rate
// limit, additive increase, multiplicative decrease: a 429 answer halves
// the limit (down to floor), and each unit of work that finishes without
// one raises it by one, up to ceiling. A burst of 429s answering work
// started under the same limit halves it once: each unit of work notes the
// generation it started in, and only a 429 to work of the current
// generation halves the limit (and starts a new generation).
//
// The range engine gates its windows with it (floor 1, acquire and
// release); a page walk sizes its prefetch with it (floor 0: no page
// ahead), through current, throttle and raise.
type aimd struct {
	mu        sync.Mutex
	ceiling   int
	floor     int
	limit     int
	inflight  int
	gen       int // bumped on every decrease
	throttled int // 429 answers seen
	wake      chan struct{}
}

// newAIMD returns a gate that starts at, and never exceeds, ceiling, and
// never goes below floor.
func newAIMD(ceiling, floor int) *aimd {
	return &aimd{ceiling: ceiling, floor: floor, limit: ceiling}
}

// acquire waits for room under the limit and returns the generation the
// work starts in, for throttle.
func (g *aimd) acquire(ctx context.Context) (int, error) {
	for {
		g.mu.Lock()
		if g.inflight < g.limit {
			g.inflight++
			gen := g.gen
			g.mu.Unlock()
			return gen, nil
		}
		if g.wake == nil {
			g.wake = make(chan struct{})
		}
		wake := g.wake
		g.mu.Unlock()
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-wake:
		}
	}
}

// throttle records a 429 answer to work started in generation gen.
func (g *aimd) throttle(gen int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.throttled++
	if gen == g.gen {
		g.limit = max(g.floor, g.limit/2)
		g.gen++
	}
}

// current returns the limit and the generation work starting now belongs
// to, for throttle.
func (g *aimd) current() (limit, gen int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.limit, g.gen
}

// raise raises the limit by one, up to ceiling: a unit of work finished
// without a 429.
func (g *aimd) raise() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.limit = min(g.ceiling, g.limit+1)
}

// release ends a unit of work acquired; grow raises the limit by one (the
// work saw no 429).
func (g *aimd) release(grow bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inflight--
	if grow && g.limit < g.ceiling {
		g.limit++
	}
	if g.wake != nil {
		close(g.wake)
		g.wake = nil
	}
}

// state returns the current limit and the 429s seen.
func (g *aimd) state() (limit, throttled int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.limit, g.throttled
}
