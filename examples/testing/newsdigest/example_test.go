package newsdigest_test

import (
	"context"
	"fmt"

	"github.com/newssearch/newssearch-go/examples/testing/newsdigest"
	"github.com/newssearch/newssearch-go/mockserver"
)

// Point the code under test at a mock server with the server's Client: it
// is already configured with the server's URL and a valid key.
func ExampleTopSites() {
	srv := mockserver.New()
	defer srv.Close()

	sites, err := newsdigest.TopSites(context.Background(), srv.Client(), "earthquake", 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range sites {
		fmt.Printf("%s: %d articles\n", s.Site, s.Articles)
	}
	// Output:
	// highlandsentinel.net: 3 articles
	// dailycourier.ca: 2 articles
	// bayreport.ie: 1 articles
}

// The client retries a 503. A fault rule makes the server answer the first
// two searches with one, and the journal shows the three attempts.
func ExampleTopSites_retries() {
	srv := mockserver.New(mockserver.WithFaults(mockserver.FaultRule{
		Endpoint: mockserver.EndpointQuery,
		Times:    2,
		Fault:    mockserver.Fault{Status: 503},
	}))
	defer srv.Close()

	if _, err := newsdigest.TopSites(context.Background(), srv.Client(), "earthquake", 3); err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range srv.Journal() {
		fmt.Printf("%d %s %q\n", e.Status, e.Path, e.Fault)
	}
	// Output:
	// 503 /api/v2/query "rule 0: status=503"
	// 503 /api/v2/query "rule 0: status=503"
	// 200 /api/v2/query ""
}

// Latest waits for its asynchronous job; by default the mock answers
// PENDING to the first poll of a job and SUCCESS to the next.
func ExampleLatest() {
	srv := mockserver.New()
	defer srv.Close()

	titles, err := newsdigest.Latest(context.Background(), srv.Client(), "earthquake", 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, title := range titles {
		fmt.Println(title)
	}
	// Output:
	// Earthquake in Kyiv: buildings damaged, 734 spend night outdoors
	// Strong earthquake strikes Kyiv
	// Kyiv earthquake: rescuers work through the night
}
