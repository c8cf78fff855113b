package workload

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestPlainResponseDecodesEveryMember holds the hand-written baseline of
// row 4 to the work the SDK does: it must decode every member of the mock's
// full-page answer (the SDK decodes them all, keeping unknown ones in
// Article.Extra), or the baseline would be cheaper for skipping some.
// bench_test.go at the repository root keeps a copy of PlainArticle for
// BenchmarkDecodePlain, which cannot import this module.
func TestPlainResponseDecodesEveryMember(t *testing.T) {
	_, answer, err := FullPageQuery(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(answer))
	dec.DisallowUnknownFields()
	var out PlainResponse
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("the mock's answer has a member PlainResponse does not decode: %v", err)
	}
	if len(out.Results.Articles) != 25 || out.State != "SUCCESS" {
		t.Fatalf("decoded %d articles, state %q; want a full page of 25 and SUCCESS", len(out.Results.Articles), out.State)
	}
}
