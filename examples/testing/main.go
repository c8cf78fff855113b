// Testing shows how to test your own code that uses the SDK against the
// mock server. The code under test is package newsdigest; its tests in
// newsdigest/newsdigest_test.go and newsdigest/example_test.go start a
// server per test, inject faults through options and through the
// X-Mock-Fault header, make a job fail, use the no-socket transport and
// httpmock, and read the journal to assert what was sent. Run them with
//
//	go test -v ./examples/testing/...
//
// This program runs newsdigest against the mock server once:
//
//	go run ./examples/testing
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/newssearch/newssearch-go/examples/testing/newsdigest"
	"github.com/newssearch/newssearch-go/mockserver"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "testing:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	srv := mockserver.New()
	defer srv.Close()
	client := srv.Client()

	const query = "earthquake"
	sites, err := newsdigest.TopSites(ctx, client, query, 3)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Top sites for %q:\n", query)
	for _, s := range sites {
		fmt.Fprintf(w, "  %s: %d articles\n", s.Site, s.Articles)
	}
	titles, err := newsdigest.Latest(ctx, client, query, 3)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Latest on %q:\n", query)
	for _, title := range titles {
		fmt.Fprintf(w, "  %s\n", title)
	}
	fmt.Fprintf(w, "\nThe server got %d requests. See how newsdigest is tested: go test -v ./examples/testing/...\n", len(srv.Journal()))
	return nil
}
