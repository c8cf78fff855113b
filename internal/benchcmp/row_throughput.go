package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/newssearch/newssearch-go/internal/benchcmp/workload"
	"github.com/newssearch/newssearch-go/mockserver"
)

// rowThroughput compares the requests per second the mock answers over
// loopback with those of a bare net/http handler writing the mock's own
// answers as pre-encoded bytes, at several connection counts.
func rowThroughput(ctx context.Context, e *env) []result {
	r := result{order: 30, id: "3", what: "Mock HTTP throughput, sync query returning a 25-article page, loopback",
		baseline: "bare net/http handler writing pre-encoded bytes of the same answers",
		target:   "at least 0.7 at 8-32 connections"}
	mock := mockserver.New()
	defer mock.Close()
	qs, err := workload.Queries(ctx, mock.Client(), 16)
	if err != nil {
		return failure(err, r)
	}
	queryURL := mock.URL() + "/api/v2/query"
	bodies, answers, err := workload.FullPageBodies(qs, mock.APIKey(), 16, func(body []byte) ([]byte, error) {
		return workload.Fetch(ctx, mock.HTTPClient(), queryURL, body)
	})
	if err != nil {
		return failure(err, r)
	}
	bare, err := workload.StartBare(answers)
	if err != nil {
		return failure(err, r)
	}
	defer bare.Close()
	size := 0
	for _, a := range answers {
		size += len(a)
	}
	worst := 0.0
	var parts []string
	for _, conns := range e.p.loadConns {
		var targets []func() (workload.LoadResult, error) // bare, then mock
		for _, url := range []string{bare.URL + "/api/v2/query", queryURL} {
			hc := workload.NewHTTPClient(conns)
			defer hc.CloseIdleConnections()
			targets = append(targets, func() (workload.LoadResult, error) {
				return workload.Load(ctx, hc, url, bodies, conns, 0, int64(e.p.loadRequests))
			})
		}
		for _, load := range targets { // warm-up: open the connections
			if _, err := load(); err != nil {
				return failure(err, r)
			}
		}
		var rs, cpuRs, bareRates, mockRates []float64
		for round := range e.p.loadRounds {
			var rates, cpuPer [2]float64
			for k := range targets {
				i := (k + round) % len(targets)
				cpu := cpuTime()
				res, err := targets[i]()
				if err != nil {
					return failure(err, r)
				}
				rates[i] = res.PerSecond()
				cpuPer[i] = float64(cpuTime()-cpu) / float64(max(res.Requests, 1))
			}
			rs, cpuRs = append(rs, rates[1]/rates[0]), append(cpuRs, cpuPer[0]/cpuPer[1])
			bareRates, mockRates = append(bareRates, rates[0]), append(mockRates, rates[1])
		}
		m := median(rs)
		if worst == 0 || m < worst {
			worst = m
		}
		parts = append(parts, fmt.Sprintf("%d conns %.2f (CPU %.2f)", conns, m, median(cpuRs)))
		r.notes = append(r.notes, fmt.Sprintf("%d connections: mock %.0f req/s, bare %.0f req/s (medians); ratio %.3f (%s); by CPU time per request %.3f (%s)",
			conns, median(mockRates), median(bareRates), m, spread(rs), median(cpuRs), spread(cpuRs)))
		e.logf("throughput %d conns: ratio %.3f", conns, m)
	}
	r.measured = strings.Join(parts, ", ")
	r.met = verdict(worst >= 0.7)
	r.notes = append(r.notes,
		fmt.Sprintf("%d distinct one-word queries in turn, each answered with a full page (mean answer %d bytes); the mock's result cache is warm after the warm-up, as in a test suite repeating its queries (row 1 gives the cost of a search the cache has not seen)", len(bodies), size/len(answers)),
		fmt.Sprintf("each round sends %d requests to each server, order alternating; load generator, mock and bare server share this process and its CPUs", e.p.loadRequests),
		"ratio = mock req/s over bare req/s (wall clock); CPU = bare CPU time per request over the mock's (this process's user+system time, load generator included for both): what the ratio would be on a machine where the benchmark has the CPUs to itself",
	)
	return []result{r}
}
