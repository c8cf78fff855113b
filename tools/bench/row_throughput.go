package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/newssearch/newssearch-go/internal/onewrite"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// rowThroughput compares the requests per second the mock answers over
// loopback with those of a bare net/http handler writing the mock's own
// answers as pre-encoded bytes: sync queries at several connection counts,
// then get-results of a finished job (page 1 and page 10) and query-async
// submissions.
func rowThroughput(ctx context.Context, e *env) []result {
	r := result{order: 30, id: "3", what: "Mock HTTP throughput, sync query returning a 25-article page, loopback",
		baseline: "bare net/http handler writing pre-encoded bytes of the same answers",
		target:   "at least 0.95 at 8, 16 and 32 connections"}
	g1 := result{order: 31, id: "3b", what: fmt.Sprintf("Mock HTTP throughput, get-results page 1 of a finished job (25 articles), %d connections", e.p.jobConns),
		baseline: "bare net/http handler writing pre-encoded bytes of the same answers", target: "at least 0.9"}
	g10 := g1
	g10.order, g10.id, g10.what = 32, "3c", fmt.Sprintf("Mock HTTP throughput, get-results page 10 of a finished job (25 articles), %d connections", e.p.jobConns)
	qa := result{order: 33, id: "3d", what: fmt.Sprintf("Mock HTTP throughput, query-async submission (creates a job), %d connections", e.p.jobConns),
		baseline: "bare net/http handler writing pre-encoded bytes of a submission answer", target: "at least 0.9"}
	all := []result{r, g1, g10, qa}
	mock := mockserver.New(mockserver.WithPendingPolls(0))
	defer mock.Close()
	qs, err := workload.Queries(ctx, mock.Client(), 16)
	if err != nil {
		return failure(err, all...)
	}
	fetch := func(path string) func(body []byte) ([]byte, error) {
		return func(body []byte) ([]byte, error) {
			return workload.Fetch(ctx, mock.HTTPClient(), mock.URL()+path, body)
		}
	}
	bodies, answers, err := workload.FullPageBodies(qs, mock.APIKey(), 16, fetch("/api/v2/query"))
	if err != nil {
		return failure(err, all...)
	}
	size := 0
	for _, a := range answers {
		size += len(a)
	}
	var parts []string
	worst, allSteady := 0.0, true
	for _, conns := range e.p.loadConns {
		c, err := compareLoad(ctx, e, fmt.Sprintf("throughput %d conns", conns), "/api/v2/query", mock, bodies, answers, conns, e.p.loadRequests)
		if err != nil {
			return failure(err, all...)
		}
		if worst == 0 || c.ratio < worst {
			worst = c.ratio
		}
		allSteady = allSteady && c.steady
		parts = append(parts, fmt.Sprintf("%d conns %.2f (CPU %.2f%s)", conns, c.ratio, c.cpu, c.oneWriteShort()))
		r.notes = append(r.notes, fmt.Sprintf("%d connections: mock %.0f req/s, bare %.0f req/s (medians); ratio %.3f (%s); by CPU time per request %.3f (%s)%s",
			conns, c.mockRate, c.bareRate, c.ratio, spread(c.rs), c.cpu, spread(c.cpuRs), c.oneWriteLong()), c.note)
	}
	r.measured = strings.Join(parts, ", ")
	r.met = judged(worst >= 0.95, allSteady)
	r.notes = append(r.notes,
		fmt.Sprintf("%d distinct one-word queries in turn, each answered with a full page (mean answer %d bytes); the mock's result and page caches are warm after the warm-up, as in a test suite repeating its queries (row 1 gives the cost of a search the cache has not seen)", len(bodies), size/len(answers)),
		fmt.Sprintf("each round sends %d requests to each server, order alternating; load generator, mock and bare server share this process and its CPUs", e.p.loadRequests),
		"ratio = mock req/s over bare req/s (wall clock); CPU = bare CPU time per request over the mock's (this process's user+system time, load generator included for both): what the ratio would be on a machine where the benchmark has the CPUs to itself",
		oneWriteExplained,
	)

	// get-results of finished jobs: 16 jobs of the match-all search, each
	// asked for the same page in turn.
	var ids []string
	for range 16 {
		b, err := fetch("/api/v2/query-async")([]byte(`{"api_key":` + quote(mock.APIKey()) + `,"query":"*"}`))
		if err != nil {
			return failure(err, all...)
		}
		var sub struct {
			QueryID string `json:"query_id"`
		}
		if err := json.Unmarshal(b, &sub); err != nil || sub.QueryID == "" {
			return failure(fmt.Errorf("query-async answered %s (%v)", b, err), all...)
		}
		ids = append(ids, sub.QueryID)
	}
	for i, page := range []int{1, 10} {
		line := &all[1+i]
		var gb, ga [][]byte
		for _, id := range ids {
			body := []byte(fmt.Sprintf(`{"api_key":%s,"query_id":%q,"page":%d}`, quote(mock.APIKey()), id, page))
			a, err := fetch("/api/v2/get-results")(body)
			if err != nil {
				return failure(err, all...)
			}
			if !strings.Contains(string(a), `"state":"SUCCESS"`) || strings.Count(string(a), `"_id":`) != 25 {
				return failure(fmt.Errorf("get-results page %d of a finished job is not a full page: %.200s", page, a), all...)
			}
			gb, ga = append(gb, body), append(ga, a)
		}
		c, err := compareLoad(ctx, e, fmt.Sprintf("get-results page %d", page), "/api/v2/get-results", mock, gb, ga, e.p.jobConns, e.p.jobRequests)
		if err != nil {
			return failure(err, all...)
		}
		line.measured = fmt.Sprintf("%.2f (CPU %.2f%s)", c.ratio, c.cpu, c.oneWriteShort())
		line.met = judged(c.ratio >= 0.9, c.steady)
		line.notes = append(line.notes, fmt.Sprintf("mock %.0f req/s, bare %.0f req/s (medians); ratio %.3f (%s); by CPU time %.3f (%s)%s; answer %d bytes; 16 finished jobs of the match-all search in turn, the same page of each (one cached page)",
			c.mockRate, c.bareRate, c.ratio, spread(c.rs), c.cpu, spread(c.cpuRs), c.oneWriteLong(), len(ga[0])), c.note)
		if c.oneWrite != 0 {
			line.notes = append(line.notes, oneWriteExplained)
		}
	}
	// query-async: every request creates a job (the oldest are evicted
	// beyond the job limit); the bare server answers a submission's bytes.
	var qb [][]byte
	for _, q := range bodies {
		var m map[string]any
		if err := json.Unmarshal(q, &m); err != nil {
			return failure(err, all...)
		}
		delete(m, "page")
		b, _ := json.Marshal(m)
		qb = append(qb, b)
	}
	sub, err := fetch("/api/v2/query-async")(qb[0])
	if err != nil {
		return failure(err, all...)
	}
	c, err := compareLoad(ctx, e, "query-async", "/api/v2/query-async", mock, qb, [][]byte{sub}, e.p.jobConns, e.p.jobRequests)
	if err != nil {
		return failure(err, all...)
	}
	all[3].measured = fmt.Sprintf("%.2f (CPU %.2f)", c.ratio, c.cpu)
	all[3].met = judged(c.ratio >= 0.9, c.steady)
	all[3].notes = append(all[3].notes, fmt.Sprintf("mock %.0f req/s, bare %.0f req/s (medians); ratio %.3f (%s); by CPU time %.3f (%s); %d one-word queries in turn, each request a new job (answer %d bytes)",
		c.mockRate, c.bareRate, c.ratio, spread(c.rs), c.cpu, spread(c.cpuRs), len(qb), len(sub)), c.note)
	all[0] = r
	return all
}

