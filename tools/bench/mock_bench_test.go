package main

import (
	"context"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// BenchmarkInProcessSearch serves row 1's searches one at a time through
// the mock's handler, with no socket, for go test -bench with -cpuprofile or
// -memprofile (from tools/bench):
//
//	go test -run '^$' -bench BenchmarkInProcessSearch -cpuprofile cpu.out .
//
// "cold" makes every request distinct so the mock's result cache never
// answers it; "warm" repeats 64 queries. It reports the median latency
// (p50-ns). BenchmarkNewLater, which needs nothing of the harness, is in
// mockserver/bench_test.go.
func BenchmarkInProcessSearch(b *testing.B) {
	s := mockserver.New(mockserver.WithoutListener(), mockserver.WithoutDateShift())
	defer s.Close()
	qs, err := workload.Queries(context.Background(), s.Client(), 64)
	if err != nil {
		b.Fatal(err)
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
			b.ReportMetric(float64(median(took)), "p50-ns")
		})
	}
}
