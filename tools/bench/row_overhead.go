package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// rowOverhead compares the SDK's Search with the same call written by hand
// (net/http + encoding/json into a plain struct), against a server in a
// child process, so that the allocations counted here are the client's
// alone: a bare server answering the mock's bytes for the query, and the
// mock itself.
func rowOverhead(ctx context.Context, e *env) []result {
	bare := result{order: 40, id: "4a", what: "SDK overhead per Search call (25-article page), bare server in a child process answering the mock's bytes",
		baseline: "hand-written net/http + encoding/json into a plain struct, same server",
		target:   "time at most 1.15x, allocations at most 1.3x"}
	mock := bare
	mock.order, mock.id = 41, "4b"
	mock.what = "SDK overhead per Search call (25-article page), the mock server in a child process"

	q, answer, err := workload.FullPageQuery(ctx)
	if err != nil {
		return failure(err, bare, mock)
	}
	dir, err := os.MkdirTemp("", "bench-")
	if err != nil {
		return failure(err, bare, mock)
	}
	defer os.RemoveAll(dir)
	out := []result{bare, mock}
	for i := range out {
		var c *child
		var url string
		if i == 0 {
			c, url, err = serveAnswers(dir, nil, []workload.Answer{workload.JSONAnswer("/api/v2/query", answer)}, "")
		} else {
			c, url, err = startServing(modeMock, nil)
		}
		if err == nil {
			err = overheadAgainst(ctx, e, &out[i], url, q)
			if stopErr := c.stop(); err == nil {
				err = stopErr
			}
		}
		out[i].err = err
	}
	return out
}

// overheadAgainst measures the server at url into r.
func overheadAgainst(ctx context.Context, e *env, r *result, url string, q workload.Query) error {
	hc := workload.NewHTTPClient(4)
	defer hc.CloseIdleConnections()
	sdk, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithBaseURL(url),
		newssearch.WithAPIKey(mockserver.DefaultAPIKey), newssearch.WithHTTPClient(hc))
	if err != nil {
		return err
	}
	params := q.Params()
	hand := &workload.HandSearch{Client: hc, URL: url + "/api/v2/query", APIKey: mockserver.DefaultAPIKey, Query: q}
	stream := *hand
	stream.Stream = true
	subjects := []subject{
		{"sdk", func(ctx context.Context) error {
			resp, err := sdk.Search(ctx, params)
			if err == nil && len(resp.Articles) != newssearch.PageSize {
				err = fmt.Errorf("SDK Search returned %d articles, want %d", len(resp.Articles), newssearch.PageSize)
			}
			return err
		}},
		{"hand-readall", handCall(hand)},
		{"hand-stream", handCall(&stream)},
	}
	if _, err := interleave(ctx, subjects, 1, max(10, e.p.overheadCalls/10)); err != nil { // warm-up
		return err
	}
	blocks, err := interleave(ctx, subjects, e.p.overheadRounds, e.p.overheadCalls)
	if err != nil {
		return err
	}
	// The baseline is the hand-written variant with the lower median over
	// all rounds (for time, CPU and allocations separately): taking the
	// better of the two in each round would favour whichever noise made
	// faster, biasing the ratio up.
	col := func(i int, f func(block) float64) []float64 {
		out := make([]float64, len(blocks))
		for r, b := range blocks {
			out[r] = f(b[i])
		}
		return out
	}
	wall := func(b block) float64 { return float64(b.perCall) }
	cpu := func(b block) float64 { return float64(b.cpuPer) }
	allocs := func(b block) float64 { return b.allocsPer }
	ratiosTo := func(f func(block) float64) (rs []float64, base string) {
		i := 1
		if median(col(2, f)) < median(col(1, f)) {
			i = 2
		}
		sdkCol, baseCol := col(0, f), col(i, f)
		for r := range sdkCol {
			rs = append(rs, sdkCol[r]/baseCol[r])
		}
		return rs, subjects[i].name
	}
	timeRatios, timeBase := ratiosTo(wall)
	cpuRatios, cpuBase := ratiosTo(cpu)
	allocRatios, allocBase := ratiosTo(allocs)
	sdkNs, readAllNs, streamNs := col(0, wall), col(1, wall), col(2, wall)
	sdkAllocs, readAllAllocs, streamAllocs := col(0, allocs), col(1, allocs), col(2, allocs)
	tr, ar := median(timeRatios), median(allocRatios)
	r.measured = fmt.Sprintf("time %.3fx (CPU time %.3fx), allocations %.3fx", tr, median(cpuRatios), ar)
	r.met = verdict(tr <= 1.15 && ar <= 1.3)
	r.notes = []string{
		fmt.Sprintf("median per call: SDK %.1f µs / %.0f allocs; hand-written ReadAll+Unmarshal %.1f µs / %.0f allocs; hand-written json.Decoder %.1f µs / %.0f allocs",
			median(sdkNs)/1e3, median(sdkAllocs), median(readAllNs)/1e3, median(readAllAllocs), median(streamNs)/1e3, median(streamAllocs)),
		fmt.Sprintf("each ratio is the median of the per-round ratios against the hand-written variant with the lower median: time against %s (%s), CPU against %s (%s), allocations against %s (%s)",
			timeBase, spread(timeRatios), cpuBase, spread(cpuRatios), allocBase, spread(allocRatios)),
		"CPU time is this process's, that is the client's alone (the server is another process): less disturbed by the machine's other load than wall time",
		fmt.Sprintf("query %q, %d rounds of %d calls per subject, order rotating; one http.Client (4 idle connections) shared by all subjects", q.Text, e.p.overheadRounds, e.p.overheadCalls),
	}
	e.logf("overhead %s: time %.3fx allocs %.3fx", r.id, tr, ar)
	return nil
}

// handCall adapts a hand-written search to a subject.
func handCall(h *workload.HandSearch) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		resp, err := h.Do(ctx)
		if err == nil && len(resp.Results.Articles) != newssearch.PageSize {
			err = errors.New("the hand-written search did not get a full page")
		}
		return err
	}
}
