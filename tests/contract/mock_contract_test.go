package contract_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
)

// Keys of the mock servers of the response table. They are distinctive so
// that a test can prove no answer ever contains one.
const (
	contractKey = "contract-key-7f3a9c"
	otherKey    = "other-key-51b2e8"
)

// rawCase is one hand-written request of the response table.
type rawCase struct {
	name   string
	server string // "" for the main server, "limited" for the rate-limited one
	method string
	path   string
	// body is sent as is after replacing {{key}}, {{other}} and {{id:NAME}}
	// (the query_id an earlier case captured as NAME).
	body   string
	header map[string]string
	// status is the status the mock must answer.
	status int
	// docValid is whether the document accepts the request. A bad request
	// the document cannot recognise (an unknown key, start_date after
	// end_date, an unsupported language, ...) is docValid.
	docValid bool
	// docAny skips the check of the request against the document: the mock
	// refuses it for headers the document does not model (Origin, Host,
	// Content-Type of a control POST), whatever its body.
	docAny bool
	// capture stores the answer's query_id under this name.
	capture string
	// members, when set, are the names of the answer's top-level members,
	// sorted and comma-separated: the answer shape asked for.
	members string
	// want, when set, is a JSON object whose members the answer must have
	// with these values.
	want string
}

const (
	pathQuery      = "/api/v2/query"
	pathQueryAsync = "/api/v2/query-async"
	pathGetResults = "/api/v2/get-results"
	pathHeadlines  = "/api/v2/headlines"
)

// q builds a search body with the contract key and the given extra members
// (JSON text without braces).
func q(members string) string {
	if members == "" {
		return `{"api_key":"{{key}}","query":"million"}`
	}
	return `{"api_key":"{{key}}","query":"million",` + members + `}`
}

// gr builds a get-results body for the job captured as name.
func gr(name, members string) string {
	b := `{"api_key":"{{key}}","query_id":"{{id:` + name + `}}"`
	if members != "" {
		b += "," + members
	}
	return b + "}"
}

func fault(v string) map[string]string { return map[string]string{mockserver.FaultHeader: v} }

