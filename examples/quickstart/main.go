// Quickstart shows the three calls most programs need, run against the
// in-process mock server so that it needs no API key and no network:
// a synchronous search, an asynchronous search that reports its polling,
// and the headline clusters. Run it with
//
//	go run ./examples/quickstart
//
// Against the real service, create the client with
// newssearch.NewClient(newssearch.WithAPIKey(key)) (or set NEWSSEARCH_API_KEY
// and call newssearch.NewClient()) instead of starting the mock.
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
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	srv := mockserver.New() // the mock's dates end at the current time, like live news
	defer srv.Close()
	client := srv.Client()
	now := time.Now()

	// A synchronous search answers at once with one page of up to 25
	// articles and the total. It suits short ranges, up to a week.
	res, err := client.Search(ctx, newssearch.SearchParams{
		Query:     "electric vehicles",
		StartDate: now.AddDate(0, 0, -7),
		EndDate:   now,
	})
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	fmt.Fprintf(w, "Search %q, last 7 days: %d articles\n", "electric vehicles", res.TotalResults)
	for _, a := range first(res.Articles, 3) {
		fmt.Fprintf(w, "  %s (%s, %s)\n", a.Title, a.Site, a.DatePublished.Time.Format(time.DateOnly))
	}

	// An asynchronous search suits long ranges and takes key_phrases and a
	// sort order. SubmitQuery starts the job; Poll waits until it is done
	// and returns its first page.
	fmt.Fprintf(w, "\nSubmitQuery and Poll %q, last 3 months, key phrases, newest first:\n", "election")
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{
			Query:     "election",
			StartDate: now.AddDate(0, -3, 0),
			EndDate:   now,
		},
		KeyPhrases: "('victory' or 'wins') and not 'narrow'",
		SortOrder:  newssearch.SortDatePublished,
	})
	if err != nil {
		return fmt.Errorf("async search: %w", err)
	}
	page, err := client.Poll(ctx, job.QueryID, &newssearch.PollOptions{
		// The mock's client polls every few milliseconds to keep tests fast;
		// against the real service the polls come after about 0.1 s, 0.4 s,
		// 1.3 s, then every 2.9 s (see PollOptions).
		OnPoll: func(e newssearch.PollEvent) {
			fmt.Fprintf(w, "  poll %d after %v: %s\n", e.Attempt, e.Elapsed.Round(time.Millisecond), e.State)
		},
	})
	if err != nil {
		return fmt.Errorf("async search: %w", err)
	}
	fmt.Fprintf(w, "  %d articles (job %s); the newest:\n", page.TotalResults, page.QueryID)
	for _, a := range first(page.Articles, 3) {
		fmt.Fprintf(w, "  %s (%s, %s)\n", a.Title, a.Site, a.DatePublished.Time.Format(time.DateOnly))
	}

	// Headlines are clusters of articles around the leading topics.
	h, err := client.Headlines(ctx)
	if err != nil {
		return fmt.Errorf("headlines: %w", err)
	}
	fmt.Fprintf(w, "\nHeadlines: %d clusters; the largest:\n", len(h.Headlines))
	for _, c := range first(h.Headlines, 3) {
		fmt.Fprintf(w, "  %3d articles: %s\n", c.Count, c.Topic)
	}
	return nil
}

// first returns at most the first n elements of s.
func first[T any](s []T, n int) []T { return s[:min(n, len(s))] }
