// Package fault decides which injected fault the mock server applies to a
// request: the X-Mock-Fault header, rules that fire on every Nth matching
// request or with a seeded probability, and the latency wait. Decisions
// depend only on the seed, the rules and the order of requests.
package fault

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Job is the outcome forced on an asynchronous job.
type Job uint8

// Job outcomes.
const (
	JobNormal Job = iota // the job runs and succeeds
	JobFail              // the job ends FAILED once its pending period is over
	JobStuck             // the job stays PENDING until it expires
	JobRefuse            // query-async answers 200 with state FAILED and creates no job
)

// JobNames are the names of the job outcomes in job=, "" for JobNormal.
var JobNames = [...]string{JobNormal: "", JobFail: "fail", JobStuck: "stuck", JobRefuse: "refuse"}

// Limits on header and rule values.
const (
	MaxLatency    = 5 * time.Minute
	MaxRetryAfter = 24 * 60 * 60 // seconds
	MaxWindow     = 400 * 24 * time.Hour
	MaxOverlap    = 25  // a page
	MaxArrivals   = 100 // per request
	MaxEmptyPage  = 10_000
)

// Action is what an injected fault does to one request. The zero Action does
// nothing.
type Action struct {
	Latency    time.Duration // wait this long first (cancelled with the request)
	Status     int           // answer this status (400..599) instead of serving the request
	RetryAfter int           // seconds sent in Retry-After with Status; 0 = none (1 for 429)
	Drop       bool          // close the connection without any response
	Truncate   bool          // send the headers and part of the body, then close
	Job        Job           // on query-async: the fate of the job created
	// Results and Totals change the shape of a successful answer (see
	// the Shape constants): "" keeps the world's.
	Results string
	Totals  string
	// Timing: LatencyMax > Latency draws each request's latency uniformly
	// (seeded) from [Latency, LatencyMax]; Dribble writes the body in
	// pieces spread over that long.
	LatencyMax time.Duration
	Dribble    time.Duration
	// Data: Window widens a search's bounds by that much on each side,
	// WindowDay to whole UTC days; page EmptyPage answers no articles;
	// every page after the first starts with the previous page's last
	// Overlap articles; a sync query first publishes Arrivals matching
	// articles.
	Window    time.Duration
	WindowDay bool
	EmptyPage int
	Overlap   int
	Arrivals  int
}

// Answer shapes: where /api/v2/query puts its results, and which counts
// get-results writes.
const (
	ShapeNested        = "nested"
	ShapeTopLevel      = "top-level"
	ShapeBothTotals    = "both"
	ShapeTotalResults  = "totalResults"
	ShapeTotalArticles = "totalArticles"
)

// IsZero reports whether the action does nothing.
func (a Action) IsZero() bool { return a == Action{} }

// String returns the action in X-Mock-Fault header syntax, items in a fixed
// order, e.g. "latency=150ms;status=503;retry-after=2".
func (a Action) String() string {
	var items []string
	if a.LatencyMax > 0 {
		items = append(items, "latency="+a.Latency.String()+".."+a.LatencyMax.String())
	} else if a.Latency > 0 {
		items = append(items, "latency="+a.Latency.String())
	}
	if a.Status != 0 {
		items = append(items, "status="+strconv.Itoa(a.Status))
	}
	if a.RetryAfter != 0 {
		items = append(items, "retry-after="+strconv.Itoa(a.RetryAfter))
	}
	if a.Drop {
		items = append(items, "drop")
	}
	if a.Truncate {
		items = append(items, "truncate")
	}
	if a.Job != JobNormal {
		items = append(items, "job="+JobNames[a.Job])
	}
	if a.Results != "" {
		items = append(items, "results="+a.Results)
	}
	if a.Totals != "" {
		items = append(items, "totals="+a.Totals)
	}
	if a.WindowDay {
		items = append(items, "window=day")
	} else if a.Window > 0 {
		items = append(items, "window="+a.Window.String())
	}
	for _, it := range []struct {
		name string
		n    int
	}{{"empty-page", a.EmptyPage}, {"overlap", a.Overlap}, {"arrivals", a.Arrivals}} {
		if it.n != 0 {
			items = append(items, it.name+"="+strconv.Itoa(it.n))
		}
	}
	if a.Dribble > 0 {
		items = append(items, "dribble="+a.Dribble.String())
	}
	return strings.Join(items, ";")
}

