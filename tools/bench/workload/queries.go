// Package workload builds what the benchmark harness (tools/bench) and its
// go test benchmarks measure: realistic search queries over the mock
// server's corpus, an in-process caller of the mock's handler, a bare
// net/http server answering fixed bytes, the hand-written net/http +
// encoding/json Search call the SDK is compared with, an asynchronous job
// of a chosen size, and the vendor SDK's polling loop. It measures nothing
// itself: callers time what it returns.
package workload

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	newssearch "github.com/newssearch/newssearch-go"
)

// dateLayout is how request dates go out, as the SDK sends them.
const dateLayout = "2006-01-02T15:04:05.000Z"

// Query is one search of the "mock search" rows: two or three words of an
// article's title, the article's site and the week around its publication,
// as a client of /api/v2/query would ask.
type Query struct {
	// Text holds the words, separated by spaces.
	Text string
	// Site is the site filter.
	Site string
	// From and To bound the publication dates (both inclusive).
	From, To time.Time
}

// queryBody is the wire body of a Query.
type queryBody struct {
	APIKey    string   `json:"api_key"`
	Query     string   `json:"query"`
	Page      int      `json:"page"`
	Sites     []string `json:"sites,omitempty"`
	StartDate string   `json:"start_date,omitempty"`
	EndDate   string   `json:"end_date,omitempty"`
}

// Body returns the /api/v2/query body of q for page 1 with key. From moves
// back by shift: distinct shifts give distinct requests, which the mock's
// result cache has not seen, while the week stays about the same.
func (q Query) Body(key string, shift time.Duration) []byte {
	b, err := json.Marshal(q.wire(key, shift))
	if err != nil { // a struct of strings always encodes
		panic(err)
	}
	return b
}

// wire returns the body of q; an empty Site or a zero date is left out.
func (q Query) wire(key string, shift time.Duration) queryBody {
	b := queryBody{APIKey: key, Query: q.Text, Page: 1}
	if q.Site != "" {
		b.Sites = []string{q.Site}
	}
	if !q.From.IsZero() {
		b.StartDate = q.From.Add(-shift).UTC().Format(dateLayout)
	}
	if !q.To.IsZero() {
		b.EndDate = q.To.UTC().Format(dateLayout)
	}
	return b
}

// Params returns q as SDK search parameters.
func (q Query) Params() newssearch.SearchParams {
	p := newssearch.SearchParams{Query: q.Text, StartDate: q.From, EndDate: q.To}
	if q.Site != "" {
		p.Sites = []string{q.Site}
	}
	return p
}

// Queries derives n queries from articles spread evenly over the corpus
// that c searches (a client of a mock server): for the i-th, two or three
// (alternately) distinct title words of at least four letters, the
// article's site, and the week from three days before its publication to
// four days after. The same server always gives the same queries.
func Queries(ctx context.Context, c *newssearch.Client, n int) ([]Query, error) {
	if n <= 0 {
		return nil, fmt.Errorf("workload: Queries(%d): ask for at least one query", n)
	}
	first, err := c.Search(ctx, newssearch.SearchParams{Query: "*"})
	if err != nil {
		return nil, fmt.Errorf("workload: listing the corpus: %w", err)
	}
	pages := (first.TotalResults + newssearch.PageSize - 1) / newssearch.PageSize
	if pages == 0 {
		return nil, errors.New("workload: the corpus is empty: serve a corpus with articles")
	}
	var out []Query
	for i := 0; len(out) < n && i < 4*n; i++ {
		page := 1 + (i*7919)%pages
		resp, err := c.Search(ctx, newssearch.SearchParams{Query: "*", Page: page})
		if err != nil {
			return nil, fmt.Errorf("workload: listing page %d of the corpus: %w", page, err)
		}
		if len(resp.Articles) == 0 {
			continue
		}
		a := resp.Articles[i%len(resp.Articles)]
		words := TitleWords(a.Title, 2+len(out)%2)
		if len(words) < 2 || a.Site == "" || a.DatePublished.IsZero() {
			continue
		}
		pub := a.DatePublished.Time
		out = append(out, Query{
			Text: strings.Join(words, " "), Site: a.Site,
			From: pub.Add(-3 * 24 * time.Hour), To: pub.Add(4 * 24 * time.Hour),
		})
	}
	if len(out) < n {
		return nil, fmt.Errorf("workload: found only %d of %d usable articles: serve a corpus whose titles have words of four letters or more", len(out), n)
	}
	return out, nil
}

// TitleWords returns up to limit distinct lower-case words of title with at
// least four letters or digits, in order.
func TitleWords(title string, limit int) []string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(words) == limit {
			break
		}
		if utf8.RuneCountInString(w) >= 4 && !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return words
}
