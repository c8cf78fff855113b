package mockserver

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/internal/keyphrase"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

const exampleSearch = `{"api_key": "<your key>", "query": "electric cars"}`

func TestBadInput(t *testing.T) {
	t.Parallel()
	s := start(t, WithAPIKeys("good-key", "second-key"))
	tests := []struct {
		name, path, body string
		status           int
		message          string
	}{
		{"empty body", "/api/v2/query", "", 400,
			"the request body is empty: send a JSON object such as " + exampleSearch},
		{"array body", "/api/v2/query", `[1]`, 400,
			"the request body must be a JSON object, not an array: send a JSON object such as " + exampleSearch},
		{"string body", "/api/v2/query", `"cars"`, 400,
			"the request body must be a JSON object, not a string: send a JSON object such as " + exampleSearch},
		{"number body", "/api/v2/query", `42`, 400,
			"the request body must be a JSON object, not a number: send a JSON object such as " + exampleSearch},
		{"null body", "/api/v2/query", `null`, 400,
			"the request body must be a JSON object, not null: send a JSON object such as " + exampleSearch},
		{"plain text body", "/api/v2/query", `hello world`, 400,
			"the request body is not valid JSON: invalid character 'h' looking for beginning of value at line 1, column 1: send a JSON object such as " + exampleSearch},
		{"form-encoded body", "/api/v2/query", `api_key=good-key&query=cars`, 400,
			"the request body is not valid JSON: invalid character 'a' looking for beginning of value at line 1, column 1: send a JSON object such as " + exampleSearch},
		{"HTML body", "/api/v2/query", `<html><body>cars</body></html>`, 400,
			"the request body is not valid JSON: invalid character '<' looking for beginning of value at line 1, column 1: send a JSON object such as " + exampleSearch},
		{"misspelt null", "/api/v2/query", `nul`, 400,
			"the request body is not valid JSON: unexpected end of JSON input at the end of the body: send a JSON object such as " + exampleSearch},
		{"misspelt true", "/api/v2/query", ` tru e`, 400,
			"the request body is not valid JSON: invalid character ' ' in literal true (expecting 'e') at line 1, column 5: send a JSON object such as " + exampleSearch},
		{"malformed JSON", "/api/v2/query", `{"api_key": "good-key", "query": }`, 400,
			"the request body is not valid JSON: invalid character '}' looking for beginning of value at line 1, column 34: send a JSON object such as " + exampleSearch},
		{"malformed JSON on line 2", "/api/v2/query", "{\"api_key\": \"good-key\",\n  \"query\": electric}", 400,
			"the request body is not valid JSON: invalid character 'e' looking for beginning of value at line 2, column 12: send a JSON object such as " + exampleSearch},
		{"truncated JSON", "/api/v2/headlines", `{"api_key": "good-key"`, 400,
			`the request body is not valid JSON: unexpected end of JSON input at the end of the body: send a JSON object such as {"api_key": "<your key>"}`},
		{"trailing data", "/api/v2/headlines", `{"api_key": "good-key"} {}`, 400,
			`the request body is not valid JSON: invalid character '{' after top-level value at line 1, column 25: send a JSON object such as {"api_key": "<your key>"}`},
		{"missing api_key", "/api/v2/query", `{"query": "cars"}`, 401,
			`api_key is missing: put your API key in the JSON body, e.g. "api_key": "<your key>"`},
		{"null api_key", "/api/v2/headlines", `{"api_key": null}`, 401,
			`api_key is missing: put your API key in the JSON body, e.g. "api_key": "<your key>"`},
		{"blank api_key", "/api/v2/headlines", `{"api_key": "  "}`, 401,
			`api_key is blank: put your API key in the JSON body, e.g. "api_key": "<your key>"`},
		{"unknown api_key", "/api/v2/headlines", `{"api_key": "wrong-key"}`, 401,
			"api_key is not accepted by this mock server: use one of the keys it was started with (newsmock -keys on the command line; mockserver.WithAPIKeys in Go, where Server.Client and Server.APIKey provide one)"},
		{"api_key of the wrong type", "/api/v2/headlines", `{"api_key": 12345}`, 400,
			`field "api_key" must be a string, not a number: write e.g. "api_key": "<your key>"`},
		{"missing query", "/api/v2/query", `{"api_key": "good-key"}`, 400,
			`query is missing: say what to search for, e.g. "query": "electric cars"`},
		{"blank query", "/api/v2/query-async", `{"api_key": "good-key", "query": " \t"}`, 400,
			`query is blank: say what to search for, e.g. "query": "electric cars"`},
		{"query with no word", "/api/v2/query", `{"api_key": "good-key", "query": "!!!"}`, 400,
			`query "!!!" has no word to search for (no letter or digit): say what to search for, e.g. "query": "electric cars", or send "query": "*" for every article`},
		{"query of a NUL", "/api/v2/query-async", `{"api_key": "good-key", "query": "\u0000"}`, 400,
			`query "\x00" has no word to search for (no letter or digit): say what to search for, e.g. "query": "electric cars", or send "query": "*" for every article`},
		{"query of invalid UTF-8", "/api/v2/query", "{\"api_key\": \"good-key\", \"query\": \"\xff\xfe -- \"}", 400,
			"query \"\ufffd\ufffd -- \" has no word to search for (no letter or digit): " + `say what to search for, e.g. "query": "electric cars", or send "query": "*" for every article`},
		{"query of the wrong type", "/api/v2/query", `{"api_key": "good-key", "query": ["cars"]}`, 400,
			`field "query" must be a string, not an array: write e.g. "query": "electric cars"`},
		{"query as an object", "/api/v2/query", `{"api_key": "good-key", "query": {"text": "cars"}}`, 400,
			`field "query" must be a string, not an object: write e.g. "query": "electric cars"`},
		{"page as a boolean", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "page": true}`, 400,
			`field "page" must be a whole number, not a boolean: write e.g. "page": 2`},
		{"long unknown toggle_state", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "toggle_state": "` + strings.Repeat("é", 70) + `"}`, 400,
			`toggle_state "` + strings.Repeat("é", 60) + `"… is not allowed: use "All Articles" or "Encoded Articles"`},
		{"page 0", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "page": 0}`, 400,
			"page 0 is out of range: pages start at 1 and go up to 1000000000; omit page for the first page"},
		{"negative page", "/api/v2/query-async", `{"api_key": "good-key", "query": "cars", "page": -3}`, 400,
			"page -3 is out of range: pages start at 1 and go up to 1000000000; omit page for the first page"},
		{"huge page", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "page": 123456789012345678901}`, 400,
			"page 123456789012345678901 is out of range: pages start at 1 and go up to 1000000000; omit page for the first page"},
		{"fractional page", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "page": 1.5}`, 400,
			`field "page" must be a whole number, not 1.5: write e.g. "page": 2`},
		{"page as a string", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "page": "2"}`, 400,
			`field "page" must be a whole number, not a string: write e.g. "page": 2`},
		{"sites as a string", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "sites": "bbc.co.uk"}`, 400,
			`field "sites" must be an array of strings, not a string: write e.g. "sites": ["bbc.co.uk"]`},
		{"site of the wrong type", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "sites": ["a.com", 7]}`, 400,
			`sites[1] must be a string, not a number: write e.g. "sites": ["bbc.co.uk"]`},
		{"blank site", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "sites": [""]}`, 400,
			`sites[0] is blank: give site domains, e.g. "sites": ["bbc.co.uk"]`},
		{"bad start_date", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "start_date": "03/01/2025"}`, 400,
			`start_date "03/01/2025" is not a date: use RFC 3339 such as "2025-03-01T15:04:05Z" or "2025-03-01T15:04:05.123+01:00", or a plain date such as "2025-03-01"`},
		{"impossible end_date", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "end_date": "2025-02-30"}`, 400,
			`end_date "2025-02-30" is not a date: use RFC 3339 such as "2025-03-01T15:04:05Z" or "2025-03-01T15:04:05.123+01:00", or a plain date such as "2025-03-01"`},
		{"date of the wrong type", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "start_date": 20250301}`, 400,
			`field "start_date" must be a string, not a number: write e.g. "start_date": "2025-03-01T00:00:00Z"`},
		{"reversed range", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "start_date": "2025-03-08", "end_date": "2025-03-01T10:00:00Z"}`, 400,
			`start_date "2025-03-08" is after end_date "2025-03-01T10:00:00Z": swap them, or widen the range`},
		{"unknown toggle_state", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "toggle_state": "Some Articles"}`, 400,
			`toggle_state "Some Articles" is not allowed: use "All Articles" or "Encoded Articles"`},
		{"embeddings as a string", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "embeddings": "yes"}`, 400,
			`field "embeddings" must be true or false, not a string: write e.g. "embeddings": true`},
		{"unsupported language", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "language": "Klingon"}`, 400,
			`language "Klingon" is not supported: use all, or one of ` + s.Corpus().langList + ` (code or English name, any case)`},
		{"traffic_rank too high", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "traffic_rank": 101}`, 400,
			"traffic_rank 101 is out of range: use a whole number from 0 to 100 (95 keeps the top 5% of sites)"},
		{"traffic_rank negative", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "traffic_rank": -1}`, 400,
			"traffic_rank -1 is out of range: use a whole number from 0 to 100 (95 keeps the top 5% of sites)"},
		{"traffic_rank fractional", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "traffic_rank": 95.5}`, 400,
			`field "traffic_rank" must be a whole number, not 95.5: write e.g. "traffic_rank": 95`},
		{"key_phrases on the sync endpoint", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "key_phrases": "'tesla'"}`, 400,
			"key_phrases is accepted only by /api/v2/query-async: submit this search there, or remove key_phrases"},
		{"sort_order on the sync endpoint", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "sort_order": "Relevance"}`, 400,
			"sort_order is accepted only by /api/v2/query-async: submit this search there, or remove sort_order"},
		{"key_phrases syntax error", "/api/v2/query-async", `{"api_key": "good-key", "query": "cars", "key_phrases": "('elon' or 'musk'"}`, 400,
			keyPhraseMessage(t, "('elon' or 'musk'")},
		{"key_phrases of the wrong type", "/api/v2/query-async", `{"api_key": "good-key", "query": "cars", "key_phrases": ["'a'"]}`, 400,
			`field "key_phrases" must be a string, not an array: write e.g. "key_phrases": "('elon' or 'musk') and not 'sam altman'"`},
		{"toggle_state in the wrong case", "/api/v2/query", `{"api_key": "good-key", "query": "cars", "toggle_state": "encoded articles"}`, 400,
			`toggle_state "encoded articles" is not allowed: the values are exact, write "Encoded Articles"`},
		{"sort_order in the wrong case", "/api/v2/query-async", `{"api_key": "good-key", "query": "cars", "sort_order": " date published"}`, 400,
			`sort_order " date published" is not allowed: the values are exact, write "Date Published"`},
		{"unknown sort_order", "/api/v2/query-async", `{"api_key": "good-key", "query": "cars", "sort_order": "Newest"}`, 400,
			`sort_order "Newest" is not allowed: use "Relevance" or "Date Published"`},
		{"missing query_id", "/api/v2/get-results", `{"api_key": "good-key"}`, 400,
			`query_id is missing: pass the query_id that /api/v2/query-async returned, e.g. "query_id": "<the id /api/v2/query-async returned>"`},
		{"query_id of the wrong type", "/api/v2/get-results", `{"api_key": "good-key", "query_id": 42}`, 400,
			`field "query_id" must be a string, not a number: write e.g. "query_id": "<the id /api/v2/query-async returned>"`},
		{"get-results page 0", "/api/v2/get-results", `{"api_key": "good-key", "query_id": "abc", "page": 0}`, 400,
			"page 0 is out of range: pages start at 1 and go up to 1000000000; omit page for the first page"},
		{"unknown query_id", "/api/v2/get-results", `{"api_key": "good-key", "query_id": "0123456789abcdef0123456789abcdef"}`, 404,
			"query_id is unknown or has expired: ids expire 1h0m0s after their last use (the least recently used go first beyond 10000 jobs) " +
				"and are visible only to the api_key that submitted them; submit the query to /api/v2/query-async again"},
		{"unknown path", "/api/v2/search", `{}`, 404,
			`there is no endpoint at "/api/v2/search": use POST /api/v2/query, /api/v2/query-async, /api/v2/get-results and /api/v2/headlines`},
		{"unknown admin path", "/_mock/nothing", `{}`, 404,
			`there is no endpoint at "/_mock/nothing": the mock's own endpoints are GET /_mock/health, GET /_mock/journal, DELETE /_mock/journal, GET /_mock/record, POST /_mock/reset, ` +
				`GET /_mock/faults, PUT /_mock/faults, POST /_mock/faults, DELETE /_mock/faults, DELETE /_mock/faults/{index}, GET /_mock/jobs, GET /_mock/jobs/{id}, ` +
				`POST /_mock/jobs/{id}, DELETE /_mock/jobs/{id}, GET /_mock/clock, POST /_mock/clock, GET /_mock/articles, POST /_mock/articles, PUT /_mock/articles, DELETE /_mock/articles, GET /_mock/settings, PATCH /_mock/settings, DELETE /_mock/settings, GET /_mock/expectations, POST /_mock/expectations, DELETE /_mock/expectations, GET /_mock/verify, GET /_mock/worlds, POST /_mock/worlds, DELETE /_mock/worlds, DELETE /_mock/worlds/{id}, GET /_mock/ui (the inspector page)`},
		{"body over 1 MiB", "/api/v2/query", `{"api_key": "good-key", "query": "` + strings.Repeat("x", MaxBodyBytes) + `"}`, 413,
			"the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := call(t, s, http.MethodPost, tt.path, tt.body)
			got := decode[failure](t, r)
			if diff := cmp.Diff(failure{"FAILED", tt.message}, got); diff != "" || r.Status != tt.status {
				t.Errorf("status %d, want %d; body (-want +got):\n%s", r.Status, tt.status, diff)
			}
			if r.Header.Get("X-Request-Id") == "" || r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("headers %v", r.Header)
			}
		})
	}
}

