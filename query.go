package newssearch

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// SearchParams are the parameters of a search. A zero field means "service
// default" and is not sent. A blank Query, a negative Page, a TrafficRank
// outside 0..100 and an EndDate before StartDate are a *ValidationError
// before any request.
type SearchParams struct {
	// Query is the search text, required.
	Query string
	// Page is the page to fetch, from 1; 0 means 1.
	Page int
	// Sites restricts results to these site domains, e.g. "bbc.co.uk".
	Sites []string
	// StartDate is the earliest publication instant (inclusive; sent in UTC
	// with milliseconds).
	StartDate time.Time
	// EndDate is the latest publication instant (inclusive): for a whole day,
	// pass 23:59:59.999.
	EndDate time.Time
	// ToggleState selects all articles or only encoded ones.
	ToggleState ToggleState
	// Embeddings asks for each article's vector.
	Embeddings bool
	// Language restricts results to one language.
	Language Language
	// TrafficRank, 0..100, keeps the top (100 - TrafficRank)% of sites by
	// traffic: 95 keeps the top 5%.
	TrafficRank int
}

// requestDateLayout is how dates go out: UTC with milliseconds.
const requestDateLayout = "2006-01-02T15:04:05.000Z"

// searchBody is the JSON body of query and query-async. Field order fixes
// the order of the keys on the wire.
type searchBody struct {
	APIKey      string      `json:"api_key"`
	Query       string      `json:"query"`
	Page        int         `json:"page"`
	Sites       []string    `json:"sites,omitempty"`
	StartDate   string      `json:"start_date,omitempty"`
	EndDate     string      `json:"end_date,omitempty"`
	ToggleState ToggleState `json:"toggle_state,omitempty"`
	Embeddings  bool        `json:"embeddings,omitempty"`
	Language    Language    `json:"language,omitempty"`
	TrafficRank int         `json:"traffic_rank,omitempty"`
	KeyPhrases  string      `json:"key_phrases,omitempty"`
	SortOrder   SortOrder   `json:"sort_order,omitempty"`
}

// validate checks the parameters the client can judge; name prefixes the
// field names in errors.
func (p *SearchParams) validate(name string) error {
	if strings.TrimSpace(p.Query) == "" {
		return &ValidationError{Field: name + ".Query", Problem: "the query is blank: the service requires search text; pass e.g. Query: \"electric cars\""}
	}
	if p.Page < 0 {
		return &ValidationError{Field: name + ".Page", Problem: "page " + strconv.Itoa(p.Page) + " is negative: pages start at 1; pass 0 or 1 for the first page"}
	}
	if p.TrafficRank < 0 || p.TrafficRank > 100 {
		return &ValidationError{Field: name + ".TrafficRank", Problem: strconv.Itoa(p.TrafficRank) + " is outside 0..100: pass a percentile from 0 (all sites) to 100 (95 keeps the top 5%)"}
	}
	if !p.StartDate.IsZero() && !p.EndDate.IsZero() && p.EndDate.Before(p.StartDate) {
		return &ValidationError{Field: name + ".EndDate", Problem: "EndDate " + p.EndDate.UTC().Format(requestDateLayout) +
			" is before StartDate " + p.StartDate.UTC().Format(requestDateLayout) + ": pass an EndDate at or after StartDate"}
	}
	return nil
}

// body builds the wire body of p.
func (p *SearchParams) body(apiKey string) searchBody {
	b := searchBody{
		APIKey:      apiKey,
		Query:       p.Query,
		Page:        max(p.Page, 1),
		Sites:       p.Sites,
		ToggleState: p.ToggleState,
		Embeddings:  p.Embeddings,
		Language:    p.Language,
		TrafficRank: p.TrafficRank,
	}
	if !p.StartDate.IsZero() {
		b.StartDate = p.StartDate.UTC().Format(requestDateLayout)
	}
	if !p.EndDate.IsZero() {
		b.EndDate = p.EndDate.UTC().Format(requestDateLayout)
	}
	return b
}

// Search runs a synchronous search (POST /api/v2/query) and returns page
// params.Page (0 means 1). It suits short date ranges; SearchAll walks
// every page.
func (c *Client) Search(ctx context.Context, params SearchParams, opts ...CallOption) (*Page, error) {
	if err := params.validate("SearchParams"); err != nil {
		return nil, err
	}
	ctx, _, err := begin(c, ctx, opts)
	if err != nil {
		return nil, err
	}
	body := params.body(c.apiKey())
	resp, pb, err := c.exchange(ctx, pathQuery, readOnly, &body)
	if err != nil {
		return nil, err
	}
	defer pb.Close()
	out := new(Page)
	if err := decodePage(pb.bytes(), out); err != nil {
		return nil, c.decodeError(pathQuery, resp, pb.bytes(), err)
	}
	out.Message = c.scrub(out.Message)
	if !hasMember(pb.bytes(), pageMembers) {
		return nil, c.decodeError(pathQuery, resp, pb.bytes(), noMembersError(pageMembers))
	}
	if out.State.IsFailure() {
		return nil, c.newAPIError(pathQuery, resp, pb.bytes())
	}
	// The synchronous answer carries neither; the page is the one asked for.
	out.QueryID, out.Number = "", body.Page
	return out, nil
}

// apiKey returns the key, or "" for a Client not made by NewClient (whose
// calls then fail in exchange).
func (c *Client) apiKey() string {
	if c == nil || c.cfg == nil {
		return ""
	}
	return *c.cfg.apiKey
}
