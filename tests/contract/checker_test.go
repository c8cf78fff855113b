package contract_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	valerrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// exchange is one request and its response as a checker saw them.
type exchange struct {
	method, path string
	reqHeader    http.Header
	reqBody      []byte
	// reqErrs is the document's verdict on the request: nil when valid.
	reqErrs  []*valerrors.ValidationError
	status   int
	header   http.Header
	respBody []byte
}

// decoded decodes the response body (nil when it is not JSON).
func (x *exchange) decoded() map[string]any {
	var m map[string]any
	if json.Unmarshal(x.respBody, &m) != nil {
		return nil
	}
	return m
}

// checker is an http.RoundTripper that validates every request it carries
// and every response it returns against the document, and checks that every
// key of a JSON response is declared by the response's schema, then hands
// both on unchanged. A response that breaks the contract fails the test
// always; a request that breaks it fails the test only when strictRequests
// is set (SDK traffic), otherwise the verdict is kept in the exchange.
type checker struct {
	t              *testing.T
	c              *contract
	next           http.RoundTripper
	strictRequests atomic.Bool

	mu        sync.Mutex
	exchanges []*exchange
	requests  int             // requests validated
	responses int             // responses validated
	reported  map[string]bool // undeclared members already reported
}

// newChecker returns a checker in front of next; see checker for
// strictRequests.
func newChecker(t *testing.T, c *contract, next http.RoundTripper, strictRequests bool) *checker {
	k := &checker{t: t, c: c, next: next, reported: map[string]bool{}}
	k.strictRequests.Store(strictRequests)
	return k
}

// RoundTrip validates req, forwards it, and validates the response.
func (k *checker) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("checker: reading the request body: %w", err)
		}
		body = b
	}
	x := &exchange{method: req.Method, path: req.URL.Path, reqHeader: req.Header.Clone(), reqBody: body}
	x.reqErrs = k.validateRequest(req, body)
	if k.strictRequests.Load() && x.reqErrs != nil {
		k.t.Errorf("%s %s: the request does not match openapi.yaml:%s\nbody: %s",
			req.Method, req.URL.Path, formatErrors(x.reqErrs), redact(body))
	}

	fwd := req.Clone(req.Context())
	fwd.Body = io.NopCloser(bytes.NewReader(body))
	fwd.ContentLength = int64(len(body))
	resp, err := k.next.RoundTrip(fwd)
	if err != nil {
		return nil, err
	}
	respBody, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("checker: reading the response body: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	x.status, x.header, x.respBody = resp.StatusCode, resp.Header.Clone(), respBody
	k.checkResponse(x)

	k.mu.Lock()
	k.exchanges = append(k.exchanges, x)
	k.mu.Unlock()
	return resp, nil
}

// validateRequest returns the document's objections to a request.
func (k *checker) validateRequest(req *http.Request, body []byte) []*valerrors.ValidationError {
	vreq, err := http.NewRequest(req.Method, req.URL.String(), bytes.NewReader(body))
	if err != nil {
		k.t.Errorf("checker: copying the request %s %s: %v", req.Method, req.URL.Path, err)
		return nil
	}
	vreq.Header = req.Header.Clone()
	k.c.mu.Lock()
	ok, errs := k.c.validator.ValidateHttpRequestSync(vreq)
	k.c.mu.Unlock()
	k.mu.Lock()
	k.requests++
	k.mu.Unlock()
	if ok {
		return nil
	}
	return errs
}