// keyPhraseMessage returns keyphrase's own message for a bad expression:
// the server passes it on unchanged.
func keyPhraseMessage(t *testing.T, expr string) string {
	t.Helper()
	_, err := search.ParseKeyPhrases(expr)
	var se *keyphrase.SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "position 1:") {
		t.Fatalf("search.ParseKeyPhrases(%q) = %v, want a syntax error at position 1", expr, err)
	}
	return se.Error()
}

func TestUnknownFieldsAreIgnored(t *testing.T) {
	t.Parallel()
	s := start(t)
	plain := post(t, s, "/api/v2/query", map[string]any{"query": "*"})
	extra := post(t, s, "/api/v2/query", map[string]any{"query": "*", "colour": "blue", "nested": map[string]any{"a": []int{1}}})
	if extra.Status != http.StatusOK || string(extra.Body) != string(plain.Body) {
		t.Fatalf("unknown fields changed the answer: %d %.200s", extra.Status, extra.Body)
	}
	// Optional fields sent as null count as absent.
	nulls := post(t, s, "/api/v2/query", map[string]any{"query": "*", "page": nil, "sites": nil, "language": nil, "traffic_rank": nil,
		"start_date": nil, "toggle_state": nil, "embeddings": nil})
	if string(nulls.Body) != string(plain.Body) {
		t.Fatalf("null fields changed the answer: %d %.200s", nulls.Status, nulls.Body)
	}
}

