package workload

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// PlainArticle is what a hand-written client decodes an article into: the
// fields of newssearch.Article with plain types (dates and the image left
// as the service sends them).
type PlainArticle struct {
	ID            string   `json:"_id"`
	Title         string   `json:"title"`
	Description   string   `json:"description"`
	BodyText      string   `json:"bodyText"`
	URL           string   `json:"url"`
	Site          string   `json:"site"`
	Image         any      `json:"image"`
	Favicon       string   `json:"favicon"`
	Category      *string  `json:"category"`
	Language      string   `json:"language"`
	DatePublished string   `json:"datePublished"`
	Score         float64  `json:"score"`
	Topics        []string `json:"topics"`
	Sentiment     struct {
		Title       float64 `json:"title"`
		Description float64 `json:"description"`
	} `json:"sentiment"`
	Entities []struct {
		Name       string  `json:"name"`
		Type       string  `json:"type"`
		WikidataID string  `json:"wikidata_id"`
		Sentiment  float64 `json:"sentiment"`
		Confidence float64 `json:"confidence"`
	} `json:"entities"`
	EntityRelationships []struct {
		Source     string  `json:"source"`
		Target     string  `json:"target"`
		Relation   string  `json:"relation"`
		Confidence float64 `json:"confidence"`
	} `json:"entity_relationships"`
	Embeddings []float32 `json:"embeddings"`
}

// PlainResponse is what a hand-written client decodes /api/v2/query into.
type PlainResponse struct {
	Results struct {
		TotalResults int            `json:"totalResults"`
		Articles     []PlainArticle `json:"articles"`
	} `json:"results"`
	State string `json:"state"`
}

// HandSearch is the baseline of the SDK's Search: the same call written
// by hand with net/http and encoding/json. Like the SDK it builds the JSON
// body from the parameters on every call and sets the same headers.
type HandSearch struct {
	// Client sends the requests.
	Client *http.Client
	// URL is the full URL of /api/v2/query.
	URL string
	// APIKey is sent in the body.
	APIKey string
	// Query holds the search parameters (dates are sent as the SDK sends
	// them).
	Query Query
	// Stream decodes the body with a json.Decoder as it arrives; otherwise
	// it is read whole with io.ReadAll and decoded with json.Unmarshal.
	Stream bool
}

// Do runs one search and returns the decoded answer.
func (h *HandSearch) Do(ctx context.Context) (*PlainResponse, error) {
	body, err := json.Marshal(h.Query.wire(h.APIKey, 0))
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := h.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := new(PlainResponse)
	if h.Stream {
		err = json.NewDecoder(resp.Body).Decode(out)
		_, _ = io.Copy(io.Discard, resp.Body) // let the connection be reused
	} else {
		var raw []byte
		if raw, err = io.ReadAll(resp.Body); err == nil {
			err = json.Unmarshal(raw, out)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("workload: decoding the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK || !strings.EqualFold(out.State, "SUCCESS") {
		return nil, fmt.Errorf("workload: POST %s: status %d, state %q", h.URL, resp.StatusCode, out.State)
	}
	return out, nil
}
