package codegen_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/newssearch/newssearch-go/mockserver"
)

// fixedNow is the mock's clock in these tests, so the corpus's date shift
// and the headline window are the same on every run.
var fixedNow = time.Date(2025, time.March, 10, 12, 0, 0, 0, time.UTC)

// newMock starts a mock server listening on a loopback port, with a fixed
// seed and clock and one API key, whose jobs answer PENDING to their first
// poll.
func newMock(t *testing.T) *mockserver.Server {
	t.Helper()
	srv, err := mockserver.Start(
		mockserver.WithAPIKeys("codegen-test-key"),
		mockserver.WithSeed(7),
		mockserver.WithClock(func() time.Time { return fixedNow }),
		mockserver.WithPendingPolls(1),
	)
	if err != nil {
		t.Fatalf("mockserver.Start: %v", err)
	}
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") {
		t.Fatalf("the mock listens on %s, want a loopback address", srv.URL())
	}
	return srv
}

// exchange is one request a recorder carried and the answer it got.
type exchange struct {
	method, path string
	status       int
	reqBody      []byte
	respBody     []byte
}

// recorder is an http.RoundTripper (and the Do of an http.Client) that
// keeps every exchange, so a test can compare what a generated client
// decoded with the bytes the mock sent.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	xs   []exchange
}

func newRecorder() *recorder { return &recorder{next: http.DefaultTransport} }

// client returns an http.Client whose transport is r.
func (r *recorder) client() *http.Client { return &http.Client{Transport: r, Timeout: time.Minute} }

// RoundTrip forwards req and records it with its answer.
func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	respBody, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	r.mu.Lock()
	r.xs = append(r.xs, exchange{req.Method, req.URL.Path, resp.StatusCode, reqBody, respBody})
	r.mu.Unlock()
	return resp, nil
}

// last returns the latest exchange, failing the test if there is none.
func (r *recorder) last(t *testing.T) exchange {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.xs) == 0 {
		t.Fatal("the generated client sent no request")
	}
	return r.xs[len(r.xs)-1]
}

// calls returns "METHOD path status" for every exchange, in order.
func (r *recorder) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, x := range r.xs {
		out = append(out, x.method+" "+x.path+" "+http.StatusText(x.status))
	}
	return out
}

// generic decodes JSON text into the values encoding/json gives any.
func generic(t *testing.T, what string, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, b)
	}
	return v
}

// sameJSON fails the test unless decoded, encoded again as JSON, is the
// answer the mock sent: every member the mock sent reached the generated
// type with its value, and nothing was added.
func sameJSON(t *testing.T, what string, sent []byte, decoded json.Marshaler) {
	t.Helper()
	again, err := decoded.MarshalJSON()
	if err != nil {
		t.Fatalf("%s: encoding the decoded answer again: %v", what, err)
	}
	if diff := cmp.Diff(generic(t, what+" (sent)", sent), generic(t, what+" (decoded)", again)); diff != "" {
		t.Errorf("%s: the decoded answer differs from the one the mock sent (-sent +decoded):\n%s", what, diff)
	}
}

// jsonMarshaler adapts a value encoding/json can encode to json.Marshaler.
type jsonMarshaler struct{ v any }

func (m jsonMarshaler) MarshalJSON() ([]byte, error) { return json.Marshal(m.v) }

// member returns the value at a path of member names in a decoded JSON
// document, or nil.
func member(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// wantRequestMembers fails the test unless the JSON request body has
// exactly the members given, with those values.
func wantRequestMembers(t *testing.T, x exchange, want map[string]any) {
	t.Helper()
	got := generic(t, "the request body", x.reqBody)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s %s: the generated client sent another body (-want +sent):\n%s", x.method, x.path, diff)
	}
}
