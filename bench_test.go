package newssearch

import (
	"encoding/json"
	"strings"
	"testing"
)

// plainArticle is what a hand-written client would decode into. It is a
// copy of PlainArticle in the benchmark harness's workload package
// (tools/bench/workload/hand.go), which this package cannot import: the
// harness is a module of its own, and requires this one. Keep the two
// alike; TestPlainArticleDecodesEveryMember here and
// TestPlainResponseDecodesEveryMember there hold each to the wire.
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

// The whole Search call against its hand-written baseline is
// BenchmarkSDKOverhead (tools/bench/sdk_bench_test.go, in the harness's
// module); these two isolate decoding, and stay here because decodeSearch
// is unexported.

// TestPlainArticleDecodesEveryMember checks that BenchmarkDecodePlain's
// struct decodes every member of the page both benchmarks decode, as
// decodeSearch does: a reference that skipped members would be cheaper
// for it.
func TestPlainArticleDecodesEveryMember(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(wireArticles(PageSize)))
	dec.DisallowUnknownFields()
	var out []plainArticle
	if err := dec.Decode(&out); err != nil || len(out) != PageSize {
		t.Fatalf("decoded %d articles: %v", len(out), err)
	}
}

// BenchmarkDecodeSearch measures decoding alone.
func BenchmarkDecodeSearch(b *testing.B) {
	page := []byte(`{"results":{"totalResults":1234,"articles":` + wireArticles(PageSize) + `},"state":"SUCCESS"}`)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		var out Page
		if err := decodePage(page, &out); err != nil {
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
