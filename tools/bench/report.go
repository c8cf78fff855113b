package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// result is one line of the table.
type result struct {
	order    int    // position in the table
	id       string // the row's label, e.g. "7a"
	what     string // the figure measured
	baseline string // what it is compared with in the same run
	measured string // the figure or ratio
	target   string
	met      string   // "yes", "NO", "noisy" or "-"
	notes    []string // details printed below the table
	err      error    // the measurement could not be made
}

// verdict returns "yes" when ok, else "NO".
func verdict(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

// judged is the verdict of a target on a figure that may be noisy.
func judged(met, steady bool) string {
	if !steady {
		return "noisy"
	}
	return verdict(met)
}

// env is what every row gets.
type env struct {
	p   params
	log io.Writer
	// rangeDefault is row 6's median time of the default SearchRange, for
	// row 6b; 0 until row 6 has run.
	rangeDefault time.Duration
	// newsmock builds cmd/newsmock once per run and returns its path.
	newsmock func() (string, error)
}

// logf reports progress on stderr.
func (e *env) logf(format string, args ...any) {
	fmt.Fprintf(e.log, "bench: "+format+"\n", args...)
}

// row is a group of table lines measured together. background, if set,
// starts a slow measurement after the rows that must run alone; the
// function it returns waits for it after the last row.
type row struct {
	name       string
	run        func(ctx context.Context, e *env) []result
	background func(ctx context.Context, e *env) func() []result
	alone      bool // runs first, before any background measurement
}

// rows lists the rows in the order they run. "startup" runs first and
// alone, so that its processes start on a machine this one leaves idle;
// "pollsim" compiles and runs a go test, which must not disturb the other
// measurements. The slow polling and vendor-range measurements run in the
// background of the rest: they mostly wait.
var rows = []row{
	{"startup", rowStartup, nil, true},
	{"pollsim", rowPollSimulated, nil, true},
	{"overhead", rowOverhead, nil, false},
	{"wrk", rowWrk, nil, false},
	{"drain", rowDrain, nil, false},
	{"range", rowRange, startVendorRange, false},
	{"poll", rowPoll, startLongPoll, false},
	{"search", rowSearch, nil, false},
}

// rowNames returns the names of every row.
func rowNames() []string {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.name
	}
	return names
}

// selectRows parses the -rows flag; the rows keep the order of rows.
func selectRows(list string) ([]row, error) {
	want := map[string]bool{}
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(rowNames(), name) {
			return nil, fmt.Errorf("-rows: unknown row %q: use a comma-separated list of %s", name, strings.Join(rowNames(), ", "))
		}
		want[name] = true
	}
	var out []row
	for _, r := range rows {
		if want[r.name] {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("-rows: no row given: name at least one of " + strings.Join(rowNames(), ", "))
	}
	return out, nil
}

// report is the outcome of a run.
type report struct {
	quick              bool
	loadStart, loadEnd string
	took               time.Duration
	results            []result
}

// measure runs the selected rows.
func measure(ctx context.Context, p params, selected []row, log io.Writer) *report {
	e := &env{p: p, log: log}
	dir, err := os.MkdirTemp("", "bench-")
	if err != nil {
		dir = os.TempDir()
	} else {
		defer os.RemoveAll(dir)
	}
	e.newsmock = sync.OnceValues(func() (string, error) { return buildNewsmock(ctx, dir) })
	rep := &report{quick: p.quick, loadStart: loadAverage()}
	begin := time.Now()
	var waits []func() []result
	started := false
	bgLoad := ""
	for _, r := range selected {
		if !r.alone && !started {
			started, bgLoad = true, loadAverage()
			for _, b := range selected {
				if b.background != nil {
					e.logf("row %s: starting its background part", b.name)
					waits = append(waits, b.background(ctx, e))
				}
			}
		}
		e.logf("row %s...", r.name)
		t, before := time.Now(), loadAverage()
		rep.add(r.run(ctx, e), before)
		e.logf("row %s done in %v", r.name, time.Since(t).Round(time.Millisecond))
	}
	for _, wait := range waits {
		e.logf("waiting for the background rows")
		rep.add(wait(), bgLoad)
	}
	rep.took = time.Since(begin)
	rep.loadEnd = loadAverage()
	slices.SortStableFunc(rep.results, func(a, b result) int { return cmp.Compare(a.order, b.order) })
	return rep
}

// add records lines, noting the load average at their start and now.
func (r *report) add(lines []result, loadBefore string) {
	note := fmt.Sprintf("machine load: load average %s at the start of the row, %s at its end", loadBefore, loadAverage())
	for i := range lines {
		lines[i].notes = append(lines[i].notes, note)
	}
	r.results = append(r.results, lines...)
}

// failed reports whether some measurement could not be made.
func (r *report) failed() bool {
	return slices.ContainsFunc(r.results, func(x result) bool { return x.err != nil })
}

// print writes the table and the notes as markdown.
func (r *report) print(w io.Writer) {
	fmt.Fprintf(w, "## Benchmark harness results (tools/bench)\n\n")
	if r.quick {
		fmt.Fprintf(w, "**-quick run: tiny counts and short waits; these figures mean nothing.**\n\n")
	}
	fmt.Fprintf(w, "Machine: %s/%s, %d CPUs, GOMAXPROCS %d, %s. Load average (1, 5, 15 min) at start %s, at end %s. Run took %v.\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), r.loadStart, r.loadEnd, r.took.Round(time.Second))
	fmt.Fprintf(w, "| # | What | Baseline in the same run | Measured | Target | Met |\n|---|---|---|---|---|---|\n")
	for _, x := range r.results {
		measured, met := x.measured, x.met
		if x.err != nil {
			measured, met = "error: "+x.err.Error(), "-"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", x.id, x.what, x.baseline, measured, x.target, met)
	}
	fmt.Fprintf(w, "\n")
	for _, x := range r.results {
		fmt.Fprintf(w, "Row %s (%s):\n", x.id, x.what)
		for _, n := range x.notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
		fmt.Fprintf(w, "\n")
	}
}

// loadAverage returns the first three fields of /proc/loadavg, or "n/a".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "n/a"
}

// failure returns the table lines of a row that could not be measured.
func failure(err error, lines ...result) []result {
	for i := range lines {
		lines[i].err = err
	}
	return lines
}

// median returns the median of xs (the mean of the middle two for an even
// count), or 0 for none. xs is not modified.
func median[T ~int64 | ~float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// quantile returns the q-quantile (0..1, nearest rank) of xs.
func quantile[T ~int64 | ~float64](xs []T, q float64) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, max(0, int(q*float64(len(s)))))]
}

// spread formats the minimum and maximum of ratios.
func spread(xs []float64) string {
	if len(xs) == 0 {
		return "no rounds"
	}
	return fmt.Sprintf("%d rounds, min %.3f, max %.3f", len(xs), slices.Min(xs), slices.Max(xs))
}

// ratios formats each ratio with three decimals.
func ratios(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.3f", x)
	}
	return strings.Join(parts, " ")
}

// fmtUS formats a duration in microseconds.
func fmtUS(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/1e3) }

// fmtMS formats a duration in milliseconds.
func fmtMS(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/1e6) }

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
