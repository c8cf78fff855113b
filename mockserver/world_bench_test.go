package mockserver

import (
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkWorldCreate measures making a world (World) and serving its
// first request: the time, and the memory the world holds afterwards
// (heap-B/world: the live heap grown per world, measured over b.N worlds
// after a garbage collection). BENCHMARKS.md, row 15 (target: at most 1 ms
// and 1 MiB before any upload).
func BenchmarkWorldCreate(b *testing.B) {
	s := New(WithoutListener(), WithClock(func() time.Time { return t0 }), WithLimits(Limits{MaxWorlds: 1 << 20}))
	defer s.Close()
	h := s.Handler()
	before := liveHeapBytes()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		key := "world-bench-" + strconv.Itoa(i)
		i++
		s.World(key)
		serveOne(b, h, `{"api_key":"`+key+`","query":"bank"}`)
	}
	b.ReportMetric(float64(liveHeapBytes()-before)/float64(i), "heap-B/world")
}

// BenchmarkIdleWorlds makes 1,000 worlds, each serving one search, and
// reports what they hold: the live heap (heap-MB) and the process's
// resident memory grown (rss-MB, from /proc/self/statm on Linux).
// BENCHMARKS.md, row 16.
func BenchmarkIdleWorlds(b *testing.B) {
	for b.Loop() {
		s := New(WithoutListener(), WithClock(func() time.Time { return t0 }), WithWorldPerKey())
		h := s.Handler()
		serveOne(b, h, `{"api_key":"warm","query":"bank"}`)
		heap, rss := liveHeapBytes(), rssBytes()
		for i := range 1000 {
			serveOne(b, h, `{"api_key":"idle-`+strconv.Itoa(i)+`","query":"bank"}`)
		}
		b.ReportMetric(float64(liveHeapBytes()-heap)/(1<<20), "heap-MB")
		if rss > 0 {
			b.ReportMetric(float64(rssBytes()-rss)/(1<<20), "rss-MB")
		}
		s.Close()
	}
}

// BenchmarkWorldsThroughput serves searches from 16 goroutines through the
// handler, all with one key (one world) or each with its own key (16
// worlds, WithWorldPerKey). BENCHMARKS.md, row 17 compares their ns/op
// (target: 16 worlds at least 0.9 of one world's throughput).
func BenchmarkWorldsThroughput(b *testing.B) {
	for _, worlds := range []int{1, 16} {
		b.Run("worlds="+strconv.Itoa(worlds), func(b *testing.B) {
			s := New(WithoutListener(), WithClock(func() time.Time { return t0 }), WithWorldPerKey(), WithJournalSize(1000))
			defer s.Close()
			h := s.Handler()
			word := commonWord(b, s)
			var next atomic.Int64
			b.SetParallelism((16 + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.RunParallel(func(pb *testing.PB) {
				key := "tp-" + strconv.Itoa(int(next.Add(1)-1)%worlds)
				body := `{"api_key":"` + key + `","query":"` + word + `"}`
				for pb.Next() {
					serveOne(b, h, body)
				}
			})
		})
	}
}

// serveOne sends one search through h and checks it succeeded. The answer
// is counted, not kept: a recorder's growing buffer would cost more than
// the mock.
func serveOne(b *testing.B, h http.Handler, body string) {
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/api/v2/query", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	var w countingWriter
	h.ServeHTTP(&w, req)
	if w.code != http.StatusOK || w.n == 0 {
		b.Fatalf("status %d, %d bytes", w.code, w.n)
	}
}

// countingWriter is a ResponseWriter that counts the bytes of the answer.
type countingWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *countingWriter) Header() http.Header {
	if w.h == nil {
		w.h = make(http.Header)
	}
	return w.h
}

func (w *countingWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(p)
	return len(p), nil
}

// liveHeapBytes returns the live heap after a garbage collection.
func liveHeapBytes() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// rssBytes returns the process's resident memory, or 0 where
// /proc/self/statm is missing.
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(b), &size, &resident); err != nil {
		return 0
	}
	return resident * int64(os.Getpagesize())
}
