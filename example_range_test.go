package newssearch_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
)

// A long range streamed window by window, stopped part way (as by Ctrl-C),
// then resumed: the finished windows are skipped, and the two calls
// together yield every article once, newest first.
func ExampleRangeError() {
	srv := jobService()
	defer srv.Close()
	client := exampleClient(srv)

	params := newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{
			Query:     "electric cars",
			StartDate: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
			EndDate:   time.Date(2025, 3, 31, 23, 59, 59, 999e6, time.UTC),
		},
		SortOrder: newssearch.SortDatePublished,
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var finished []newssearch.RangeWindow
	n := 0
	for article, err := range client.SearchRangeSeq(ctx, params, nil) {
		var stopped *newssearch.RangeError
		if errors.As(err, &stopped) {
			finished = stopped.Finished // a CLI would save these to a file
			fmt.Println("stopped:", errors.Is(err, context.Canceled))
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		n++
		if article.DatePublished.Time.Day() == 20 {
			cancel() // the window being yielded still finishes
		}
	}
	fmt.Printf("first call: %d articles, %d windows finished:\n", n, len(finished))
	for _, w := range finished {
		fmt.Println(" ", w)
	}

	rest := 0
	for article, err := range client.SearchRangeSeq(context.Background(), params, &newssearch.RangeOptions{Skip: finished}) {
		if err != nil {
			log.Fatal(err)
		}
		if rest == 0 {
			fmt.Println("resumed at:", article.DatePublished.Time.Format("2 Jan"))
		}
		rest++
	}
	fmt.Printf("resumed call: %d articles, %d in all\n", rest, n+rest)
	// Output:
	// stopped: true
	// first call: 15 articles, 3 windows finished:
	//   2025-03-15T00:00:00.000Z to 2025-03-22T00:00:00.000Z
	//   2025-03-22T00:00:00.000Z to 2025-03-29T00:00:00.000Z
	//   2025-03-29T00:00:00.000Z to 2025-03-31T23:59:59.999Z
	// resumed at: 15 Mar
	// resumed call: 15 articles, 30 in all
}
