package newssearch

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sdkKey is the API key of most tests. sdkCanary is used where a test
// proves the key never leaks.
const (
	sdkKey    = "test-key-0001"
	sdkCanary = "CANARY-7f3a9c-SECRET"
)

// sdkPrefix is where test servers mount the API, so that a client ignoring
// the base URL's path fails.
const sdkPrefix = "/prefix"

// newPrefixServer starts a server that serves h under sdkPrefix and 404s elsewhere.
func newPrefixServer(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(sdkPrefix+"/", http.StripPrefix(sdkPrefix, h))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// clientFor returns a client for srv with the test key, tiny retry
// waits and no environment; opts come last and win.
func clientFor(t testing.TB, srv *httptest.Server, opts ...Option) *Client {
	t.Helper()
	base := []Option{
		WithAPIKey(sdkKey),
		WithBaseURL(srv.URL + sdkPrefix + "/"),
		WithHTTPClient(srv.Client()),
		WithRetryWait(time.Millisecond, 2*time.Millisecond),
		WithoutEnvironment(),
		withJitterSeed(1, 2),
	}
	c, err := NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// scripted is one expected request and the response to give.
type scripted struct {
	path     string // endpoint path, e.g. "/api/v2/query"
	body     string // exact expected request body; "" skips the check
	status   int    // 0 means 200
	header   http.Header
	response string
}

// scriptHandler serves exchanges in order, checking method, path, Content-Type and
// the exact request body of each, and counts the requests.
type scriptHandler struct {
	t     testing.TB
	steps []scripted
	calls atomic.Int32
}

func (s *scriptHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.calls.Add(1)) - 1
	if n >= len(s.steps) {
		s.t.Errorf("request %d to %s: only %d expected", n+1, r.URL.Path, len(s.steps))
		w.WriteHeader(http.StatusTeapot)
		return
	}
	st := s.steps[n]
	assertRequest(s.t, r, st.path, st.body)
	w.Header().Set("Content-Type", "application/json")
	for k, vs := range st.header {
		w.Header()[k] = vs
	}
	w.WriteHeader(cmpOr0(st.status, http.StatusOK))
	io.WriteString(w, st.response)
}

// cmpOr0 returns v, or def when v is 0.
func cmpOr0(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// serveScript starts a server running the exchanges and a client for it.
func serveScript(t testing.TB, steps []scripted, opts ...Option) (*Client, *scriptHandler) {
	t.Helper()
	s := &scriptHandler{t: t, steps: steps}
	srv := newPrefixServer(t, s)
	return clientFor(t, srv, opts...), s
}

// assertRequest asserts the method, path, Content-Type and exact body.
func assertRequest(t testing.TB, r *http.Request, path, wantBody string) {
	t.Helper()
	if r.Method != http.MethodPost {
		t.Errorf("method = %s, want POST", r.Method)
	}
	if r.URL.Path != path {
		t.Errorf("path = %q, want %q", r.URL.Path, path)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	got, err := io.ReadAll(r.Body)
	if err != nil {
		t.Errorf("reading request body: %v", err)
	}
	if wantBody != "" {
		if diff := cmp.Diff(wantBody, string(got)); diff != "" {
			t.Errorf("request body mismatch (-want +got):\n%s", diff)
		}
	}
}

// wireArticle returns article i as the service sends it in search results.
func wireArticle(i int) string {
	return fmt.Sprintf(`{"_id":"%024x","title":"Title %d","description":"Description %d","bodyText":%q,`+
		`"url":"https://www.example.com/2025/03/04/slug-%d","site":"example.com","image":"https://example.com/%d.jpg",`+
		`"favicon":"https://example.com/favicon.ico","category":"Politics","language":"en",`+
		`"datePublished":"Wed, 13 Nov 2024 01:44:%02d GMT","score":%d.5,"topics":["a","b","c"],`+
		`"sentiment":{"title":-0.12,"description":0.4},`+
		`"entities":[{"name":"Ada Lovelace","type":"PERSON","wikidata_id":"Q7259","sentiment":0.2,"confidence":0.93}],`+
		`"entity_relationships":[{"source":"Ada Lovelace","target":"Charles Babbage","relation":"colleague","confidence":0.8}],`+
		`"embeddings":null}`,
		i+1, i, i, strings.Repeat(fmt.Sprintf("Body text of article %d. ", i), 60), i, i, i%60, 30-i)
}

// wantArticle is the decoded form of wireArticle(i).
func wantArticle(i int) Article {
	return Article{
		ID:          fmt.Sprintf("%024x", i+1),
		Title:       fmt.Sprintf("Title %d", i),
		Description: fmt.Sprintf("Description %d", i),
		BodyText:    strings.Repeat(fmt.Sprintf("Body text of article %d. ", i), 60),
		URL:         fmt.Sprintf("https://www.example.com/2025/03/04/slug-%d", i),
		Site:        "example.com",
		Image:       ImageList{fmt.Sprintf("https://example.com/%d.jpg", i)},
		Favicon:     "https://example.com/favicon.ico",
		Category:    "Politics",
		Language:    "en",
		DatePublished: Timestamp{
			Time: time.Date(2024, 11, 13, 1, 44, i%60, 0, time.UTC),
			raw:  fmt.Sprintf("Wed, 13 Nov 2024 01:44:%02d GMT", i%60),
		},
		Score:     float64(30-i) + 0.5,
		Topics:    []string{"a", "b", "c"},
		Sentiment: Sentiment{Title: -0.12, Description: 0.4},
		Entities: []Entity{{Name: "Ada Lovelace", Type: "PERSON", WikidataID: "Q7259",
			Sentiment: 0.2, Confidence: 0.93}},
		EntityRelationships: []EntityRelationship{{Source: "Ada Lovelace", Target: "Charles Babbage",
			Relation: "colleague", Confidence: 0.8}},
	}
}

// wireArticles joins wireArticle(0..n-1) into a JSON array.
func wireArticles(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = wireArticle(i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// wantArticles returns wantArticle(0..n-1).
func wantArticles(n int) []Article {
	out := make([]Article, n)
	for i := range out {
		out[i] = wantArticle(i)
	}
	return out
}

// newTestLogger logs JSON records at every level to w, without times.
func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
}

// asyncQuery is the smallest valid asynchronous query.
var asyncQuery = AsyncSearchParams{SearchParams: SearchParams{Query: "cars"}}
