// Headlines shows the headline clusters: articles of the last two days
// grouped around the leading topics, with the size of each cluster and a
// few of its articles. It runs against the in-process mock server, so it
// needs no API key and no network:
//
//	go run ./examples/headlines
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/newssearch/newssearch-go/mockserver"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "headlines:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	srv := mockserver.New()
	defer srv.Close()

	h, err := srv.Client().Headlines(ctx)
	if err != nil {
		return fmt.Errorf("headlines: %w", err)
	}
	fmt.Fprintf(w, "%d headline clusters; the first 4:\n", len(h.Headlines))
	for i, c := range h.Headlines[:min(4, len(h.Headlines))] {
		// Count is the cluster's size; only the first few articles are listed.
		fmt.Fprintf(w, "\n%d. %s\n   %d articles, %d listed:\n", i+1, c.Topic, c.Count, len(c.Articles))
		for _, a := range c.Articles[:min(3, len(c.Articles))] {
			fmt.Fprintf(w, "   - %s (%s, %s)\n", a.Title, a.Site, a.DatePublished.Time.Format("Jan 2 15:04 MST"))
		}
	}
	return nil
}
