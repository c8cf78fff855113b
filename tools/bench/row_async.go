package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// The SDK's RangeOptions defaults (7-day windows, 8 at once), which it
// does not export.
const (
	defaultRangeWindow      = 7 * 24 * time.Hour
	defaultRangeConcurrency = 8
)

// rowDrain compares draining a finished job one page at a time with
// draining it with concurrent page fetching (the SDK's Results iterator
// with PageOptions.Prefetch), against the mock with added latency.
func rowDrain(ctx context.Context, e *env) []result {
	pages := (e.p.drainResults + newssearch.PageSize - 1) / newssearch.PageSize
	r := result{order: 50, id: "5", what: fmt.Sprintf("Draining a finished async job of %d results (%d pages), Results with Prefetch %d", e.p.drainResults, pages, e.p.drainPrefetch),
		baseline: "the same iterator with Prefetch 0: one page at a time, as the vendor SDK does",
		target:   "at most 0.4x the time"}
	s := mockserver.New(mockserver.WithPendingPolls(0), workload.LatencyRules(e.p.latency))
	defer s.Close()
	c, err := workload.SDKClient(s)
	if err != nil {
		return failure(err, r)
	}
	id, total, err := workload.SizedJob(ctx, c, time.Now().Add(time.Hour), e.p.drainResults)
	if err != nil {
		return failure(err, r)
	}
	want, err := workload.Drain(ctx, c, id, 0) // warm-up, and the reference order
	if err != nil {
		return failure(err, r)
	}
	if len(want) != total {
		return failure(fmt.Errorf("the drain returned %d articles, the job holds %d", len(want), total), r)
	}
	drain := func(prefetch int) func(context.Context) error {
		return func(ctx context.Context) error {
			got, err := workload.Drain(ctx, c, id, prefetch)
			if err == nil && !slices.Equal(got, want) {
				err = fmt.Errorf("the drain with prefetch %d returned %d articles, not the %d of the sequential drain in the same order", prefetch, len(got), len(want))
			}
			return err
		}
	}
	subjects := []subject{{"sequential", drain(0)}, {"prefetch", drain(e.p.drainPrefetch)}}
	blocks, err := interleave(ctx, subjects, e.p.drainRounds, 1)
	if err != nil {
		return failure(err, r)
	}
	var rs []float64
	var seq, pre []time.Duration
	for _, b := range blocks {
		rs = append(rs, float64(b[1].perCall)/float64(b[0].perCall))
		seq, pre = append(seq, b[0].perCall), append(pre, b[1].perCall)
	}
	m := median(rs)
	r.measured = fmt.Sprintf("%.3fx", m)
	r.met = verdict(m <= 0.4)
	r.notes = []string{
		fmt.Sprintf("mock latency %v added to every get-results request (fault rule); job of %d results, pages cached by the mock after the warm-up drain", e.p.latency, total),
		fmt.Sprintf("median drain: sequential %s, Prefetch %d %s", fmtMS(median(seq)), e.p.drainPrefetch, fmtMS(median(pre))),
		fmt.Sprintf("ratios per round: %s (%s); every drain checked to return the same articles in the same order", ratios(rs), spread(rs)),
		fmt.Sprintf("floor: with Prefetch %d at most %d requests are in flight, so the ideal is about 1/%d = %.2fx plus client and mock time", e.p.drainPrefetch, e.p.drainPrefetch+1, e.p.drainPrefetch+1, 1/float64(e.p.drainPrefetch+1)),
	}
	e.logf("drain: %.3fx", m)
	return []result{r}
}

