package newssearch

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// benchServer answers every request with a full page of articles.
func benchServer(b *testing.B) (*Client, string) {
	b.Helper()
	page := []byte(`{"results":{"totalResults":1234,"articles":` + wireArticles(PageSize) + `},"state":"SUCCESS"}`)
	srv := newPrefixServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(page)
	}))
	return clientFor(b, srv), srv.URL + sdkPrefix + pathQuery
}

// plainArticle is what a hand-written client would decode into.
type plainArticle struct {
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

// BenchmarkSearch measures one Search call against a local server.
func BenchmarkSearch(b *testing.B) {
	c, _ := benchServer(b)
	ctx := context.Background()
	p := SearchParams{Query: "electric cars", Sites: []string{"bbc.co.uk"}, TrafficRank: 95}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Search(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandWritten is the reference for BenchmarkSearch: the same call
// written with net/http and encoding/json into a plain struct, streaming
// the body through a json.Decoder.
func BenchmarkHandWritten(b *testing.B) { benchHandWritten(b, false) }

// BenchmarkHandWrittenReadAll is BenchmarkHandWritten reading the body
// with io.ReadAll and decoding with json.Unmarshal, the faster variant.
func BenchmarkHandWrittenReadAll(b *testing.B) { benchHandWritten(b, true) }

func benchHandWritten(b *testing.B, readAll bool) {
	c, url := benchServer(b)
	hc := c.cfg.httpClient
	ctx := context.Background()
	type reqBody struct {
		APIKey      string   `json:"api_key"`
		Query       string   `json:"query"`
		Page        int      `json:"page"`
		Sites       []string `json:"sites,omitempty"`
		TrafficRank int      `json:"traffic_rank,omitempty"`
	}
	b.ReportAllocs()
	for b.Loop() {
		body, err := json.Marshal(reqBody{APIKey: sdkKey, Query: "electric cars", Page: 1, Sites: []string{"bbc.co.uk"}, TrafficRank: 95})
		if err != nil {
			b.Fatal(err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var out struct {
			Results struct {
				TotalResults int            `json:"totalResults"`
				Articles     []plainArticle `json:"articles"`
			} `json:"results"`
			State string `json:"state"`
		}
		if readAll {
			var raw []byte
			if raw, err = io.ReadAll(resp.Body); err == nil {
				err = json.Unmarshal(raw, &out)
			}
		} else {
			err = json.NewDecoder(resp.Body).Decode(&out)
		}
		resp.Body.Close()
		if err != nil || len(out.Results.Articles) != PageSize {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSearch measures decoding alone.
func BenchmarkDecodeSearch(b *testing.B) {
	page := []byte(`{"results":{"totalResults":1234,"articles":` + wireArticles(PageSize) + `},"state":"SUCCESS"}`)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		var out SearchResponse
		if err := decodeSearch(page, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodePlain is the reference for BenchmarkDecodeSearch.
func BenchmarkDecodePlain(b *testing.B) {
	page := []byte(`{"results":{"totalResults":1234,"articles":` + wireArticles(PageSize) + `},"state":"SUCCESS"}`)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		var out struct {
			Results struct {
				TotalResults int            `json:"totalResults"`
				Articles     []plainArticle `json:"articles"`
			} `json:"results"`
			State string `json:"state"`
		}
		if err := json.Unmarshal(page, &out); err != nil {
			b.Fatal(err)
		}
	}
}
