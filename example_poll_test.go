package newssearch_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
)

// jobService stands in for the service in the polling examples. It holds
// 30 articles, one a day at midnight from 1 March 2025, and answers
// searches over them; every asynchronous job is pending at its first poll.
func jobService() *httptest.Server {
	type article struct {
		ID    string  `json:"_id"`
		Title string  `json:"title"`
		Date  string  `json:"datePublished"`
		Score float64 `json:"score"`
	}
	var corpus []article
	for i := range 30 {
		day := time.Date(2025, 3, 1+i, 0, 0, 0, 0, time.UTC)
		corpus = append(corpus, article{ID: fmt.Sprintf("%024x", i+1), Title: fmt.Sprintf("EV sales, day %d", i+1),
			Date: day.Format(http.TimeFormat), Score: float64(i%7) + float64(i)/100})
	}
	type query struct {
		Start   time.Time `json:"start_date"`
		End     time.Time `json:"end_date"`
		Page    int       `json:"page"`
		QueryID string    `json:"query_id"`
	}
	search := func(q query) (int, []article) {
		var hits []article
		for _, a := range corpus {
			t, _ := time.Parse(http.TimeFormat, a.Date)
			if (q.Start.IsZero() || !t.Before(q.Start)) && (q.End.IsZero() || !t.After(q.End)) {
				hits = append(hits, a)
			}
		}
		sort.Slice(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
		lo := min(max(q.Page-1, 0)*newssearch.PageSize, len(hits))
		return len(hits), hits[lo:min(lo+newssearch.PageSize, len(hits))]
	}
	var mu sync.Mutex
	jobs := map[string]query{}
	polled := map[string]bool{}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q query
		_ = json.NewDecoder(r.Body).Decode(&q)
		w.Header().Set("Content-Type", "application/json")
		mu.Lock()
		defer mu.Unlock()
		var answer any
		switch r.URL.Path {
		case "/api/v2/query":
			total, page := search(q)
			answer = map[string]any{"results": map[string]any{"totalResults": total, "articles": page}, "state": "SUCCESS"}
		case "/api/v2/query-async":
			id := fmt.Sprintf("job-%d", len(jobs)+1)
			jobs[id] = q
			answer = map[string]any{"query_id": id, "state": "SUCCESS"}
		case "/api/v2/get-results":
			job := jobs[q.QueryID]
			job.Page = q.Page
			total, page := search(job)
			answer = map[string]any{"query_id": q.QueryID, "page": max(q.Page, 1), "totalResults": total, "articles": page, "state": "SUCCESS"}
			if !polled[q.QueryID] {
				polled[q.QueryID] = true
				answer = map[string]any{"query_id": q.QueryID, "state": "PENDING"}
			}
		}
		_ = json.NewEncoder(w).Encode(answer)
	}))
}

// exampleClient returns a client for srv.
func exampleClient(srv *httptest.Server) *newssearch.Client {
	client, err := newssearch.NewClient(newssearch.WithAPIKey("demo-key"), newssearch.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}
	return client
}

func ExampleClient_Poll() {
	srv := jobService()
	defer srv.Close()
	client := exampleClient(srv)
	ctx := context.Background()

	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "electric cars"}})
	if err != nil {
		log.Fatal(err)
	}
	page, err := client.Poll(ctx, job.QueryID, &newssearch.PollOptions{
		MaxWait: 2 * time.Minute,
		OnPoll:  func(e newssearch.PollEvent) { fmt.Println("poll", e.Attempt, e.State) },
	})
	var timeout *newssearch.PollTimeoutError
	switch {
	case errors.As(err, &timeout):
		fmt.Println("still running after", timeout.Waited, "- poll", timeout.QueryID, "again later")
		return
	case err != nil:
		log.Fatal(err)
	}
	fmt.Printf("page %d of %d: %d articles of %d\n", page.Number, page.TotalPages(), len(page.Articles), page.TotalResults)
	// Output:
	// poll 1 PENDING
	// poll 2 SUCCESS
	// page 1 of 2: 25 articles of 30
}

func ExampleClient_Results() {
	srv := jobService()
	defer srv.Close()
	client := exampleClient(srv)
	ctx := context.Background()

	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "electric cars"},
		KeyPhrases:   "('tesla' or 'byd') and not 'recall'",
	})
	if err != nil {
		log.Fatal(err)
	}
	// Every article of the job, once it is done: Results waits as Poll
	// does, then walks the pages, four requests at a time. OnPage shows
	// each page before its articles.
	pages := &newssearch.PageOptions{
		Prefetch: newssearch.DefaultPrefetch,
		OnPage:   func(p *newssearch.Page) { fmt.Printf("page %d of %d\n", p.Number, p.TotalPages()) },
	}
	n := 0
	for article, err := range client.Results(ctx, job.QueryID, pages) {
		if err != nil {
			log.Fatal(err)
		}
		if n++; n == 1 {
			fmt.Println("best:", article.Title)
		}
	}
	fmt.Println(n, "articles")
	// Output:
	// page 1 of 2
	// best: EV sales, day 28
	// page 2 of 2
	// 30 articles
}

func ExampleClient_SearchAll() {
	srv := jobService()
	defer srv.Close()
	client := exampleClient(srv)

	params := newssearch.SearchParams{
		Query:     "electric cars",
		StartDate: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
		EndDate:   time.Date(2025, 3, 27, 23, 59, 59, 999e6, time.UTC),
	}
	n := 0
	for article, err := range client.SearchAll(context.Background(), params, nil) {
		if err != nil {
			log.Fatal(err)
		}
		if n++; n <= 3 {
			fmt.Printf("%.2f %s\n", article.Score, article.Title)
		}
	}
	fmt.Println(n, "articles")
	// Output:
	// 6.20 EV sales, day 21
	// 6.13 EV sales, day 14
	// 6.06 EV sales, day 7
	// 27 articles
}

func ExampleClient_SearchRange() {
	srv := jobService()
	defer srv.Close()
	client := exampleClient(srv)

	// March in weekly windows: 1-8, 8-15, 15-22, 22-29 and 29-31. Articles
	// published at midnight on the 8th, 15th, 22nd and 29th belong to two
	// windows each, and still come back once.
	params := newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{
			Query:     "electric cars",
			StartDate: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
			EndDate:   time.Date(2025, 3, 31, 23, 59, 59, 999e6, time.UTC),
		},
		SortOrder: newssearch.SortDatePublished,
	}
	var last newssearch.RangeProgress
	articles, err := client.SearchRange(context.Background(), params, &newssearch.RangeOptions{
		OnProgress: func(p newssearch.RangeProgress) { last = p },
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d windows, %d articles\n", last.WindowsDone, last.WindowsTotal, len(articles))
	fmt.Println("newest:", articles[0].DatePublished.Time.Format("2 Jan"), "oldest:", articles[len(articles)-1].DatePublished.Time.Format("2 Jan"))
	// Output:
	// 5 of 5 windows, 30 articles
	// newest: 30 Mar oldest: 1 Mar
}