// rawCases is the response table: good and bad requests of every kind, in
// the order they must run (later cases use jobs earlier ones made).
func rawCases() []rawCase {
	post := http.MethodPost
	cases := []rawCase{
		// Successful searches.
		{name: "query minimal", method: post, path: pathQuery, body: q(""), status: 200, docValid: true},
		{name: "query every field", method: post, path: pathQuery, status: 200, docValid: true, body: q(
			`"page":1,"sites":["harbor-gazette.com","bbc.co.uk"],"start_date":"2025-03-03T00:00:00.000Z","end_date":"2025-03-10",` +
				`"toggle_state":"All Articles","embeddings":true,"language":"en","traffic_rank":50`)},
		{name: "query RFC 3339 with offset and microseconds", method: post, path: pathQuery, status: 200, docValid: true,
			body: q(`"start_date":"2025-03-03T01:00:00.123456+01:00","end_date":"2025-03-10T12:00:00Z"`)},
		{name: "query encoded articles with embeddings", method: post, path: pathQuery, status: 200, docValid: true,
			body: q(`"toggle_state":"Encoded Articles","embeddings":true`)},
		{name: "query page past the end", method: post, path: pathQuery, body: q(`"page":100000`), status: 200, docValid: true},
		{name: "query language by English name", method: post, path: pathQuery, body: q(`"language":"Spanish"`), status: 200, docValid: true},
		// The service reads a body without Content-Type as JSON; an OpenAPI
		// request body needs a media type, so the document rejects it.
		{name: "query missing Content-Type", method: post, path: pathQuery, body: q(""), header: map[string]string{"Content-Type": ""},
			status: 200, docValid: false},

		// What the vendor's Python SDK (athenanewsapi 0.1.x) sends, from
		// service-facts.md: it cannot be installed here (PyPI is not
		// reachable), so its bodies are written out. Sync search with no
		// sites, no language and dates with microseconds; lower-case t and z
		// (RFC 3339 allows them); an unknown member.
		{name: "vendor SDK query", method: post, path: pathQuery, status: 200, docValid: true, body: q(
			`"page":1,"sites":null,"language":"","start_date":"2025-03-03T00:00:00.123456Z","end_date":"2025-03-10T23:59:59.999999Z",` +
				`"toggle_state":"All Articles","embeddings":false,"traffic_rank":0`)},
		{name: "vendor-shaped dates in lower case", method: post, path: pathQuery, status: 200, docValid: true,
			body: q(`"start_date":"2025-03-03t00:00:00.5z","end_date":"2025-03-10t12:00:00+00:00"`)},
		{name: "unknown member", method: post, path: pathQuery, status: 200, docValid: true, body: q(`"client":"athenanews/0.1.4"`)},
		// query-async with an empty key_phrases and no page; get-results with
		// toggle_state on every page fetch.
		{name: "vendor SDK query-async", method: post, path: pathQueryAsync, status: 200, docValid: true, capture: "vendor", body: q(
			`"sites":null,"language":"","key_phrases":"","sort_order":"Relevance","toggle_state":"All Articles","embeddings":false,` +
				`"start_date":"2025-03-03T00:00:00.000000Z","end_date":"2025-03-09T23:59:59.999999Z"`)},
		{name: "vendor SDK get-results pending", method: post, path: pathGetResults, status: 200, docValid: true,
			body: gr("vendor", `"page":1,"toggle_state":"All Articles"`)},
		{name: "vendor SDK get-results done", method: post, path: pathGetResults, status: 200, docValid: true,
			body: gr("vendor", `"page":1,"toggle_state":"All Articles"`)},
		{name: "vendor SDK headlines with an unknown member", method: post, path: pathHeadlines, status: 200, docValid: true,
			body: `{"api_key":"{{key}}","client":"athenanews/0.1.4"}`},

		// Jobs.
		{name: "query-async minimal", method: post, path: pathQueryAsync, body: q(""), status: 200, docValid: true, capture: "job"},
		{name: "query-async key phrases and date order", method: post, path: pathQueryAsync, status: 200, docValid: true, capture: "sorted",
			body: q(`"key_phrases":"('million' or 'deal') and not 'takeover'","sort_order":"Date Published","embeddings":true`)},
		{name: "query-async job=fail fault", method: post, path: pathQueryAsync, body: q(""), header: fault("job=fail"),
			status: 200, docValid: true, capture: "failing"},
		{name: "query-async with the other key", method: post, path: pathQueryAsync, status: 200, docValid: true, capture: "others",
			body: `{"api_key":"{{other}}","query":"million"}`},
		{name: "get-results pending", method: post, path: pathGetResults, body: gr("job", ""), status: 200, docValid: true},
		{name: "get-results done", method: post, path: pathGetResults, body: gr("job", ""), status: 200, docValid: true},
		{name: "get-results page 2", method: post, path: pathGetResults, body: gr("job", `"page":2`), status: 200, docValid: true},
		{name: "get-results page past the end", method: post, path: pathGetResults, body: gr("job", `"page":100000`), status: 200, docValid: true},
		{name: "get-results sorted pending", method: post, path: pathGetResults, body: gr("sorted", ""), status: 200, docValid: true},
		{name: "get-results sorted done with embeddings", method: post, path: pathGetResults, body: gr("sorted", ""), status: 200, docValid: true},
		{name: "get-results failing job pending", method: post, path: pathGetResults, body: gr("failing", ""), status: 200, docValid: true},
		{name: "get-results failed job", method: post, path: pathGetResults, body: gr("failing", ""), status: 200, docValid: true},
		{name: "get-results unknown id", method: post, path: pathGetResults, status: 404, docValid: true,
			body: `{"api_key":"{{key}}","query_id":"0123456789abcdef0123456789abcdef"}`},
		{name: "get-results job of another key", method: post, path: pathGetResults, body: gr("others", ""), status: 404, docValid: true},
		{name: "headlines", method: post, path: pathHeadlines, body: `{"api_key":"{{key}}"}`, status: 200, docValid: true},

		// 400: bad input the document recognises.
		{name: "malformed JSON", method: post, path: pathQuery, body: `{"api_key":"{{key}}","query":`, status: 400},
		{name: "empty body", method: post, path: pathQuery, body: ``, status: 400},
		{name: "body not an object", method: post, path: pathQuery, body: `["million"]`, status: 400},
		{name: "query missing", method: post, path: pathQuery, body: `{"api_key":"{{key}}"}`, status: 400},
		{name: "query blank", method: post, path: pathQueryAsync, body: `{"api_key":"{{key}}","query":"  "}`, status: 400},
		{name: "query not a string", method: post, path: pathQuery, body: `{"api_key":"{{key}}","query":42}`, status: 400},
		{name: "page 0", method: post, path: pathQuery, body: q(`"page":0`), status: 400},
		{name: "page negative", method: post, path: pathQueryAsync, body: q(`"page":-1`), status: 400},
		{name: "page a string", method: post, path: pathQuery, body: q(`"page":"2"`), status: 400},
		{name: "page a fraction", method: post, path: pathQuery, body: q(`"page":1.5`), status: 400},
		{name: "sites not an array", method: post, path: pathQuery, body: q(`"sites":"bbc.co.uk"`), status: 400},
		{name: "sites with a blank", method: post, path: pathQuery, body: q(`"sites":[" "]`), status: 400},
		{name: "start_date not a date", method: post, path: pathQuery, body: q(`"start_date":"yesterday"`), status: 400},
		{name: "end_date impossible", method: post, path: pathQuery, body: q(`"end_date":"2025-13-45"`), status: 400},
		{name: "toggle_state unknown", method: post, path: pathQuery, body: q(`"toggle_state":"Some Articles"`), status: 400},
		{name: "sort_order unknown", method: post, path: pathQueryAsync, body: q(`"sort_order":"Oldest"`), status: 400},
		{name: "traffic_rank above 100", method: post, path: pathQuery, body: q(`"traffic_rank":101`), status: 400},
		{name: "traffic_rank negative", method: post, path: pathQueryAsync, body: q(`"traffic_rank":-1`), status: 400},
		{name: "traffic_rank a string", method: post, path: pathQuery, body: q(`"traffic_rank":"95"`), status: 400},
		{name: "embeddings not a boolean", method: post, path: pathQuery, body: q(`"embeddings":"yes"`), status: 400},
		{name: "api_key not a string", method: post, path: pathHeadlines, body: `{"api_key":42}`, status: 400},
		{name: "get-results query_id missing", method: post, path: pathGetResults, body: `{"api_key":"{{key}}"}`, status: 400},
		{name: "get-results query_id empty", method: post, path: pathGetResults, body: `{"api_key":"{{key}}","query_id":""}`, status: 400},
		{name: "get-results page 0", method: post, path: pathGetResults, body: gr("job", `"page":0`), status: 400},

		// 400: bad input only the service can recognise. The request schemas
		// are open to unknown members (the vendor's SDK sends some), so the
		// asynchronous endpoint's fields on the sync endpoint validate.
		{name: "key_phrases on the sync endpoint", method: post, path: pathQuery, body: q(`"key_phrases":"('musk')"`), status: 400, docValid: true},
		{name: "sort_order on the sync endpoint", method: post, path: pathQuery, body: q(`"sort_order":"Relevance"`), status: 400, docValid: true},
		{name: "start_date after end_date", method: post, path: pathQuery, status: 400, docValid: true,
			body: q(`"start_date":"2025-03-09","end_date":"2025-03-01"`)},
		{name: "language unsupported", method: post, path: pathQuery, body: q(`"language":"xx"`), status: 400, docValid: true},
		{name: "key_phrases syntax error", method: post, path: pathQueryAsync, body: q(`"key_phrases":"('elon' or"`), status: 400, docValid: true},
		{name: "fault header unparsable", method: post, path: pathQuery, body: q(""), header: fault("status=abc"), status: 400, docValid: true},

		// 401.
		{name: "api_key missing", method: post, path: pathQuery, body: `{"query":"million"}`, status: 401},
		{name: "api_key empty", method: post, path: pathHeadlines, body: `{"api_key":""}`, status: 401},
		{name: "api_key blank", method: post, path: pathGetResults, body: `{"api_key":"  ","query_id":"abc"}`, status: 401},
		{name: "api_key unknown", method: post, path: pathQueryAsync, body: `{"api_key":"nobody","query":"million"}`, status: 401, docValid: true},

		// 429.
		{name: "rate limit first call", server: "limited", method: post, path: pathHeadlines, body: `{"api_key":"{{key}}"}`, status: 200, docValid: true},
		{name: "rate limit exceeded", server: "limited", method: post, path: pathHeadlines, body: `{"api_key":"{{key}}"}`, status: 429, docValid: true},
		{name: "429 fault", method: post, path: pathQuery, body: q(""), header: fault("status=429;retry-after=7"), status: 429, docValid: true},
		{name: "429 fault query-async", method: post, path: pathQueryAsync, body: q(""), header: fault("status=429"), status: 429, docValid: true},
		{name: "429 fault get-results", method: post, path: pathGetResults, body: gr("job", ""), header: fault("status=429"), status: 429, docValid: true},

		// 5xx faults.
		{name: "500 fault", method: post, path: pathQuery, body: q(""), header: fault("status=500"), status: 500, docValid: true},
		{name: "502 fault", method: post, path: pathQuery, body: q(""), header: fault("status=502"), status: 502, docValid: true},
		{name: "503 fault query", method: post, path: pathQuery, body: q(""), header: fault("status=503"), status: 503, docValid: true},
		{name: "503 fault query-async", method: post, path: pathQueryAsync, body: q(""), header: fault("status=503"), status: 503, docValid: true},
		{name: "503 fault get-results", method: post, path: pathGetResults, body: gr("job", ""), header: fault("status=503"), status: 503, docValid: true},
		{name: "503 fault headlines", method: post, path: pathHeadlines, body: `{"api_key":"{{key}}"}`, header: fault("status=503"), status: 503, docValid: true},
		{name: "504 fault", method: post, path: pathHeadlines, body: `{"api_key":"{{key}}"}`, header: fault("status=504"), status: 504, docValid: true},
	}
	// 405 and 413 on every API path. The oversized body is valid JSON the
	// document accepts: its limit is on bytes, which a schema cannot state.
	big := `{"api_key":"{{key}}","query":"` + strings.Repeat("million ", mockserver.MaxBodyBytes/8+1) + `"}`
	for _, path := range []string{pathQuery, pathQueryAsync, pathGetResults, pathHeadlines} {
		for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
			cases = append(cases, rawCase{name: m + " " + path, method: m, path: path, status: 405})
		}
		body := big
		if path == pathGetResults {
			body = strings.Replace(big, `"query"`, `"query_id"`, 1)
		} else if path == pathHeadlines {
			body = strings.Replace(big, `"api_key":"{{key}}","query"`, `"api_key"`, 1)
		}
		cases = append(cases, rawCase{name: "body over 1 MiB " + path, method: post, path: path, body: body, status: 413, docValid: true})
	}
	// The mock's own endpoints, last: reset forgets the jobs.
	cases = append(cases,
		rawCase{name: "mock health", method: http.MethodGet, path: "/_mock/health", status: 200, docValid: true},
		rawCase{name: "mock journal", method: http.MethodGet, path: "/_mock/journal", status: 200, docValid: true},
		rawCase{name: "mock journal cleared", method: http.MethodDelete, path: "/_mock/journal", status: 200, docValid: true},
		rawCase{name: "mock journal wrong method", method: http.MethodPut, path: "/_mock/journal", status: 405},
		rawCase{name: "mock health wrong method", method: post, path: "/_mock/health", status: 405},
		rawCase{name: "mock reset wrong method", method: http.MethodGet, path: "/_mock/reset", status: 405},
	)
	cases = append(cases, controlCases()...)
	cases = append(cases, assertCases()...)
	cases = append(cases, worldCases()...)
	return append(cases,
		rawCase{name: "mock reset", method: post, path: "/_mock/reset", status: 200, docValid: true},
		rawCase{name: "mock record", method: http.MethodGet, path: "/_mock/record", status: 200, docValid: true},
		rawCase{name: "mock record wrong method", method: post, path: "/_mock/record", status: 405},
	)
}