// oneWriteExplained says what the one-write figures are.
const oneWriteExplained = "one-write = mock req/s over those of a bare server that also sends each answer's header and body in one system call " +
	"(internal/onewrite), as the mock does; net/http alone makes two writes of an answer over 4 KiB, and the target's baseline is net/http alone. " +
	"It is loaded in the same rounds, and shows what the rest of the mock's work costs"

// oneWriteShort is the one-write ratio for a row's figures, or "".
func (c loadComparison) oneWriteShort() string {
	if c.oneWrite == 0 {
		return ""
	}
	return fmt.Sprintf("; one-write %.2f", c.oneWrite)
}

// oneWriteLong is the one-write comparison for a row's notes, or "".
func (c loadComparison) oneWriteLong() string {
	if c.oneWrite == 0 {
		return ""
	}
	return fmt.Sprintf("; bare writing once %.0f req/s, one-write ratio %.3f (%s)", c.oneWriteRate, c.oneWrite, spread(c.oneWriteRs))
}

// judged is the verdict of a target on a figure that may be noisy.
func judged(met, steady bool) string {
	if !steady {
		return "noisy"
	}
	return verdict(met)
}

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// loadComparison is the outcome of compareLoad.
type loadComparison struct {
	ratio, cpu         float64 // medians of the per-round ratios
	rs, cpuRs          []float64
	mockRate, bareRate float64
	steady             bool
	note               string
	// oneWrite is the median ratio against a bare server that also sends
	// each answer in one system call, and oneWriteRate its median rate;
	// both 0 when the answers are too short for it to differ.
	oneWrite, oneWriteRate float64
	oneWriteRs             []float64
}

