package newssearch

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeSearchEnvelopes(t *testing.T) {
	t.Parallel()
	a0, a1 := wireArticle(0), wireArticle(1)
	two := wantArticles(2)
	tests := []struct {
		name string
		in   string
		want SearchResponse
	}{
		{"results wrapper", `{"results":{"totalResults":123,"articles":[` + a0 + `,` + a1 + `]},"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 123, Articles: two, State: StateSuccess}},
		{"top level", `{"totalResults":7,"articles":[` + a0 + `,` + a1 + `],"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 7, Articles: two, State: StateSuccess}},
		{"totalArticles wrapped", `{"results":{"totalArticles":9,"articles":[]},"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 9, Articles: []Article{}, State: StateSuccess}},
		{"totalArticles top level", `{"totalArticles":9,"articles":[],"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 9, Articles: []Article{}, State: StateSuccess}},
		{"totalResults preferred", `{"totalArticles":9,"totalResults":8,"articles":[],"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 8, Articles: []Article{}, State: StateSuccess}},
		{"null totalResults falls back", `{"totalResults":null,"totalArticles":9,"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 9, State: StateSuccess}},
		{"wrapper wins over top level", `{"articles":[` + a1 + `],"results":{"totalResults":1,"articles":[` + a0 + `]}}`,
			SearchResponse{TotalResults: 1, Articles: two[:1]}},
		{"mixed: count wrapped, articles top level", `{"results":{"totalResults":5},"articles":[` + a0 + `],"totalResults":1}`,
			SearchResponse{TotalResults: 5, Articles: two[:1]}},
		{"mixed: articles wrapped, count top level", `{"results":{"articles":[` + a0 + `]},"totalArticles":6}`,
			SearchResponse{TotalResults: 6, Articles: two[:1]}},
		{"mixed slow path", `{"results":{"totalResults":"5"},"articles":[` + a0 + `]}`,
			SearchResponse{TotalResults: 5, Articles: two[:1]}},
		{"null results uses top level", `{"results":null,"totalResults":1,"articles":[` + a0 + `]}`,
			SearchResponse{TotalResults: 1, Articles: two[:1]}},
		{"no articles", `{"results":{"totalResults":0},"state":"success"}`,
			SearchResponse{State: "success"}},
		{"null articles", `{"results":{"totalResults":0,"articles":null},"state":"SUCCESS"}`,
			SearchResponse{State: StateSuccess}},
		{"unknown envelope members", `{"took":12,"results":{"totalResults":1,"articles":[` + a0 + `],"facets":{}},"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 1, Articles: two[:1], State: StateSuccess}},
		{"string count (slow path)", `{"results":{"totalResults":"42","articles":[` + a0 + `]},"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 42, Articles: two[:1], State: StateSuccess}},
		{"float count (slow path)", `{"totalArticles":42.0,"articles":[` + a0 + `],"state":"SUCCESS"}`,
			SearchResponse{TotalResults: 42, Articles: two[:1], State: StateSuccess}},
		{"white space everywhere", "\n{ \"results\" : { \"articles\" : [ \n" + a0 + " ] , \"totalResults\" : 1 } }\n",
			SearchResponse{TotalResults: 1, Articles: two[:1]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got SearchResponse
			if err := decodeSearch([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decode mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeArticleVariants(t *testing.T) {
	t.Parallel()
	date := time.Date(2025, 1, 19, 1, 4, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   string
		want Article
	}{
		{"image string", `{"image":"https://x/1.jpg"}`, Article{Image: ImageList{"https://x/1.jpg"}}},
		{"image array", `{"image":["https://x/1.jpg","https://x/2.jpg"]}`, Article{Image: ImageList{"https://x/1.jpg", "https://x/2.jpg"}}},
		{"image empty array", `{"image":[]}`, Article{}},
		{"image null", `{"image":null}`, Article{}},
		{"image empty string", `{"image":""}`, Article{}},
		{"image escaped", `{"image":"https:\/\/x\/1.jpg"}`, Article{Image: ImageList{"https://x/1.jpg"}}},
		{"category null", `{"category":null,"title":"t"}`, Article{Title: "t"}},
		{"entities null", `{"entities":null,"entity_relationships":null}`, Article{}},
		{"date RFC 1123", `{"datePublished":"Sun, 19 Jan 2025 01:04:00 GMT"}`,
			Article{DatePublished: Timestamp{Time: date, Raw: "Sun, 19 Jan 2025 01:04:00 GMT"}}},
		{"date spaced", `{"datePublished":"2025-01-19 01:04:00"}`,
			Article{DatePublished: Timestamp{Time: date, Raw: "2025-01-19 01:04:00"}}},
		{"date RFC 3339", `{"datePublished":"2025-01-19T01:04:00Z"}`,
			Article{DatePublished: Timestamp{Time: date, Raw: "2025-01-19T01:04:00Z"}}},
		{"date RFC 3339 fraction offset", `{"datePublished":"2025-01-19T02:04:00.5+01:00"}`,
			Article{DatePublished: Timestamp{Time: date.Add(500 * time.Millisecond), Raw: "2025-01-19T02:04:00.5+01:00"}}},
		{"date only", `{"datePublished":"2025-01-19"}`,
			Article{DatePublished: Timestamp{Time: date.Truncate(24 * time.Hour), Raw: "2025-01-19"}}},
		{"date null", `{"datePublished":null}`, Article{}},
		{"date unparseable", `{"datePublished":"last Tuesday"}`, Article{DatePublished: Timestamp{Raw: "last Tuesday"}}},
		{"embeddings", `{"embeddings":[0.5,-0.25,1e-3]}`, Article{Embeddings: []float32{0.5, -0.25, 0.001}}},
		{"unknown members kept", `{"title":"t","authors":["a","b"],"paywall":{"hard":true},"n":1}`,
			Article{Title: "t", Extra: map[string]json.RawMessage{
				"authors": json.RawMessage(`["a","b"]`), "paywall": json.RawMessage(`{"hard":true}`), "n": json.RawMessage(`1`)}}},
		{"escaped unknown key", `{"a\u00e9b":1,"x\"y":2}`,
			Article{Extra: map[string]json.RawMessage{"aéb": json.RawMessage(`1`), `x"y`: json.RawMessage(`2`)}}},
		{"case-insensitive known key", `{"Title":"t"}`, Article{Title: "t"}},
		{"entities object (slow path)", `{"title":"t","entities":{"name":"x"},"score":2}`,
			Article{Title: "t", Score: 2, Extra: map[string]json.RawMessage{"entities": json.RawMessage(`{"name":"x"}`)}}},
		{"score string (slow path)", `{"score":"high","topics":["a"],"other":true}`,
			Article{Topics: []string{"a"}, Extra: map[string]json.RawMessage{"score": json.RawMessage(`"high"`), "other": json.RawMessage(`true`)}}},
		{"date number (slow path)", `{"datePublished":1700000000}`,
			Article{Extra: map[string]json.RawMessage{"datePublished": json.RawMessage(`1700000000`)}}},
		{"image number (slow path)", `{"image":7,"title":"t"}`,
			Article{Title: "t", Extra: map[string]json.RawMessage{"image": json.RawMessage(`7`)}}},
		{"mixed entity list (slow path)", `{"entities":[{"name":"a"},3]}`,
			Article{Extra: map[string]json.RawMessage{"entities": json.RawMessage(`[{"name":"a"},3]`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// As a single article.
			var got Article
			if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Article.UnmarshalJSON mismatch (-want +got):\n%s", diff)
			}
			// Inside a page, next to a regular article that must survive.
			var page SearchResponse
			in := `{"results":{"totalResults":2,"articles":[` + wireArticle(0) + `,` + tt.in + `]},"state":"SUCCESS"}`
			if err := decodeSearch([]byte(in), &page); err != nil {
				t.Fatal(err)
			}
			want := SearchResponse{TotalResults: 2, Articles: []Article{wantArticle(0), tt.want}, State: StateSuccess}
			if diff := cmp.Diff(want, page); diff != "" {
				t.Errorf("page mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want ResultsPage
	}{
		{"pending", `{"query_id":"q1","state":"PENDING"}`, ResultsPage{QueryID: "q1", State: StatePending}},
		{"done", `{"query_id":"q1","page":2,"totalResults":123,"totalArticles":123,"articles":[` + wireArticle(0) + `],"state":"SUCCESS"}`,
			ResultsPage{QueryID: "q1", Page: 2, TotalResults: 123, Articles: wantArticles(1), State: StateSuccess}},
		{"past the end", `{"query_id":"q1","page":9,"totalResults":30,"totalArticles":30,"articles":[],"state":"SUCCESS"}`,
			ResultsPage{QueryID: "q1", Page: 9, TotalResults: 30, Articles: []Article{}, State: StateSuccess}},
		{"vendor count only", `{"query_id":"q1","totalArticles":5,"articles":[],"state":"SUCCESS","message":"ok"}`,
			ResultsPage{QueryID: "q1", TotalResults: 5, Articles: []Article{}, State: StateSuccess, Message: "ok"}},
		{"slow path keeps envelope", `{"query_id":"q1","page":"2","totalResults":1,"articles":[{"entities":5}],"state":"SUCCESS","message":"m"}`,
			ResultsPage{QueryID: "q1", Page: 2, TotalResults: 1, State: StateSuccess, Message: "m",
				Articles: []Article{{Extra: map[string]json.RawMessage{"entities": json.RawMessage(`5`)}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got ResultsPage
			if err := decodeResults([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decode mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"not JSON", `<html>`, "invalid character '<' looking for beginning of value"},
		{"truncated", `{"results":{"articles":[`, "unexpected end of JSON input"},
		{"array", `[1,2]`, "the answer is not a JSON object"},
		{"string", `"x"`, "the answer is not a JSON object"},
		{"null", `null`, "the answer is not a JSON object"},
		{"articles object", `{"articles":{"a":1}}`, `"articles" is not an array: got "{\"a\":1}"`},
		{"article string", `{"articles":[{},"x"]}`, `article 1 is not an object: got "\"x\""`},
		{"results array", `{"results":[1]}`, `"results" is not an object: got "[1]"`},
		{"count object", `{"totalResults":{"n":1}}`, `"totalResults" is not an integer: got "{\"n\":1}"`},
		{"count fraction", `{"totalResults":1.5}`, `"totalResults" is not an integer: got "1.5"`},
		{"state object", `{"state":{"x":1}}`, `"state" is not a string: got "{\"x\":1}"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got SearchResponse
			err := decodeSearch([]byte(tt.in), &got)
			if err == nil {
				t.Fatalf("decodeSearch(%s) succeeded: %+v", tt.in, got)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q, want prefix %q", err, tt.want)
			}
		})
	}
}

func TestArticleUnmarshalNotObject(t *testing.T) {
	t.Parallel()
	var a Article
	err := json.Unmarshal([]byte(`[1]`), &a)
	want := `newssearch: article is not a JSON object: got "[1]"`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
	a = Article{Title: "kept"}
	if err := json.Unmarshal([]byte(`null`), &a); err != nil || a.Title != "kept" {
		t.Fatalf("null: err %v, article %+v; want no change", err, a)
	}
}

func TestArticleMarshalRoundTrip(t *testing.T) {
	t.Parallel()
	in := `{"_id":"x","title":"t","image":["a"],"datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","entities":{"odd":1},"zeta":[1],"alpha":"a"}`
	var a Article
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"_id":"x","title":"t","description":"","bodyText":"","url":"","site":"","image":["a"],"favicon":"",` +
		`"category":"","language":"","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","score":0,"topics":null,` +
		`"sentiment":{"title":0,"description":0},"entity_relationships":null,"embeddings":null,` +
		`"alpha":"a","entities":{"odd":1},"zeta":[1]}`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
	}
	var back Article
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, back); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}

	bad := Article{Extra: map[string]json.RawMessage{"x": json.RawMessage(`{`)}}
	if _, err := json.Marshal(bad); err == nil || !strings.Contains(err.Error(), `Article.Extra["x"] is not valid JSON`) {
		t.Errorf("Marshal of invalid Extra: error = %v", err)
	}
}

func TestTimestamp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"Wed, 13 Nov 2024 01:44:17 GMT", time.Date(2024, 11, 13, 1, 44, 17, 0, time.UTC), true},
		{"Wed, 13 Nov 2024 01:44:17 UTC", time.Date(2024, 11, 13, 1, 44, 17, 0, time.UTC), true},
		{"Wed, 13 Nov 2024 03:44:17 +0200", time.Date(2024, 11, 13, 1, 44, 17, 0, time.UTC), true},
		{"2025-01-19 01:04:00", time.Date(2025, 1, 19, 1, 4, 0, 0, time.UTC), true},
		{"2025-01-19T01:04:00Z", time.Date(2025, 1, 19, 1, 4, 0, 0, time.UTC), true},
		{"2025-01-19T01:04:00.123456Z", time.Date(2025, 1, 19, 1, 4, 0, 123456000, time.UTC), true},
		{"2025-01-19T01:04:00-05:00", time.Date(2025, 1, 19, 6, 4, 0, 0, time.UTC), true},
		{"2025-01-19T01:04:00", time.Date(2025, 1, 19, 1, 4, 0, 0, time.UTC), true},
		{"2025-01-19", time.Date(2025, 1, 19, 0, 0, 0, 0, time.UTC), true},
		{"2025-13-19", time.Time{}, false},
		{"yesterday", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		got, err := ParseTimestamp(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ParseTimestamp(%q) error = %v, want ok %v", tt.in, err, tt.ok)
		}
		want := Timestamp{Time: tt.want, Raw: tt.in}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ParseTimestamp(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
		if !got.IsZero() && got.Location() != time.UTC {
			t.Errorf("ParseTimestamp(%q) location = %v, want UTC", tt.in, got.Location())
		}
	}
	_, err := ParseTimestamp("soon")
	want := `newssearch: cannot parse date "soon": use RFC 1123 ("Wed, 13 Nov 2024 01:44:17 GMT"), "2006-01-02 15:04:05", RFC 3339 or "2006-01-02"`
	if err == nil || err.Error() != want {
		t.Errorf("ParseTimestamp(soon) error = %v, want %q", err, want)
	}
}

func TestTimestampJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`"2025-01-19 01:04:00"`: `"2025-01-19 01:04:00"`,
		`"garbage"`:             `"garbage"`,
		`null`:                  `null`,
	} {
		var ts Timestamp
		if err := json.Unmarshal([]byte(in), &ts); err != nil {
			t.Fatalf("Unmarshal(%s): %v", in, err)
		}
		out, err := json.Marshal(ts)
		if err != nil || string(out) != want {
			t.Errorf("Marshal(Unmarshal(%s)) = %s, %v; want %s", in, out, err, want)
		}
	}
	out, err := json.Marshal(Timestamp{Time: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)})
	if err != nil || string(out) != `"2025-01-02T03:04:05.000000006Z"` {
		t.Errorf("Marshal without Raw = %s, %v", out, err)
	}
	var ts Timestamp
	err = json.Unmarshal([]byte(`12`), &ts)
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) {
		t.Errorf("Unmarshal(12) error = %v, want *json.UnmarshalTypeError", err)
	}
}

func TestImageList(t *testing.T) {
	t.Parallel()
	if got := (ImageList{"a", "b"}).First(); got != "a" {
		t.Errorf("First() = %q, want a", got)
	}
	if got := ImageList(nil).First(); got != "" {
		t.Errorf("nil First() = %q, want empty", got)
	}
	var l ImageList
	if err := json.Unmarshal([]byte(`{"a":1}`), &l); err == nil {
		t.Error("object decoded into ImageList without error")
	}
	var h HeadlineArticle
	if err := json.Unmarshal([]byte(`{"image":["x"]}`), &h); err != nil || h.Image.First() != "x" {
		t.Errorf("headline image array: %v, %+v", err, h)
	}
}

func TestState(t *testing.T) {
	t.Parallel()
	type preds struct{ Success, Pending, Failure bool }
	for s, want := range map[State]preds{
		"SUCCESS": {Success: true},
		"success": {Success: true},
		"":        {Success: true},
		"PENDING": {Pending: true},
		"Pending": {Pending: true},
		"FAILED":  {Failure: true},
		"fail":    {Failure: true},
		"ERROR":   {Failure: true},
	} {
		got := preds{s.IsSuccess(), s.IsPending(), s.IsFailure()}
		if got != want {
			t.Errorf("State(%q): got %+v, want %+v", s, got, want)
		}
	}
	if !(&ResultsPage{State: "pending"}).Pending() {
		t.Error("ResultsPage.Pending() = false for pending")
	}
}

// FuzzDecodeSearch checks that no input panics the decoder, and that the
// fast path and Article.UnmarshalJSON agree on every article.
func FuzzDecodeSearch(f *testing.F) {
	for _, s := range []string{
		`{"results":{"totalResults":1,"articles":[` + wireArticle(0) + `]},"state":"SUCCESS"}`,
		`{"articles":[{"entities":{"a":1},"x\"y":[1,"]"],"z":"\\"}],"totalArticles":"3"}`,
		`{"articles":[null,{"image":[]}]}`,
		`{"results":{"articles":[{"a":{"b":[{"c":"}"}]}}]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var got SearchResponse
		if decodeSearch([]byte(in), &got) != nil {
			return
		}
		if !json.Valid([]byte(in)) {
			t.Fatalf("decodeSearch accepted invalid JSON %q", in)
		}
		for i, a := range got.Articles {
			raw, err := json.Marshal(a)
			if err != nil {
				t.Fatalf("article %d: Marshal: %v", i, err)
			}
			var back Article
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatalf("article %d: Unmarshal(Marshal): %v", i, err)
			}
		}
	})
}
