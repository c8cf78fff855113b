package mockserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// testClock is a settable clock.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock(t time.Time) *testClock { return &testClock{t: t} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// t0 is the clock most tests run at.
var t0 = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

// start returns a server without a socket at a fixed clock, closed when
// the test ends.
func start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := Start(append([]Option{WithoutListener(), WithClock(func() time.Time { return t0 })}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// reply is an HTTP answer.
type reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// call sends a request with a raw body; headers are name, value pairs.
func call(t testing.TB, s *Server, method, path, body string, headers ...string) reply {
	t.Helper()
	r, err := tryCall(s, method, path, body, headers...)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

// tryCall is call returning the error, with whatever was read.
func tryCall(s *Server, method, path, body string, headers ...string) (reply, error) {
	req, err := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := s.HTTPClient().Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, b}, err
}

// post sends a JSON body built from v with api_key set to the server's key
// unless v sets it.
func post(t testing.TB, s *Server, path string, v map[string]any, headers ...string) reply {
	t.Helper()
	m := map[string]any{"api_key": s.APIKey()}
	for k, x := range v {
		m[k] = x
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return call(t, s, http.MethodPost, path, string(b), headers...)
}

// decode unmarshals a reply body.
func decode[T any](t testing.TB, r reply) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("decoding %s: %v", r.Body, err)
	}
	return v
}

// failure is the body of every failed call.
type failure struct {
	State   string `json:"state"`
	Message string `json:"message"`
}

// wireArticle is a search-result article as sent.
type wireArticle struct {
	ID                  string             `json:"_id"`
	Title               string             `json:"title"`
	Description         string             `json:"description"`
	BodyText            string             `json:"bodyText"`
	URL                 string             `json:"url"`
	Site                string             `json:"site"`
	Image               *string            `json:"image"`
	Favicon             string             `json:"favicon"`
	Category            *string            `json:"category"`
	Language            string             `json:"language"`
	DatePublished       string             `json:"datePublished"`
	Score               float64            `json:"score"`
	Topics              []string           `json:"topics"`
	Sentiment           map[string]float64 `json:"sentiment"`
	Entities            []map[string]any   `json:"entities"`
	EntityRelationships []map[string]any   `json:"entity_relationships"`
	Embeddings          []float32          `json:"embeddings"`
}

type queryReply struct {
	Results struct {
		TotalResults int           `json:"totalResults"`
		Articles     []wireArticle `json:"articles"`
	} `json:"results"`
	State string `json:"state"`
}

type resultsReply struct {
	QueryID       string        `json:"query_id"`
	Page          int           `json:"page"`
	TotalResults  int           `json:"totalResults"`
	TotalArticles int           `json:"totalArticles"`
	Articles      []wireArticle `json:"articles"`
	State         string        `json:"state"`
	Message       string        `json:"message"`
}

// query runs /api/v2/query and fails the test unless it succeeds.
func query(t testing.TB, s *Server, v map[string]any) queryReply {
	t.Helper()
	r := post(t, s, "/api/v2/query", v)
	if r.Status != http.StatusOK {
		t.Fatalf("query %v: %d %s", v, r.Status, r.Body)
	}
	return decode[queryReply](t, r)
}

// submit runs /api/v2/query-async and returns the query id.
func submit(t testing.TB, s *Server, v map[string]any, headers ...string) string {
	t.Helper()
	r := post(t, s, "/api/v2/query-async", v, headers...)
	if r.Status != http.StatusOK {
		t.Fatalf("query-async %v: %d %s", v, r.Status, r.Body)
	}
	return decode[struct {
		QueryID string `json:"query_id"`
	}](t, r).QueryID
}

// results polls get-results until the job is no longer pending.
func results(t testing.TB, s *Server, id string, page int) resultsReply {
	t.Helper()
	for range 10 {
		r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": id, "page": page})
		if r.Status != http.StatusOK {
			t.Fatalf("get-results %s: %d %s", id, r.Status, r.Body)
		}
		res := decode[resultsReply](t, r)
		if res.State != "PENDING" {
			return res
		}
	}
	t.Fatalf("job %s still pending after 10 polls", id)
	return resultsReply{}
}

func ids(arts []wireArticle) []string {
	out := make([]string, len(arts))
	for i, a := range arts {
		out[i] = a.ID
	}
	return out
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// headlineCluster is a cluster of a headlines answer.
type headlineCluster struct {
	Topic    string            `json:"topic"`
	Count    int               `json:"count"`
	Articles []json.RawMessage `json:"articles"`
}