// controlCases cover the control endpoints (issue 10). Fault rules set
// here never fire on the cases before them, and are cleared at the end.
func controlCases() []rawCase {
	put, del, get := http.MethodPut, http.MethodDelete, http.MethodGet
	post := http.MethodPost
	bigRule := `{"rules": ["` + strings.Repeat("a", mockserver.MaxBodyBytes) + `"]}`
	cases := []rawCase{
		{name: "faults list", method: get, path: "/_mock/faults", status: 200, docValid: true},
		{name: "faults replace", method: put, path: "/_mock/faults", status: 200, docValid: true,
			body: `{"rules": [{"endpoint": "headlines", "every": 1000000, "times": 1, "fault": {"status": 503, "retry_after": 2}}, "endpoint=query;every=1000000;latency=1ms"]}`},
		{name: "faults replace messy items", method: put, path: "/_mock/faults", status: 200, docValid: true,
			body: `{"rules": [{"endpoint": "query", "every": 1000000, "fault": {"latency": "1ms..2ms", "dribble": "1ms", "window": "day", "empty_page": 2, "overlap": 3, "arrivals": 1}}, "endpoint=query-async;every=1000000;window=5s"]}`},
		{name: "faults replace bare array", method: put, path: "/_mock/faults", status: 200, docValid: true,
			body: `[{"endpoint": "get-results", "probability": 0.000001, "fault": "truncate"}]`},
		{name: "faults replace bad status", method: put, path: "/_mock/faults", status: 400, body: `{"rules": [{"fault": {"status": "x"}}]}`},
		{name: "faults replace bad rule", method: put, path: "/_mock/faults", status: 400, docValid: true,
			body: `{"rules": [{"endpoint": "nowhere", "fault": {"status": 503}}]}`},
		{name: "faults replace over 1 MiB", method: put, path: "/_mock/faults", status: 413, docValid: true, body: bigRule},
		{name: "faults add", method: post, path: "/_mock/faults", status: 200, docValid: true,
			body: `{"endpoint": "query-async", "every": 1000000, "fault": {"job": "stuck"}}`},
		{name: "faults add text", method: post, path: "/_mock/faults", status: 200, docValid: true,
			body: `"endpoint=headlines;every=1000000;drop"`},
		{name: "faults add bad", method: post, path: "/_mock/faults", status: 400, body: `{"fault": {"status": 200}}`},
		{name: "faults add over 1 MiB", method: post, path: "/_mock/faults", status: 413, docValid: true,
			body: `"` + strings.Repeat("a", mockserver.MaxBodyBytes) + `"`},
		{name: "faults wrong method", method: http.MethodPatch, path: "/_mock/faults", status: 405},
		{name: "fault remove stale text", method: del, path: "/_mock/faults/0?text=status%3D418", status: 409, docValid: true},
		{name: "fault remove", method: del, path: "/_mock/faults/2", status: 200, docValid: true},
		{name: "fault remove unknown", method: del, path: "/_mock/faults/99", status: 404, docValid: true},
		{name: "fault remove huge index", method: del, path: "/_mock/faults/99999999999999999999", status: 404, docValid: true},
		{name: "fault remove bad index", method: del, path: "/_mock/faults/first", status: 400},
		{name: "fault remove wrong method", method: get, path: "/_mock/faults/0", status: 405},
		{name: "faults clear", method: del, path: "/_mock/faults", status: 200, docValid: true},
		{name: "jobs list", method: get, path: "/_mock/jobs", status: 200, docValid: true},
		{name: "jobs wrong method", method: post, path: "/_mock/jobs", status: 405},
		{name: "job get", method: get, path: "/_mock/jobs/{{id:job}}", status: 200, docValid: true},
		{name: "job get unknown", method: get, path: "/_mock/jobs/nope", status: 404, docValid: true},
		{name: "job force", method: post, path: "/_mock/jobs/{{id:job}}", status: 200, docValid: true,
			body: `{"state": "FAILED", "message": "upstream timeout"}`},
		{name: "job force bad state", method: post, path: "/_mock/jobs/{{id:job}}", status: 400, body: `{"state": "DONE"}`},
		{name: "job force message without FAILED", method: post, path: "/_mock/jobs/{{id:job}}", status: 400, docValid: true,
			body: `{"state": "SUCCESS", "message": "x"}`},
		{name: "job force unknown", method: post, path: "/_mock/jobs/nope", status: 404, docValid: true, body: `{"state": "SUCCESS"}`},
		{name: "job force over 1 MiB", method: post, path: "/_mock/jobs/{{id:job}}", status: 413, docValid: true,
			body: `{"state": "FAILED", "message": "` + strings.Repeat("a", mockserver.MaxBodyBytes) + `"}`},
		{name: "job wrong method", method: put, path: "/_mock/jobs/{{id:job}}", status: 405},
		{name: "job expire", method: del, path: "/_mock/jobs/{{id:job}}", status: 200, docValid: true},
		{name: "job expire again", method: del, path: "/_mock/jobs/{{id:job}}", status: 404, docValid: true},
		{name: "clock read", method: get, path: "/_mock/clock", status: 200, docValid: true},
		{name: "clock real cannot move", method: post, path: "/_mock/clock", status: 409, docValid: true, body: `{"advance": "2h"}`},
		{name: "clock wrong method", method: del, path: "/_mock/clock", status: 405},
		{name: "manual clock read", server: "manual", method: get, path: "/_mock/clock", status: 200, docValid: true},
		{name: "manual clock advance", server: "manual", method: post, path: "/_mock/clock", status: 200, docValid: true, body: `{"advance": "2h"}`},
		{name: "manual clock set", server: "manual", method: post, path: "/_mock/clock", status: 200, docValid: true,
			body: `{"set": "2026-01-15T12:00:00Z"}`},
		{name: "manual clock both", server: "manual", method: post, path: "/_mock/clock", status: 400,
			body: `{"advance": "2h", "set": "2026-01-15T12:00:00Z"}`},
		{name: "manual clock bad duration", server: "manual", method: post, path: "/_mock/clock", status: 400, docValid: true, body: `{"advance": "soon"}`},
		{name: "manual clock set out of range", server: "manual", method: post, path: "/_mock/clock", status: 400, docValid: true,
			body: `{"set": "9999-12-31T23:59:59Z"}`},
		{name: "manual clock read after", server: "manual", method: get, path: "/_mock/clock", status: 200, docValid: true},
		{name: "manual clock over 1 MiB", server: "manual", method: post, path: "/_mock/clock", status: 413, docValid: true,
			body: `{"advance": "` + strings.Repeat("1", mockserver.MaxBodyBytes) + `h"}`},
		{name: "articles count", method: get, path: "/_mock/articles", status: 200, docValid: true},
		{name: "articles add array", method: post, path: "/_mock/articles", status: 200, docValid: true,
			body: `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b2c", "title": "Harbour bridge reopens", "url": "https://example.org/news/1", "site": "example.org", "datePublished": "2026-01-15 09:30:00"}]`},
		{name: "articles add JSON Lines", method: post, path: "/_mock/articles", status: 200, docValid: true,
			header: map[string]string{"Content-Type": "application/x-ndjson"},
			body:   `{"_id": "6a1c0a9e3b2d4c6e8f7a1b2d", "title": "Harbour bridge", "url": "https://example.org/news/2", "site": "example.org", "datePublished": "2026-01-15"}` + "\n"},
		{name: "articles add an id the corpus has", method: post, path: "/_mock/articles", status: 400, docValid: true,
			body: `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b2c", "title": "Again", "url": "https://example.org/news/3", "site": "example.org", "datePublished": "2026-01-15"}]`},
		{name: "articles add without a title", method: post, path: "/_mock/articles", status: 400,
			body: `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b2e", "url": "https://example.org/news/4", "site": "example.org", "datePublished": "2026-01-15"}]`},
		{name: "articles add too big", server: "small", method: post, path: "/_mock/articles", status: 413, docValid: true,
			body: `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b2f", "title": "` + strings.Repeat("a", 2048) + `", "url": "https://example.org/news/5", "site": "example.org", "datePublished": "2026-01-15"}]`},
		{name: "articles replace", server: "small", method: put, path: "/_mock/articles", status: 200, docValid: true,
			body: `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b31", "title": "Harbour bridge", "url": "https://example.org/news/6", "site": "example.org", "datePublished": "2026-01-15"}]`},
		{name: "articles replace too big", server: "small", method: put, path: "/_mock/articles", status: 413, docValid: true,
			body: `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b32", "title": "` + strings.Repeat("a", 2048) + `", "url": "https://example.org/news/7", "site": "example.org", "datePublished": "2026-01-15"}]`},
		{name: "articles wrong method", method: "PATCH", path: "/_mock/articles", status: 405},
		{name: "articles reset", method: del, path: "/_mock/articles", status: 200, docValid: true},
		{name: "journal filtered", method: get, path: "/_mock/journal?path=query-async&status=200&since=1&limit=2", status: 200, docValid: true},
		{name: "journal count", method: get, path: "/_mock/journal?count=true&path=/api/v2/query", status: 200, docValid: true},
		// Beyond int64 the document's validator refuses the integer; the mock takes it as above every seq.
		{name: "journal huge since", method: get, path: "/_mock/journal?since=99999999999999999999", status: 200},
		{name: "inspector", method: get, path: "/_mock/ui", status: 200, docValid: true},
		{name: "inspector wrong method", method: post, path: "/_mock/ui", status: 405},
		{name: "journal bad status", method: get, path: "/_mock/journal?status=abc", status: 400},
		{name: "journal unknown parameter", method: get, path: "/_mock/journal?paht=query", status: 400, docValid: true},
	}
	return append(cases, guardCases()...)
}

