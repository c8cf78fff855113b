package newssearch

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// AsyncSearchParams are the parameters of an asynchronous query. A job
// holds every page, so Page is ignored and "page": 1 is sent (the service
// lists it as required): pass the page wanted to GetResults.
type AsyncSearchParams struct {
	SearchParams
	// KeyPhrases refines the results with quoted phrases, and, or, not and
	// parentheses: "('elon' or 'musk') and not 'sam altman'". It is sent as
	// given, and the service judges it; CheckKeyPhrases checks it first.
	KeyPhrases string
	// SortOrder orders the results; "" is SortRelevance.
	SortOrder SortOrder
}

// SubmitQuery starts an asynchronous search (POST /api/v2/query-async) for
// long date ranges. Wait for its job with Poll or Results; GetResults
// fetches any page. It is retried only where no job can have been made,
// so never after a reset or a 503.
func (c *Client) SubmitQuery(ctx context.Context, params AsyncSearchParams, opts ...CallOption) (*QueryJob, error) {
	if err := params.validate("AsyncSearchParams"); err != nil { // never KeyPhrases: see CheckKeyPhrases
		return nil, err
	}
	ctx, _, err := begin(c, ctx, opts)
	if err != nil {
		return nil, err
	}
	body := params.body(c.apiKey())
	body.Page = 1 // a job covers every page
	body.KeyPhrases = params.KeyPhrases
	body.SortOrder = params.SortOrder
	resp, pb, err := c.exchange(ctx, pathQueryAsync, createsJob, &body)
	if err != nil {
		return nil, err
	}
	defer pb.Close()
	var wire struct {
		QueryID string `json:"query_id"`
		State   State  `json:"state"`
	}
	if err := decodeJSON(pb.bytes(), &wire); err != nil {
		return nil, c.decodeError(pathQueryAsync, resp, pb.bytes(), err)
	}
	if wire.State.IsFailure() {
		return nil, c.newAPIError(pathQueryAsync, resp, pb.bytes())
	}
	if wire.QueryID == "" {
		return nil, c.decodeError(pathQueryAsync, resp, pb.bytes(), errNoQueryID)
	}
	return &QueryJob{QueryID: wire.QueryID, State: wire.State}, nil
}

// getResultsBody is the JSON body of get-results.
type getResultsBody struct {
	APIKey  string `json:"api_key"`
	QueryID string `json:"query_id"`
	Page    int    `json:"page"`
}

// GetResults fetches one page (0 means 1) of a job's results (POST
// /api/v2/get-results). While the job runs the page is pending, with no
// articles; a failed job is a *JobFailedError.
func (c *Client) GetResults(ctx context.Context, queryID string, page int, opts ...CallOption) (*Page, error) {
	if strings.TrimSpace(queryID) == "" {
		return nil, &ValidationError{Field: "queryID", Problem: "the query ID is empty: pass the QueryID of the job SubmitQuery returned"}
	}
	if page < 0 {
		return nil, &ValidationError{Field: "page", Problem: "page " + strconv.Itoa(page) + " is negative: pages start at 1; pass 0 or 1 for the first page"}
	}
	ctx, _, err := begin(c, ctx, opts)
	if err != nil {
		return nil, err
	}
	out, _, err := c.getResults(ctx, queryID, page)
	return out, err
}

// getResults is GetResults after validation. hint is the wait a pending
// answer's Retry-After header asks for before the next poll, or 0.
func (c *Client) getResults(ctx context.Context, queryID string, page int) (out *Page, hint time.Duration, err error) {
	body := getResultsBody{APIKey: c.apiKey(), QueryID: queryID, Page: max(page, 1)}
	resp, pb, err := c.exchange(ctx, pathGetResults, readOnly, &body)
	if err != nil {
		return nil, 0, err
	}
	defer pb.Close()
	out = new(Page)
	if err := decodePage(pb.bytes(), out); err != nil {
		return nil, 0, c.decodeError(pathGetResults, resp, pb.bytes(), err)
	}
	out.Message = c.scrub(out.Message)
	if !hasMember(pb.bytes(), pageMembers) {
		return nil, 0, c.decodeError(pathGetResults, resp, pb.bytes(), noMembersError(pageMembers))
	}
	if out.State.IsFailure() {
		apiErr := c.newAPIError(pathGetResults, resp, pb.bytes())
		return nil, 0, &JobFailedError{QueryID: queryID, State: out.State, Message: apiErr.Message, Err: apiErr}
	}
	if out.QueryID == "" {
		out.QueryID = queryID
	}
	if out.Number == 0 {
		out.Number = body.Page
	}
	if !out.State.IsSuccess() {
		hint, _ = parseRetryAfter(resp.Header.Get("Retry-After"), c.cfg.now())
	}
	return out, hint, nil
}
