package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/newssearch/newssearch-go"
)

func main() {
	// The key comes from WithAPIKey or the NEWSSEARCH_API_KEY environment variable,
	// the address from WithBaseURL or NEWSSEARCH_BASE_URL (default: the real service).
	client, err := newssearch.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	res, err := client.Search(ctx, newssearch.SearchParams{
		Query:     "electric vehicles",
		StartDate: time.Now().AddDate(0, 0, -2),
		Language:  newssearch.LanguageEnglish,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.TotalResults, "articles")
	for _, a := range res.Articles {
		fmt.Println(a.DatePublished.Time.Format(time.DateOnly), a.Site, a.Title)
	}
}
