package newsdigest_test

// Each test starts its own mock server with mockserver.New and closes it
// with t.Cleanup: servers are cheap (the corpus is built once per process),
// and a fresh one has an empty journal, fresh ids and no faults left over
// from another test, so the tests can run in parallel.

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/examples/testing/newsdigest"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/mockserver/withhttpmock"
)

// corpus is a handful of articles whose answers the tests can state
// exactly. Load a corpus once and share it: its index is built on first use.
var corpus = sync.OnceValues(func() (*mockserver.Corpus, error) {
	return mockserver.LoadCorpusFile("testdata/corpus.jsonl")
})

func testCorpus(t *testing.T) *mockserver.Corpus {
	t.Helper()
	c, err := corpus()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTopSites(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithCorpus(testCorpus(t)))
	t.Cleanup(srv.Close)

	got, err := newsdigest.TopSites(t.Context(), srv.Client(), "harbour", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []newsdigest.SiteCount{{Site: "a.example", Articles: 3}, {Site: "b.example", Articles: 2}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TopSites (-want +got):\n%s", diff)
	}
}

// The journal records every request the server got, with its body (the
// API key redacted), so a test can assert what the code under test sent.
func TestTopSitesSendsOneSearch(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithCorpus(testCorpus(t)))
	t.Cleanup(srv.Close)

	if _, err := newsdigest.TopSites(t.Context(), srv.Client(), "harbour", 2); err != nil {
		t.Fatal(err)
	}
	journal := srv.Journal()
	if len(journal) != 1 {
		t.Fatalf("the server got %d requests, want 1: %+v", len(journal), journal)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(journal[0].Body), &body); err != nil {
		t.Fatal(err)
	}
	got := []any{journal[0].Path, journal[0].Status, body}
	want := []any{"/api/v2/query", http.StatusOK, map[string]any{"api_key": "[redacted]", "query": "harbour", "page": 1.0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("path, status and body of the request (-want +got):\n%s", diff)
	}
}

// A fault rule given to the server: the first two searches answer 503, and
// the client's retries get through.
func TestTopSitesRetriesServerErrors(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithCorpus(testCorpus(t)), mockserver.WithFaults(mockserver.FaultRule{
		Endpoint: mockserver.EndpointQuery,
		Times:    2,
		Fault:    mockserver.Fault{Status: http.StatusServiceUnavailable},
	}))
	t.Cleanup(srv.Close)

	if _, err := newsdigest.TopSites(t.Context(), srv.Client(), "harbour", 2); err != nil {
		t.Fatalf("TopSites failed despite the retries: %v", err)
	}
	var got []string
	for _, e := range srv.Journal() {
		got = append(got, http.StatusText(e.Status)+" "+e.Fault)
	}
	want := []string{"Service Unavailable rule 0: status=503", "Service Unavailable rule 0: status=503", "OK "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// A fault asked for by the X-Mock-Fault header of each request (as a test
// in any language can): every attempt answers 503, so the error reaches
// the caller once the client's retries are spent.
func TestTopSitesReportsPersistentErrors(t *testing.T) {
	t.Parallel()
	srv := mockserver.New()
	t.Cleanup(srv.Close)
	client := srv.Client(
		newssearch.WithHTTPClient(&http.Client{Transport: withFault(srv.HTTPClient().Transport, "status=503")}),
		newssearch.WithMaxRetries(2),
	)

	_, err := newsdigest.TopSites(t.Context(), client, "harbour", 2)
	var apiErr *newssearch.APIError
	if !errors.Is(err, newssearch.ErrServer) || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("TopSites = %v, want a 503 *newssearch.APIError matching ErrServer", err)
	}
	if n := len(srv.Journal()); n != 3 {
		t.Errorf("the server got %d requests, want 3 (the first and two retries)", n)
	}
}

// With WithoutListener the server opens no socket: Transport serves the
// requests in process, whatever the URL (here the production default).
// WithPendingPolls(0) makes jobs ready at their first poll.
func TestLatest(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithoutListener(), mockserver.WithCorpus(testCorpus(t)), mockserver.WithPendingPolls(0))
	t.Cleanup(srv.Close)
	client, err := newssearch.NewClient(
		newssearch.WithoutEnvironment(),
		newssearch.WithAPIKey("any-key"),
		newssearch.WithHTTPClient(&http.Client{Transport: srv.Transport()}),
	)
	if err != nil {
		t.Fatal(err)
	}

	got, err := newsdigest.Latest(t.Context(), client, "harbour", 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Harbour strike ends", "A new ferry for the harbour", "Harbour master retires"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Latest (-want +got):\n%s", diff)
	}
	var paths []string
	for _, e := range srv.Journal() {
		paths = append(paths, e.Path)
	}
	if diff := cmp.Diff([]string{"/api/v2/query-async", "/api/v2/get-results"}, paths); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// A job fault makes every job the server creates end FAILED.
func TestLatestJobFails(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithPendingPolls(0), mockserver.WithFaults(mockserver.FaultRule{
		Fault: mockserver.Fault{Job: mockserver.JobFail},
	}))
	t.Cleanup(srv.Close)

	_, err := newsdigest.Latest(t.Context(), srv.Client(), "harbour", 3)
	var failed *newssearch.JobFailedError
	if !errors.Is(err, newssearch.ErrJobFailed) || !errors.As(err, &failed) || failed.QueryID == "" {
		t.Fatalf("Latest = %v, want a *newssearch.JobFailedError naming the job", err)
	}
}

// Code that already uses httpmock can register the mock's endpoints on its
// MockTransport, under the base URL the code calls.
func TestTopSitesWithHTTPMock(t *testing.T) {
	t.Parallel()
	topSitesWithHTTPMock(t)
}

// The same test is immune to NEWSSEARCH_BASE_URL and NEWSSEARCH_API_KEY in
// the environment (WithoutEnvironment): it neither calls that address nor
// meets httpmock's "no responder" there.
func TestTopSitesWithHTTPMockIgnoresEnvironment(t *testing.T) {
	t.Setenv(newssearch.EnvBaseURL, "http://127.0.0.1:9")
	t.Setenv("NEWSSEARCH_API_KEY", "from-the-environment")
	topSitesWithHTTPMock(t)
}

func topSitesWithHTTPMock(t *testing.T) {
	srv := mockserver.New(mockserver.WithoutListener(), mockserver.WithCorpus(testCorpus(t)))
	t.Cleanup(srv.Close)
	mt := httpmock.NewMockTransport()
	withhttpmock.Register(mt, srv, newssearch.DefaultBaseURL)
	client, err := newssearch.NewClient(
		newssearch.WithoutEnvironment(),
		newssearch.WithAPIKey("any-key"),
		newssearch.WithHTTPClient(&http.Client{Transport: mt}),
	)
	if err != nil {
		t.Fatal(err)
	}

	got, err := newsdigest.TopSites(t.Context(), client, "harbour", 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]newsdigest.SiteCount{{Site: "a.example", Articles: 3}}, got); diff != "" {
		t.Errorf("TopSites (-want +got):\n%s", diff)
	}
	if n := mt.GetCallCountInfo()["POST "+newssearch.DefaultBaseURL+"/api/v2/query"]; n != 1 {
		t.Errorf("httpmock counted %d searches, want 1", n)
	}
}

// withFault returns a transport that asks the mock server for fault on
// every request, with the X-Mock-Fault header.
func withFault(next http.RoundTripper, fault string) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		req = req.Clone(req.Context())
		req.Header.Set(mockserver.FaultHeader, fault)
		return next.RoundTrip(req)
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