// assertCases cover what a suite asserts with (issue 38), on the "assert"
// server: the settings of a world, the answer shapes they and faults ask
// for, expectations and their verdict, and the journal's body filters and
// wait.
func assertCases() []rawCase {
	get, post, del, patch := http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodPatch
	const (
		topLevel   = "articles,state,totalResults"
		nested     = "results,state"
		bothCounts = "articles,page,query_id,state,totalArticles,totalResults"
		articlesOn = "articles,page,query_id,state,totalArticles"
		resultsOn  = "articles,page,query_id,state,totalResults"
	)
	big := strings.Repeat("a", mockserver.MaxBodyBytes)
	return []rawCase{
		// Settings.
		{name: "settings read", server: "assert", method: get, path: "/_mock/settings", status: 200, docValid: true,
			want: `{"settings": {"pending_polls": 1, "pending": "0s", "rate_limit": 0, "burst": 0, "job_ttl": "1h0m0s", "max_jobs": 10000, "shape": {}}}`},
		{name: "settings patch every field", server: "assert", method: patch, path: "/_mock/settings", status: 200, docValid: true,
			body: `{"pending_polls": 2, "pending": "10s", "rate_limit": 1000, "burst": 1000, "job_ttl": "2h", "max_jobs": 50, "shape": {"results": "top-level", "totals": "totalArticles"}}`,
			want: `{"settings": {"pending_polls": 2, "pending": "10s", "rate_limit": 1000, "burst": 1000, "job_ttl": "2h0m0s", "max_jobs": 50, "shape": {"results": "top-level", "totals": "totalArticles"}}}`},
		{name: "settings patch bad duration", server: "assert", method: patch, path: "/_mock/settings", status: 400, docValid: true, body: `{"pending": "soon"}`},
		{name: "settings patch unknown field", server: "assert", method: patch, path: "/_mock/settings", status: 400, body: `{"pendng": "1s"}`},
		{name: "settings patch unknown shape", server: "assert", method: patch, path: "/_mock/settings", status: 400, body: `{"shape": {"results": "flat"}}`},
		{name: "settings patch max_jobs 0", server: "assert", method: patch, path: "/_mock/settings", status: 400, body: `{"max_jobs": 0}`},
		{name: "settings patch not an object", server: "assert", method: patch, path: "/_mock/settings", status: 400, body: `[]`},
		{name: "settings patch over 1 MiB", server: "assert", method: patch, path: "/_mock/settings", status: 413, docValid: true, body: `{"job_ttl": "` + big + `"}`},
		{name: "settings reset", server: "assert", method: del, path: "/_mock/settings", status: 200, docValid: true,
			want: `{"settings": {"pending_polls": 1, "pending": "0s", "job_ttl": "1h0m0s", "max_jobs": 10000, "shape": {}}}`},
		{name: "settings patch no rate with a burst", server: "assert", method: patch, path: "/_mock/settings", status: 400, docValid: true, body: `{"burst": 3}`},
		{name: "settings wrong method", server: "assert", method: http.MethodPut, path: "/_mock/settings", status: 405},

		// The answer shapes, each validated as an answer of its operation.
		{name: "shape: the usual query answer", server: "assert", method: post, path: pathQuery, body: q(""), status: 200, docValid: true, members: nested},
		{name: "shape: world top-level", server: "assert", method: patch, path: "/_mock/settings", status: 200, docValid: true,
			body: `{"shape": {"results": "top-level", "totals": "totalArticles"}}`},
		{name: "shape: top-level query", server: "assert", method: post, path: pathQuery, body: q(""), status: 200, docValid: true, members: topLevel},
		{name: "shape: top-level query past the end", server: "assert", method: post, path: pathQuery, body: q(`"page":100000`), status: 200, docValid: true, members: topLevel},
		{name: "shape: query-async", server: "assert", method: post, path: pathQueryAsync, body: q(""), status: 200, docValid: true, capture: "shaped"},
		{name: "shape: get-results pending", server: "assert", method: post, path: pathGetResults, body: gr("shaped", ""), status: 200, docValid: true,
			members: "query_id,state"},
		{name: "shape: get-results with totalArticles alone", server: "assert", method: post, path: pathGetResults, body: gr("shaped", ""), status: 200, docValid: true,
			members: articlesOn},
		{name: "shape: world totalResults alone", server: "assert", method: patch, path: "/_mock/settings", status: 200, docValid: true,
			body: `{"shape": {"totals": "totalResults"}}`, want: `{"settings": {"shape": {"results": "top-level", "totals": "totalResults"}}}`},
		{name: "shape: get-results with totalResults alone", server: "assert", method: post, path: pathGetResults, body: gr("shaped", `"page":2`), status: 200, docValid: true,
			members: resultsOn},
		{name: "shape: a fault overrides the world", server: "assert", method: post, path: pathQuery, body: q(""), status: 200, docValid: true,
			header: fault("results=nested;totals=both"), members: nested},
		{name: "shape: world back to the usual", server: "assert", method: del, path: "/_mock/settings", status: 200, docValid: true},
		{name: "shape: header top-level", server: "assert", method: post, path: pathQuery, body: q(""), status: 200, docValid: true,
			header: fault("results=top-level"), members: topLevel},
		{name: "shape: header totalArticles", server: "assert", method: post, path: pathGetResults, body: gr("shaped", ""), status: 200, docValid: true,
			header: fault("totals=totalArticles"), members: articlesOn},
		{name: "shape: header unknown shape", server: "assert", method: post, path: pathQuery, body: q(""), status: 400, docValid: true,
			header: fault("results=flat")},
		{name: "shape: optional rule", server: "assert", method: post, path: "/_mock/faults", status: 200, docValid: true,
			body: `{"endpoint": "get-results", "optional": true, "fault": {"totals": "totalResults"}}`},
		{name: "shape: rule in -fault syntax", server: "assert", method: post, path: "/_mock/faults", status: 200, docValid: true,
			body: `"endpoint=query;results=top-level;optional"`},
		{name: "shape: rule unknown shape", server: "assert", method: post, path: "/_mock/faults", status: 400,
			body: `{"fault": {"totals": "some"}}`},
		{name: "shape: rule totalResults", server: "assert", method: post, path: pathGetResults, body: gr("shaped", ""), status: 200, docValid: true,
			members: resultsOn},
		{name: "shape: rule top-level", server: "assert", method: post, path: pathQuery, body: q(""), status: 200, docValid: true, members: topLevel},
		{name: "shape: rules listed", server: "assert", method: get, path: "/_mock/faults", status: 200, docValid: true},
		{name: "shape: rules cleared", server: "assert", method: del, path: "/_mock/faults", status: 200, docValid: true},
		{name: "shape: get-results as usual", server: "assert", method: post, path: pathGetResults, body: gr("shaped", ""), status: 200, docValid: true,
			members: bothCounts},

		// The journal: body filters and a bounded wait.
		{name: "journal body filter", server: "assert", method: get, path: "/_mock/journal?path=query&body.query=million", status: 200, docValid: true},
		{name: "journal body filter on a number", server: "assert", method: get, path: "/_mock/journal?body.page=2&count=true", status: 200, docValid: true,
			want: `{"count": 1}`},
		{name: "journal wait met", server: "assert", method: get, path: "/_mock/journal?path=query&wait=1m&min=2", status: 200, docValid: true,
			want: `{"met": true}`},
		{name: "journal wait not met", server: "assert", method: get, path: "/_mock/journal?body.query=nothing&wait=1ms&count=true", status: 200, docValid: true,
			want: `{"met": false, "count": 0}`},
		{name: "journal min without wait", server: "assert", method: get, path: "/_mock/journal?min=2", status: 400, docValid: true},
		{name: "journal wait too long", server: "assert", method: get, path: "/_mock/journal?wait=2m", status: 400, docValid: true},
		{name: "journal wait not a duration", server: "assert", method: get, path: "/_mock/journal?wait=soon", status: 400},
		{name: "journal min 0", server: "assert", method: get, path: "/_mock/journal?wait=1s&min=0", status: 400},

		// Expectations and their verdict.
		{name: "expectations none", server: "assert", method: get, path: "/_mock/expectations", status: 200, docValid: true, want: `{"expectations": []}`},
		{name: "verify with nothing expected", server: "assert", method: get, path: "/_mock/verify", status: 200, docValid: true, want: `{"met": true}`},
		{name: "expectations add one", server: "assert", method: post, path: "/_mock/expectations", status: 200, docValid: true,
			body: `{"endpoint": "query", "body": {"query": "million", "page": 2}, "times": 1}`},
		{name: "expectations add an array", server: "assert", method: post, path: "/_mock/expectations", status: 200, docValid: true,
			body: `[{"endpoint": "headlines", "min": 1, "max": 3}, {"endpoint": "get-results", "times": 0}]`},
		{name: "expectations times with min", server: "assert", method: post, path: "/_mock/expectations", status: 400, docValid: true,
			body: `{"endpoint": "query", "times": 1, "min": 1}`},
		{name: "expectations unknown endpoint", server: "assert", method: post, path: "/_mock/expectations", status: 400, docValid: true,
			body: `{"endpoint": "search"}`},
		{name: "expectations unknown field", server: "assert", method: post, path: "/_mock/expectations", status: 400,
			body: `[{"endpoint": "query"}, {"path": "query"}]`},
		{name: "expectations empty body", server: "assert", method: post, path: "/_mock/expectations", status: 400},
		{name: "expectations over 1 MiB", server: "assert", method: post, path: "/_mock/expectations", status: 413, docValid: true,
			body: `{"endpoint": "` + big + `"}`},
		{name: "expectations wrong method", server: "assert", method: http.MethodPut, path: "/_mock/expectations", status: 405},
		{name: "expected query, off by a page", server: "assert", method: post, path: pathQuery, body: q(`"page":3`), status: 200, docValid: true},
		{name: "verify unmet, with the closest and the unexpected", server: "assert", method: get, path: "/_mock/verify", status: 200, docValid: true,
			want: `{"met": false, "unexpected_count": 1}`},
		{name: "expected query", server: "assert", method: post, path: pathQuery, body: q(`"page":2`), status: 200, docValid: true},
		{name: "expected headlines", server: "assert", method: post, path: pathHeadlines, body: `{"api_key":"{{key}}"}`, status: 200, docValid: true},
		{name: "expectations counted", server: "assert", method: get, path: "/_mock/expectations", status: 200, docValid: true},
		{name: "unfired rule", server: "assert", method: post, path: "/_mock/faults", status: 200, docValid: true,
			body: `"endpoint=headlines;every=1000000;status=503"`},
		{name: "verify unmet, an unfired rule", server: "assert", method: get, path: "/_mock/verify", status: 200, docValid: true,
			want: `{"met": false, "unexpected_count": 1}`},
		{name: "verify wrong method", server: "assert", method: post, path: "/_mock/verify", status: 405},
		{name: "expectations cleared", server: "assert", method: del, path: "/_mock/expectations", status: 200, docValid: true, want: `{"expectations": []}`},
		{name: "unfired rule cleared", server: "assert", method: del, path: "/_mock/faults", status: 200, docValid: true},
		{name: "verify met", server: "assert", method: get, path: "/_mock/verify", status: 200, docValid: true,
			want: `{"met": true, "unmet": [], "unfired_faults": [], "unexpected": [], "unexpected_count": 0}`},
	}
}

