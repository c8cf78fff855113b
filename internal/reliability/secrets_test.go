package reliability

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// canary is the API key of the secrets scenario: it must appear nowhere
// but in request bodies.
const canary = "CANARY-sk-live-3f9a7c1e5b"

// syncBuffer is a bytes.Buffer safe for concurrent writers (loggers).
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written.
func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// printedForms collects the printed forms of values, errors and panics.
type printedForms struct {
	forms []string
}

// values adds v in every verb a log line or a test failure might use.
func (p *printedForms) values(vs ...any) {
	for _, v := range vs {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
			p.forms = append(p.forms, fmt.Sprintf(verb, v))
		}
	}
}

// err adds err in every verb and the Error of every error it wraps.
func (p *printedForms) err(err error) {
	if err == nil {
		return
	}
	p.values(err)
	for _, e := range errorChain(err) {
		p.forms = append(p.forms, e.Error())
	}
}

// panicOf runs f and adds what it panicked with, if anything.
func (p *printedForms) panicOf(f func()) {
	defer func() {
		if r := recover(); r != nil {
			p.values(r)
		}
	}()
	f()
}

// TestCanaryKeyNeverLeaks runs every endpoint through the SDK against
// the mock (successes, bad input, 401, injected faults, failed jobs),
// sends raw bodies hiding the key in odd spellings, provokes
// configuration errors and panics, and then looks for the canary key in
// every error (and every error it wraps) in %v, %+v, %#v, %s and %q, in
// the printed client, server, parameters, responses and journal entries,
// in GET /_mock/journal, in the mock's answers, and in the client's and
// the mock's slog output at Debug level with the JSON and the text
// handler.
func TestCanaryKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"json", "text"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			var clientLog, mockLog syncBuffer
			logger := func(w io.Writer) *slog.Logger {
				opts := &slog.HandlerOptions{Level: slog.LevelDebug}
				if format == "json" {
					return slog.New(slog.NewJSONHandler(w, opts))
				}
				return slog.New(slog.NewTextHandler(w, opts))
			}
			p := &printedForms{}
			exerciseAll(t, p, logger(&clientLog), logger(&mockLog))

			logs := map[string]string{"client": clientLog.String(), "mock": mockLog.String()}
			for _, want := range []string{`newssearch: response`, `newssearch: retrying`} {
				if !strings.Contains(logs["client"], want) {
					t.Errorf("the client log has no %q record: the log check was not exercised", want)
				}
			}
			if !strings.Contains(logs["mock"], "mockserver request") {
				t.Error("the mock log has no request record: the log check was not exercised")
			}
			for name, l := range logs {
				if strings.Contains(l, canary) {
					t.Errorf("the key appears in the %s log:\n%s", name, l)
				}
			}
			for _, s := range p.forms {
				if strings.Contains(s, canary) {
					t.Errorf("the key appears in %q", s)
				}
			}
			t.Logf("%d printed forms and %d bytes of logs checked", len(p.forms), len(logs["client"])+len(logs["mock"]))
		})
	}
}

