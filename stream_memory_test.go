package newssearch

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"
)

// heapPeak runs fn while sampling the heap's live-object bytes every
// millisecond and returns the highest sample above the level before fn.
func heapPeak(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > peak {
				peak = v
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	fn()
	close(stop)
	wg.Wait()
	if v := read(); v > peak {
		peak = v
	}
	return peak - min(peak, base)
}

// BenchmarkSearchRangeSeqMemory compares peak heaps over 365 days at
// 1,000 results per window (53 windows): SearchRange, which returns a
// slice, against SearchRangeSeq, which streams, at the default concurrency
// of 8 and at 4. Run it with -benchtime=1x; it reports MiB above the
// baseline and the ratio (the target: at most 0.1).
func BenchmarkSearchRangeSeqMemory(b *testing.B) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	end := start.Add(365 * 24 * time.Hour)
	// 1,000 articles in every 7-day window (one every 10m4.8s).
	f := newFake(testArticles(53*1000, start.Add(time.Second), defaultRangeWindow/1000))
	c := serve(b, f)
	params := AsyncSearchParams{SearchParams: SearchParams{Query: "cars", StartDate: start, EndDate: end}, SortOrder: SortDatePublished}
	// The fake's memo holds the 53,000 articles; with the default GOGC the
	// heap could hold as much garbage again, hiding what the calls keep
	// live. Collect very often (GOGC=1), so the samples follow the live bytes.
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	for _, conc := range []int{8, 4} {
		b.Run("concurrency="+strconv.Itoa(conc), func(b *testing.B) {
			opts := []CallOption{fastPoll, &RangeOptions{Concurrency: conc}}
			if _, err := c.SearchRange(b.Context(), params, opts...); err != nil { // warm the memo
				b.Fatal(err)
			}
			var slicePeak, seqPeak uint64
			for b.Loop() {
				slicePeak = max(slicePeak, heapPeak(func() {
					got, err := c.SearchRange(b.Context(), params, opts...)
					if err != nil || len(got) < 50000 {
						b.Fatalf("SearchRange: %d articles, %v", len(got), err)
					}
					runtime.KeepAlive(got)
				}))
				seqPeak = max(seqPeak, heapPeak(func() {
					n := 0
					for w, err := range c.SearchRangeSeq(b.Context(), params, opts...) {
						if err != nil {
							b.Fatal(err)
						}
						n += len(w.Articles)
					}
					if n < 50000 {
						b.Fatalf("SearchRangeSeq: %d articles", n)
					}
				}))
			}
			b.ReportMetric(float64(slicePeak)/(1<<20), "slice-MiB")
			b.ReportMetric(float64(seqPeak)/(1<<20), "stream-MiB")
			b.ReportMetric(float64(seqPeak)/float64(slicePeak), "ratio")
		})
	}
}
