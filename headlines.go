package newssearch

import "context"

// headlinesBody is the JSON body of headlines.
type headlinesBody struct {
	APIKey string `json:"api_key"`
}

// Headlines fetches the current headline clusters (POST
// /api/v2/headlines, BETA): articles grouped by leading topic.
func (c *Client) Headlines(ctx context.Context, opts ...CallOption) (*HeadlinesResponse, error) {
	ctx, _, err := begin(c, ctx, opts)
	if err != nil {
		return nil, err
	}
	body := headlinesBody{APIKey: c.apiKey()}
	resp, pb, err := c.exchange(ctx, pathHeadlines, readOnly, &body)
	if err != nil {
		return nil, err
	}
	defer pb.Close()
	var wire struct {
		Headlines []HeadlineCluster `json:"headlines"`
		State     State             `json:"state"`
	}
	if err := decodeJSON(pb.bytes(), &wire); err != nil {
		return nil, c.decodeError(pathHeadlines, resp, pb.bytes(), err)
	}
	if !hasMember(pb.bytes(), headlinesMembers) {
		return nil, c.decodeError(pathHeadlines, resp, pb.bytes(), noMembersError(headlinesMembers))
	}
	if wire.State.IsFailure() {
		return nil, c.newAPIError(pathHeadlines, resp, pb.bytes())
	}
	return &HeadlinesResponse{Headlines: wire.Headlines, State: wire.State}, nil
}
