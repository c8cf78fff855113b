package newssearch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
)

// exampleService stands in for the real service in the examples: it
// answers each endpoint with a canned response.
func exampleService() *httptest.Server {
	article := `{"_id":"5f1c0a9e3b2d4c6e8f7a1b2c","title":"Electric car sales rise","site":"example.com",
		"url":"https://www.example.com/2025/03/04/ev-sales","image":["https://example.com/ev.jpg"],
		"datePublished":"Tue, 04 Mar 2025 09:30:00 GMT","score":12.5,"topics":["cars","energy","markets"],
		"entities":null,"entity_relationships":null}`
	answers := map[string]string{
		"/api/v2/query":       `{"results":{"totalResults":1,"articles":[` + article + `]},"state":"SUCCESS"}`,
		"/api/v2/query-async": `{"query_id":"job-1","state":"SUCCESS"}`,
		"/api/v2/get-results": `{"query_id":"job-1","page":1,"totalResults":1,"totalArticles":1,"articles":[` + article + `],"state":"SUCCESS"}`,
		"/api/v2/headlines": `{"headlines":[{"topic":"Electric car sales rise","count":7,"articles":[{"category":"Business",
			"datePublished":"2025-03-04 09:30:00","favicon":"https://example.com/favicon.ico","image":null,"site":"example.com",
			"title":"Electric car sales rise","url":"https://www.example.com/2025/03/04/ev-sales"}]}],"state":"SUCCESS"}`,
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("X-Example") == "unauthorized" {
			w.Header().Set("X-Request-Id", "req-7")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"state":"FAILED","message":"unknown api_key: check the key in your account settings"}`)
			return
		}
		io.WriteString(w, answers[r.URL.Path])
	}))
}

func ExampleNewClient() {
	srv := exampleService()
	defer srv.Close()

	// In production, pass only the key (or set NEWSSEARCH_API_KEY).
	client, err := newssearch.NewClient(
		newssearch.WithAPIKey("my-api-key"),
		newssearch.WithBaseURL(srv.URL),
		newssearch.WithMaxRetries(5),
		newssearch.WithRetryWait(100*time.Millisecond, 2*time.Second),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(client.String()[:len("newssearch.Client{")])

	// Bad configuration is an error that says how to fix it.
	_, err = newssearch.NewClient(newssearch.WithoutEnvironment())
	fmt.Println(err)
	// Output:
	// newssearch.Client{
	// newssearch: no API key: pass newssearch.WithAPIKey(key)
}

func ExampleClient_Search() {
	srv := exampleService()
	defer srv.Close()
	client, err := newssearch.NewClient(newssearch.WithAPIKey("my-api-key"), newssearch.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}

	resp, err := client.Search(context.Background(), newssearch.SearchParams{
		Query:     "electric cars",
		Sites:     []string{"example.com"},
		StartDate: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
		EndDate:   time.Date(2025, 3, 7, 23, 59, 59, 999e6, time.UTC),
		Language:  newssearch.LanguageEnglish,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("total:", resp.TotalResults)
	for _, a := range resp.Articles {
		fmt.Println(a.DatePublished.Time.Format(time.DateOnly), a.Site, a.Title, a.Image.First())
	}
	// Output:
	// total: 1
	// 2025-03-04 example.com Electric car sales rise https://example.com/ev.jpg
}

func ExampleClient_SubmitQuery() {
	srv := exampleService()
	defer srv.Close()
	client, err := newssearch.NewClient(newssearch.WithAPIKey("my-api-key"), newssearch.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "tesla", StartDate: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
		KeyPhrases:   "('elon' or 'musk') and not 'sam altman'",
		SortOrder:    newssearch.SortDatePublished,
	})
	if err != nil {
		log.Fatal(err)
	}
	// Wait for the job: Poll returns its first page (GetResults fetches
	// any other, Results every article).
	page, err := client.Poll(ctx, job.QueryID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.QueryID, page.State, page.TotalResults, page.Articles[0].Title)
	// Output:
	// job-1 SUCCESS 1 Electric car sales rise
}

func ExampleClient_Headlines() {
	srv := exampleService()
	defer srv.Close()
	client, err := newssearch.NewClient(newssearch.WithAPIKey("my-api-key"), newssearch.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}

	resp, err := client.Headlines(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, cluster := range resp.Headlines {
		fmt.Printf("%s (%d articles)\n", cluster.Topic, cluster.Count)
		for _, a := range cluster.Articles {
			fmt.Println(" ", a.DatePublished.Time.Format(time.DateTime), a.Site, a.Category)
		}
	}
	// Output:
	// Electric car sales rise (7 articles)
	//   2025-03-04 09:30:00 example.com Business
}

// headerTransport adds a header to every request.
type headerTransport struct{ key, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

func ExampleAPIError() {
	srv := exampleService()
	defer srv.Close()
	client, err := newssearch.NewClient(
		newssearch.WithAPIKey("wrong-key"),
		newssearch.WithBaseURL(srv.URL),
		// Makes the example service refuse the key.
		newssearch.WithHTTPClient(&http.Client{Transport: headerTransport{"X-Example", "unauthorized"}}),
	)
	if err != nil {
		log.Fatal(err)
	}

	_, err = client.Headlines(context.Background())
	var apiErr *newssearch.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.RequestID)
	}
	fmt.Println(errors.Is(err, newssearch.ErrUnauthorized))
	fmt.Println(err)
	// Output:
	// 401 req-7
	// true
	// newssearch: POST /api/v2/headlines: 401 Unauthorized: unknown api_key: check the key in your account settings (request id req-7)
}

// SubmitQuery sends key phrases as given, for the service to judge;
// CheckKeyPhrases checks them against the documented grammar first, for a
// caller who wants the mistake caught before any request.
func ExampleCheckKeyPhrases() {
	fmt.Println(newssearch.CheckKeyPhrases("('elon' or 'musk') and not 'sam altman'"))
	fmt.Println(newssearch.CheckKeyPhrases("'elon' AND 'musk'"))
	// Output:
	// <nil>
	// newssearch: invalid AsyncSearchParams.KeyPhrases: character 8: "AND" must be written in lower case; write "and": write single-quoted phrases joined by lower-case and, or, not and parentheses, e.g. "('elon' or 'musk') and not 'sam altman'"
}