func TestWrongMethod(t *testing.T) {
	t.Parallel()
	s := start(t)
	for _, tc := range []struct{ method, path, allow, msg string }{
		{http.MethodGet, "/api/v2/query", "POST", `/api/v2/query does not accept "GET": send a POST with a JSON body`},
		{http.MethodPut, "/api/v2/headlines", "POST", `/api/v2/headlines does not accept "PUT": send a POST with a JSON body`},
		{http.MethodPost, "/_mock/journal", "GET, DELETE", `/_mock/journal does not accept "POST": use GET or DELETE`},
		{http.MethodGet, "/_mock/reset", "POST", `/_mock/reset does not accept "GET": use POST`},
	} {
		r := call(t, s, tc.method, tc.path, "")
		if r.Status != http.StatusMethodNotAllowed || r.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d, Allow %q", tc.method, tc.path, r.Status, r.Header.Get("Allow"))
		}
		if diff := cmp.Diff(failure{"FAILED", tc.msg}, decode[failure](t, r)); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tc.method, tc.path, diff)
		}
	}
}

func TestMissingContentTypeIsAccepted(t *testing.T) {
	t.Parallel()
	s := start(t)
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v2/headlines", strings.NewReader(`{"api_key":"k"}`))
	resp, err := s.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

func TestEscapedStrings(t *testing.T) {
	t.Parallel()
	s := start(t, WithAPIKeys("key/1"))
	word := commonWord(t, s)
	plain := call(t, s, http.MethodPost, "/api/v2/query", `{"api_key":"key/1","query":"`+word+`"}`)
	escaped := call(t, s, http.MethodPost, "/api/v2/query", `{"api_key":"key\/1","query":"\u00`+
		strconv.FormatInt(int64(word[0]), 16)+word[1:]+`"}`)
	if plain.Status != 200 || string(escaped.Body) != string(plain.Body) {
		t.Fatalf("escaped request: %d %.200s", escaped.Status, escaped.Body)
	}
}