// rowRange compares SearchRange with one window at a time against its
// default concurrency, with the same poll options (the defaults), against
// the mock with jobs pending a fixed time and added latency.
func rowRange(ctx context.Context, e *env) []result {
	r := result{order: 60, id: "6", what: fmt.Sprintf("SearchRange over %d days, jobs pending %v, default RangeOptions (Concurrency %d)", e.p.rangeDays, e.p.rangePending, defaultRangeConcurrency),
		baseline: "RangeOptions{Concurrency: 1}: one window at a time as the vendor SDK does, same (default) poll options",
		target:   "at most 0.35x the time"}
	s := mockserver.New(mockserver.WithPendingPolls(0), mockserver.WithPendingDuration(e.p.rangePending), workload.LatencyRules(e.p.latency))
	defer s.Close()
	c, err := workload.SDKClient(s)
	if err != nil {
		return failure(err, r)
	}
	end := time.Now()
	start := end.Add(-time.Duration(e.p.rangeDays) * 24 * time.Hour)
	query, total, err := workload.RangeQuery(ctx, c, start, end, e.p.rangeDays*9)
	if err != nil {
		return failure(err, r)
	}
	params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: query, StartDate: start, EndDate: end}}
	want, err := workload.RangeIDs(ctx, c, params, nil) // warm-up, and the reference result
	if err != nil {
		return failure(err, r)
	}
	search := func(opts *newssearch.RangeOptions) func(context.Context) error {
		return func(ctx context.Context) error {
			got, err := workload.RangeIDs(ctx, c, params, opts)
			if err == nil && !slices.Equal(got, want) {
				err = fmt.Errorf("SearchRange with %+v returned %d articles, not the %d of the default options in the same order", *opts, len(got), len(want))
			}
			return err
		}
	}
	subjects := []subject{{"sequential", search(&newssearch.RangeOptions{Concurrency: 1})}, {"default", search(&newssearch.RangeOptions{})}}
	blocks, err := interleave(ctx, subjects, e.p.rangeRounds, 1)
	if err != nil {
		return failure(err, r)
	}
	var rs []float64
	var seq, con []time.Duration
	for _, b := range blocks {
		rs = append(rs, float64(b[1].perCall)/float64(b[0].perCall))
		seq, con = append(seq, b[0].perCall), append(con, b[1].perCall)
	}
	m := median(rs)
	e.rangeDefault = median(con)
	r.measured = fmt.Sprintf("%.3fx", m)
	r.met = verdict(m <= 0.35)
	span := time.Duration(e.p.rangeDays) * 24 * time.Hour // in int64: an int of nanoseconds overflows on 32-bit
	windows := int((span + defaultRangeWindow - 1) / defaultRangeWindow)
	r.notes = []string{
		fmt.Sprintf("query %q: %d distinct articles over the range (sync search total %d), %d windows of 7 days; mock latency %v on every query-async and get-results request, jobs pending %v after submission",
			query, len(want), total, windows, e.p.latency, e.p.rangePending),
		fmt.Sprintf("median call: sequential %s, default concurrency %s; ratios per round %s (%s); every call checked to return the same articles in the same order",
			fmtMS(median(seq)), fmtMS(median(con)), ratios(rs), spread(rs)),
		"fair baseline: only concurrency differs; both use the SDK's default poll schedule (first poll after about 100 ms, then x3) and no page prefetch, so the ratio measures overlapping windows, not the better polling (row 6b times the vendor SDK's fixed 1 s sleep)",
	}
	e.logf("range: %.3fx", m)
	return []result{r}
}

// startVendorRange times, in the background, SearchRange done the vendor
// SDK's way (one window at a time, a fixed 1 s sleep before every poll),
// once, on a server of its own set up as rowRange's; the table line
// compares it with row 6's median default SearchRange. The vendor way
// waits far more than it computes, so running beside the other rows
// barely changes it, and it barely disturbs them.
func startVendorRange(ctx context.Context, e *env) func() []result {
	r := result{order: 61, id: "6b", what: fmt.Sprintf("For scale: default SearchRange over %d days (row 6's median) vs the vendor SDK's way", e.p.rangeDays),
		baseline: "one window at a time and a fixed 1 s sleep before every poll (RangeOptions{Concurrency: 1} with a constant 1 s PollOptions), once, in the background",
		target:   "- (no target)", met: "-"}
	var took time.Duration
	var articles int
	var runErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := mockserver.New(mockserver.WithPendingPolls(0), mockserver.WithPendingDuration(e.p.rangePending), workload.LatencyRules(e.p.latency))
		defer s.Close()
		c, err := workload.SDKClient(s)
		if err != nil {
			runErr = err
			return
		}
		end := time.Now()
		start := end.Add(-time.Duration(e.p.rangeDays) * 24 * time.Hour)
		query, _, err := workload.RangeQuery(ctx, c, start, end, e.p.rangeDays*9)
		if err != nil {
			runErr = err
			return
		}
		params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: query, StartDate: start, EndDate: end}}
		vendor := []newssearch.RangeOption{&newssearch.RangeOptions{Concurrency: 1},
			&newssearch.PollOptions{MinDelay: e.p.vendorInterval, MaxDelay: e.p.vendorInterval, Multiplier: 1, Jitter: -1}}
		begin := time.Now()
		ids, err := workload.RangeIDs(ctx, c, params, vendor...)
		took, articles, runErr = time.Since(begin), len(ids), err
	}()
	return func() []result {
		<-done
		if runErr != nil {
			return failure(runErr, r)
		}
		if e.rangeDefault == 0 {
			r.measured = fmt.Sprintf("vendor way %s (row 6 did not run: no ratio)", fmtMS(took))
		} else {
			r.measured = fmt.Sprintf("%.3fx (%s vs %s)", float64(e.rangeDefault)/float64(took), fmtMS(e.rangeDefault), fmtMS(took))
		}
		r.notes = []string{fmt.Sprintf("the vendor way returned %d articles; this compares polling and concurrency together, unlike row 6", articles)}
		return []result{r}
	}
}
