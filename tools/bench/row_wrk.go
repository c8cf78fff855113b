package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// rowWrk repeats row 3's comparison with an external load generator, wrk,
// pinned to CPU 0 while the server under test (a child process) is pinned
// to CPU 1, so that load generator and server do not share a CPU as they
// do in row 3. It is skipped, with an install hint, when wrk is missing.
func rowWrk(ctx context.Context, e *env) []result {
	r := result{order: 34, id: "3w", what: "Mock HTTP throughput measured with wrk (sync query, 25-article page): wrk pinned to CPU 0, server in a child process pinned to CPU 1",
		baseline: "bare net/http handler (child process, same pinning) writing the mock's bytes of the same answer",
		target:   "at least 0.95 at 8, 16 and 32 connections"}
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		r.measured, r.met = "skipped: wrk is not installed (Debian/Ubuntu: sudo apt-get install wrk; then, in tools/bench, go run . -rows wrk)", "-"
		return []result{r}
	}
	taskset, err := exec.LookPath("taskset")
	pin := func(cpu string, argv ...string) []string { return append([]string{taskset, "-c", cpu}, argv...) }
	if err != nil || e.p.quick {
		pin = func(_ string, argv ...string) []string { return argv }
		r.notes = append(r.notes, "not pinned: taskset is missing (util-linux) or this is a -quick run")
	} else {
		r.notes = append(r.notes, "pinned with taskset: wrk to CPU 0, each server child to CPU 1 (Go sizes GOMAXPROCS to the one CPU it may use)")
	}
	dir, err := os.MkdirTemp("", "benchcmp-wrk")
	if err != nil {
		return failure(err, r)
	}
	defer os.RemoveAll(dir)
	mockChild, err := startChildWith(modeMock, pin("1"))
	if err != nil {
		return failure(err, r)
	}
	defer mockChild.stop()
	mockURL, err := mockChild.line()
	if err != nil {
		return failure(err, r)
	}
	q, _, err := workload.FullPageQuery(ctx)
	if err != nil {
		return failure(err, r)
	}
	body := q.Body(mockserver.DefaultAPIKey, 0)
	answer, err := workload.Fetch(ctx, workload.NewHTTPClient(1), mockURL+"/api/v2/query", body)
	if err != nil {
		return failure(err, r)
	}
	bodyFile := filepath.Join(dir, "answer.json")
	if err := os.WriteFile(bodyFile, answer, 0o600); err != nil {
		return failure(err, r)
	}
	// The bare server, then the one writing each answer in one system call.
	var bareURLs []string
	for _, mode := range []string{modeBytes, modeBytes1} {
		bareChild, err := startChildWith(mode, pin("1"), bodyEnv+"="+bodyFile)
		if err != nil {
			return failure(err, r)
		}
		defer bareChild.stop()
		u, err := bareChild.line()
		if err != nil {
			return failure(err, r)
		}
		bareURLs = append(bareURLs, u)
	}
	script := filepath.Join(dir, "post.lua")
	lua := "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = [==[" + string(body) + "]==]\n"
	if err := os.WriteFile(script, []byte(lua), 0o600); err != nil {
		return failure(err, r)
	}
	urls := []string{bareURLs[0] + "/api/v2/query", mockURL + "/api/v2/query", bareURLs[1] + "/api/v2/query"}
	run := func(url string, conns int) (float64, error) {
		argv := pin("0", wrk, "-t1", "-c"+strconv.Itoa(conns), "-d"+e.p.wrkDuration.String(), "-s", script, url)
		out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, out)
		}
		if strings.Contains(string(out), "Non-2xx") || strings.Contains(string(out), "Socket errors") {
			return 0, fmt.Errorf("wrk saw failed requests: %s", out)
		}
		m := wrkRate.FindSubmatch(out)
		if m == nil {
			return 0, fmt.Errorf("no Requests/sec in wrk's output: %s", out)
		}
		return strconv.ParseFloat(string(m[1]), 64)
	}
	var parts []string
	worst, allSteady := 0.0, true
	for _, conns := range e.p.loadConns {
		if _, err := run(urls[1], conns); err != nil { // warm-up
			return failure(err, r)
		}
		var bareRates, mockRates, oneRates, oneRs []float64
		rs, ok, note, err := steady(e, fmt.Sprintf("wrk %d conns", conns), func() ([]float64, error) {
			var rs []float64
			bareRates, mockRates, oneRates, oneRs = nil, nil, nil, nil
			for round := range e.p.wrkRounds {
				var rates [3]float64
				for k := range rates {
					i := (k + round) % len(rates)
					rate, err := run(urls[i], conns)
					if err != nil {
						return nil, err
					}
					rates[i] = rate
				}
				rs, oneRs = append(rs, rates[1]/rates[0]), append(oneRs, rates[1]/rates[2])
				bareRates, mockRates, oneRates = append(bareRates, rates[0]), append(mockRates, rates[1]), append(oneRates, rates[2])
			}
			return rs, nil
		})
		if err != nil {
			return failure(err, r)
		}
		m := median(rs)
		if worst == 0 || m < worst {
			worst = m
		}
		allSteady = allSteady && ok
		parts = append(parts, fmt.Sprintf("%d conns %.2f (one-write %.2f)", conns, m, median(oneRs)))
		r.notes = append(r.notes, fmt.Sprintf("%d connections: mock %.0f req/s, bare %.0f req/s (medians); ratio %.3f (%s); bare writing once %.0f req/s, one-write ratio %.3f (%s)",
			conns, median(mockRates), median(bareRates), m, spread(rs), median(oneRates), median(oneRs), spread(oneRs)), note)
	}
	r.measured = strings.Join(parts, ", ")
	r.met = judged(worst >= 0.95, allSteady)
	r.notes = append(r.notes,
		fmt.Sprintf("wrk -t1 -c<conns> -d%v, one query body (answer %d bytes) POSTed again and again through a Lua script; each round runs bare, mock and the one-write bare once, order rotating", e.p.wrkDuration, len(answer)),
		oneWriteExplained,
		"unlike row 3 the load generator does not take CPU from the server: the ratio is the server's own cost per request against the bare handler's, on one CPU",
	)
	return []result{r}
}

// wrkRate finds the rate in wrk's summary.
var wrkRate = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
