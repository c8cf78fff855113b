package newssearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/newssearch/newssearch-go/internal/textutil"
)

func TestDecodeSearchEnvelopes(t *testing.T) {
	t.Parallel()
	a0, a1 := wireArticle(0), wireArticle(1)
	two := wantArticles(2)
	tests := []struct {
		name string
		in   string
		want Page
	}{
		{"results wrapper", `{"results":{"totalResults":123,"articles":[` + a0 + `,` + a1 + `]},"state":"SUCCESS"}`,
			Page{TotalResults: 123, Articles: two, State: StateSuccess}},
		{"top level", `{"totalResults":7,"articles":[` + a0 + `,` + a1 + `],"state":"SUCCESS"}`,
			Page{TotalResults: 7, Articles: two, State: StateSuccess}},
		{"totalArticles wrapped", `{"results":{"totalArticles":9,"articles":[]},"state":"SUCCESS"}`,
			Page{TotalResults: 9, Articles: []Article{}, State: StateSuccess}},
		{"totalArticles top level", `{"totalArticles":9,"articles":[],"state":"SUCCESS"}`,
			Page{TotalResults: 9, Articles: []Article{}, State: StateSuccess}},
		{"totalResults preferred", `{"totalArticles":9,"totalResults":8,"articles":[],"state":"SUCCESS"}`,
			Page{TotalResults: 8, Articles: []Article{}, State: StateSuccess}},
		{"null totalResults falls back", `{"totalResults":null,"totalArticles":9,"state":"SUCCESS"}`,
			Page{TotalResults: 9, State: StateSuccess}},
		{"wrapper wins over top level", `{"articles":[` + a1 + `],"results":{"totalResults":1,"articles":[` + a0 + `]}}`,
			Page{TotalResults: 1, Articles: two[:1]}},
		{"mixed: count wrapped, articles top level", `{"results":{"totalResults":5},"articles":[` + a0 + `],"totalResults":1}`,
			Page{TotalResults: 5, Articles: two[:1]}},
		{"mixed: articles wrapped, count top level", `{"results":{"articles":[` + a0 + `]},"totalArticles":6}`,
			Page{TotalResults: 6, Articles: two[:1]}},
		{"mixed slow path", `{"results":{"totalResults":"5"},"articles":[` + a0 + `]}`,
			Page{TotalResults: 5, Articles: two[:1]}},
		{"null results uses top level", `{"results":null,"totalResults":1,"articles":[` + a0 + `]}`,
			Page{TotalResults: 1, Articles: two[:1]}},
		{"no articles", `{"results":{"totalResults":0},"state":"success"}`,
			Page{State: "success"}},
		{"null articles", `{"results":{"totalResults":0,"articles":null},"state":"SUCCESS"}`,
			Page{State: StateSuccess}},
		{"unknown envelope members", `{"took":12,"results":{"totalResults":1,"articles":[` + a0 + `],"facets":{}},"state":"SUCCESS"}`,
			Page{TotalResults: 1, Articles: two[:1], State: StateSuccess}},
		{"string count (slow path)", `{"results":{"totalResults":"42","articles":[` + a0 + `]},"state":"SUCCESS"}`,
			Page{TotalResults: 42, Articles: two[:1], State: StateSuccess}},
		{"float count (slow path)", `{"totalArticles":42.0,"articles":[` + a0 + `],"state":"SUCCESS"}`,
			Page{TotalResults: 42, Articles: two[:1], State: StateSuccess}},
		{"escaped envelope names", `{"r\u0065sults":{"tot\u0061lResults":1,"\u0061rticles":[{"_id":"a","x\u0079":1}]},"stat\u0065":"SUCCESS"}`,
			Page{TotalResults: 1, State: StateSuccess,
				Articles: []Article{{ID: "a", Extra: map[string]json.RawMessage{"xy": json.RawMessage(`1`)}}}}},
		{"escaped envelope names (slow path)", `{"r\u0065sults":{"tot\u0061lResults":"1","\u0061rticles":[{"_id":"a","x\u0079":1}]},"stat\u0065":"SUCCESS"}`,
			Page{TotalResults: 1, State: StateSuccess,
				Articles: []Article{{ID: "a", Extra: map[string]json.RawMessage{"xy": json.RawMessage(`1`)}}}}},
		{"escaped top-level articles", `{"\u0061rticles":[{"_id":"a","t\u0069tle":"t","z":null}],"totalResults":1}`,
			Page{TotalResults: 1,
				Articles: []Article{{ID: "a", Title: "t", Extra: map[string]json.RawMessage{"z": json.RawMessage(`null`)}}}}},
		{"duplicate articles merge", `{"articles":[{"title":"a","x":1},{"y":2}],"articles":[{"_id":"b","x":3,"d":4}]}`,
			Page{Articles: []Article{{ID: "b", Title: "a",
				Extra: map[string]json.RawMessage{"x": json.RawMessage(`3`), "d": json.RawMessage(`4`)}}}}},
		{"null results after results", `{"results":{"articles":[{"x":1}]},"results":null}`,
			Page{Articles: []Article{{Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)}}}}},
		{"white space everywhere", "\n{ \"results\" : { \"articles\" : [ \n" + a0 + " ] , \"totalResults\" : 1 } }\n",
			Page{TotalResults: 1, Articles: two[:1]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got Page
			if err := decodePage([]byte(tt.in), &got); err != nil {
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
			Article{DatePublished: Timestamp{Time: date, raw: "Sun, 19 Jan 2025 01:04:00 GMT"}}},
		{"date spaced", `{"datePublished":"2025-01-19 01:04:00"}`,
			Article{DatePublished: Timestamp{Time: date, raw: "2025-01-19 01:04:00"}}},
		{"date RFC 3339", `{"datePublished":"2025-01-19T01:04:00Z"}`,
			Article{DatePublished: Timestamp{Time: date, raw: "2025-01-19T01:04:00Z"}}},
		{"date RFC 3339 fraction offset", `{"datePublished":"2025-01-19T02:04:00.5+01:00"}`,
			Article{DatePublished: Timestamp{Time: date.Add(500 * time.Millisecond), raw: "2025-01-19T02:04:00.5+01:00"}}},
		{"date only", `{"datePublished":"2025-01-19"}`,
			Article{DatePublished: Timestamp{Time: date.Truncate(24 * time.Hour), raw: "2025-01-19"}}},
		{"date null", `{"datePublished":null}`, Article{}},
		{"date unparseable", `{"datePublished":"last Tuesday"}`, Article{DatePublished: Timestamp{raw: "last Tuesday"}}},
		{"embeddings", `{"embeddings":[0.5,-0.25,1e-3]}`, Article{Embeddings: []float32{0.5, -0.25, 0.001}}},
		{"unknown members kept", `{"title":"t","authors":["a","b"],"paywall":{"hard":true},"n":1}`,
			Article{Title: "t", Extra: map[string]json.RawMessage{
				"authors": json.RawMessage(`["a","b"]`), "paywall": json.RawMessage(`{"hard":true}`), "n": json.RawMessage(`1`)}}},
		{"escaped unknown key", `{"a\u00e9b":1,"x\"y":2}`,
			Article{Extra: map[string]json.RawMessage{"aéb": json.RawMessage(`1`), `x"y`: json.RawMessage(`2`)}}},
		{"case-insensitive known key", `{"Title":"t"}`, Article{Title: "t"}},
		{"escaped known key", `{"t\u0069tle":"x","\u005fid":"i","TITL\u0045":"y"}`, Article{ID: "i", Title: "y"}},
		{"escaped known key and unknown", `{"sit\u0065":"s","\u0078":1}`,
			Article{Site: "s", Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)}}},
		{"escaped known key (slow path)", `{"t\u0069tle":"x","score":"high"}`,
			Article{Title: "x", Extra: map[string]json.RawMessage{"score": json.RawMessage(`"high"`)}}},
		{"invalid UTF-8 image", "{\"image\":\"a\xafb\"}", Article{Image: ImageList{"a\ufffdb"}}},
		{"invalid UTF-8 image list", "{\"image\":[\"\xff\"]}", Article{Image: ImageList{"\ufffd"}}},
		{"invalid UTF-8 date", "{\"datePublished\":\"2025\xc3\"}", Article{DatePublished: Timestamp{raw: "2025\ufffd"}}},
		{"invalid UTF-8 unknown key", "{\"\x8d\":{},\"\u00e9\xe9\":2}",
			Article{Extra: map[string]json.RawMessage{"\ufffd": json.RawMessage(`{}`), "é\ufffd": json.RawMessage(`2`)}}},
		{"invalid UTF-8 key (slow path)", "{\"\x8d\":{},\"score\":\"high\"}",
			Article{Extra: map[string]json.RawMessage{"\ufffd": json.RawMessage(`{}`), "score": json.RawMessage(`"high"`)}}},
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
			var page Page
			in := `{"results":{"totalResults":2,"articles":[` + wireArticle(0) + `,` + tt.in + `]},"state":"SUCCESS"}`
			if err := decodePage([]byte(in), &page); err != nil {
				t.Fatal(err)
			}
			want := Page{TotalResults: 2, Articles: []Article{wantArticle(0), tt.want}, State: StateSuccess}
			if diff := cmp.Diff(want, page); diff != "" {
				t.Errorf("page mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnquote checks unquote against encoding/json: the fast path must
// not keep invalid UTF-8 that encoding/json replaces with U+FFFD.
func TestUnquote(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`""`, `"abc"`, `"é"`, `"a\"b"`, `"\u00e9"`, "\"\xaf\"", "\"a\xc3\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\""} {
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("json.Unmarshal(%q): %v", in, err)
		}
		got, err := unquote([]byte(in))
		if err != nil {
			t.Errorf("unquote(%q): %v", in, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("unquote(%q) mismatch (-want +got):\n%s", in, diff)
		}
	}
}

func TestDecodeResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want Page
	}{
		{"pending", `{"query_id":"q1","state":"PENDING"}`, Page{QueryID: "q1", State: StatePending}},
		{"done", `{"query_id":"q1","page":2,"totalResults":123,"totalArticles":123,"articles":[` + wireArticle(0) + `],"state":"SUCCESS"}`,
			Page{QueryID: "q1", Number: 2, TotalResults: 123, Articles: wantArticles(1), State: StateSuccess}},
		{"past the end", `{"query_id":"q1","page":9,"totalResults":30,"totalArticles":30,"articles":[],"state":"SUCCESS"}`,
			Page{QueryID: "q1", Number: 9, TotalResults: 30, Articles: []Article{}, State: StateSuccess}},
		{"vendor count only", `{"query_id":"q1","totalArticles":5,"articles":[],"state":"SUCCESS","message":"ok"}`,
			Page{QueryID: "q1", TotalResults: 5, Articles: []Article{}, State: StateSuccess, Message: "ok"}},
		{"slow path keeps envelope", `{"query_id":"q1","page":"2","totalResults":1,"articles":[{"entities":5}],"state":"SUCCESS","message":"m"}`,
			Page{QueryID: "q1", Number: 2, TotalResults: 1, State: StateSuccess, Message: "m",
				Articles: []Article{{Extra: map[string]json.RawMessage{"entities": json.RawMessage(`5`)}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got Page
			if err := decodePage([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decode mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeErrors checks the exact messages of answers that cannot be
// decoded. A member of the wrong type is named with the JSON type found,
// never its value, which may echo anything (the API key included).
func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"not JSON", `<html>`, "invalid character '<' looking for beginning of value"},
		{"truncated", `{"results":{"articles":[`, "unexpected end of JSON input"},
		{"array", `[1,2]`, "the answer is not a JSON object"},
		{"string", `"x"`, "the answer is not a JSON object"},
		{"null", `null`, "the answer is not a JSON object"},
		{"articles object", `{"articles":{"a":1}}`, `"articles" is not an array: got an object`},
		{"articles string", `{"articles":"x"}`, `"articles" is not an array: got a string`},
		{"articles number", `{"articles":5}`, `"articles" is not an array: got a number`},
		{"articles boolean", `{"results":{"articles":true}}`, `"articles" is not an array: got a boolean`},
		{"article string", `{"articles":[{},"x"]}`, `article 1 is not an object: got a string`},
		{"article array", `{"articles":[[{}]]}`, `article 0 is not an object: got an array`},
		{"article number", `{"articles":[null,-1]}`, `article 1 is not an object: got a number`},
		{"article boolean", `{"articles":[false]}`, `article 0 is not an object: got a boolean`},
		{"results array", `{"results":[1]}`, `"results" is not an object: got an array`},
		{"results string", `{"results":"x"}`, `"results" is not an object: got a string`},
		{"results escaped name", `{"r\u0065sults":7}`, `"results" is not an object: got a number`},
		{"count object", `{"totalResults":{"n":1}}`, `"totalResults" is not an integer: got an object`},
		{"count array", `{"totalResults":[1]}`, `"totalResults" is not an integer: got an array`},
		{"count boolean", `{"totalResults":true}`, `"totalResults" is not an integer: got a boolean`},
		{"count word", `{"totalResults":"many"}`, `"totalResults" is not an integer: got a string not holding an integer`},
		{"count string fraction", `{"totalResults":"1.5"}`, `"totalResults" is not an integer: got a string not holding an integer`},
		{"count fraction", `{"totalResults":1.5}`, `"totalResults" is not an integer: got a non-integer number`},
		{"count beyond 2^53", `{"totalResults":1e300}`, `"totalResults" is not an integer: got a number out of range`},
		{"count beyond float64", `{"totalResults":1e400}`, `"totalResults" is not an integer: got a number out of range`},
		{"count beyond int64", `{"totalResults":9223372036854775808}`, `"totalResults" is not an integer: got a number out of range`},
		{"wrapped count", `{"results":{"totalArticles":"x"}}`, `"totalArticles" is not an integer: got a string not holding an integer`},
		{"page", `{"page":{}}`, `"page" is not an integer: got an object`},
		{"state object", `{"state":{"x":1}}`, `"state" is not a string: got an object`},
		{"state array", `{"state":["x"]}`, `"state" is not a string: got an array`},
		{"query_id object", `{"query_id":{"k":"v"}}`, `"query_id" is not a string: got an object`},
		{"message array", `{"message":[]}`, `"message" is not a string: got an array`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var page Page
			err := decodePage([]byte(tt.in), &page)
			if err == nil {
				t.Fatalf("decodePage(%s) succeeded: %+v", tt.in, page)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("decodePage(%s) error mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestJSONKind checks the type names error messages use instead of
// values.
func TestJSONKind(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	for _, in := range []string{`"k"`, `{}`, `[]`, `true`, `false`, `null`, `-1`, `0.5`, ``, `x`} {
		got[in] = textutil.JSONKind([]byte(in))
	}
	want := map[string]string{`"k"`: "a string", `{}`: "an object", `[]`: "an array", `true`: "a boolean",
		`false`: "a boolean", `null`: "null", `-1`: "a number", `0.5`: "a number", ``: "nothing", `x`: "invalid JSON"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("textutil.JSONKind mismatch (-want +got):\n%s", diff)
	}
	var o optInt
	err := json.Unmarshal([]byte(`"secret"`), &o)
	if diff := cmp.Diff("json: cannot unmarshal string into Go value of type int", fmt.Sprint(err)); diff != "" {
		t.Errorf("optInt error mismatch (-want +got):\n%s", diff)
	}
}

func TestArticleUnmarshalNotObject(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`[1]`:        "newssearch: article is not a JSON object: got an array",
		` "secret" `: "newssearch: article is not a JSON object: got a string",
		`12`:         "newssearch: article is not a JSON object: got a number",
		`true`:       "newssearch: article is not a JSON object: got a boolean",
		`{"a":`:      "newssearch: article is not a JSON object: got invalid JSON",
		``:           "newssearch: article is not a JSON object: got invalid JSON",
	} {
		var a Article
		err := a.UnmarshalJSON([]byte(in))
		if err == nil {
			t.Errorf("UnmarshalJSON(%q) succeeded: %+v", in, a)
			continue
		}
		if diff := cmp.Diff(want, err.Error()); diff != "" {
			t.Errorf("UnmarshalJSON(%q) error mismatch (-want +got):\n%s", in, diff)
		}
	}
	a := Article{Title: "kept"}
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
		want := Timestamp{Time: tt.want, raw: tt.in}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ParseTimestamp(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
		if !got.IsZero() && got.Time.Location() != time.UTC {
			t.Errorf("ParseTimestamp(%q) location = %v, want UTC", tt.in, got.Time.Location())
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
		var got Page
		if decodePage([]byte(in), &got) != nil {
			return
		}
		if !json.Valid([]byte(in)) {
			t.Fatalf("decodePage accepted invalid JSON %q", in)
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
