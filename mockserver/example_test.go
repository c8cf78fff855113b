package mockserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// A test starts a server, takes a client already pointed at it, and
// searches the embedded corpus.
func Example() {
	s := mockserver.New()
	defer s.Close()

	c := s.Client()
	res, err := c.Search(context.Background(), newssearch.SearchParams{Query: "election"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("articles on page 1:", len(res.Articles))
	fmt.Println("more pages:", res.TotalResults > newssearch.PageSize)
	// Output:
	// articles on page 1: 25
	// more pages: true
}

// WithoutListener opens no socket at all: the client reaches the server
// through its in-process Transport.
func Example_noSocket() {
	s := mockserver.New(mockserver.WithoutListener())
	defer s.Close()

	fmt.Println(s.URL())
	h, err := s.Client().Headlines(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("clusters:", len(h.Headlines) > 0)
	// Output:
	// http://mockserver.invalid
	// clusters: true
}

// An asynchronous job answers PENDING to its first poll, then SUCCESS.
func Example_asyncJob() {
	s := mockserver.New(mockserver.WithoutListener())
	defer s.Close()

	ctx := context.Background()
	c := s.Client()
	job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "earthquake"},
		SortOrder:    newssearch.SortDatePublished,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 2 {
		page, err := c.GetResults(ctx, job.QueryID, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(page.State, len(page.Articles) > 0)
	}
	// Output:
	// PENDING false
	// SUCCESS true
}

// Any client, in any language, can ask for a fault with the X-Mock-Fault
// header; rules given to WithFaults or SetFaults inject them from Go.
func Example_faults() {
	s := mockserver.New(mockserver.WithFaults(mockserver.FaultRule{
		Endpoint: mockserver.EndpointHeadlines, Times: 1, Fault: mockserver.Fault{Status: 503},
	}))
	defer s.Close()

	post := func(header string) {
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v2/headlines", strings.NewReader(`{"api_key": "k"}`))
		req.Header.Set(mockserver.FaultHeader, header)
		resp, err := s.HTTPClient().Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), len(body) > 0)
	}
	post("")                         // the rule fires once
	post("status=429;retry-after=2") // the header asks for a 429
	post("")                         // no fault
	for _, e := range s.Journal() {
		fmt.Printf("%d %q\n", e.Status, e.Fault)
	}
	// Output:
	// 503  true
	// 429 2 true
	// 200  true
	// 503 "rule 0: status=503"
	// 429 "header: status=429;retry-after=2"
	// 200 ""
}

// A messy service: a test walks the pages of a search while every page
// after the first repeats the previous page's last three articles and a
// new matching article is published before each page, so totals grow and
// pages shift. The code under test must count each article once.
func Example_messyService() {
	s := mockserver.New(mockserver.WithFaults(mockserver.FaultRule{
		Endpoint: mockserver.EndpointQuery,
		Fault:    mockserver.Fault{Overlap: 3, Arrivals: 1},
	}))
	defer s.Close()

	seen, repeats := map[string]bool{}, 0
	for page := 1; page <= 3; page++ {
		res, err := s.Client().Search(context.Background(), newssearch.SearchParams{Query: "election", Page: page})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("page %d: %d articles of %d\n", page, len(res.Articles), res.TotalResults)
		for _, a := range res.Articles {
			if seen[a.ID] {
				repeats++
			}
			seen[a.ID] = true
		}
	}
	fmt.Println(len(seen), "articles,", repeats, "repeated")
	// Output:
	// page 1: 25 articles of 178
	// page 2: 28 articles of 179
	// page 3: 28 articles of 180
	// 73 articles, 8 repeated
}
