package newssearch

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
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
//
// The fake service runs in a process of its own, as a real service does:
// in this one, the collector would mark its 53,000 articles on every cycle,
// and what the client allocated meanwhile would count as live (2-4 MiB,
// more than the stream keeps).
func BenchmarkSearchRangeSeqMemory(b *testing.B) {
	start, end := rangeFakeSpan()
	c := newTestClient(b, startRangeFake(b), &http.Client{Transport: &http.Transport{}})
	params := AsyncSearchParams{SearchParams: SearchParams{Query: "cars", StartDate: start, EndDate: end}, SortOrder: SortDatePublished}
	// Collect very often (GOGC=1), so the samples follow the live bytes
	// rather than garbage not yet collected.
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	for _, conc := range []int{8, 4} {
		b.Run("concurrency="+strconv.Itoa(conc), func(b *testing.B) {
			opts := []RangeOption{fastPoll, &RangeOptions{Concurrency: conc}}
			if _, err := c.SearchRange(b.Context(), params, opts...); err != nil { // warm the fake's memo
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

// rangeFakeEnv, set, makes the test binary serve the fake of
// BenchmarkSearchRangeSeqMemory (see TestMain).
const rangeFakeEnv = "NEWSSEARCH_TEST_RANGE_FAKE"

// TestMain lets the test binary serve the fake of
// BenchmarkSearchRangeSeqMemory in a process of its own.
func TestMain(m *testing.M) {
	if os.Getenv(rangeFakeEnv) != "" {
		os.Exit(serveRangeFake())
	}
	os.Exit(m.Run())
}

// rangeFakeSpan is the year the range fake publishes in.
func rangeFakeSpan() (start, end time.Time) {
	start = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return start, start.Add(365 * 24 * time.Hour)
}

// serveRangeFake serves 1,000 articles in every 7-day window of
// rangeFakeSpan (one every 10m4.8s) on loopback, prints its URL and serves
// until standard input ends.
func serveRangeFake() int {
	start, _ := rangeFakeSpan()
	f := newFake(testArticles(53*1000, start.Add(time.Second), defaultRangeWindow/1000))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "range fake:", err)
		return 1
	}
	go func() { _ = http.Serve(ln, f) }()
	fmt.Println("http://" + ln.Addr().String())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// startRangeFake runs serveRangeFake in a child process and returns its URL.
func startRangeFake(b *testing.B) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), rangeFakeEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		_ = cmd.Wait()
	})
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("the range fake printed no URL: %v", err)
	}
	return strings.TrimSpace(url)
}
