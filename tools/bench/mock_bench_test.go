package main

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// These benchmarks measure the mock the way the harness's rows 1 to 3 do,
// one subject at a time, for go test -bench and -cpuprofile/-memprofile.
// The interleaved ratios come from "go run ." in this directory; see
// BENCHMARKS.md. Suggested runs, from tools/bench:
//
//	go test -run '^$' -bench 'BenchmarkInProcessSearch' .
//	go test -run '^$' -bench 'BenchmarkLoopbackThroughput' -cpuprofile cpu.out .
//
// BenchmarkNewLater, which needs nothing of the harness, stays with the
// mock, in mockserver/bench_test.go.

// largeCorpus is the default corpus's configuration with five times the
// articles over the same days, loaded as a mock corpus once per process.
// Like row 2's, it comes from the mock's own generator through
// "go run ./mockserver/internal/corpus/gencorpus" (loadCorpus): this module
// cannot import mockserver/internal/corpus.
var largeCorpus = sync.OnceValues(func() (*mockserver.Corpus, error) {
	return loadCorpus(context.Background(), 5*mockserver.DefaultCorpus().Len())
})

// BenchmarkInProcessSearch serves /api/v2/query through the mock's handler
// with no socket, for queries of two or three title words, a site and a
// week, over the embedded corpus and one five times larger. "cold" makes
// every request distinct so the mock's result cache never answers it;
// "warm" repeats 64 queries. It reports the median latency (p50-ns).
func BenchmarkInProcessSearch(b *testing.B) {
	ctx := context.Background()
	small := mockserver.New(mockserver.WithoutListener(), mockserver.WithoutDateShift())
	defer small.Close()
	qs, err := workload.Queries(ctx, small.Client(), 64)
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []string{"embedded", "5x"} {
		b.Run(size, func(b *testing.B) {
			s := small
			if size == "5x" {
				c, err := largeCorpus()
				if err != nil {
					b.Fatal(err)
				}
				s = mockserver.New(mockserver.WithoutListener(), mockserver.WithoutDateShift(), mockserver.WithCorpus(c))
				defer s.Close()
			}
			for _, cold := range []bool{true, false} {
				name := "warm"
				if cold {
					name = "cold"
				}
				b.Run(name, func(b *testing.B) {
					call := workload.NewInProcess(s.Handler(), "/api/v2/query")
					var took []time.Duration
					b.ReportAllocs()
					for i := 0; b.Loop(); i++ {
						shift := time.Duration(0)
						if cold { // a start date one more millisecond back: a request the cache has not seen
							shift = time.Duration(i+1) * time.Millisecond
						}
						body := qs[i%len(qs)].Body(s.APIKey(), shift)
						start := time.Now()
						status, _, err := call.Call(body)
						took = append(took, time.Since(start))
						if err != nil || status != 200 {
							b.Fatal(status, err)
						}
					}
					b.ReportMetric(float64(medianDuration(took)), "p50-ns")
				})
			}
		})
	}
}

// medianDuration returns the median of ds, sorting ds.
func medianDuration(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// BenchmarkLoopbackThroughput sends sync queries answered with a full page
// to the mock over loopback and to a bare net/http handler writing the
// mock's answers as pre-encoded bytes, with 8, 16 and 32 connections; one
// op is one request, and req/s is reported. Compare the req/s of "mock"
// and "bare" at each connection count.
func BenchmarkLoopbackThroughput(b *testing.B) {
	ctx := context.Background()
	mock := mockserver.New()
	defer mock.Close()
	qs, err := workload.Queries(ctx, mock.Client(), 16)
	if err != nil {
		b.Fatal(err)
	}
	queryURL := mock.URL() + "/api/v2/query"
	bodies, answers, err := workload.FullPageBodies(qs, mock.APIKey(), 16, func(body []byte) ([]byte, error) {
		return workload.Fetch(ctx, mock.HTTPClient(), queryURL, body)
	})
	if err != nil {
		b.Fatal(err)
	}
	bare, err := workload.StartBare(answers)
	if err != nil {
		b.Fatal(err)
	}
	defer bare.Close()
	for _, conns := range []int{8, 16, 32} {
		for _, target := range []struct{ name, url string }{{"bare", bare.URL + "/api/v2/query"}, {"mock", queryURL}} {
			b.Run(target.name+"/conns="+strconv.Itoa(conns), func(b *testing.B) {
				hc := workload.NewHTTPClient(conns)
				defer hc.CloseIdleConnections()
				if _, err := workload.Load(ctx, hc, target.url, bodies, conns, 0, int64(conns)); err != nil { // open the connections
					b.Fatal(err)
				}
				b.ResetTimer()
				res, err := workload.Load(ctx, hc, target.url, bodies, conns, 0, int64(b.N))
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(res.PerSecond(), "req/s")
			})
		}
	}
}
