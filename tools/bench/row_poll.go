package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// simOutEnv names the file TestPollScheduleSimulated writes its figures
// to, as JSON []simFigures.
const simOutEnv = "BENCHCMP_SIM_OUT"

// simFigures are the simulated polling figures of one pending time.
type simFigures struct {
	Pending                  time.Duration
	Trials                   int
	MinRequests, MaxRequests int
	MedianLate, MaxLate      time.Duration
	VendorRequests           int
	VendorLate               time.Duration
}

// pollStats summarises the outcomes of several polls.
type pollStats struct {
	medianLate time.Duration
	worst      workload.PollOutcome // the latest
	over       int                  // outcomes later than the bound
	overStall  int                  // of those, how many the stall explains
	maxReqs    int
}

// statsOf summarises outs against the lateness bound.
func statsOf(outs []workload.PollOutcome, bound time.Duration) pollStats {
	var late []time.Duration
	var st pollStats
	for _, o := range outs {
		late = append(late, o.Late)
		st.maxReqs = max(st.maxReqs, o.Requests)
		if o.Late > st.worst.Late {
			st.worst = o
		}
		if o.Late > bound {
			st.over++
			if o.Late-o.Stall <= bound {
				st.overStall++
			}
		}
	}
	st.medianLate = median(late)
	return st
}

// lateVerdict is "yes" when every outcome met the bound, "NO (machine)"
// when those that did not would have without the time the schedule did
// not ask for, else "NO".
func (st pollStats) lateVerdict(ok bool) string {
	switch {
	case st.over == 0 && ok:
		return "yes"
	case st.over == st.overStall && ok:
		return "NO (machine: see notes)"
	}
	return "NO"
}

// describe lists each outcome for the notes.
func describe(outs []workload.PollOutcome) string {
	parts := make([]string, len(outs))
	for i, o := range outs {
		parts[i] = fmt.Sprintf("%s (%s outside the schedule, %d requests)", fmtMS(o.Late), fmtMS(o.Stall), o.Requests)
	}
	return strings.Join(parts, "; ")
}

// stallNote explains the "outside the schedule" figures.
const stallNote = "\"outside the schedule\" is time the poll schedule did not ask for: the submission's answer reaching the caller, " +
	"sleeps that overran because the loaded machine fired the timer late, and the requests' own time (from PollEvent.Elapsed and " +
	"PollEvent.Next); it is a few milliseconds on an idle machine. \"NO (machine)\" means every late result would have been in " +
	"time without it; row 8c gives the schedule's own worst case, on a fake clock"

// startLongPoll starts, in the background, the long-job comparison: several
// SDK polls and one vendor loop, each on its own job, all in real time. The
// returned function waits for them and returns the table line.
func startLongPoll(ctx context.Context, e *env) func() []result {
	r := result{order: 81, id: "8b", what: fmt.Sprintf("Polling with default PollOptions, job pending %v (real time, in the background of the other rows)", e.p.longPending),
		baseline: fmt.Sprintf("vendor SDK: fixed %v sleep, no backoff", e.p.vendorInterval),
		target:   "at most 25 requests and result within 3 s of readiness"}
	s := mockserver.New(mockserver.WithPendingPolls(0), mockserver.WithPendingDuration(e.p.longPending))
	c, err := workload.SDKClient(s)
	if err != nil {
		s.Close()
		return func() []result { return failure(err, r) }
	}
	outcomes := make([]workload.PollOutcome, e.p.longPolls+1) // the last is the vendor's
	errs := make([]error, len(outcomes))
	var wg sync.WaitGroup
	for i := range outcomes {
		wg.Go(func() {
			outcomes[i], errs[i] = workload.WaitJob(ctx, s, c, e.p.longPending, i == e.p.longPolls, e.p.vendorInterval)
		})
	}
	return func() []result {
		wg.Wait()
		s.Close()
		for _, err := range errs {
			if err != nil {
				return failure(err, r)
			}
		}
		sdk, vendor := outcomes[:e.p.longPolls], outcomes[e.p.longPolls]
		st := statsOf(sdk, 3*time.Second)
		r.measured = fmt.Sprintf("SDK (%d polls): at most %d requests, result at most %s after readiness; vendor: %d requests, %s late",
			len(sdk), st.maxReqs, fmtMS(st.worst.Late), vendor.Requests, fmtMS(vendor.Late))
		r.met = st.lateVerdict(st.maxReqs <= 25)
		r.notes = []string{
			"SDK polls: " + describe(sdk),
			"vendor loop: " + describe([]workload.PollOutcome{vendor}) + "; its lateness depends on the phase of its 1 s ticks against readiness, anywhere from 0 to 1 s",
			"these polls ran concurrently with the other rows, each on its own job; lateness runs from readiness (the submission's arrival on the mock's clock plus the pending time) to Poll's return",
			stallNote,
		}
		e.logf("long poll: SDK max %d requests, max %v late", st.maxReqs, st.worst.Late)
		return []result{r}
	}
}

