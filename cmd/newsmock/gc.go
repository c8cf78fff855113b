package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// gcHeadroom is how far newsmock lets its heap grow past what the last
// collection found live before it collects again. Go's default (GOGC=100)
// collects when the heap has doubled, and at 4 MiB at the least: a mock
// whose live heap is 1-2 MiB (the corpus is mapped, outside the heap) then
// collected every 800 requests or so under load, about 5% of its CPU time
// per request (BENCHMARKS.md, row 3w). With the headroom, a mock of a small
// heap collects a tenth as often, at the price of up to gcHeadroom of
// memory; one whose live heap is past gcHeadroom (many worlds, large
// uploads) collects as Go's default does.
const gcHeadroom = 32 << 20

// minHeap is the Go runtime's smallest heap goal at GOGC=100, which scales
// with the percentage.
const minHeap = 4 << 20

// tuneGC sets the collector's percentage (debug.SetGCPercent) after every
// collection so that the next one comes gcHeadroom past the live heap, or
// at twice the live heap when that is more. It does nothing when GOGC is in
// the environment: the user's setting stands. stop ends the tuning and
// puts back Go's default.
func tuneGC() (stop func()) {
	if _, ok := os.LookupEnv("GOGC"); ok {
		return func() {}
	}
	var stopped atomic.Bool
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	apply := func() {
		// The goal is the live heap times 1+p/100, and at least 4 MiB
		// times p/100: p = gcHeadroom/max(live, 4 MiB) gives live +
		// gcHeadroom (at least gcHeadroom).
		metrics.Read(live)
		n := uint64(minHeap)
		if live[0].Value.Kind() == metrics.KindUint64 {
			n = max(n, live[0].Value.Uint64())
		}
		debug.SetGCPercent(int(max(100, gcHeadroom*100/n)))
	}
	apply()
	// A finalizer runs after each collection that finds its object
	// unreachable; re-armed on a new object, it runs after every one.
	type sentinel struct{ _ *byte } // holds a pointer: not batched by the tiny allocator
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
			if !stopped.Load() {
				apply()
				arm()
			}
		})
	}
	arm()
	return func() {
		stopped.Store(true)
		debug.SetGCPercent(100)
	}
}
