package main

import (
	"time"

	newssearch "github.com/newssearch/newssearch-go"
)

// params sizes every row. fullParams is the real run; quickParams only
// exercises the code.
type params struct {
	quick bool

	// search: requests, and the distinct queries they cycle through.
	searchCalls, searchQueries int
	// wrk: rounds and the duration of each wrk run.
	wrkRounds   int
	wrkDuration time.Duration
	// overhead: rounds of calls per subject.
	overheadRounds, overheadCalls int

	// drain and range: the mock's added latency per request.
	latency time.Duration
	// drain: rounds, and the size of the job.
	drainRounds, drainResults, drainPrefetch int
	// range: rounds, span and pending time of each job.
	rangeRounds, rangeDays int
	rangePending           time.Duration

	// startup: fresh processes of each kind, and later New calls in each.
	startupChildren, laterNews int

	// poll: trials of the short job, its pending time, the long job's
	// pending time and how many SDK polls of it run at once.
	pollTrials                int
	shortPending, longPending time.Duration
	longPolls                 int
	vendorInterval            time.Duration
}

// fullParams sizes the real run.
func fullParams() params {
	return params{
		searchCalls: 2700, searchQueries: 64,
		wrkRounds: 5, wrkDuration: 2 * time.Second,
		overheadRounds: 25, overheadCalls: 120,
		latency:     20 * time.Millisecond,
		drainRounds: 7, drainResults: 2500, drainPrefetch: newssearch.DefaultPrefetch,
		rangeRounds: 5, rangeDays: 90, rangePending: 200 * time.Millisecond,
		startupChildren: 5, laterNews: 200,
		pollTrials: 8, shortPending: 300 * time.Millisecond, longPending: 60 * time.Second, longPolls: 3,
		vendorInterval: time.Second,
	}
}

// quickParams exercises every row with tiny counts and short waits.
func quickParams() params {
	return params{
		quick:       true,
		searchCalls: 20, searchQueries: 8,
		wrkRounds: 1, wrkDuration: time.Second,
		overheadRounds: 2, overheadCalls: 3,
		latency:     time.Millisecond,
		drainRounds: 1, drainResults: 100, drainPrefetch: newssearch.DefaultPrefetch,
		rangeRounds: 1, rangeDays: 15, rangePending: 10 * time.Millisecond,
		startupChildren: 1, laterNews: 2,
		pollTrials: 1, shortPending: 20 * time.Millisecond, longPending: 200 * time.Millisecond, longPolls: 1,
		vendorInterval: 50 * time.Millisecond,
	}
}
