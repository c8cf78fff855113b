package workload

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// LatencyRules makes the mock wait d before answering every request to
// the asynchronous endpoints (query-async and get-results), as a real
// service a few network hops away would, so that concurrency has
// something to overlap.
func LatencyRules(d time.Duration) mockserver.Option {
	return mockserver.WithFaults(
		mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Fault: mockserver.Fault{Latency: d}},
		mockserver.FaultRule{Endpoint: mockserver.EndpointGetResults, Fault: mockserver.Fault{Latency: d}},
	)
}

// FullPageQuery returns a one-word query (no filter) whose first page on
// the default mock is full, with the mock's answer to it.
func FullPageQuery(ctx context.Context) (Query, []byte, error) {
	s := mockserver.New(mockserver.WithoutListener())
	defer s.Close()
	qs, err := Queries(ctx, s.Client(), 4)
	if err != nil {
		return Query{}, nil, err
	}
	for _, q := range qs {
		for _, w := range strings.Fields(q.Text) {
			q := Query{Text: w}
			raw, _, err := Post(ctx, s.HTTPClient(), s.URL()+"/api/v2/query", q.Body(s.APIKey(), 0))
			if err != nil {
				return Query{}, nil, err
			}
			var probe struct {
				Results struct {
					Articles []json.RawMessage `json:"articles"`
				} `json:"results"`
			}
			if err := json.Unmarshal(raw, &probe); err != nil {
				return Query{}, nil, fmt.Errorf("workload: the answer to %q: %w", w, err)
			}
			if len(probe.Results.Articles) == newssearch.PageSize {
				return q, raw, nil
			}
		}
	}
	return Query{}, nil, errors.New("workload: no title word fills a page: serve a larger corpus")
}

// RangeQuery picks, among the title words of the default corpus, the one
// whose total on c over [start, end] is closest to near, and returns it
// with that total.
func RangeQuery(ctx context.Context, c *newssearch.Client, start, end time.Time, near int) (string, int, error) {
	local := mockserver.New(mockserver.WithoutListener())
	defer local.Close()
	qs, err := Queries(ctx, local.Client(), 8)
	if err != nil {
		return "", 0, err
	}
	best, bestTotal := "", -1
	for _, q := range qs {
		for _, w := range TitleWords(q.Text, 3) {
			resp, err := c.Search(ctx, newssearch.SearchParams{Query: w, StartDate: start, EndDate: end})
			if err != nil {
				return "", 0, err
			}
			if bestTotal < 0 || abs(resp.TotalResults-near) < abs(bestTotal-near) {
				best, bestTotal = w, resp.TotalResults
			}
		}
	}
	if bestTotal <= 0 {
		return "", 0, fmt.Errorf("workload: no title word has results between %s and %s: widen the range", start.Format(time.RFC3339), end.Format(time.RFC3339))
	}
	return best, bestTotal, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// RangeIDs runs SearchRange and returns the article IDs in order.
func RangeIDs(ctx context.Context, c *newssearch.Client, params newssearch.AsyncSearchParams, opts ...newssearch.RangeOption) ([]string, error) {
	articles, err := c.SearchRange(ctx, params, opts...)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(articles))
	for i, a := range articles {
		ids[i] = a.ID
	}
	return ids, nil
}

// SDKClient returns an SDK client for s with the SDK's own defaults (poll
// schedule, retries), as a program talking to the real service has.
// Server.Client is not used for this: it shortens the poll and retry waits
// so that tests run fast, which would measure something else.
func SDKClient(s *mockserver.Server) (*newssearch.Client, error) {
	return newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithBaseURL(s.URL()),
		newssearch.WithAPIKey(s.APIKey()), newssearch.WithHTTPClient(s.HTTPClient()))
}