// compareLoad runs the mock's path and a bare server answering answers in
// turn under the same load of bodies, interleaved, in e.p.loadRounds
// rounds of requests each, repeated while the ratios spread too widely.
// When an answer is longer than onewrite.MinBody, every round also loads a
// bare server that sends each answer in one system call, as the mock does.
func compareLoad(ctx context.Context, e *env, what, path string, mock *mockserver.Server, bodies, answers [][]byte, conns, requests int) (loadComparison, error) {
	var out loadComparison
	urls := []string{"", mock.URL() + path} // bare, mock, then the one-write bare
	bare, err := workload.StartBare(answers)
	if err != nil {
		return out, err
	}
	defer bare.Close()
	urls[0] = bare.URL + path
	if slices.ContainsFunc(answers, func(a []byte) bool { return len(a) > onewrite.MinBody }) {
		bare1, err := workload.StartBareOneWrite(answers)
		if err != nil {
			return out, err
		}
		defer bare1.Close()
		urls = append(urls, bare1.URL+path)
	}
	var targets []func() (workload.LoadResult, error)
	for _, url := range urls {
		hc := workload.NewHTTPClient(conns)
		defer hc.CloseIdleConnections()
		targets = append(targets, func() (workload.LoadResult, error) {
			return workload.Load(ctx, hc, url, bodies, conns, 0, int64(requests))
		})
	}
	for _, load := range targets { // warm-up: open the connections, fill the caches
		if _, err := load(); err != nil {
			return out, err
		}
	}
	var bareRates, mockRates, oneWriteRates []float64
	rs, ok, note, err := steady(e, what, func() ([]float64, error) {
		var rs []float64
		out.cpuRs, out.oneWriteRs, bareRates, mockRates, oneWriteRates = nil, nil, nil, nil, nil
		for round := range e.p.loadRounds {
			rates, cpuPer := make([]float64, len(targets)), make([]float64, len(targets))
			for k := range targets {
				i := (k + round) % len(targets)
				cpu := cpuTime()
				res, err := targets[i]()
				if err != nil {
					return nil, err
				}
				rates[i] = res.PerSecond()
				cpuPer[i] = float64(cpuTime()-cpu) / float64(max(res.Requests, 1))
			}
			rs, out.cpuRs = append(rs, rates[1]/rates[0]), append(out.cpuRs, cpuPer[0]/cpuPer[1])
			bareRates, mockRates = append(bareRates, rates[0]), append(mockRates, rates[1])
			if len(rates) > 2 {
				out.oneWriteRs, oneWriteRates = append(out.oneWriteRs, rates[1]/rates[2]), append(oneWriteRates, rates[2])
			}
		}
		return rs, nil
	})
	if err != nil {
		return out, err
	}
	if len(out.oneWriteRs) > 0 {
		out.oneWrite, out.oneWriteRate = median(out.oneWriteRs), median(oneWriteRates)
	}
	out.rs, out.ratio, out.cpu, out.steady, out.note = rs, median(rs), median(out.cpuRs), ok, note
	out.mockRate, out.bareRate = median(mockRates), median(bareRates)
	e.logf("%s: ratio %.3f", what, out.ratio)
	return out, nil
}
