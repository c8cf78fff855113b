// Package newsdigest stands for your own code: a small digest of a topic
// built with a *newssearch.Client. It is here for its tests, which show how
// to test code that uses the SDK against the mock server (package
// mockserver): run them with
//
//	go test -v ./examples/testing/...
package newsdigest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	newssearch "github.com/newssearch/newssearch-go"
)

// SiteCount is how many articles on a topic one site published.
type SiteCount struct {
	Site     string
	Articles int
}

// TopSites runs a synchronous search for query and returns the n sites with
// the most articles on its first page, most first; sites with as many
// articles come in alphabetical order.
func TopSites(ctx context.Context, c *newssearch.Client, query string, n int) ([]SiteCount, error) {
	res, err := c.Search(ctx, newssearch.SearchParams{Query: query})
	if err != nil {
		return nil, fmt.Errorf("newsdigest: top sites for %q: %w", query, err)
	}
	counts := map[string]int{}
	for _, a := range res.Articles {
		counts[a.Site]++
	}
	sites := make([]SiteCount, 0, len(counts))
	for site, articles := range counts {
		sites = append(sites, SiteCount{Site: site, Articles: articles})
	}
	slices.SortFunc(sites, func(a, b SiteCount) int {
		return cmp.Or(cmp.Compare(b.Articles, a.Articles), strings.Compare(a.Site, b.Site))
	})
	return sites[:min(max(n, 0), len(sites))], nil
}

// Latest runs an asynchronous search for query, newest first, and returns
// the titles of the n newest articles.
func Latest(ctx context.Context, c *newssearch.Client, query string, n int) ([]string, error) {
	if n <= 0 {
		return nil, nil
	}
	job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: query},
		SortOrder:    newssearch.SortDatePublished,
	})
	if err != nil {
		return nil, fmt.Errorf("newsdigest: latest on %q: %w", query, err)
	}
	var titles []string
	for a, err := range c.Results(ctx, job.QueryID, nil) { // waits for the job
		if err != nil {
			return nil, fmt.Errorf("newsdigest: latest on %q: %w", query, err)
		}
		titles = append(titles, a.Title)
		if len(titles) == n {
			break // leaving the loop stops fetching pages
		}
	}
	return titles, nil
}
