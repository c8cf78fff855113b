package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// rowStartup times the first New of fresh processes (child processes of
// this program) and the later New calls in each. The mock keeps its default
// corpus and index in a cache file (NEWSSEARCH_MOCK_CACHE, package
// mockserver/internal/snapshot): 7a runs its processes with the file in
// place, as every process but the first on a machine finds it; 7c gives each
// process an empty cache directory, as the first one finds it, and so times
// building the corpus and storing the file.
func rowStartup(_ context.Context, e *env) []result {
	first := result{order: 70, id: "7a", what: "Mock start-up: first New() in a fresh process (cache file in place)", baseline: "-",
		target: "median under 120 ms and under 60 MB resident (VmHWM) over 10 processes"}
	later := result{order: 71, id: "7b", what: "Mock start-up: each later New() in the same process", baseline: "-",
		target: "p99 under 1 ms (loopback socket)"}
	cold := result{order: 72, id: "7c", what: "Mock start-up: first New() in the first process on a machine (no cache file: builds and stores it)", baseline: "-",
		target: "the 7a target, for comparison"}
	cacheRoot, err := os.MkdirTemp("", "benchcmp-cache-")
	if err != nil {
		return failure(err, first, later, cold)
	}
	defer os.RemoveAll(cacheRoot)
	var colds []startupFigures
	warmDir := ""
	for i := range e.p.coldChildren {
		dir := filepath.Join(cacheRoot, fmt.Sprintf("cold-%d", i))
		f, err := startupChild(e.p.laterNews, dir)
		if err != nil {
			return failure(err, first, later, cold)
		}
		if n := cacheFiles(dir); n != 1 {
			return failure(fmt.Errorf("the cold startup child left %d cache files in %s, want 1: it did not store the corpus", n, dir), first, later, cold)
		}
		e.logf("startup child (no cache file) %d: first New %v, VmHWM %d KiB", i+1, f.FirstNew, f.HWMKiB)
		colds = append(colds, f)
		warmDir = dir
	}
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
			f, err := startupChild(e.p.laterNews, warmDir)
			if err != nil {
				return failure(err, first, later, cold)
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
		fmt.Sprintf("the first New maps the cache file, checks its length and CRC-32C, then decodes it and makes the articles' structs (%d CPUs); the strings and the index stay in the file's pages. "+
			"The verdict takes the median process; fastest, quartiles and max show what the load did, and the CPU time what the work was", runtime.GOMAXPROCS(0)),
		"VmHWM counts the file's pages the process touched (all of them: the checksum reads the whole file) as well as its heap",
		fmt.Sprintf("process start (exec) to first New returned: median %s: includes loading the binary and the Go runtime", fmtMS(median(procs))),
		"VmHWM is the peak resident size of the child process, read from /proc/self/status right after the first New; 60 MB is taken as 60e6 bytes.",
		fmt.Sprintf("spread = interquartile range of the first New times over their median, at most %.0f%% to count: %s", 100*startupSpread, strings.Join(batches, "; ")),
	}
	medLater := median(all)
	later.measured = fmt.Sprintf("median %s, p99 %s (loopback socket); median %s without a socket",
		fmtUS(medLater), fmtUS(quantile(all, 0.99)), fmtUS(median(mem)))
	later.met = verdict(quantile(all, 0.99) < time.Millisecond)
	later.notes = []string{fmt.Sprintf("%d later New calls with a socket (New only, Close not timed), %d without", len(all), len(mem))}
	if n := cacheFiles(warmDir); n != 1 {
		return failure(fmt.Errorf("%d cache files in %s after the runs with the file in place, want 1", n, warmDir), first, later, cold)
	}
	var coldFirsts, coldCPUs []time.Duration
	var coldHWM []int64
	for _, f := range colds {
		coldFirsts, coldCPUs, coldHWM = append(coldFirsts, f.FirstNew), append(coldCPUs, f.FirstCPU), append(coldHWM, f.HWMKiB)
	}
	cold.measured = fmt.Sprintf("median %s (fastest %s, max %s) over %d processes; CPU time median %s; VmHWM median %.0f MB, max %.0f MB",
		fmtMS(median(coldFirsts)), fmtMS(slices.Min(coldFirsts)), fmtMS(slices.Max(coldFirsts)), len(colds), fmtMS(median(coldCPUs)),
		float64(median(coldHWM))/1024, float64(slices.Max(coldHWM))/1024)
	cold.met = verdictWhy(median(coldFirsts) < 120*time.Millisecond && slices.Max(coldHWM)*1024 < 60e6, "7c")
	cold.notes = []string{
		fmt.Sprintf("first New per process: %v (CPU time %v)", coldFirsts, coldCPUs),
		"each process had an empty NEWSSEARCH_MOCK_CACHE directory: it generated and indexed the corpus, as every process did before the cache file, then wrote the file (about 32 MB). " +
			"A machine pays this once per version of the module; NEWSSEARCH_MOCK_CACHE=off pays the building part in every process",
	}
	first.notes = append(first.notes, fmt.Sprintf("every process had NEWSSEARCH_MOCK_CACHE=%s, holding the file the last 7c process wrote; the directory held that one file afterwards (none was rewritten)", warmDir))
	return []result{first, later, cold}
}

// cacheFiles counts the corpus cache files in dir.
func cacheFiles(dir string) int {
	names, _ := filepath.Glob(filepath.Join(dir, "mock-corpus-*.snap"))
	return len(names)
}

// startupSpread is the widest spread of first New times accepted as a
// result (see relSpread).
const startupSpread = 0.25

// startupBudget is the time after which rowStartup starts no more than
// three child processes, so that a starved machine cannot stretch the run.
const startupBudget = 30 * time.Second

// startupChild runs one startup child and decodes its figures.
// cacheDir is its NEWSSEARCH_MOCK_CACHE.
func startupChild(later int, cacheDir string) (startupFigures, error) {
	var f startupFigures
	c, err := startChild(modeStart, laterEnv+"="+strconv.Itoa(later), "NEWSSEARCH_MOCK_CACHE="+cacheDir)
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
