package main

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"
)

// subject is one contender of an interleaved comparison: call does one
// operation.
type subject struct {
	name string
	call func(ctx context.Context) error
}

// block is the outcome of one subject's calls in one round.
type block struct {
	perCall   time.Duration // wall-clock time
	cpuPer    time.Duration // CPU time of this process (all goroutines)
	allocsPer float64
}

// interleave runs rounds rounds; in each, every subject makes calls calls
// in a row, the order of the subjects rotating from round to round so
// that no subject always follows the same one. It returns blocks[round][subject].
// Allocations (runtime.MemStats.Mallocs) and CPU time are counted
// process-wide.
func interleave(ctx context.Context, subjects []subject, rounds, calls int) ([][]block, error) {
	out := make([][]block, rounds)
	var ms runtime.MemStats
	for r := range rounds {
		out[r] = make([]block, len(subjects))
		for k := range subjects {
			i := (k + r) % len(subjects)
			s := subjects[i]
			runtime.ReadMemStats(&ms)
			mallocs := ms.Mallocs
			cpu := cpuTime()
			begin := time.Now()
			for range calls {
				if err := s.call(ctx); err != nil {
					return nil, err
				}
			}
			took := time.Since(begin)
			cpu = cpuTime() - cpu
			runtime.ReadMemStats(&ms)
			out[r][i] = block{perCall: took / time.Duration(calls), cpuPer: cpu / time.Duration(calls),
				allocsPer: float64(ms.Mallocs-mallocs) / float64(calls)}
		}
	}
	return out, nil
}

// Noise control: a comparison whose per-round ratios spread too widely is
// run again, up to maxAttempts times in all, rather than printed as a
// result. The spread is the interquartile range of the per-round ratios
// over their median.
const (
	maxSpread   = 0.10
	maxAttempts = 3
)

// relSpread returns the interquartile range of xs over its median.
func relSpread(xs []float64) float64 {
	m := median(xs)
	if m == 0 || len(xs) < 2 {
		return 0
	}
	return (quantile(xs, 0.75) - quantile(xs, 0.25)) / m
}

// steady runs attempt until its per-round ratios spread at most
// maxSpread, at most maxAttempts times (once with -quick). It returns the
// ratios of the first steady attempt, or of the last one with ok false,
// and a note on every attempt made.
func steady(e *env, what string, attempt func() ([]float64, error)) (rs []float64, ok bool, note string, err error) {
	var parts []string
	n := maxAttempts
	if e.p.quick {
		n = 1
	}
	for i := range n {
		rs, err = attempt()
		if err != nil {
			return nil, false, "", err
		}
		sp := relSpread(rs)
		parts = append(parts, fmt.Sprintf("attempt %d: median %.3f, spread %.0f%%", i+1, median(rs), 100*sp))
		if sp <= maxSpread {
			ok = true
			break
		}
		e.logf("%s: spread %.0f%% is over %.0f%%, running it again", what, 100*sp, 100*maxSpread)
	}
	verdict := "steady"
	if !ok {
		verdict = fmt.Sprintf("NOT steady after %d attempts: the figure is noisy, not a result", n)
	}
	return rs, ok, fmt.Sprintf("%s: %s (spread = interquartile range of the per-round ratios over their median, at most %.0f%% to count; %s)",
		what, strings.Join(parts, "; "), 100*maxSpread, verdict), nil
}
