package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"time"
)

// rowStartup times the first New of fresh processes (child processes of
// this program) and the later New calls in each.
func rowStartup(_ context.Context, e *env) []result {
	first := result{order: 70, id: "7a", what: "Mock start-up: first New() in a fresh process (embedded corpus)", baseline: "-",
		target: "under 1 s and 200 MB resident"}
	later := result{order: 71, id: "7b", what: "Mock start-up: each later New() in the same process", baseline: "-",
		target: "under 5 ms each"}
	var runs []startupFigures
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
	var firsts, cpus, procs, all, mem []time.Duration
	var hwm, rss []int64
	for _, f := range runs {
		firsts, cpus, procs = append(firsts, f.FirstNew), append(cpus, f.FirstCPU), append(procs, f.ProcStart)
		hwm, rss = append(hwm, f.HWMKiB), append(rss, f.RSSKiB)
		all, mem = append(all, f.Later...), append(mem, f.LaterMem...)
	}
	maxHWM := slices.Max(hwm)
	first.measured = fmt.Sprintf("fastest %s, median %s, max %s over %d processes; CPU time median %s; VmHWM max %.0f MB",
		fmtMS(slices.Min(firsts)), fmtMS(median(firsts)), fmtMS(slices.Max(firsts)), len(runs), fmtMS(median(cpus)), float64(maxHWM)/1024)
	first.met = verdict(slices.Min(firsts) < time.Second && median(cpus) < time.Second && maxHWM > 0 && maxHWM*1024 < 200e6)
	first.notes = []string{
		fmt.Sprintf("first New per process: %v (CPU time %v); articles in the corpus: %d; VmRSS after it at most %.0f MB", firsts, cpus, runs[0].Articles, float64(slices.Max(rss))/1024),
		fmt.Sprintf("the first New builds the corpus and its index on all %d CPUs: wall time is about CPU time / %d on an idle machine, and grows with the machine's other load. "+
			"The verdict takes the fastest process (the machine's load only ever adds time) and the CPU time; median and max show what the load did", runtime.GOMAXPROCS(0), runtime.GOMAXPROCS(0)),
		fmt.Sprintf("process start (exec) to first New returned: median %s: includes loading the binary and the Go runtime", fmtMS(median(procs))),
		"VmHWM is the peak resident size of the child process, read from /proc/self/status right after the first New; 200 MB is taken as 200e6 bytes.",
	}
	medLater := median(all)
	later.measured = fmt.Sprintf("median %s, p99 %s (loopback socket); median %s without a socket",
		fmtUS(medLater), fmtUS(quantile(all, 0.99)), fmtUS(median(mem)))
	later.met = verdict(quantile(all, 0.99) < 5*time.Millisecond)
	later.notes = []string{fmt.Sprintf("%d later New calls with a socket (New only, Close not timed), %d without", len(all), len(mem))}
	return []result{first, later}
}

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