// rowPoll times the short job: SDK and vendor trials side by side.
func rowPoll(ctx context.Context, e *env) []result {
	r := result{order: 80, id: "8a", what: fmt.Sprintf("Polling with default PollOptions, job pending %v (real time)", e.p.shortPending),
		baseline: fmt.Sprintf("vendor SDK: fixed %v sleep (result up to %v late)", e.p.vendorInterval, e.p.vendorInterval),
		target:   "result within 250 ms of readiness"}
	s := mockserver.New(mockserver.WithPendingPolls(0), mockserver.WithPendingDuration(e.p.shortPending))
	defer s.Close()
	c, err := workload.SDKClient(s)
	if err != nil {
		return failure(err, r)
	}
	var sdk, vendor []workload.PollOutcome
	for range e.p.pollTrials {
		var o [2]workload.PollOutcome
		var errs [2]error
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() { o[i], errs[i] = workload.WaitJob(ctx, s, c, e.p.shortPending, i == 1, e.p.vendorInterval) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return failure(err, r)
			}
		}
		sdk, vendor = append(sdk, o[0]), append(vendor, o[1])
	}
	st, vst := statsOf(sdk, 250*time.Millisecond), statsOf(vendor, time.Hour)
	r.measured = fmt.Sprintf("SDK median %s, max %s late (%d of %d trials over 250 ms; %d requests at most); vendor median %s late",
		fmtMS(st.medianLate), fmtMS(st.worst.Late), st.over, len(sdk), st.maxReqs, fmtMS(vst.medianLate))
	r.met = st.lateVerdict(true)
	r.notes = []string{
		fmt.Sprintf("%d trials, SDK and vendor loop side by side on separate jobs", len(sdk)),
		"SDK: " + describe(sdk),
		"vendor: " + describe(vendor),
		"lateness runs from readiness (the submission's arrival on the mock's clock, read from its journal, plus the pending time) to Poll's return",
		stallNote,
	}
	e.logf("short poll: SDK median %v, max %v late", st.medianLate, st.worst.Late)
	return []result{r}
}

// rowPollSimulated runs TestPollScheduleSimulated (go test, this package)
// and reads its figures: the default schedule over many jitter draws on a
// fake clock. It is skipped with -quick, whose own go test runs that test.
func rowPollSimulated(ctx context.Context, e *env) []result {
	r := result{order: 82, id: "8c", what: "Polling with default PollOptions on a fake clock (testing/synctest, the real Poll against the in-process mock), jobs pending 300 ms and 60 s, 200 jitter draws each",
		baseline: "vendor SDK's fixed 1 s loop, same simulation",
		target:   "300 ms job: within 250 ms; 60 s job: at most 25 requests, within 3 s"}
	if e.p.quick {
		r.measured, r.met = "not run with -quick (go test runs the simulation itself)", "-"
		return []result{r}
	}
	figs, err := simulatePolls(ctx)
	if err != nil {
		return failure(err, r)
	}
	short, long := figs[0], figs[1]
	r.measured = fmt.Sprintf("%v: SDK late median %s, max %s (%d-%d requests), vendor %s late; %v: SDK %d-%d requests, late median %s, max %s, vendor %d requests",
		short.Pending, fmtMS(short.MedianLate), fmtMS(short.MaxLate), short.MinRequests, short.MaxRequests, fmtMS(short.VendorLate),
		long.Pending, long.MinRequests, long.MaxRequests, fmtMS(long.MedianLate), fmtMS(long.MaxLate), long.VendorRequests)
	r.met = verdict(short.MaxLate <= 250*time.Millisecond && long.MaxRequests <= 25 && long.MaxLate <= 3*time.Second)
	r.notes = []string{
		"on the fake clock requests take no time and timers fire on time, so lateness is exactly the schedule's; the vendor loop happens to poll exactly at readiness for the 60 s job (its ticks are in phase with it here), in real use it is 0 to 1 s late",
	}
	return []result{r}
}

// simulatePolls runs TestPollScheduleSimulated in a go test child and
// returns its figures for the short and the long job.
func simulatePolls(ctx context.Context) ([]simFigures, error) {
	dir, err := os.MkdirTemp("", "bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "sim.json")
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-run", "^TestPollScheduleSimulated$", "github.com/newssearch/newssearch-go/tools/bench")
	cmd.Env = append(os.Environ(), simOutEnv+"="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go test -run TestPollScheduleSimulated: %w: %s (run the harness in tools/bench)", err, strings.TrimSpace(string(b)))
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	var figs []simFigures
	if err := json.Unmarshal(b, &figs); err != nil || len(figs) != 2 {
		return nil, fmt.Errorf("reading the simulated figures %s: %v", b, err)
	}
	return figs, nil
}
