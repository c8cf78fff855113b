package mockserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
)

// Fuzz targets of the mock server's request handling. Their seed corpora
// live in testdata/fuzz/<target>/ and run with every go test; see
// RELIABILITY.md for the commands that fuzz them for longer.

// fuzzKey is the only key the fuzzed server accepts. A fuzzed body may say
// "$KEY" for it and "$QID" for the query_id of a job submitted before the
// fuzzing starts, so that the fuzzer reaches past authentication and into
// get-results without guessing either.
const fuzzKey = "CANARY-mockfuzz-41c7"

// fuzzClock is the fixed clock of the fuzzed server.
var fuzzClock = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

// fuzzPaths are the paths FuzzEndpoint picks from.
var fuzzPaths = []string{
	"/api/v2/query", "/api/v2/query-async", "/api/v2/get-results", "/api/v2/headlines",
	"/_mock/health", "/_mock/journal", "/_mock/reset", "/_mock/other",
	"/api/v2/unknown", "/", "/api/v2/query/", "/API/V2/QUERY",
}

// fuzzServer starts a socket-less server accepting fuzzKey, submits one
// job and returns the server and the job's query_id.
func fuzzServer(f *testing.F) (*mockserver.Server, string) {
	srv, err := mockserver.Start(mockserver.WithoutListener(), mockserver.WithSeed(1),
		mockserver.WithClock(func() time.Time { return fuzzClock }), mockserver.WithAPIKeys(fuzzKey),
		mockserver.WithJournalSize(64))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(srv.Close)
	rec := serveFuzz(srv, context.Background(), http.MethodPost, "/api/v2/query-async", nil,
		[]byte(`{"api_key":"`+fuzzKey+`","query":"election"}`))
	var job struct {
		QueryID string `json:"query_id"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &job); err != nil || job.QueryID == "" {
		f.Fatalf("submitting the fuzz job: %d %s", rec.Code, rec.Body)
	}
	return srv, job.QueryID
}

// serveFuzz runs one request through the server's handler.
func serveFuzz(srv *mockserver.Server, ctx context.Context, method, path string, h http.Header, body []byte) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, fuzzRequest(ctx, method, path, h, body))
	return rec
}

// fuzzRequest builds a server-side request as net/http would.
func fuzzRequest(ctx context.Context, method, path string, h http.Header, body []byte) *http.Request {
	if h == nil {
		h = http.Header{}
	}
	req := (&http.Request{
		Method:        method,
		URL:           &url.URL{Path: path},
		RequestURI:    path,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Host:          "mock.invalid",
		RemoteAddr:    "192.0.2.1:1234",
	}).WithContext(ctx)
	return req
}

// checkFailure checks the body of a failed answer: exactly
// {"state": "FAILED", "message": "<non-empty>"}.
func checkFailure(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("HTTP %d body %q is not a JSON object: %v", rec.Code, rec.Body, err)
	}
	msg, _ := body["message"].(string)
	if len(body) != 2 || body["state"] != "FAILED" || strings.TrimSpace(msg) == "" {
		t.Fatalf(`HTTP %d body %s, want exactly {"state":"FAILED","message":"…"}`, rec.Code, rec.Body)
	}
	return msg
}

// FuzzEndpoint sends fuzzed requests (path, method, Content-Type, one
// extra header, body, and now and then a body over 1 MiB) to every
// endpoint of the mock. The fuzzer may not set X-Mock-Fault: injected
// faults are outside this property (FuzzFaultHeader covers that header).
// Property: no panic and no 5xx; every answer is JSON with Content-Type
// application/json and an X-Request-Id; a failure is 400, 401, 404, 405 (with
// Allow), 413, 403 (only for a request with an Origin or Sec-Fetch-Site
// header) or 415 (only for a POST to /_mock/) and has exactly the
// {"state":"FAILED","message":…} body, whose message never holds the key; a
// success says SUCCESS or PENDING.
func FuzzEndpoint(f *testing.F) {
	srv, qid := fuzzServer(f)
	f.Add(uint8(0), "POST", "application/json", "", "", []byte(`{"api_key":"$KEY","query":"election","page":2}`), uint8(0))
	f.Add(uint8(1), "POST", "", "Accept", "*/*", []byte(`{"api_key":"$KEY","query":"market","key_phrases":"('a' or 'b') and not 'c'","sort_order":"Date Published"}`), uint8(0))
	f.Add(uint8(2), "POST", "text/plain", "", "", []byte(`{"api_key":"$KEY","query_id":"$QID","page":1}`), uint8(0))
	f.Add(uint8(3), "POST", "application/json", "", "", []byte(`{"api_key":"$KEY"}`), uint8(0))
	f.Add(uint8(4), "GET", "", "", "", []byte(nil), uint8(0))
	f.Add(uint8(0), "PUT", "application/json", "", "", []byte(`{"api_key":"wrong"}`), uint8(0))
	f.Add(uint8(0), "POST", "application/json", "", "", []byte(`{"api_key":"$KEY","query":"x"}`), uint8(255))
	f.Fuzz(func(t *testing.T, pathIndex uint8, method, contentType, headerName, headerValue string, body []byte, big uint8) {
		path := fuzzPaths[int(pathIndex)%len(fuzzPaths)]
		if method == "" {
			method = http.MethodGet // as net/http reads an empty method
		}
		h := http.Header{}
		if contentType != "" {
			h["Content-Type"] = []string{contentType}
		}
		if headerName != "" && !strings.EqualFold(strings.TrimSpace(headerName), mockserver.FaultHeader) {
			h[headerName] = append(h[headerName], headerValue)
		}
		body = bytes.ReplaceAll(bytes.ReplaceAll(body, []byte("$KEY"), []byte(fuzzKey)), []byte("$QID"), []byte(qid))
		oversized := big == 255
		if oversized {
			body = append(body, bytes.Repeat([]byte{' '}, mockserver.MaxBodyBytes+1)...)
		}
		rec := serveFuzz(srv, context.Background(), method, path, h, body)

		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: HTTP %d %s, want no 5xx without an injected fault", method, path, body, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s %s: Content-Type %q", method, path, ct)
		}
		if rec.Header().Get("X-Request-Id") == "" {
			t.Fatalf("%s %s: no X-Request-Id", method, path)
		}
		switch rec.Code {
		case http.StatusOK:
			var ok struct {
				State string `json:"state"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &ok); err != nil || (ok.State != "SUCCESS" && ok.State != "PENDING") {
				t.Fatalf("%s %s %q: HTTP 200 with body %s", method, path, body, rec.Body)
			}
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge,
			http.StatusForbidden, http.StatusUnsupportedMediaType:
			if rec.Code == http.StatusForbidden && h.Get("Origin") == "" && h.Get("Sec-Fetch-Site") == "" {
				t.Fatalf("%s %s: 403 without an Origin or Sec-Fetch-Site header: %s", method, path, rec.Body)
			}
			if rec.Code == http.StatusUnsupportedMediaType && (method != http.MethodPost || !strings.HasPrefix(path, "/_mock/")) {
				t.Fatalf("%s %s: 415, which only control POSTs get: %s", method, path, rec.Body)
			}
			if msg := checkFailure(t, rec); strings.Contains(msg, fuzzKey) {
				t.Fatalf("%s %s: the message %q holds the API key", method, path, msg)
			}
			if rec.Code == http.StatusMethodNotAllowed && rec.Header().Get("Allow") == "" {
				t.Fatalf("%s %s: 405 without Allow", method, path)
			}
		default:
			t.Fatalf("%s %s %q: unexpected HTTP %d %s", method, path, body, rec.Code, rec.Body)
		}
		if oversized && method == http.MethodPost && pathIndex%uint8(len(fuzzPaths)) < 4 && rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("POST %s with %d bytes: HTTP %d, want 413", path, len(body), rec.Code)
		}
	})
}