// Validate reports an action whose parts contradict each other or are out
// of range. The message names the field as it is spelled in the header.
func (a Action) Validate() error {
	switch {
	case a.Latency < 0 || a.Latency > MaxLatency:
		return fmt.Errorf("latency %v is out of range: use a duration from 0 to %v", a.Latency, MaxLatency)
	case a.LatencyMax != 0 && (a.LatencyMax < a.Latency || a.LatencyMax > MaxLatency):
		return fmt.Errorf("latency %v..%v is not a range from 0 to %v: write MIN..MAX with MIN <= MAX, e.g. latency=100ms..2s", a.Latency, a.LatencyMax, MaxLatency)
	case a.Dribble < 0 || a.Dribble > MaxLatency:
		return fmt.Errorf("dribble %v is out of range: use a duration from 0 to %v, e.g. dribble=2s", a.Dribble, MaxLatency)
	case a.Window < 0 || a.Window > MaxWindow:
		return fmt.Errorf("window %v is out of range: use day or a duration from 0 to %v, e.g. window=5s", a.Window, MaxWindow)
	case a.Window != 0 && a.WindowDay:
		return errors.New("window is both a duration and day: give one, e.g. window=day or window=5s")
	case a.EmptyPage < 0 || a.EmptyPage > MaxEmptyPage:
		return fmt.Errorf("empty-page %d is out of range: use a page from 1 to %d, e.g. empty-page=2", a.EmptyPage, MaxEmptyPage)
	case a.Overlap < 0 || a.Overlap > MaxOverlap:
		return fmt.Errorf("overlap %d is out of range: use a count of articles from 1 to %d, e.g. overlap=2", a.Overlap, MaxOverlap)
	case a.Arrivals < 0 || a.Arrivals > MaxArrivals:
		return fmt.Errorf("arrivals %d is out of range: use a count of articles from 1 to %d, e.g. arrivals=2", a.Arrivals, MaxArrivals)
	case a.Status != 0 && (a.Status < 400 || a.Status > 599):
		return fmt.Errorf("status %d is out of range: use an HTTP error status from 400 to 599", a.Status)
	case a.RetryAfter < 0 || a.RetryAfter > MaxRetryAfter:
		return fmt.Errorf("retry-after %d is out of range: use whole seconds from 0 to %d", a.RetryAfter, MaxRetryAfter)
	case a.RetryAfter != 0 && a.Status == 0:
		return errors.New("retry-after needs a status to go with it, e.g. status=429;retry-after=2")
	case a.Drop && (a.Status != 0 || a.Truncate || a.Job != JobNormal):
		return errors.New("drop sends no response, so it cannot be combined with status, truncate or job")
	case a.Job > JobRefuse:
		return fmt.Errorf("job outcome %d is unknown: use fail, stuck or refuse", a.Job)
	case a.Job != JobNormal && (a.Status != 0 || a.Truncate):
		return errors.New("job=fail, job=stuck and job=refuse decide how the submission is answered, so they cannot be combined with status or truncate")
	case a.Results != "" && a.Results != ShapeNested && a.Results != ShapeTopLevel:
		return fmt.Errorf("results=%q is unknown: write results=%s or results=%s", a.Results, ShapeNested, ShapeTopLevel)
	case a.Totals != "" && a.Totals != ShapeBothTotals && a.Totals != ShapeTotalResults && a.Totals != ShapeTotalArticles:
		return fmt.Errorf("totals=%q is unknown: write totals=%s, totals=%s or totals=%s", a.Totals, ShapeBothTotals, ShapeTotalResults, ShapeTotalArticles)
	}
	return nil
}

