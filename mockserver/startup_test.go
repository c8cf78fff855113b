package mockserver

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestStartupFigures logs what the first and later New calls cost. It is not
// parallel, so it runs before the parallel tests start their servers and
// sees the first New of the process. It asserts nothing about time.
func TestStartupFigures(t *testing.T) {
	begin := time.Now()
	first := New(WithoutListener())
	firstTook := time.Since(begin)
	first.Close()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("first New: %v (corpus of %d articles); heap in use %.1f MiB; %s",
		firstTook, first.Corpus().Len(), float64(ms.HeapInuse)/(1<<20), residentSize())

	const n = 200
	begin = time.Now()
	for range n {
		New(WithoutListener()).Close()
	}
	t.Logf("later New (no socket): %v each over %d", time.Since(begin)/n, n)
	begin = time.Now()
	for range n / 4 {
		New().Close()
	}
	t.Logf("later New (loopback socket): %v each over %d", time.Since(begin)/(n/4), n/4)
}

// residentSize reads the process's resident set size where /proc exists.
func residentSize() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "resident size unknown"
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return "resident " + strings.TrimSpace(v)
		}
	}
	return "resident size unknown"
}
