package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
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
	met      string   // "yes", "NO" or "-"
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

// verdictWhy is verdict, pointing a missed target to the section of
// BENCHMARKS.md that says why it is missed.
func verdictWhy(ok bool, row string) string {
	if ok {
		return verdict(ok)
	}
	return verdict(ok) + " (why not: BENCHMARKS.md, row " + row + ")"
}

// env is what every row gets.
type env struct {
	p   params
	log io.Writer
	// rangeDefault is row 6's median time of the default SearchRange, for
	// row 6b; 0 until row 6 has run.
	rangeDefault time.Duration
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
// alone: its child processes must not compete with this one building its
// own corpus; "pollsim" compiles and runs a go test, which must not
// disturb the measurements either. Rows sensitive to this process's heap run before "search",
// which loads the large corpus; the long polling job runs in the
// background meanwhile.
var rows = []row{
	{"startup", rowStartup, nil, true},
	{"pollsim", rowPollSimulated, nil, true},
	{"overhead", rowOverhead, nil, false},
	{"throughput", rowThroughput, nil, false},
	{"wrk", rowWrk, nil, false},
	{"drain", rowDrain, nil, false},
	{"range", rowRange, startVendorRange, false},
	{"poll", rowPoll, startLongPoll, false},
	{"search", rowSearch, nil, false},
	{"scale", rowScale, nil, false},
}

// rowNames returns the names of every row.
func rowNames() []string {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.name
	}
	return names
}

// selectRows parses the -rows flag.
func selectRows(list string) ([]row, error) {
	var out []row
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		i := slices.IndexFunc(rows, func(r row) bool { return r.name == name })
		if i < 0 {
			return nil, fmt.Errorf("-rows: unknown row %q: use a comma-separated list of %s", name, strings.Join(rowNames(), ", "))
		}
		if !slices.ContainsFunc(out, func(r row) bool { return r.name == name }) {
			out = append(out, rows[i])
		}
	}
	if len(out) == 0 {
		return nil, errors.New("-rows: no row given: name at least one of " + strings.Join(rowNames(), ", "))
	}
	slices.SortStableFunc(out, func(a, b row) int {
		return cmp.Compare(slices.IndexFunc(rows, func(r row) bool { return r.name == a.name }),
			slices.IndexFunc(rows, func(r row) bool { return r.name == b.name }))
	})
	return out, nil
}

// report is the outcome of a run.
type report struct {
	quick              bool
	loadStart, loadEnd string
	psiStart, psiEnd   string
	took               time.Duration
	results            []result
}

// measure runs the selected rows.
func measure(ctx context.Context, p params, selected []row, log io.Writer) *report {
	e := &env{p: p, log: log}
	rep := &report{quick: p.quick, loadStart: loadAverage(), psiStart: cpuPressure()}
	begin := time.Now()
	var waits []func() []result
	started := false
	monitor := startStallMonitor()
	defer monitor.close()
	var bgStart time.Time
	var bgLoad loadSnap
	for _, r := range selected {
		if !r.alone && !started {
			started, bgStart, bgLoad = true, time.Now(), takeLoad()
			for _, b := range selected {
				if b.background != nil {
					e.logf("row %s: starting its background part", b.name)
					waits = append(waits, b.background(ctx, e))
				}
			}
		}
		e.logf("row %s...", r.name)
		t, before := time.Now(), takeLoad()
		lines := r.run(ctx, e)
		note := monitor.summary(t, time.Now())
		machine, _ := loadNote(before, takeLoad())
		for i := range lines {
			lines[i].notes = append(lines[i].notes, note, machine)
		}
		rep.results = append(rep.results, lines...)
		e.logf("row %s done in %v", r.name, time.Since(t).Round(time.Millisecond))
	}
	for _, wait := range waits {
		e.logf("waiting for the background rows")
		lines := wait()
		note := monitor.summary(bgStart, time.Now())
		machine, _ := loadNote(bgLoad, takeLoad())
		for i := range lines {
			lines[i].notes = append(lines[i].notes, note, machine)
		}
		rep.results = append(rep.results, lines...)
	}
	rep.took = time.Since(begin)
	rep.loadEnd, rep.psiEnd = loadAverage(), cpuPressure()
	slices.SortStableFunc(rep.results, func(a, b result) int { return cmp.Compare(a.order, b.order) })
	return rep
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
	fmt.Fprintf(w, "Machine: %s/%s, %d CPUs, GOMAXPROCS %d, %s. Load average (1, 5, 15 min) at start %s, at end %s. "+
		"CPU pressure (share of the last 60 s in which runnable tasks waited for a CPU, /proc/pressure/cpu) at start %s, at end %s. Run took %v.\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), r.loadStart, r.loadEnd, r.psiStart, r.psiEnd, r.took.Round(time.Second))
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
		if len(x.notes) == 0 {
			continue
		}
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
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], " ")
}

// cpuPressure returns the "some avg60" figure of /proc/pressure/cpu as a
// percentage, or "n/a".
func cpuPressure() string {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return "n/a"
	}
	for _, f := range strings.Fields(strings.SplitN(string(b), "\n", 2)[0]) {
		if v, ok := strings.CutPrefix(f, "avg60="); ok {
			return v + "%"
		}
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
	i := min(len(s)-1, max(0, int(q*float64(len(s)))))
	return s[i]
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
