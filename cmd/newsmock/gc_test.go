package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcPercent reads the collector's percentage.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// heapGoal reads the heap size at which the next collection starts.
func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestTuneGC: without GOGC in the environment, after a collection the next
// one is set at least gcHeadroom away, and stop puts Go's default back;
// with GOGC set, tuneGC leaves the collector alone. Not parallel: it sets
// the process's collector.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	defer debug.SetGCPercent(gcPercent())
	debug.SetGCPercent(100)

	stop := tuneGC()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC() // the finalizer re-arms after each collection
		if heapGoal() >= gcHeadroom || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if goal, p := heapGoal(), gcPercent(); goal < gcHeadroom || p <= 100 {
		t.Errorf("after tuneGC and a collection: heap goal %d bytes at GOGC=%d, want at least %d (gcHeadroom)", goal, p, gcHeadroom)
	}
	stop()
	if p := gcPercent(); p != 100 {
		t.Errorf("after stop: GOGC=%d, want Go's default 100", p)
	}
	runtime.GC()
	time.Sleep(20 * time.Millisecond) // a finalizer still armed must not tune again
	runtime.GC()
	if p := gcPercent(); p != 100 {
		t.Errorf("a collection after stop set GOGC=%d, want 100", p)
	}

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	stop = tuneGC()
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if p := gcPercent(); p != 50 {
		t.Errorf("with GOGC=50 in the environment, tuneGC set GOGC=%d: the user's setting must stand", p)
	}
	stop()
}
