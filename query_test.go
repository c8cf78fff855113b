package newssearch

import (
	"context"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/")

// captureBody runs call against a server that records the request body and
// answers with response.
func captureBody(t *testing.T, response string, call func(*Client) error) []byte {
	t.Helper()
	var got []byte
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		w.Write([]byte(response))
	}))
	if err := call(clientFor(t, srv)); err != nil {
		t.Fatal(err)
	}
	return got
}

// checkGolden compares got with testdata/name, or rewrites it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run go test -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// setParams sets every search parameter; the dates are in another zone and
// carry sub-millisecond digits, which must go out as UTC milliseconds.
var setParams = SearchParams{
	Query:       "electric cars",
	Page:        2,
	Sites:       []string{"bbc.co.uk", "example.com"},
	StartDate:   time.Date(2025, 3, 1, 2, 0, 0, 123456789, time.FixedZone("CET+2", 2*3600)),
	EndDate:     time.Date(2025, 3, 7, 23, 59, 59, 999999999, time.UTC),
	ToggleState: ToggleEncodedArticles,
	Embeddings:  true,
	Language:    LanguageEnglish,
	TrafficRank: 95,
}

// zeroParams spells out every zero value; it must encode like unset.
var zeroParams = SearchParams{
	Query: "electric cars", Page: 0, Sites: []string{}, StartDate: time.Time{}, EndDate: time.Time{},
	ToggleState: "", Embeddings: false, Language: "", TrafficRank: 0,
}

func TestSearchRequestGolden(t *testing.T) {
	t.Parallel()
	const ok = `{"results":{"totalResults":0,"articles":[]},"state":"SUCCESS"}`
	for name, p := range map[string]SearchParams{
		"search_unset.json": {Query: "electric cars"},
		"search_zero.json":  zeroParams,
		"search_set.json":   setParams,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := captureBody(t, ok, func(c *Client) error { _, err := c.Search(context.Background(), p); return err })
			checkGolden(t, name, got)
		})
	}
}

func TestSubmitQueryRequestGolden(t *testing.T) {
	t.Parallel()
	const ok = `{"query_id":"q1","state":"SUCCESS"}`
	for name, p := range map[string]AsyncSearchParams{
		"async_unset.json": {SearchParams: SearchParams{Query: "electric cars"}},
		"async_zero.json":  {SearchParams: zeroParams, KeyPhrases: "", SortOrder: ""},
		"async_set.json":   {SearchParams: setParams, KeyPhrases: "('elon' or 'musk') and not 'sam altman'", SortOrder: SortDatePublished},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := captureBody(t, ok, func(c *Client) error { _, err := c.SubmitQuery(context.Background(), p); return err })
			checkGolden(t, name, got)
		})
	}
}

func TestSearchValidation(t *testing.T) {
	t.Parallel()
	day := time.Date(2025, 3, 7, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		p    SearchParams
		want string
	}{
		{"negative page", SearchParams{Query: "q", Page: -1},
			"newssearch: invalid SearchParams.Page: page -1 is negative: pages start at 1; pass 0 or 1 for the first page"},
		{"traffic rank low", SearchParams{Query: "q", TrafficRank: -5},
			"newssearch: invalid SearchParams.TrafficRank: -5 is outside 0..100: pass a percentile from 0 (all sites) to 100 (95 keeps the top 5%)"},
		{"traffic rank high", SearchParams{Query: "q", TrafficRank: 101},
			"newssearch: invalid SearchParams.TrafficRank: 101 is outside 0..100: pass a percentile from 0 (all sites) to 100 (95 keeps the top 5%)"},
		{"end before start", SearchParams{Query: "q", StartDate: day, EndDate: day.Add(-time.Millisecond)},
			"newssearch: invalid SearchParams.EndDate: EndDate 2025-03-06T23:59:59.999Z is before StartDate 2025-03-07T00:00:00.000Z: pass an EndDate at or after StartDate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The server fails the test if any request reaches it.
			c, s := serveScript(t, nil)
			_, err := c.Search(context.Background(), tt.p)
			checkValidation(t, err, tt.want)
			_, err = c.SubmitQuery(context.Background(), AsyncSearchParams{SearchParams: tt.p})
			checkValidation(t, err, "newssearch: invalid Async"+tt.want[len("newssearch: invalid "):])
			if n := s.calls.Load(); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}

// checkValidation asserts err is a *ValidationError with message want that
// matches ErrBadRequest.
func checkValidation(t *testing.T, err error, want string) {
	t.Helper()
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("error = %v (%T), want *ValidationError", err, err)
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("message mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(err, ErrBadRequest) {
		t.Error("errors.Is(err, ErrBadRequest) = false")
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		t.Error("validation error is also an *APIError")
	}
}

func TestSearchEqualDatesAllowed(t *testing.T) {
	t.Parallel()
	day := time.Date(2025, 3, 7, 0, 0, 0, 0, time.UTC)
	c, _ := serveScript(t, []scripted{{
		path:     pathQuery,
		body:     `{"api_key":"test-key-0001","query":"q","page":1,"start_date":"2025-03-07T00:00:00.000Z","end_date":"2025-03-07T00:00:00.000Z"}`,
		response: `{"results":{"totalResults":0,"articles":[]},"state":"SUCCESS"}`,
	}})
	if _, err := c.Search(context.Background(), SearchParams{Query: "q", StartDate: day, EndDate: day}); err != nil {
		t.Fatal(err)
	}
}

func TestSearchEndToEnd(t *testing.T) {
	t.Parallel()
	c, s := serveScript(t, []scripted{{
		path:     pathQuery,
		body:     `{"api_key":"test-key-0001","query":"electric cars","page":3,"sites":["bbc.co.uk"]}`,
		header:   http.Header{"X-Request-Id": {"r1"}},
		response: `{"results":{"totalResults":123,"articles":` + wireArticles(3) + `},"state":"SUCCESS"}`,
	}})
	got, err := c.Search(context.Background(), SearchParams{Query: "electric cars", Page: 3, Sites: []string{"bbc.co.uk"}})
	if err != nil {
		t.Fatal(err)
	}
	want := &Page{Number: 3, TotalResults: 123, Articles: wantArticles(3), State: StateSuccess}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Search mismatch (-want +got):\n%s", diff)
	}
	if n := s.calls.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
