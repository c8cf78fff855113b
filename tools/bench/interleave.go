package main

import (
	"context"
	"runtime"
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