// worldCases cover /_mock/worlds and the headers that point a control call
// at a world (issue 29), on the "worlds" server, which accepts the two keys
// and holds at most one world besides the default one; and a world per key
// on the "perkey" server.
func worldCases() []rawCase {
	get, post, del := http.MethodGet, http.MethodPost, http.MethodDelete
	key := map[string]string{mockserver.KeyHeader: "{{key}}"}
	other := map[string]string{mockserver.KeyHeader: "{{other}}"}
	byID := map[string]string{"X-Newsmock-World": "{{fp:key}}"}
	cases := []rawCase{
		{name: "worlds list, the default alone", server: "worlds", method: get, path: "/_mock/worlds", status: 200, docValid: true},
		{name: "world create without the key header", server: "worlds", method: post, path: "/_mock/worlds", status: 400},
		{name: "world create for a key the server refuses", server: "worlds", method: post, path: "/_mock/worlds", status: 400, docValid: true,
			header: map[string]string{mockserver.KeyHeader: "nobody"}},
		{name: "world create", server: "worlds", method: post, path: "/_mock/worlds", status: 200, docValid: true, header: key},
		{name: "world create again", server: "worlds", method: post, path: "/_mock/worlds", status: 200, docValid: true, header: key},
		{name: "query-async in a world", server: "worlds", method: post, path: pathQueryAsync, body: q(""), status: 200, docValid: true, capture: "world"},
		{name: "get-results of a job of another world", server: "worlds", method: post, path: pathGetResults, status: 404, docValid: true,
			body: `{"api_key":"{{other}}","query_id":"{{id:world}}"}`},
		{name: "journal of a world by key", server: "worlds", method: get, path: "/_mock/journal", status: 200, docValid: true, header: key},
		{name: "journal of a world by id", server: "worlds", method: get, path: "/_mock/journal", status: 200, docValid: true, header: byID},
		{name: "jobs of a world", server: "worlds", method: get, path: "/_mock/jobs", status: 200, docValid: true, header: key},
		{name: "job of a world", server: "worlds", method: get, path: "/_mock/jobs/{{id:world}}", status: 200, docValid: true, header: key},
		{name: "job of a world from the default world", server: "worlds", method: get, path: "/_mock/jobs/{{id:world}}", status: 404, docValid: true},
		{name: "journal named by key and by id", server: "worlds", method: get, path: "/_mock/journal", status: 400, docValid: true,
			header: map[string]string{mockserver.KeyHeader: "{{key}}", "X-Newsmock-World": "{{fp:key}}"}},
		{name: "journal of an unknown world id", server: "worlds", method: get, path: "/_mock/journal", status: 404, docValid: true,
			header: map[string]string{"X-Newsmock-World": "sha256:0000000000000000"}},
		{name: "health counts the worlds", server: "worlds", method: get, path: "/_mock/health", status: 200, docValid: true},
		{name: "worlds list, two", server: "worlds", method: get, path: "/_mock/worlds", status: 200, docValid: true},
		{name: "world create past max_worlds", server: "worlds", method: post, path: "/_mock/worlds", status: 200, docValid: true, header: other},
		{name: "worlds list after an eviction", server: "worlds", method: get, path: "/_mock/worlds", status: 200, docValid: true},
		{name: "world drop the default", server: "worlds", method: del, path: "/_mock/worlds/default", status: 400, docValid: true},
		{name: "world drop an unknown id", server: "worlds", method: del, path: "/_mock/worlds/sha256:0000000000000000", status: 404, docValid: true},
		{name: "world drop by id", server: "worlds", method: del, path: "/_mock/worlds/{{fp:other}}", status: 200, docValid: true},
		{name: "world drop by key, evicted", server: "worlds", method: del, path: "/_mock/worlds", status: 404, docValid: true, header: key},
		{name: "world create once more", server: "worlds", method: post, path: "/_mock/worlds", status: 200, docValid: true, header: key},
		{name: "world drop by key", server: "worlds", method: del, path: "/_mock/worlds", status: 200, docValid: true, header: key},
		{name: "world create for drop all", server: "worlds", method: post, path: "/_mock/worlds", status: 200, docValid: true, header: other},
		{name: "worlds drop all", server: "worlds", method: del, path: "/_mock/worlds", status: 200, docValid: true},
		{name: "worlds wrong method", server: "worlds", method: http.MethodPut, path: "/_mock/worlds", status: 405},
		{name: "world wrong method", server: "worlds", method: get, path: "/_mock/worlds/default", status: 405},

		// A world per key: the first request of a key makes its world, and
		// so does a control call with its header.
		{name: "per key: clock of a new world", server: "perkey", method: post, path: "/_mock/clock", status: 200, docValid: true,
			header: key, body: `{"advance": "2h"}`},
		{name: "per key: query in the key's world", server: "perkey", method: post, path: pathQuery, body: q(""), status: 200, docValid: true},
		{name: "per key: journal of the key's world", server: "perkey", method: get, path: "/_mock/journal", status: 200, docValid: true, header: key},
		{name: "per key: worlds list", server: "perkey", method: get, path: "/_mock/worlds", status: 200, docValid: true},
		{name: "per key: a first request makes the world", server: "perkey", method: post, path: pathQuery, status: 200, docValid: true,
			body: `{"api_key":"{{other}}","query":"million"}`},
		{name: "per key: journal with new_world", server: "perkey", method: get, path: "/_mock/journal", status: 200, docValid: true, header: other,
			want: `{"entries": [{"new_world": true}]}`},
	}
	// Every control call that acts on a world: 404 for a key without a
	// world (the "worlds" server makes none per key), 400 for a key the
	// server does not accept. The call is refused before it runs, so the
	// ids and bodies need only be valid.
	bodies := map[string]string{
		"PUT /_mock/faults":        `{"rules": []}`,
		"POST /_mock/faults":       `"endpoint=query;every=1000000;status=503"`,
		"POST /_mock/jobs/{id}":    `{"state": "SUCCESS"}`,
		"POST /_mock/clock":        `{"advance": "2h"}`,
		"POST /_mock/articles":     `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b30", "title": "Harbour", "url": "https://example.org/news/9", "site": "example.org", "datePublished": "2026-01-15"}]`,
		"PUT /_mock/articles":      `[{"_id": "6a1c0a9e3b2d4c6e8f7a1b30", "title": "Harbour", "url": "https://example.org/news/9", "site": "example.org", "datePublished": "2026-01-15"}]`,
		"PATCH /_mock/settings":    `{"pending_polls": 2}`,
		"POST /_mock/expectations": `{"endpoint": "query"}`,
	}
	for _, r := range mockserver.Routes() {
		if !strings.HasPrefix(r.Path, "/_mock/") || r.Path == mockserver.UIPath || !worldScoped(r.Path) {
			continue
		}
		path := strings.NewReplacer("{id}", "0123456789abcdef0123456789abcdef", "{index}", "0").Replace(r.Path)
		body := bodies[r.String()]
		cases = append(cases,
			rawCase{name: r.String() + " for a key without a world", server: "worlds", method: r.Method, path: path, body: body,
				status: 404, docValid: true, header: other},
			rawCase{name: r.String() + " for a key the server refuses", server: "worlds", method: r.Method, path: path, body: body,
				status: 400, docValid: true, header: map[string]string{mockserver.KeyHeader: "nobody"}})
	}
	return cases
}

