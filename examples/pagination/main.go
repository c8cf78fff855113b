// Pagination shows the two forms of each source of results: one page
// (Search, GetResults) or every article (SearchAll, Results), with
// PageOptions.OnPage showing each page as SearchAll reaches it, leaving
// the loop early, and every page of an asynchronous job. It runs
// against the in-process mock server, so it needs no API key and no
// network:
//
//	go run ./examples/pagination
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pagination:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	srv := mockserver.New()
	defer srv.Close()
	client := srv.Client()
	params := newssearch.SearchParams{Query: "earthquake"}

	// Search returns one page; SearchAll every article, page after page.
	// OnPage sees each page (its number and the totals) before its
	// articles come.
	fmt.Fprintf(w, "Pages of %q:\n", params.Query)
	showPage := &newssearch.PageOptions{OnPage: func(page *newssearch.Page) {
		fmt.Fprintf(w, "  page %d of %d: %2d of %d articles, first: %s\n",
			page.Number, page.TotalPages(), len(page.Articles), page.TotalResults, page.Articles[0].Title)
	}}
	for _, err := range client.SearchAll(ctx, params, showPage) {
		if err != nil {
			return fmt.Errorf("pages: %w", err)
		}
	}

	// SearchAll yields one article at a time and fetches pages as the loop
	// needs them; leaving the loop stops it.
	fmt.Fprintf(w, "\nThe first 5 articles, one at a time:\n")
	before := len(srv.Journal())
	n := 0
	for a, err := range client.SearchAll(ctx, params, nil) {
		if err != nil {
			return fmt.Errorf("articles: %w", err)
		}
		n++
		fmt.Fprintf(w, "  %d. %s (%s)\n", n, a.Title, a.Site)
		if n == 5 {
			break
		}
	}
	fmt.Fprintf(w, "  requests made: %d\n", len(srv.Journal())-before)

	// Results walks every page of an asynchronous job, waiting for it
	// first; Prefetch fetches several pages at once.
	now := time.Now()
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
		Query: "election", StartDate: now.AddDate(0, -6, 0), EndDate: now,
	}})
	if err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	sites := map[string]bool{}
	total := 0
	for a, err := range client.Results(ctx, job.QueryID, &newssearch.PageOptions{Prefetch: newssearch.DefaultPrefetch}) {
		if err != nil {
			return fmt.Errorf("results: %w", err)
		}
		total++
		sites[a.Site] = true
	}
	fmt.Fprintf(w, "\nAll results of an async job for %q, last 6 months: %d articles from %d sites\n",
		"election", total, len(sites))
	return nil
}