// checkResponse validates a response as an answer of the operation its
// request addressed. A 405 is the answer to a method the path does not
// have, so it is looked up under the method the path does have.
func (k *checker) checkResponse(x *exchange) {
	k.c.mu.Lock()
	defer k.c.mu.Unlock()
	method := x.method
	if x.status == http.StatusMethodNotAllowed {
		method = k.c.methodFor405(x.path)
	}
	vreq, err := http.NewRequest(method, "http://127.0.0.1:8080"+x.path, nil)
	if err != nil || method == "" {
		k.t.Errorf("%s %s: openapi.yaml has no operation to check the %d answer against (%v)", x.method, x.path, x.status, err)
		return
	}
	vresp := &http.Response{
		StatusCode: x.status,
		Header:     x.header.Clone(),
		Body:       io.NopCloser(bytes.NewReader(x.respBody)),
		Request:    vreq,
	}
	if ok, errs := k.c.validator.ValidateHttpResponse(vreq, vresp); !ok {
		k.t.Errorf("%s %s answered %d, which does not match openapi.yaml:%s\nbody: %s",
			x.method, x.path, x.status, formatErrors(errs), excerpt(x.respBody))
	}
	if s := k.c.responseSchema(method, x.path, x.status); s != nil {
		var v any
		if err := json.Unmarshal(x.respBody, &v); err == nil {
			for _, key := range undeclaredKeys(s, v, "$") {
				id := fmt.Sprint(x.method, x.path, x.status, key)
				k.mu.Lock()
				seen := k.reported[id]
				k.reported[id] = true
				k.mu.Unlock()
				if seen {
					continue
				}
				k.t.Errorf("%s %s answered %d with %s, which openapi.yaml does not declare: document it or stop sending it",
					x.method, x.path, x.status, key)
			}
		}
	}
	k.mu.Lock()
	k.responses++
	k.mu.Unlock()
}

// counts returns how many requests and responses were validated.
func (k *checker) counts() (requests, responses int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.requests, k.responses
}

// last returns the most recent exchange.
func (k *checker) last(t *testing.T) *exchange {
	t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.exchanges) == 0 {
		t.Fatal("no request went through the checker")
	}
	return k.exchanges[len(k.exchanges)-1]
}

// all returns a copy of every exchange so far.
func (k *checker) all() []*exchange {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.exchanges)
}

// methodFor405 returns the first method the document defines on path (or
// the templated path it matches) with a 405 answer, so a wrong method's
// answer can be checked against it; "" when there is none.
func (c *contract) methodFor405(path string) string {
	item := c.model.Paths.PathItems.GetOrZero(c.templatePath(path))
	if item == nil {
		return ""
	}
	// The 405 answer is the same shared response on every operation of a
	// mock path, so the first operation declaring one serves.
	for method, op := range item.GetOperations().FromOldest() {
		if op.Responses != nil && op.Responses.Codes.GetOrZero("405") != nil {
			return strings.ToUpper(method)
		}
	}
	return ""
}

// templatePath returns the document's path that a request path matches:
// the path itself, or a templated one such as /_mock/jobs/{id}.
func (c *contract) templatePath(path string) string {
	if c.model.Paths.PathItems.GetOrZero(path) != nil {
		return path
	}
	segs := strings.Split(path, "/")
	for tmpl := range c.model.Paths.PathItems.KeysFromOldest() {
		tsegs := strings.Split(tmpl, "/")
		if len(tsegs) != len(segs) || !strings.Contains(tmpl, "{") {
			continue
		}
		match := true
		for i, ts := range tsegs {
			if !(strings.HasPrefix(ts, "{") && strings.HasSuffix(ts, "}") && segs[i] != "") && ts != segs[i] {
				match = false
				break
			}
		}
		if match {
			return tmpl
		}
	}
	return path
}

