package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// rowStartup times the first New of fresh processes (child processes of
// this program) and the later New calls in each.
func rowStartup(_ context.Context, e *env) []result {
	first := result{order: 70, id: "7a", what: "Mock start-up: first New() in a fresh process (embedded corpus)", baseline: "-",
		target: "median under 120 ms and under 60 MB resident (VmHWM) over 10 processes"}
	later := result{order: 71, id: "7b", what: "Mock start-up: each later New() in the same process", baseline: "-",
		target: "p99 under 1 ms (loopback socket)"}
	var runs []startupFigures
	var batches []string
	steadyRuns := false
	attempts := maxAttempts
	if e.p.quick {
		attempts = 1
	}
	for batch := range attempts { // a batch whose first New times spread too widely is run again
		runs = runs[:0]
		begin := time.Now()
		for i := range e.p.startupChildren {
			if i >= 3 && time.Since(begin) > startupBudget { // a starved machine: enough processes to judge by
				e.logf("startup: stopping after %d processes, %v spent", i, time.Since(begin).Round(time.Second))
				break
			}
			f, err := startupChild(e.p.laterNews)
			if err != nil {
				return failure(err, first, later)
			}
			e.logf("startup child %d: first New %v, VmHWM %d KiB", i+1, f.FirstNew, f.HWMKiB)
			runs = append(runs, f)
		}
		var ms []float64
		for _, f := range runs {
			ms = append(ms, float64(f.FirstNew))
		}
		sp := relSpread(ms)
		batches = append(batches, fmt.Sprintf("batch %d: %d processes, median %s, spread %.0f%%", batch+1, len(runs), fmtMS(time.Duration(median(ms))), 100*sp))
		if sp <= startupSpread {
			steadyRuns = true
			break
		}
		e.logf("startup: spread %.0f%% is over %.0f%%, running the batch again", 100*sp, 100*startupSpread)
	}
	var firsts, cpus, procs, all, mem []time.Duration
	var hwm, rss []int64
	for _, f := range runs {
		firsts, cpus, procs = append(firsts, f.FirstNew), append(cpus, f.FirstCPU), append(procs, f.ProcStart)
		hwm, rss = append(hwm, f.HWMKiB), append(rss, f.RSSKiB)
		all, mem = append(all, f.Later...), append(mem, f.LaterMem...)
	}
	maxHWM := slices.Max(hwm)
	first.measured = fmt.Sprintf("median %s (fastest %s, p25 %s, p75 %s, max %s) over %d processes; CPU time median %s; VmHWM median %.0f MB, max %.0f MB",
		fmtMS(median(firsts)), fmtMS(slices.Min(firsts)), fmtMS(quantile(firsts, 0.25)), fmtMS(quantile(firsts, 0.75)), fmtMS(slices.Max(firsts)),
		len(runs), fmtMS(median(cpus)), float64(median(hwm))/1024, float64(maxHWM)/1024)
	first.met = judged(median(firsts) < 120*time.Millisecond && maxHWM > 0 && maxHWM*1024 < 60e6, steadyRuns)
	first.notes = []string{
		fmt.Sprintf("first New per process: %v (CPU time %v); articles in the corpus: %d; VmRSS after it at most %.0f MB", firsts, cpus, runs[0].Articles, float64(slices.Max(rss))/1024),
		fmt.Sprintf("the first New builds the corpus and its index on all %d CPUs: wall time is about CPU time / %d on an idle machine, and grows with the machine's other load. "+
			"The verdict takes the median process; fastest, quartiles and max show what the load did, and the CPU time what the work was", runtime.GOMAXPROCS(0), runtime.GOMAXPROCS(0)),
		fmt.Sprintf("process start (exec) to first New returned: median %s: includes loading the binary and the Go runtime", fmtMS(median(procs))),
		"VmHWM is the peak resident size of the child process, read from /proc/self/status right after the first New; 60 MB is taken as 60e6 bytes.",
		fmt.Sprintf("spread = interquartile range of the first New times over their median, at most %.0f%% to count: %s", 100*startupSpread, strings.Join(batches, "; ")),
	}
	medLater := median(all)
	later.measured = fmt.Sprintf("median %s, p99 %s (loopback socket); median %s without a socket",
		fmtUS(medLater), fmtUS(quantile(all, 0.99)), fmtUS(median(mem)))
	later.met = verdict(quantile(all, 0.99) < time.Millisecond)
	later.notes = []string{fmt.Sprintf("%d later New calls with a socket (New only, Close not timed), %d without", len(all), len(mem))}
	return []result{first, later}
}

// startupSpread is the widest spread of first New times accepted as a
// result (see relSpread).
const startupSpread = 0.25

// startupBudget is the time after which rowStartup starts no more than
// three child processes, so that a starved machine cannot stretch the run.
const startupBudget = 30 * time.Second

// startupChild runs one startup child and decodes its figures.
func startupChild(later int) (startupFigures, error) {
	var f startupFigures
	c, err := startChild(modeStart, laterEnv+"="+strconv.Itoa(later))
	if err != nil {
		return f, err
	}
	out, err := c.line()
	if stopErr := c.stop(); err == nil {
		err = stopErr
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		return f, fmt.Errorf("decoding the startup child's figures %q: %w", out, err)
	}
	return f, nil
}
