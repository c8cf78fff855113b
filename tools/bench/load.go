package main

import (
	"cmp"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// loadSnap is the machine's state at one instant, to say how loaded it was
// while a row ran: the load average, the CPU time of every process and the
// machine's busy and total CPU time.
type loadSnap struct {
	at          time.Time
	loadavg     string
	busy, total uint64          // jiffies of all CPUs, from /proc/stat
	procs       map[int]procCPU // per process, from /proc/<pid>/stat
}

// procCPU is one process's name and CPU time in jiffies.
type procCPU struct {
	name  string
	ticks uint64
}

// takeLoad reads the machine's state; on a system without /proc it holds
// only the time.
func takeLoad() loadSnap {
	s := loadSnap{at: time.Now(), loadavg: loadAverage(), procs: map[int]procCPU{}}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		for i, v := range f[1:] {
			n, _ := strconv.ParseUint(v, 10, 64)
			if i == 8 || i == 9 { // guest time is already counted in user
				continue
			}
			s.total += n
			if i != 3 && i != 4 { // idle, iowait
				s.busy += n
			}
		}
	}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		st := string(b)
		open, close := strings.IndexByte(st, '('), strings.LastIndexByte(st, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(st[close+1:])
		if len(f) < 13 {
			continue
		}
		ut, _ := strconv.ParseUint(f[11], 10, 64)
		stt, _ := strconv.ParseUint(f[12], 10, 64)
		s.procs[pid] = procCPU{name: st[open+1 : close], ticks: ut + stt}
	}
	return s
}

// loadNote describes the machine's load between two snapshots: the load
// average at both ends, the share of all CPUs this process and the others
// used, and the other processes that used the most.
func loadNote(a, b loadSnap) (note string, others float64) {
	if b.total <= a.total {
		return fmt.Sprintf("machine load: load average %s at the start, %s at the end (no /proc/stat)", a.loadavg, b.loadavg), 0
	}
	total := float64(b.total - a.total)
	self := float64(0)
	type use struct {
		name  string
		ticks uint64
	}
	var uses []use
	me := os.Getpid()
	for pid, p := range b.procs {
		d := p.ticks - a.procs[pid].ticks // a new process counts from 0
		if a.procs[pid].ticks > p.ticks {
			continue
		}
		if pid == me {
			self = float64(d)
			continue
		}
		if d > 0 {
			uses = append(uses, use{fmt.Sprintf("%s[%d]", p.name, pid), d})
		}
	}
	busy := float64(b.busy - a.busy)
	others = max(0, (busy-self)/total)
	slices.SortFunc(uses, func(x, y use) int { return cmp.Compare(y.ticks, x.ticks) })
	var top []string
	for _, u := range uses[:min(4, len(uses))] {
		top = append(top, fmt.Sprintf("%s %.0f%%", u.name, 100*float64(u.ticks)/total))
	}
	note = fmt.Sprintf("machine load during the row (%s): load average %s at the start, %s at the end; of the %d CPUs' time this process used %.0f%%, other processes %.0f%% (this run's child processes, such as wrk or a server child, count among them; the most: %s)",
		b.at.Sub(a.at).Round(time.Second), a.loadavg, b.loadavg, runtime.NumCPU(), 100*self/total, 100*others, cmp.Or(strings.Join(top, ", "), "none"))
	return note, others
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
