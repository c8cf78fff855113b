package newssearch

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// AsyncSearchParams are the parameters of an asynchronous query: the search
// parameters plus the fields only /api/v2/query-async accepts. As in
// SearchParams, a zero value means "service default" and is left out of the
// request. A job holds every page of its results, so the embedded Page is
// not part of the submission (it is sent as 1, whatever it holds); pass the
// page wanted to GetResults. SearchRange requires it to be 0 or 1.
type AsyncSearchParams struct {
	SearchParams
	// KeyPhrases refines the results with single-quoted phrases combined by
	// lower-case and, or, not and parentheses, e.g.
	// "('elon' or 'musk') and not 'sam altman'". "" means none. A
	// malformed expression (an unclosed quote or parenthesis, a missing
	// phrase or operator, a bare word) is rejected before any request.
	KeyPhrases string
	// SortOrder orders the results; "" is SortRelevance.
	SortOrder SortOrder
}

// validateAsync checks what the client can judge of an asynchronous query.
func (p *AsyncSearchParams) validateAsync() error {
	if err := p.validate("AsyncSearchParams"); err != nil {
		return err
	}
	if strings.TrimSpace(p.KeyPhrases) != "" {
		if problem := checkKeyPhrases(p.KeyPhrases); problem != "" {
			return &ValidationError{Field: "AsyncSearchParams.KeyPhrases", Problem: problem +
				": write single-quoted phrases joined by lower-case and, or, not and parentheses, e.g. \"('elon' or 'musk') and not 'sam altman'\""}
		}
	}
	return nil
}

// SubmitQuery starts an asynchronous search (POST /api/v2/query-async) and
// returns its job: wait for it with Poll (which returns page 1), then fetch
// other pages with GetResults, or read every article with Results (which
// waits too). It suits large queries over long date ranges.
//
// A submission creates a job, so it is retried only where no job can have
// been made (see the retry policy on Client); after a connection reset or
// a 503 the error is returned: poll the job only if a QueryID is known, or
// submit again knowingly.
func (c *Client) SubmitQuery(ctx context.Context, params AsyncSearchParams, opts ...CallOption) (*QueryJob, error) {
	if err := params.validateAsync(); err != nil {
		return nil, err
	}
	ctx, _, err := c.begin(ctx, opts)
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
		return nil, c.stateError(pathQueryAsync, resp, pb.bytes())
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

// GetResults fetches one page (from 1; 0 means 1) of an asynchronous query's
// results (POST /api/v2/get-results).
//
// While the job runs the page's State is pending (State.IsPending) and it
// has no articles: call again later, or use Poll. A page past the end has
// no articles and the true totals. A job the service reports as failed is
// a *JobFailedError, as Poll and Results report it. An empty queryID or a
// negative page fails with a *ValidationError before any request.
func (c *Client) GetResults(ctx context.Context, queryID string, page int, opts ...CallOption) (*Page, error) {
	if strings.TrimSpace(queryID) == "" {
		return nil, &ValidationError{Field: "queryID", Problem: "the query ID is empty: pass the QueryID of the job SubmitQuery returned"}
	}
	if page < 0 {
		return nil, &ValidationError{Field: "page", Problem: "page " + strconv.Itoa(page) + " is negative: pages start at 1; pass 0 or 1 for the first page"}
	}
	ctx, _, err := c.begin(ctx, opts)
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
