package main

import (
	"context"
	"fmt"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// rowSearch times searches served in process by the mock's handler over
// the embedded corpus, every request new to the mock's result cache.
func rowSearch(ctx context.Context, e *env) []result {
	r := result{order: 10, id: "1", what: "Mock search in process (handler, no socket): 2-3 title words + site + one week, page 1, embedded corpus, every request new to the result cache",
		baseline: "-", target: "median under 50 µs"}
	s := mockserver.New(mockserver.WithoutListener(), mockserver.WithoutDateShift())
	defer s.Close()
	qs, err := workload.Queries(ctx, s.Client(), e.p.searchQueries)
	if err != nil {
		return failure(err, r)
	}
	call := workload.NewInProcess(s.Handler(), "/api/v2/query")
	timed := func(body []byte) (time.Duration, error) {
		t := time.Now()
		status, _, err := call.Call(body)
		took := time.Since(t)
		if err == nil && status != 200 {
			err = fmt.Errorf("the mock answered %d to %s", status, body)
		}
		return took, err
	}
	var cold, warm []time.Duration
	for i := range e.p.searchCalls {
		// Each request's start date moves back by one more millisecond:
		// a request the result cache has not seen, about the same week.
		took, err := timed(qs[i%len(qs)].Body(s.APIKey(), time.Duration(i+1)*time.Millisecond))
		if err != nil {
			return failure(err, r)
		}
		cold = append(cold, took)
	}
	for i := range 2 * len(qs) { // the same queries again and again: answered from the cache
		took, err := timed(qs[i%len(qs)].Body(s.APIKey(), 0))
		if err != nil {
			return failure(err, r)
		}
		if i >= len(qs) {
			warm = append(warm, took)
		}
	}
	med := median(cold)
	r.measured = fmt.Sprintf("median %s (p90 %s, p99 %s)", fmtUS(med), fmtUS(quantile(cold, 0.9)), fmtUS(quantile(cold, 0.99)))
	r.met = verdict(med < 50*time.Microsecond)
	r.notes = []string{
		fmt.Sprintf("%d requests over %d queries derived from corpus articles (2 or 3 title words, the article's site, 3 days before to 4 days after it)", len(cold), len(qs)),
		fmt.Sprintf("the same queries repeated, answered from the result cache: median %s", fmtUS(median(warm))),
		"timed: Handler().ServeHTTP with a discarding writer: parsing and checking the request, the journal, the search, encoding the page",
	}
	e.logf("search: median %v", med)
	return []result{r}
}