// responseSchema returns the JSON schema of the answer with status to
// method path, or nil when the document declares no JSON body for it.
func (c *contract) responseSchema(method, path string, status int) *base.Schema {
	item := c.model.Paths.PathItems.GetOrZero(c.templatePath(path))
	if item == nil {
		return nil
	}
	op := item.GetOperations().GetOrZero(strings.ToLower(method))
	if op == nil {
		return nil
	}
	r := op.Responses.Codes.GetOrZero(strconv.Itoa(status))
	if r == nil {
		r = op.Responses.Codes.GetOrZero(fmt.Sprintf("%dXX", status/100))
	}
	if r == nil {
		return nil
	}
	mt := get(r.Content, "application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	return mt.Schema.Schema()
}

// undeclaredKeys returns the paths (array elements written [*]) of the
// object members in v that s does not declare as properties. Members are
// looked up in s and in every branch of its oneOf, anyOf and allOf; a
// member is declared when some branch declares it, as a property or by an
// additionalProperties schema (a map), and its value is then checked
// against each declaring branch, reporting only what no branch declares.
// A schema that says additionalProperties: true declares every member (the
// journal's copy of a request body); one that says nothing declares none,
// though JSON Schema would let them through: the mock must document what
// it sends.
func undeclaredKeys(s *base.Schema, v any, path string) []string {
	if s == nil {
		return nil
	}
	schemas := flatten(s)
	switch v := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		var out []string
		for _, key := range keys {
			var candidates []*base.Schema
			open := false
			for _, b := range schemas {
				if p := get(b.Properties, key); p != nil {
					candidates = append(candidates, p.Schema())
				} else if ap := b.AdditionalProperties; ap != nil && ap.IsA() && ap.A != nil {
					candidates = append(candidates, ap.A.Schema())
				} else if ap != nil && ap.IsB() && ap.B {
					open = true
				}
			}
			where := path + "." + key
			if open && len(candidates) == 0 {
				continue // a map the schema leaves open on purpose
			}
			if len(candidates) == 0 {
				out = append(out, where)
				continue
			}
			out = append(out, intersect(candidates, v[key], where)...)
		}
		return out
	case []any:
		var items []*base.Schema
		for _, b := range schemas {
			if b.Items != nil && b.Items.IsA() && b.Items.A != nil {
				items = append(items, b.Items.A.Schema())
			}
		}
		if len(items) == 0 {
			return nil
		}
		var out []string
		for _, e := range v {
			out = append(out, intersect(items, e, path+"[*]")...)
		}
		return slices.Compact(slices.Sorted(slices.Values(out)))
	}
	return nil
}

// intersect returns the undeclared paths of v that every candidate schema
// reports.
func intersect(candidates []*base.Schema, v any, path string) []string {
	var common map[string]bool
	for _, c := range candidates {
		got := map[string]bool{}
		for _, p := range undeclaredKeys(c, v, path) {
			got[p] = true
		}
		if common == nil {
			common = got
			continue
		}
		for p := range common {
			if !got[p] {
				delete(common, p)
			}
		}
	}
	return slices.Sorted(maps.Keys(common))
}

// flatten returns s and, recursively, the schemas of its oneOf, anyOf and
// allOf branches.
func flatten(s *base.Schema) []*base.Schema {
	out := []*base.Schema{s}
	for _, p := range slices.Concat(s.OneOf, s.AnyOf, s.AllOf) {
		if b := p.Schema(); b != nil {
			out = append(out, flatten(b)...)
		}
	}
	return out
}

var apiKeyMember = regexp.MustCompile(`("api_key"\s*:\s*)"(?:[^"\\]|\\.)*"`)

// redact hides API keys in a body before it is printed.
func redact(body []byte) string {
	return excerpt(apiKeyMember.ReplaceAll(body, []byte(`$1"[redacted]"`)))
}

// excerpt shortens a body for a failure message.
func excerpt(b []byte) string {
	const limit = 600
	if len(b) <= limit {
		return string(b)
	}
	return string(b[:limit]) + fmt.Sprintf("… (%d bytes)", len(b))
}