// worldScoped reports whether the control calls of path act on one world
// (the one X-Newsmock-Key names) rather than on the server.
func worldScoped(path string) bool {
	switch path {
	case "/_mock/health", "/_mock/record", "/_mock/worlds", "/_mock/worlds/{id}":
		return false
	}
	return true
}

// guardCases are the refusals every control endpoint answers before it runs:
// a request of another site (403), a Host a web page could rebind (421, on
// a socket only) and a control POST of a type a page can send (415).
func guardCases() []rawCase {
	var cases []rawCase
	for _, r := range mockserver.Routes() {
		if !strings.HasPrefix(r.Path, "/_mock/") || r.Path == mockserver.UIPath {
			continue
		}
		path := strings.NewReplacer("{id}", "0123456789abcdef0123456789abcdef", "{index}", "0").Replace(r.Path)
		cases = append(cases,
			rawCase{name: r.String() + " from another site", method: r.Method, path: path, status: 403, docAny: true,
				header: map[string]string{"Origin": "http://evil.example"}},
			rawCase{name: r.String() + " to a rebound Host", server: "socket", method: r.Method, path: path, status: 421, docAny: true,
				header: map[string]string{"Host": "attacker.example"}})
		if r.Method == http.MethodPost {
			cases = append(cases, rawCase{name: r.String() + " as text/plain", method: r.Method, path: path, status: 415, docAny: true,
				header: map[string]string{"Content-Type": "text/plain"}, body: `{}`})
		}
	}
	return cases
}