// Syntax describes the X-Mock-Fault header grammar for error messages.
const Syntax = `items separated by ";": status=<400-599>, retry-after=<seconds>, ` +
	`latency=<duration, e.g. 150ms, or a range, e.g. 100ms..2s>, dribble=<duration>, drop, truncate, ` +
	`job=fail, job=stuck, job=refuse, results=nested|top-level, totals=both|totalResults|totalArticles, ` +
	`window=day|<duration>, empty-page=<page>, overlap=<articles>, arrivals=<articles>; ` +
	`e.g. "status=429;retry-after=2" or "latency=150ms;truncate"`

// ParseHeader parses an X-Mock-Fault header value. A blank value is the zero
// Action. Item names are case-insensitive and may be surrounded by spaces.
func ParseHeader(s string) (Action, error) {
	var a Action
	seen := map[string]bool{}
	for item := range strings.SplitSeq(s, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, value, hasValue := strings.Cut(item, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		value = strings.TrimSpace(value)
		if seen[name] {
			return Action{}, fmt.Errorf("%q is given twice; give each item once", name)
		}
		seen[name] = true
		if err := a.set(name, value, hasValue); err != nil {
			return Action{}, err
		}
	}
	if err := a.Validate(); err != nil {
		return Action{}, err
	}
	return a, nil
}

func (a *Action) set(name, value string, hasValue bool) error {
	flag := func() error {
		if hasValue {
			return fmt.Errorf("%q takes no value; write just %q", name, name)
		}
		return nil
	}
	switch name {
	case "drop":
		a.Drop = true
		return flag()
	case "truncate":
		a.Truncate = true
		return flag()
	case "status":
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("status=%q is not a whole number; write e.g. status=503", value)
		}
		a.Status = n
	case "retry-after":
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("retry-after=%q is not a whole number of seconds; write e.g. retry-after=2", value)
		}
		a.RetryAfter = n
	case "latency":
		lo, hi, isRange := strings.Cut(value, "..")
		d, err := time.ParseDuration(strings.TrimSpace(lo))
		if err == nil && isRange {
			a.LatencyMax, err = time.ParseDuration(strings.TrimSpace(hi))
		}
		if err != nil {
			return fmt.Errorf("latency=%q is not a duration or a range; write e.g. latency=150ms or latency=100ms..2s", value)
		}
		a.Latency = d
	case "dribble":
		d, err := time.ParseDuration(value)
		if err != nil {
			return fmt.Errorf("dribble=%q is not a duration; write e.g. dribble=2s", value)
		}
		a.Dribble = d
	case "window":
		if strings.EqualFold(value, "day") {
			a.WindowDay = true
			return nil
		}
		d, err := time.ParseDuration(value)
		if err != nil || d == 0 {
			return fmt.Errorf("window=%q is neither day nor a duration; write e.g. window=day or window=5s", value)
		}
		a.Window = d
	case "empty-page", "overlap", "arrivals":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return fmt.Errorf("%s=%q is not a whole number from 1; write e.g. %s=2", name, value, name)
		}
		switch name {
		case "empty-page":
			a.EmptyPage = n
		case "overlap":
			a.Overlap = n
		default:
			a.Arrivals = n
		}
	case "job":
		j := slices.Index(JobNames[:], strings.ToLower(value))
		if j <= 0 {
			return fmt.Errorf("job=%q is unknown; write job=fail, job=stuck or job=refuse", value)
		}
		a.Job = Job(j)
	case "results":
		a.Results = value
	case "totals":
		a.Totals = value
	default:
		return fmt.Errorf("unknown item %q", name)
	}
	return nil
}

// Wait sleeps for d, or until ctx is done or stop is closed, and returns
// ctx's error.
func Wait(ctx context.Context, stop <-chan struct{}, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
	case <-stop:
	}
	return ctx.Err()
}

// DrawLatency returns the latency of request n: Latency, or with LatencyMax
// one drawn uniformly from [Latency, LatencyMax] by seed and n.
func (a Action) DrawLatency(seed, n uint64) time.Duration {
	if a.LatencyMax <= a.Latency {
		return a.Latency
	}
	return a.Latency + time.Duration(unitFloat(seed, 0x1a7e9c1, n)*float64(a.LatencyMax-a.Latency))
}
