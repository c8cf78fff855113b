package main

import (
	"time"

	newssearch "github.com/newssearch/newssearch-go"
)

// params sizes every row. fullParams is the real run (well under five
// minutes on a loaded 2-core machine); quickParams only exercises the code.
type params struct {
	quick bool

	// search and scaling: rounds of calls per corpus, the number of
	// distinct queries, and the size of the large corpus.
	searchRounds, searchCalls, searchQueries, bigArticles int

	// throughput: rounds of a block of requests per target and
	// connection count.
	loadRounds, loadRequests int
	loadConns                []int
	// throughput of get-results and query-async: connections, and
	// requests per round and target. A round of the full run lasts about
	// half a second, so that every round holds its share of the garbage
	// collector's cycles: rounds of 3,000 (a tenth of a second of
	// query-async) gave medians that moved by 0.07 from run to run.
	jobConns, jobRequests int
	// wrk: rounds and the duration of each wrk run.
	wrkRounds   int
	wrkDuration time.Duration
	// scaling: multiples of the embedded corpus, and the 48-hour windows
	// clustered at each.
	scales       []int
	scaleWindows int

	// overhead: rounds of calls per subject.
	overheadRounds, overheadCalls int

	// drain and range: the mock's added latency per request.
	latency time.Duration
	// drain: rounds, and the size of the job.
	drainRounds, drainResults, drainPrefetch int
	// range: rounds, span and pending time of each job.
	rangeRounds, rangeDays int
	rangePending           time.Duration

	// startup: child processes with the cache file in place, child
	// processes without (each storing it), and later New calls in each.
	startupChildren, coldChildren, laterNews int

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
		searchRounds: 9, searchCalls: 300, searchQueries: 64, bigArticles: 5 * 24000,
		loadRounds: 9, loadRequests: 4000, loadConns: []int{8, 16, 32},
		jobConns: 16, jobRequests: 15000,
		wrkRounds: 5, wrkDuration: 2 * time.Second,
		scales: []int{1, 5, 10}, scaleWindows: 6,
		overheadRounds: 25, overheadCalls: 120,
		latency:     20 * time.Millisecond,
		drainRounds: 7, drainResults: 2500, drainPrefetch: newssearch.DefaultPrefetch,
		rangeRounds: 5, rangeDays: 90, rangePending: 200 * time.Millisecond,
		startupChildren: 10, coldChildren: 5, laterNews: 200,
		pollTrials: 8, shortPending: 300 * time.Millisecond, longPending: 60 * time.Second, longPolls: 3,
		vendorInterval: time.Second,
	}
}

// quickParams exercises every row with tiny counts and short waits.
func quickParams() params {
	return params{
		quick:        true,
		searchRounds: 2, searchCalls: 10, searchQueries: 8, bigArticles: 600,
		loadRounds: 1, loadRequests: 40, loadConns: []int{2},
		jobConns: 2, jobRequests: 40,
		wrkRounds: 1, wrkDuration: time.Second,
		scales: []int{1, 2}, scaleWindows: 1,
		overheadRounds: 2, overheadCalls: 3,
		latency:     time.Millisecond,
		drainRounds: 1, drainResults: 100, drainPrefetch: newssearch.DefaultPrefetch,
		rangeRounds: 1, rangeDays: 15, rangePending: 10 * time.Millisecond,
		startupChildren: 1, coldChildren: 1, laterNews: 2,
		pollTrials: 1, shortPending: 20 * time.Millisecond, longPending: 200 * time.Millisecond, longPolls: 1,
		vendorInterval: 50 * time.Millisecond,
	}
}
