package workload

import (
	"context"
	"fmt"
	"slices"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// The SDK's default first poll wait and jitter (PollOptions.MinDelay and
// Jitter left zero), which it does not export.
const (
	pollMinDelay = 100 * time.Millisecond
	pollJitter   = 0.2
)

// SizedJob finds the "*" (match-all) search over [start, end] whose total
// is want articles, or the largest total below want that fills as many
// pages, by moving start with a binary search on sync searches. It submits
// that search as an asynchronous job, waits until the job is done and
// returns its query ID and total.
func SizedJob(ctx context.Context, c *newssearch.Client, end time.Time, want int) (queryID string, total int, err error) {
	if want <= 0 {
		return "", 0, fmt.Errorf("workload: SizedJob: want %d results: ask for at least one", want)
	}
	count := func(start time.Time) (int, error) {
		r, err := c.Search(ctx, newssearch.SearchParams{Query: "*", StartDate: start, EndDate: end})
		if err != nil {
			return 0, fmt.Errorf("workload: SizedJob: counting: %w", err)
		}
		return r.TotalResults, nil
	}
	// The total shrinks as start moves forward: find the earliest start
	// whose total is at most want.
	lo, hi := end.Add(-20*365*24*time.Hour), end // total(lo) is everything, total(hi) is tiny
	all, err := count(lo)
	if err != nil {
		return "", 0, err
	}
	if all < want {
		return "", 0, fmt.Errorf("workload: SizedJob: the corpus holds only %d articles up to %s, fewer than %d: serve a larger corpus", all, end.UTC().Format(time.RFC3339), want)
	}
	best := 0
	for hi.Sub(lo) > time.Millisecond {
		mid := lo.Add(hi.Sub(lo) / 2)
		n, err := count(mid)
		if err != nil {
			return "", 0, err
		}
		if n > want {
			lo = mid
			continue
		}
		hi, best = mid, n
		if n == want {
			break
		}
	}
	pages := func(n int) int { return (n + newssearch.PageSize - 1) / newssearch.PageSize }
	if pages(best) != pages(want) {
		return "", 0, fmt.Errorf("workload: SizedJob: no start date gives %d pages (closest total %d): several articles share a publication instant; ask for another size", pages(want), best)
	}
	job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "*", StartDate: hi, EndDate: end}})
	if err != nil {
		return "", 0, fmt.Errorf("workload: SizedJob: submitting: %w", err)
	}
	page, err := c.Poll(ctx, job.QueryID, &newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond, Jitter: -1})
	if err != nil {
		return "", 0, fmt.Errorf("workload: SizedJob: waiting for the job: %w", err)
	}
	if page.TotalResults != best {
		return "", 0, fmt.Errorf("workload: SizedJob: the job holds %d results, the sync search %d: the mock's sync and async searches disagree", page.TotalResults, best)
	}
	return job.QueryID, best, nil
}

// VendorPoll waits for the job queryID as the vendor's SDK does: it sleeps
// interval, asks get-results for page 1, and repeats while the state is
// pending, with no backoff and no time limit but ctx. It returns the first
// page of the finished job, the number of get-results requests, and the
// delay beyond the schedule (sleeps that overran, the requests' own time).
func VendorPoll(ctx context.Context, c *newssearch.Client, queryID string, interval time.Duration) (*newssearch.Page, int, time.Duration, error) {
	t := time.NewTimer(interval)
	defer t.Stop()
	var stall time.Duration
	slept := time.Now()
	for requests := 1; ; requests++ {
		select {
		case <-ctx.Done():
			return nil, requests - 1, stall, ctx.Err()
		case <-t.C:
		}
		page, err := c.GetResults(ctx, queryID, 1)
		stall += time.Since(slept) - interval
		if err != nil {
			return nil, requests, stall, err
		}
		if !page.State.IsPending() {
			return page, requests, stall, nil
		}
		slept = time.Now()
		t.Reset(interval)
	}
}

// Drain reads every article of the finished job queryID with the SDK's
// Results iterator, prefetch pages ahead (0: one page at a time, as the
// vendor's SDK does), and returns their IDs in order.
func Drain(ctx context.Context, c *newssearch.Client, queryID string, prefetch int) ([]string, error) {
	var ids []string
	for a, err := range c.Results(ctx, queryID, &newssearch.PageOptions{Prefetch: prefetch}) {
		if err != nil {
			return nil, err
		}
		ids = append(ids, a.ID)
	}
	return ids, nil
}

// PollOutcome is one job waited for: how late its result came and how many
// get-results requests it took.
type PollOutcome struct {
	// Late is the time from the job's readiness to the result.
	Late time.Duration
	// Stall is the time the poll schedule did not ask for: from the
	// submission's arrival to the start of polling (the submission's
	// answer), plus every sleep's overrun (a loaded machine fires timers
	// late) and every request's time; for the SDK's first wait, whose
	// random length is not reported, only what exceeds the longest wait
	// the default options allow counts. It is a few milliseconds on an
	// idle machine.
	Stall time.Duration
	// Requests counts the get-results requests.
	Requests int
}

// WaitJob submits a job to s, whose jobs are pending for pending, and
// waits for it with the SDK's Poll (default options) or, if vendor, the
// vendor SDK's fixed-interval loop. Lateness runs from the job's readiness
// (its arrival on the mock's clock, from the journal, plus pending) to the
// moment the result is in the caller's hands. c must have the SDK's
// default poll options (see SDKClient).
func WaitJob(ctx context.Context, s *mockserver.Server, c *newssearch.Client, pending time.Duration, vendor bool, interval time.Duration) (PollOutcome, error) {
	job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "*"}})
	if err != nil {
		return PollOutcome{}, err
	}
	ready, err := ReadyAt(s, job.QueryID, pending)
	if err != nil {
		return PollOutcome{}, err
	}
	var o PollOutcome
	o.Stall = time.Since(ready.Add(-pending)) // the submission arrived at ready-pending
	var page *newssearch.Page
	if vendor {
		var stall time.Duration
		page, o.Requests, stall, err = VendorPoll(ctx, c, job.QueryID, interval)
		o.Stall += stall
	} else {
		var prev newssearch.PollEvent
		page, err = c.Poll(ctx, job.QueryID, &newssearch.PollOptions{OnPoll: func(ev newssearch.PollEvent) {
			if ev.Attempt == 1 { // at least the overrun of the longest first wait the defaults allow
				o.Stall += max(0, ev.Elapsed-time.Duration(float64(pollMinDelay)*(1+pollJitter)))
			} else { // the time since the previous request beyond the wait it chose
				o.Stall += max(0, ev.Elapsed-prev.Elapsed-prev.Next)
			}
			prev, o.Requests = ev, ev.Attempt
		}})
	}
	o.Late = time.Since(ready)
	if err != nil {
		return PollOutcome{}, err
	}
	if len(page.Articles) == 0 {
		return PollOutcome{}, fmt.Errorf("workload: job %s finished with no articles: submit a query that matches something", job.QueryID)
	}
	return o, nil
}

// ReadyAt returns when the job queryID becomes ready: the arrival of its
// submission on the mock's clock, from the journal, plus pending.
func ReadyAt(s *mockserver.Server, queryID string, pending time.Duration) (time.Time, error) {
	for _, entry := range slices.Backward(s.Journal()) {
		if entry.Path == "/api/v2/query-async" && entry.QueryID == queryID {
			return entry.Time.Add(pending), nil
		}
	}
	return time.Time{}, fmt.Errorf("workload: job %s is not in the mock's journal, so its submission time is unknown: keep the journal on (WithJournalSize > 0)", queryID)
}