// exerciseAll drives the SDK and the mock through every path that could
// show the key and records what they print.
func exerciseAll(t *testing.T, p *printedForms, clientLogger, mockLogger *slog.Logger) {
	ctx := testContext(t)
	srv := newServer(t, mockserver.WithAPIKeys(canary, "second-key"), mockserver.WithLogger(mockLogger), mockserver.WithSeed(5),
		mockserver.WithFaults(
			mockserver.FaultRule{Endpoint: mockserver.EndpointQuery, Every: 7, Fault: mockserver.Fault{Status: http.StatusInternalServerError}},
			mockserver.FaultRule{Endpoint: mockserver.EndpointQuery, Every: 5, Fault: mockserver.Fault{Truncate: true}},
			mockserver.FaultRule{Endpoint: mockserver.EndpointHeadlines, Every: 2, Fault: mockserver.Fault{Status: http.StatusTooManyRequests, RetryAfter: 1}},
			mockserver.FaultRule{Endpoint: mockserver.EndpointGetResults, Every: 6, Fault: mockserver.Fault{Drop: true}},
			mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Every: 4, Fault: mockserver.Fault{Job: mockserver.JobFail}},
			mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Every: 5, Fault: mockserver.Fault{Status: http.StatusServiceUnavailable}},
		))
	c := srv.Client(newssearch.WithLogger(clientLogger), newssearch.WithMaxRetries(1))
	p.values(c, *c, srv, srv.ClientOptions(), srv.HTTPClient(), struct {
		C *newssearch.Client
		S *mockserver.Server
	}{c, srv}, struct{ c newssearch.Client }{*c})

	// Synchronous searches: successes, injected 500s and truncations, bad input.
	for i := range 8 {
		params := newssearch.SearchParams{Query: "election", Page: 1 + i%3, Language: newssearch.LanguageEnglish}
		resp, err := c.Search(ctx, params)
		p.values(params, resp)
		p.err(err)
	}
	for _, params := range []newssearch.SearchParams{{Query: "election", Language: "xx"}, {Query: " "}, {Query: "x", Page: 2_000_000_000}} {
		_, err := c.Search(ctx, params)
		p.err(err)
	}
	articles, err := collect(c.SearchAll(ctx, newssearch.SearchParams{Query: "market"}, &newssearch.PageOptions{Prefetch: 2}))
	p.values(articles)
	p.err(err)

	// Jobs: submissions (some refused with 503, some failing), polls, pages.
	events := &newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, MaxWait: time.Minute,
		OnPoll: func(e newssearch.PollEvent) { p.values(e) }}
	for range 6 {
		params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "company"}, KeyPhrases: "'deal' or 'shares'"}
		job, err := c.SubmitQuery(ctx, params)
		p.values(params, job)
		p.err(err)
		if job == nil {
			continue
		}
		page, err := c.Poll(ctx, job.QueryID, events)
		p.values(page)
		p.err(err)
		page, err = c.GetResults(ctx, job.QueryID, 3)
		p.values(page)
		p.err(err)
		onPage := &newssearch.PageOptions{OnPage: func(page *newssearch.Page) { p.values(page) }}
		for a, err := range c.Results(ctx, job.QueryID, onPage) {
			p.values(a)
			p.err(err)
		}
	}
	_, err = c.GetResults(ctx, "0123456789abcdef0123456789abcdef", 1)
	p.err(err)
	climate, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "climate"}})
	p.values(climate)
	p.err(err)
	if climate != nil {
		first, err := c.Poll(ctx, climate.QueryID, events)
		p.values(first)
		p.err(err)
	}
	ranged, err := c.SearchRange(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
		Query: "market", StartDate: clock.Add(-30 * 24 * time.Hour), EndDate: clock}},
		fastPoll, &newssearch.RangeOptions{OnProgress: func(r newssearch.RangeProgress) { p.values(r) }})
	p.values(len(ranged))
	p.err(err)
	for range 3 {
		h, err := c.Headlines(ctx)
		p.values(h)
		p.err(err)
	}

	// A server that refuses the key answers 401.
	other := newServer(t, mockserver.WithAPIKeys("some-other-key"), mockserver.WithLogger(mockLogger))
	refused, err := newssearch.NewClient(append(other.ClientOptions(), newssearch.WithAPIKey(canary), newssearch.WithLogger(clientLogger))...)
	if err != nil {
		t.Fatal(err)
	}
	_, err = refused.Search(ctx, newssearch.SearchParams{Query: "election"})
	p.err(err)
	_, err = refused.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election"}})
	p.err(err)
	p.values(other.Journal())

	// Raw bodies that spell or hide the key oddly; the answers must not echo
	// it. They go through the in-process Transport: over a socket, the 413
	// for the oversized body leaves a net/http goroutine lingering for
	// 500 ms after Close (see RELIABILITY.md), which goleak would report.
	raw := &http.Client{Transport: srv.Transport()}
	for _, body := range []string{
		`{"API_KEY":"` + canary + `","query":"x"}`,
		`{"api\u005fkey":"` + canary + `","query":"x"}`,
		`{"api_key":"` + canary + `","api_key":"` + canary + `"}`,
		`{"nested":{"api_key":"` + canary + `"},"api_key":"` + canary + `","query":"x"}`,
		`{"api_key":"\u0043ANARY-sk-live-3f9a7c1e5b","query":"x"}`,
		`{"api_key":"` + canary + `","query":`,
		`{"api_key":"` + canary + `","query":"x","language":"xx"}`,
		`{"api_key":"` + canary + `","query_id":"nope"}`,
		`{"api_key":"` + canary + `","padding":"` + strings.Repeat("p", mockserver.MaxBodyBytes) + `"}`,
		`api_key=` + canary,
	} {
		for _, path := range []string{"/api/v2/query", "/api/v2/get-results"} {
			resp, err := raw.Post(srv.URL()+path, "application/json", strings.NewReader(body))
			if err != nil { // an injected drop
				p.err(err)
				continue
			}
			answer, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			p.forms = append(p.forms, string(answer))
			p.values(resp.Header)
		}
	}

	// The journal, in Go and over HTTP.
	p.values(srv.Journal())
	resp, err := srv.HTTPClient().Get(srv.URL() + "/_mock/journal")
	if err != nil {
		t.Fatal(err)
	}
	journal, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(journal, []byte(`[redacted]`)) {
		t.Error("GET /_mock/journal shows no redacted key: the journal check was not exercised")
	}
	p.forms = append(p.forms, string(journal))

	// Configuration errors and panics.
	for _, opt := range []newssearch.Option{
		newssearch.WithBaseURL("ftp://example.com"), newssearch.WithMaxRetries(-1),
		newssearch.WithRetryWait(time.Second, time.Millisecond), newssearch.WithHeader("User-Agent", "a\nb"), newssearch.WithHTTPClient(nil),
	} {
		_, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithAPIKey(canary), opt)
		p.err(err)
	}
	_, err = mockserver.Start(mockserver.WithAPIKeys(canary, " "), mockserver.WithAddr("256.0.0.1:99999"))
	p.err(err)
	p.panicOf(func() { mockserver.New(mockserver.WithAPIKeys(canary, "")) })
	p.panicOf(func() { srv.Client(newssearch.WithMaxRetries(-1)) })
	p.panicOf(func() { other.Client(newssearch.WithHeader("User-Agent", "\n")) })
}
