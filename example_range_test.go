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
// then resumed: the windows received are passed back as done (without
// their articles, which a program would have written away), and the two
// calls together yield every article once, newest first.
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
	var done []newssearch.WindowResult
	n := 0
	for w, err := range client.SearchRangeSeq(ctx, params) {
		var stopped *newssearch.RangeError
		if errors.As(err, &stopped) {
			fmt.Println("stopped:", errors.Is(err, context.Canceled), len(stopped.Missing), "windows missing")
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		n += len(w.Articles) // a program would write them out here
		done = append(done, newssearch.WindowResult{RangeWindow: w.RangeWindow})
		if w.Start.Day() == 15 {
			cancel()
		}
	}
	fmt.Printf("first call: %d articles, %d windows finished:\n", n, len(done))
	for _, w := range done {
		fmt.Println(" ", w.RangeWindow)
	}

	rest := 0
	for w, err := range client.SearchRangeSeq(context.Background(), params, &newssearch.RangeOptions{Done: done}) {
		if err != nil {
			log.Fatal(err)
		}
		if rest == 0 && len(w.Articles) > 0 {
			fmt.Println("resumed at:", w.Articles[0].DatePublished.Time.Format("2 Jan"))
		}
		rest += len(w.Articles)
	}
	fmt.Printf("resumed call: %d articles, %d in all\n", rest, n+rest)
	// Output:
	// stopped: true 2 windows missing
	// first call: 16 articles, 3 windows finished:
	//   2025-03-29T00:00:00.000Z to 2025-03-31T23:59:59.999Z
	//   2025-03-22T00:00:00.000Z to 2025-03-29T00:00:00.000Z
	//   2025-03-15T00:00:00.000Z to 2025-03-22T00:00:00.000Z
	// resumed at: 14 Mar
	// resumed call: 14 articles, 30 in all
}
