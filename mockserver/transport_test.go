package mockserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
)

func TestClientOverSocketAndWithout(t *testing.T) {
	t.Parallel()
	for _, s := range []*Server{startSocket(t), start(t)} {
		ctx := context.Background()
		c := s.Client()
		word := commonWord(t, s)
		res, err := c.Search(ctx, newssearch.SearchParams{Query: word, Language: newssearch.LanguageAll})
		if err != nil {
			t.Fatalf("%s: Search: %v", s, err)
		}
		raw := query(t, s, map[string]any{"query": word})
		if res.TotalResults != raw.Results.TotalResults || len(res.Articles) != len(raw.Results.Articles) || res.Articles[0].ID != raw.Results.Articles[0].ID {
			t.Fatalf("%s: SDK saw %d results starting %s; raw %d starting %s", s, res.TotalResults, res.Articles[0].ID,
				raw.Results.TotalResults, raw.Results.Articles[0].ID)
		}
		if len(res.Articles[0].Extra) != 0 {
			t.Fatalf("%s: the SDK found unknown fields: %v", s, res.Articles[0].Extra)
		}
		job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: word}, SortOrder: newssearch.SortDatePublished})
		if err != nil {
			t.Fatalf("%s: SubmitQuery: %v", s, err)
		}
		page, err := c.Poll(ctx, job.QueryID, &newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: time.Millisecond})
		if err != nil {
			t.Fatalf("%s: Poll: %v", s, err)
		}
		if page.TotalResults != res.TotalResults || !page.State.IsSuccess() {
			t.Fatalf("%s: async %d results, state %s", s, page.TotalResults, page.State)
		}
		h, err := c.Headlines(ctx)
		if err != nil || len(h.Headlines) == 0 {
			t.Fatalf("%s: Headlines: %d clusters, %v", s, len(h.Headlines), err)
		}
		_, err = c.GetResults(ctx, "0123456789abcdef0123456789abcdef", 1)
		if !errors.Is(err, newssearch.ErrNotFound) {
			t.Fatalf("%s: unknown id: %v", s, err)
		}
		var apiErr *newssearch.APIError
		if !errors.As(err, &apiErr) || apiErr.RequestID == "" || !strings.Contains(apiErr.Message, "resubmit") && !strings.Contains(apiErr.Message, "submit the query") {
			t.Fatalf("%s: APIError %+v", s, apiErr)
		}
	}
}

func TestClientOptionsWin(t *testing.T) {
	t.Parallel()
	s := start(t, WithFaults(FaultRule{Fault: Fault{Status: 503}}))
	_, err := s.Client(newssearch.WithMaxRetries(0)).Headlines(context.Background())
	if !errors.Is(err, newssearch.ErrServer) {
		t.Fatalf("got %v", err)
	}
	if n := len(s.Journal()); n != 1 {
		t.Fatalf("%d attempts with WithMaxRetries(0)", n)
	}
	func() {
		defer func() {
			if p := recover(); p == nil || !strings.HasPrefix(fmt.Sprint(p), "mockserver: Client: newssearch: invalid WithMaxRetries: -1 is negative") {
				t.Errorf("Client with a bad option: recovered %v", p)
			}
		}()
		s.Client(newssearch.WithMaxRetries(-1))
	}()
	if _, err := newssearch.NewClient(append(s.ClientOptions(), newssearch.WithMaxRetries(-1))...); err == nil {
		t.Error("ClientOptions with a bad option: no error")
	}
	bad := start(t, WithAPIKeys("right"))
	_, err = bad.Client(newssearch.WithAPIKey("wrong")).Headlines(context.Background())
	if !errors.Is(err, newssearch.ErrUnauthorized) {
		t.Fatalf("wrong key: %v", err)
	}
}

func TestTransportNeedsNoSocket(t *testing.T) {
	t.Parallel()
	s := start(t)
	if s.URL() != noListenerURL {
		t.Fatalf("URL %q", s.URL())
	}
	// Any host works: the transport never dials.
	hc := &http.Client{Transport: s.Transport()}
	resp, err := hc.Post("https://app.runathena.com/api/v2/headlines", "application/json", strings.NewReader(`{"api_key":"k"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Request-Id") == "" || resp.Request == nil {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	s.Close()
	_, err = hc.Post("https://app.runathena.com/api/v2/headlines", "application/json", strings.NewReader(`{"api_key":"k"}`))
	if err == nil || !strings.Contains(err.Error(), "the server is closed") {
		t.Fatalf("after Close: %v", err)
	}
}

func TestDeterminismAcrossServers(t *testing.T) {
	t.Parallel()
	requests := []struct {
		path, body, fault string
	}{
		{"/api/v2/query", `{"api_key":"k","query":"%s","embeddings":true}`, ""},
		{"/api/v2/query", `{"api_key":"k","query":"%s","page":2,"language":"all","traffic_rank":10}`, ""},
		{"/api/v2/query-async", `{"api_key":"k","query":"%s","sort_order":"Date Published"}`, ""},
		{"/api/v2/get-results", `{"api_key":"k","query_id":"%[2]s"}`, ""},
		{"/api/v2/get-results", `{"api_key":"k","query_id":"%[2]s","page":3}`, ""},
		{"/api/v2/headlines", `{"api_key":"k"}`, ""},
		{"/api/v2/headlines", `{"api_key":"k"}`, "status=503"},
		{"/api/v2/query", `{"api_key":"k","query":"%s","page":0}`, ""},
	}
	run := func(s *Server) []string {
		word := commonWord(t, s)
		var out []string
		id := ""
		for _, r := range requests {
			body := strings.ReplaceAll(strings.ReplaceAll(r.body, "%s", word), "%[2]s", id)
			rep := call(t, s, http.MethodPost, r.path, body, FaultHeader, r.fault)
			if r.path == "/api/v2/query-async" {
				id = decode[resultsReply](t, rep).QueryID
			}
			out = append(out, rep.Header.Get("X-Request-Id")+" "+itoa(rep.Status)+" "+string(rep.Body))
		}
		j, _ := jsonMarshal(s.Journal())
		return append(out, string(j))
	}
	opts := []Option{WithSeed(99), WithFaults(FaultRule{Probability: 0.5, Fault: Fault{Status: 500}})}
	a := run(start(t, opts...))
	b := run(startSocket(t, opts...))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("two servers answered differently (-first +second):\n%s", diff)
	}
	c := run(start(t, append(opts, WithSeed(100))...))
	if cmp.Equal(a[0], c[0]) {
		t.Fatal("another seed gave the same request id")
	}
}

func TestClientPollsFast(t *testing.T) {
	t.Parallel()
	s := New(WithoutListener())
	t.Cleanup(s.Close)
	var waits []time.Duration
	c := s.Client()
	job, err := c.SubmitQuery(t.Context(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "earthquake"}})
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.Poll(t.Context(), job.QueryID, &newssearch.PollOptions{OnPoll: func(e newssearch.PollEvent) { waits = append(waits, e.Next) }})
	if err != nil {
		t.Fatal(err)
	}
	if page.TotalResults == 0 {
		t.Error("Poll found nothing for \"earthquake\"")
	}
	const maxDelay = 20 * time.Millisecond // ClientOptions's
	if len(waits) != 2 || waits[0] <= 0 || waits[0] > maxDelay || waits[1] != 0 {
		t.Errorf("waits after each poll = %v, want one wait of at most %v (the first poll is PENDING), then none", waits, maxDelay)
	}
}