// socketMock is a mock listening on a loopback socket.
func socketMock(t *testing.T) *mockserver.Server {
	t.Helper()
	srv, err := mockserver.Start(mockserver.WithSeed(7), mockserver.WithClock(func() time.Time { return contractNow }))
	if err != nil {
		t.Fatalf("mockserver.Start: %v", err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// testMockResponses sends the response table to the mock, validating every
// response against the operation and status it answered, and returns the
// checker.
func testMockResponses(t *testing.T, c *contract) *checker {
	servers := map[string]*mockserver.Server{
		"":        newMock(t, mockserver.WithAPIKeys(contractKey, otherKey)),
		"limited": newMock(t, mockserver.WithRateLimit(1, 1)),
		"manual":  newMock(t, mockserver.WithManualClock(contractNow)),
		"small":   newMock(t, mockserver.WithLimits(mockserver.Limits{MaxArticlesBody: 1024})),
		"socket":  socketMock(t),
		"worlds":  newMock(t, mockserver.WithAPIKeys(contractKey, otherKey), mockserver.WithLimits(mockserver.Limits{MaxWorlds: 1})),
		"perkey":  newMock(t, mockserver.WithWorldPerKey(), mockserver.WithManualClock(contractNow)),
		"assert":  newMock(t, mockserver.WithAPIKeys(contractKey, otherKey)),
	}
	checkers := map[string]*checker{}
	for name, srv := range servers {
		rt := srv.Transport()
		if name == "socket" {
			rt = srv.HTTPClient().Transport // the Host check applies to requests that arrive on a socket
		}
		checkers[name] = newChecker(t, c, rt, false)
	}
	ids := map[string]string{}
	keys := strings.NewReplacer("{{key}}", contractKey, "{{other}}", otherKey,
		"{{fp:key}}", mockserver.KeyFingerprint(contractKey), "{{fp:other}}", mockserver.KeyFingerprint(otherKey))
	for _, rc := range rawCases() {
		body := keys.Replace(rc.body)
		path := keys.Replace(rc.path)
		for name, id := range ids {
			body = strings.ReplaceAll(body, "{{id:"+name+"}}", id)
			path = strings.ReplaceAll(path, "{{id:"+name+"}}", id)
		}
		if strings.Contains(body, "{{") || strings.Contains(path, "{{") {
			t.Fatalf("%s: unresolved placeholder in %s: a case it depends on failed or is missing", rc.name, redact([]byte(body)))
		}
		req, err := http.NewRequest(rc.method, servers[rc.server].URL()+path, bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatalf("%s: %v", rc.name, err)
		}
		if rc.method == http.MethodPost || rc.method == http.MethodPut || rc.method == http.MethodPatch {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range rc.header {
			if k == "Host" {
				req.Host = v
				continue
			}
			if v == "" {
				req.Header.Del(k)
			} else {
				req.Header.Set(k, keys.Replace(v))
			}
		}
		chk := checkers[rc.server]
		resp, err := (&http.Client{Transport: chk}).Do(req)
		if err != nil {
			t.Fatalf("%s: %v", rc.name, err)
		}
		_ = resp.Body.Close()
		x := chk.last(t)
		if x.status != rc.status {
			t.Errorf("%s: the mock answered %d, want %d; body: %s", rc.name, x.status, rc.status, excerpt(x.respBody))
		}
		switch {
		case rc.docAny:
		case rc.docValid && x.reqErrs != nil:
			t.Errorf("%s: openapi.yaml rejects the request, which the service takes as valid input:%s\nbody: %s",
				rc.name, formatErrors(x.reqErrs), redact(x.reqBody))
		case !rc.docValid && x.reqErrs == nil:
			t.Errorf("%s: openapi.yaml accepts the request, which the service rejects with %d; body: %s",
				rc.name, rc.status, redact(x.reqBody))
		}
		checkAnswer(t, rc, x)
		if rc.capture != "" {
			var m struct {
				QueryID string `json:"query_id"`
			}
			if json.Unmarshal(x.respBody, &m) != nil || m.QueryID == "" {
				t.Fatalf("%s: the answer has no query_id: %s", rc.name, excerpt(x.respBody))
			}
			ids[rc.capture] = m.QueryID
		}
		for _, key := range []string{contractKey, otherKey} {
			if bytes.Contains(x.respBody, []byte(key)) || strings.Contains(strings.Join(flattenHeader(x.header), "\n"), key) {
				t.Errorf("%s: the answer contains an API key; no body or header may carry one", rc.name)
			}
		}
	}
	merged := newChecker(t, c, nil, false)
	for _, chk := range checkers {
		merged.exchanges = append(merged.exchanges, chk.all()...)
		rq, rs := chk.counts()
		merged.requests += rq
		merged.responses += rs
	}
	checkResponseCoverage(t, c, merged.all())
	return merged
}

// checkAnswer checks the answer's members against the case's members and
// want.
func checkAnswer(t *testing.T, rc rawCase, x *exchange) {
	t.Helper()
	if rc.members == "" && rc.want == "" {
		return
	}
	got := x.decoded()
	if rc.members != "" {
		if names := strings.Join(slices.Sorted(maps.Keys(got)), ","); names != rc.members {
			t.Errorf("%s: the answer's members are %s, want %s; body: %s", rc.name, names, rc.members, excerpt(x.respBody))
		}
	}
	if rc.want != "" {
		var want map[string]any
		if err := json.Unmarshal([]byte(rc.want), &want); err != nil {
			t.Fatalf("%s: want is not a JSON object: %v", rc.name, err)
		}
		if !contains(got, want) {
			t.Errorf("%s: the answer lacks %s; body: %s", rc.name, rc.want, excerpt(x.respBody))
		}
	}
}

// contains reports whether got has want's values: objects member by
// member, arrays element by element (the same length), others equal.
func contains(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if gv, ok := g[k]; !ok || !contains(gv, v) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !contains(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

// checkResponseCoverage fails for every response the document declares
// that the table never made the mock send, so a status added to the
// document gets a case. GET /openapi.yaml is served by the mock binary,
// not by package mockserver, and is left out.
func checkResponseCoverage(t *testing.T, c *contract, xs []*exchange) {
	t.Helper()
	seen := map[string]bool{}
	for _, x := range xs {
		method, code, path := x.method, strconv.Itoa(x.status), c.templatePath(x.path)
		if x.status >= 500 {
			code = "5XX"
		}
		if x.status == http.StatusMethodNotAllowed { // the answer of every operation of the path
			if item := c.model.Paths.PathItems.GetOrZero(path); item != nil {
				for m := range item.GetOperations().KeysFromOldest() {
					seen[strings.ToUpper(m)+" "+path+" "+code] = true
				}
			}
			continue
		}
		seen[strings.ToUpper(method)+" "+path+" "+code] = true
	}
	for path, item := range c.model.Paths.PathItems.FromOldest() {
		if path == "/openapi.yaml" {
			continue
		}
		for method, op := range item.GetOperations().FromOldest() {
			for code := range op.Responses.Codes.KeysFromOldest() {
				if key := strings.ToUpper(method) + " " + path + " " + code; !seen[key] {
					t.Errorf("the response table never makes the mock answer %s: add a case to rawCases", key)
				}
			}
		}
	}
}

// flattenHeader renders a header as "Name: value" lines.
func flattenHeader(h http.Header) []string {
	var out []string
	for k, vs := range h {
		for _, v := range vs {
			out = append(out, k+": "+v)
		}
	}
	return out
}
