package main

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// These benchmarks measure the SDK the way the harness's rows 4 to 8 do,
// one subject at a time, for go test -bench and -cpuprofile/-memprofile.
// The ratios against their baselines, interleaved and repeated, come from
// "go run ." in this directory; see BENCHMARKS.md. Suggested runs, from
// tools/bench:
//
//	go test -run '^$' -bench 'BenchmarkSDKOverhead' -benchmem .
//	go test -run '^$' -bench 'BenchmarkDrainJob|BenchmarkSearchRange90Days|BenchmarkPollShortJob' -benchtime 3x .
//
// Decoding alone (BenchmarkDecodeSearch, an unexported function) is
// measured in the SDK's own package: bench_test.go at the repository root.

// perfLatency is the latency the mock adds to asynchronous requests in
// the drain and range benchmarks, as in the harness's rows 5 and 6.
const perfLatency = 20 * time.Millisecond

// perfClient returns an SDK client with the SDK's own defaults for s.
func perfClient(b *testing.B, s *mockserver.Server) *newssearch.Client {
	b.Helper()
	c, err := workload.SDKClient(s)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkSDKOverhead compares Search with the same call written by hand
// (net/http + encoding/json into a plain struct, reading the body whole or
// streaming it), against a bare loopback server answering the mock's bytes
// for a full page. Allocations include the in-process server's few per
// request (the harness's row 4 runs the server in a child process instead).
func BenchmarkSDKOverhead(b *testing.B) {
	ctx := context.Background()
	q, answer, err := workload.FullPageQuery(ctx)
	if err != nil {
		b.Fatal(err)
	}
	bare, err := workload.StartBare([]workload.Answer{workload.JSONAnswer("/api/v2/query", answer)})
	if err != nil {
		b.Fatal(err)
	}
	defer bare.Close()
	hc := workload.NewHTTPClient(4)
	defer hc.CloseIdleConnections()
	sdk, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithBaseURL(bare.URL),
		newssearch.WithAPIKey(mockserver.DefaultAPIKey), newssearch.WithHTTPClient(hc))
	if err != nil {
		b.Fatal(err)
	}
	params := q.Params()
	b.Run("sdk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			resp, err := sdk.Search(ctx, params)
			if err != nil || len(resp.Articles) != newssearch.PageSize {
				b.Fatal(resp, err)
			}
		}
	})
	for _, stream := range []bool{false, true} {
		name := "hand-readall"
		if stream {
			name = "hand-stream"
		}
		h := &workload.HandSearch{Client: hc, URL: bare.URL + "/api/v2/query", APIKey: mockserver.DefaultAPIKey, Query: q, Stream: stream}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resp, err := h.Do(ctx)
				if err != nil || len(resp.Results.Articles) != newssearch.PageSize {
					b.Fatal(resp, err)
				}
			}
		})
	}
}

// BenchmarkDrainJob drains a finished job of 2,500 results (100 pages)
// with Results, one page at a time and with pages fetched ahead, from a
// mock adding perfLatency to every get-results request.
func BenchmarkDrainJob(b *testing.B) {
	ctx := context.Background()
	s := mockserver.New(mockserver.WithPendingPolls(0), workload.LatencyRules(perfLatency))
	defer s.Close()
	c := perfClient(b, s)
	id, total, err := workload.SizedJob(ctx, c, time.Now().Add(time.Hour), 2500)
	if err != nil {
		b.Fatal(err)
	}
	for _, prefetch := range []int{0, newssearch.DefaultPrefetch, 8} {
		b.Run("prefetch="+strconv.Itoa(prefetch), func(b *testing.B) {
			for b.Loop() {
				ids, err := workload.Drain(ctx, c, id, prefetch)
				if err != nil || len(ids) != total {
					b.Fatal(len(ids), err)
				}
			}
		})
	}
}

// BenchmarkSearchRange90Days runs SearchRange over the last 90 days with
// jobs pending 200 ms, one window at a time and with the default
// concurrency, both with the default poll options.
func BenchmarkSearchRange90Days(b *testing.B) {
	ctx := context.Background()
	s := mockserver.New(mockserver.WithPendingPolls(0), mockserver.WithPendingDuration(200*time.Millisecond), workload.LatencyRules(perfLatency))
	defer s.Close()
	c := perfClient(b, s)
	end := time.Now()
	start := end.Add(-90 * 24 * time.Hour)
	query, _, err := workload.RangeQuery(ctx, c, start, end, 90*9)
	if err != nil {
		b.Fatal(err)
	}
	params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: query, StartDate: start, EndDate: end}}
	var want []string
	for _, tc := range []struct {
		name string
		opts *newssearch.RangeOptions
	}{{"concurrency=1", &newssearch.RangeOptions{Concurrency: 1}}, {"default", nil}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				ids, err := workload.RangeIDs(ctx, c, params, tc.opts)
				if err != nil {
					b.Fatal(err)
				}
				if want == nil {
					want = ids
				} else if !slices.Equal(ids, want) {
					b.Fatalf("%s returned %d articles, not the %d of the first run in the same order", tc.name, len(ids), len(want))
				}
			}
		})
	}
}

// BenchmarkPollShortJob waits for a job pending 300 ms with Poll's default
// options and with the vendor SDK's fixed 1 s loop, and reports how late
// after readiness the result came (late-ms, the mean over b.N jobs).
func BenchmarkPollShortJob(b *testing.B) {
	ctx := context.Background()
	const pending = 300 * time.Millisecond
	s := mockserver.New(mockserver.WithPendingPolls(0), mockserver.WithPendingDuration(pending))
	defer s.Close()
	c := perfClient(b, s)
	for _, vendor := range []bool{false, true} {
		name := "sdk"
		if vendor {
			name = "vendor"
		}
		b.Run(name, func(b *testing.B) {
			var late time.Duration
			var requests, n int
			for b.Loop() {
				o, err := workload.WaitJob(ctx, s, c, pending, vendor, time.Second)
				if err != nil {
					b.Fatal(err)
				}
				late, requests, n = late+o.Late, requests+o.Requests, n+1
			}
			b.ReportMetric(float64(late.Milliseconds())/float64(n), "late-ms")
			b.ReportMetric(float64(requests)/float64(n), "requests/op")
		})
	}
}