// faultPaths and faultBodies are the valid requests FuzzFaultHeader sends.
var (
	faultPaths  = []string{"/api/v2/query", "/api/v2/query-async", "/api/v2/get-results", "/api/v2/headlines"}
	faultBodies = []string{
		`{"api_key":"$KEY","query":"election"}`,
		`{"api_key":"$KEY","query":"election"}`,
		`{"api_key":"$KEY","query_id":"$QID"}`,
		`{"api_key":"$KEY"}`,
	}
)

// FuzzFaultHeader sends valid requests with a fuzzed X-Mock-Fault header.
// Injected faults may do anything they are documented to do, so the
// property is only: no panic but the http.ErrAbortHandler that drop,
// truncate and cut-short latency faults use; an unparsable header is a
// 400 with a {"state":"FAILED","message":"X-Mock-Fault header: …"} body;
// any complete answer is JSON. Requests run with a cancelled context, so
// a latency fault ends at once instead of sleeping.
func FuzzFaultHeader(f *testing.F) {
	srv, qid := fuzzServer(f)
	for i, s := range []string{"status=503", "status=429;retry-after=2", "latency=150ms", "drop", "truncate",
		"job=fail", "job=stuck", "status=700", "retry-after=3", "drop;truncate", "latency=1h", "STATUS = 500 ;", ";;", "bogus"} {
		f.Add(uint8(i), s)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		i := int(which) % len(faultPaths)
		body := strings.NewReplacer("$KEY", fuzzKey, "$QID", qid).Replace(faultBodies[i])
		h := http.Header{mockserver.FaultHeader: {value}}
		rec, aborted := serveAborting(t, srv, cancelled, faultPaths[i], h, []byte(body))
		_, parseErr := mockserver.ParseFault(value)
		if parseErr != nil {
			if aborted || rec.Code != http.StatusBadRequest {
				t.Fatalf("header %q (%v): HTTP %d, aborted %v; want 400", value, parseErr, rec.Code, aborted)
			}
			if msg := checkFailure(t, rec); !strings.HasPrefix(msg, mockserver.FaultHeader+" header: ") {
				t.Fatalf("header %q: message %q does not name the header", value, msg)
			}
			return
		}
		if !aborted && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("header %q: HTTP %d body %q is not JSON", value, rec.Code, rec.Body)
		}
	})
}

// serveAborting is serveFuzz for a POST that reports an
// http.ErrAbortHandler panic (the way faults cut a connection) instead of
// panicking; any other panic fails the test.
func serveAborting(t *testing.T, srv *mockserver.Server, ctx context.Context, path string, h http.Header, body []byte) (rec *httptest.ResponseRecorder, aborted bool) {
	t.Helper()
	rec = httptest.NewRecorder()
	defer func() {
		if p := recover(); p != nil {
			err, ok := p.(error)
			if !ok || !errors.Is(err, http.ErrAbortHandler) {
				t.Fatalf("POST %s panicked: %v", path, p)
			}
			aborted = true
		}
	}()
	srv.Handler().ServeHTTP(rec, fuzzRequest(ctx, http.MethodPost, path, h, body))
	return rec, false
}