// TestCheckerFlagsUndeclaredMembers holds the checker's member check to
// what it must catch in every answer shape: a member the document does not
// declare, at any depth, in either form of the query answer and with
// either count of get-results; and what it must let through: the members
// of the request bodies the journal echoes, and the members of a map.
func TestCheckerFlagsUndeclaredMembers(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	const article = `{"_id":"5f1c0a9e3b2d4c6e8f7a1b2c","title":"t","description":"d","bodyText":"b","url":"https://example.com/a",` +
		`"site":"example.com","image":null,"favicon":"https://example.com/favicon.ico","category":null,"language":"en",` +
		`"datePublished":"Tue, 04 Mar 2025 09:12:44 GMT","score":1,"topics":[],"sentiment":{"title":0,"description":0},` +
		`"entities":null,"entity_relationships":null`
	const entry = `{"seq":1,"time":"2026-01-15T12:00:00Z","request_id":"req-1","method":"POST","path":"/api/v2/query","status":200,` +
		`"duration_ns":0,"world":"default","new_world":true,"body":{"api_key":"[redacted]","query":"q","client":{"name":"x"}}`
	for _, tc := range []struct {
		method, path, body string
		want               []string
	}{
		{"POST", pathQuery, `{"results":{"totalResults":1,"articles":[` + article + `}]},"state":"SUCCESS"}`, nil},
		{"POST", pathQuery, `{"results":{"totalResults":1,"count":1,"articles":[` + article + `,"authors":[]}]},"state":"SUCCESS"}`,
			[]string{"$.results.articles[*].authors", "$.results.count"}},
		{"POST", pathQuery, `{"totalArticles":1,"articles":[` + article + `}],"state":"SUCCESS"}`, nil},
		{"POST", pathQuery, `{"totalResults":1,"articles":[` + article + `,"authors":[]}],"state":"SUCCESS","took":3}`,
			[]string{"$.articles[*].authors", "$.took"}},
		{"POST", pathGetResults, `{"query_id":"q","page":1,"totalArticles":1,"articles":[` + article + `}],"state":"SUCCESS"}`, nil},
		{"POST", pathGetResults, `{"query_id":"q","page":1,"totalResults":1,"total":1,"articles":[],"state":"SUCCESS"}`, []string{"$.total"}},
		{"POST", pathGetResults, `{"query_id":"q","state":"PENDING","eta":2}`, []string{"$.eta"}},
		{"GET", "/_mock/journal", `{"state":"SUCCESS","dropped":0,"met":true,"entries":[` + entry + `}]}`, nil},
		{"GET", "/_mock/journal", `{"state":"SUCCESS","dropped":0,"entries":[` + entry + `,"size":3}]}`, []string{"$.entries[*].size"}},
		{"GET", "/_mock/settings", `{"state":"SUCCESS","settings":{"pending_polls":1,"pending":"0s","rate_limit":0,"burst":0,"job_ttl":"1h0m0s",` +
			`"max_jobs":1,"shape":{"results":"top-level","count":"x"}}}`, []string{"$.settings.shape.count"}},
		{"GET", "/_mock/expectations", `{"state":"SUCCESS","expectations":[{"body":{"query":"q","a.b":"2"},"min":1,"max":1,"count":0,"seen":0}]}`,
			[]string{"$.expectations[*].seen"}},
		{"GET", "/_mock/verify", `{"state":"SUCCESS","met":false,"message":"m","unmet":[{"min":1,"max":1,"count":0,"closest":[` + entry + `,"x":1}]}],` +
			`"unfired_faults":[],"unexpected":[],"unexpected_count":0}`, []string{"$.unmet[*].closest[*].x"}},
	} {
		s := c.responseSchema(tc.method, tc.path, 200)
		if s == nil {
			t.Fatalf("%s %s: openapi.yaml has no JSON answer 200", tc.method, tc.path)
		}
		var v any
		if err := json.Unmarshal([]byte(tc.body), &v); err != nil {
			t.Fatalf("%s %s: %v", tc.method, tc.path, err)
		}
		if got := undeclaredKeys(s, v, "$"); !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: the checker reports %q as undeclared, want %q, in %s", tc.method, tc.path, got, tc.want, tc.body)
		}
	}
}
