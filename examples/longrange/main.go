// Longrange shows SearchRange, which searches a long date range as one
// asynchronous job per week-long window, several at a time, and merges the
// results, reporting its progress as windows finish. It runs against the
// in-process mock server, so it needs no API key and no network:
//
//	go run ./examples/longrange
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "longrange:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	srv := mockserver.New()
	defer srv.Close()
	client := srv.Client()

	end := time.Now()
	start := end.AddDate(0, -3, 0)
	fmt.Fprintf(w, "SearchRange %q from %s to %s:\n", "earthquake", start.Format(time.DateOnly), end.Format(time.DateOnly))
	articles, err := client.SearchRange(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "earthquake", StartDate: start, EndDate: end},
	}, &newssearch.RangeOptions{
		OnProgress: func(p newssearch.RangeProgress) {
			fmt.Fprintf(w, "  windows %2d/%d done, %3d articles so far\n", p.WindowsDone, p.WindowsTotal, p.Articles)
		},
	})
	var partial *newssearch.RangeError
	switch {
	case errors.As(err, &partial):
		// Some windows failed: the articles of the others came back, and
		// RangeOptions{Done: partial.Finished} would search only the rest.
		fmt.Fprintf(w, "  %d of %d windows missing: %v\n", len(partial.Missing), partial.Windows, err)
	case err != nil:
		return fmt.Errorf("search range: %w", err)
	}

	fmt.Fprintf(w, "%d articles; the most relevant:\n", len(articles))
	for _, a := range articles[:min(5, len(articles))] {
		fmt.Fprintf(w, "  %6.3f  %s  %s (%s)\n", a.Score, a.DatePublished.Time.Format(time.DateOnly), a.Title, a.Site)
	}
	return nil
}
