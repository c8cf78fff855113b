package newssearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jarcoal/httpmock"
)

// sentinels lists every sentinel, for checking that exactly the right ones
// match.
var sentinels = map[string]error{
	"ErrBadRequest":        ErrBadRequest,
	"ErrUnauthorized":      ErrUnauthorized,
	"ErrNotFound":          ErrNotFound,
	"ErrRateLimited":       ErrRateLimited,
	"ErrServer":            ErrServer,
	"ErrPollTimeout":       ErrPollTimeout,
	"ErrJobFailed":         ErrJobFailed,
	"ErrAttemptTimeout":    ErrAttemptTimeout,
	"ErrInconsistentPages": ErrInconsistentPages,
}

// matching returns the names of the sentinels err matches.
func matching(err error) []string {
	var out []string
	for name, s := range sentinels {
		if errors.Is(err, s) {
			out = append(out, name)
		}
	}
	return out
}

// apiErrorOf asserts err is an *APIError and returns it.
func apiErrorOf(t *testing.T, err error) *APIError {
	t.Helper()
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error = %v (%T), want *APIError", err, err)
	}
	return apiErr
}

func TestAPIErrorStatuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status   int
		sentinel []string
		msg      string
	}{
		{400, []string{"ErrBadRequest"}, `newssearch: POST /api/v2/query: 400 Bad Request: "language" must be one of en, es (request id req-1)`},
		{401, []string{"ErrUnauthorized"}, `newssearch: POST /api/v2/query: 401 Unauthorized: "language" must be one of en, es (request id req-1)`},
		{403, []string{"ErrUnauthorized"}, `newssearch: POST /api/v2/query: 403 Forbidden: "language" must be one of en, es (request id req-1)`},
		{404, []string{"ErrNotFound"}, `newssearch: POST /api/v2/query: 404 Not Found: "language" must be one of en, es (request id req-1)`},
		{405, nil, `newssearch: POST /api/v2/query: 405 Method Not Allowed: "language" must be one of en, es (request id req-1)`},
		{413, []string{"ErrBadRequest"}, `newssearch: POST /api/v2/query: 413 Request Entity Too Large: "language" must be one of en, es (request id req-1)`},
		{422, []string{"ErrBadRequest"}, `newssearch: POST /api/v2/query: 422 Unprocessable Entity: "language" must be one of en, es (request id req-1)`},
		{429, []string{"ErrRateLimited"}, `newssearch: POST /api/v2/query: 429 Too Many Requests: "language" must be one of en, es (request id req-1)`},
		{500, []string{"ErrServer"}, `newssearch: POST /api/v2/query: 500 Internal Server Error: "language" must be one of en, es (request id req-1)`},
		{502, []string{"ErrServer"}, `newssearch: POST /api/v2/query: 502 Bad Gateway: "language" must be one of en, es (request id req-1)`},
		{503, []string{"ErrServer"}, `newssearch: POST /api/v2/query: 503 Service Unavailable: "language" must be one of en, es (request id req-1)`},
		{504, []string{"ErrServer"}, `newssearch: POST /api/v2/query: 504 Gateway Timeout: "language" must be one of en, es (request id req-1)`},
	}
	const body = `{"state":"FAILED","message":"\"language\" must be one of en, es"}`
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			t.Parallel()
			c, _ := serveScript(t, []scripted{{path: pathQuery, status: tt.status, response: body,
				header: http.Header{"X-Request-Id": {"req-1"}, "Retry-After": {"7"}}}}, WithMaxRetries(0))
			_, err := c.Search(context.Background(), SearchParams{Query: "q"})
			got := apiErrorOf(t, err)
			want := &APIError{StatusCode: tt.status, State: StateFailed, Message: `"language" must be one of en, es`,
				Endpoint: pathQuery, RequestID: "req-1", RetryAfter: 7 * time.Second, Body: []byte(body)}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(APIError{})); diff != "" {
				t.Errorf("APIError mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.msg, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.sentinel, matching(err)); diff != "" {
				t.Errorf("sentinels mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAPIErrorBodies(t *testing.T) {
	t.Parallel()
	html := "<!DOCTYPE html>\n<html><head><TITLE>502 Bad Gateway</TITLE></head><body><h1>nginx</h1></body></html>"
	tests := []struct {
		name, body, ctype string
		status            int
		wantMsg           string
		wantErr           string
	}{
		{"HTML page", html, "text/html", 502, "502 Bad Gateway",
			"newssearch: POST /api/v2/headlines: 502 Bad Gateway: 502 Bad Gateway"},
		{"plain text", "upstream\n  connect error  ", "text/plain", 503, "upstream connect error",
			"newssearch: POST /api/v2/headlines: 503 Service Unavailable: upstream connect error"},
		{"empty 401", "", "", 401, "",
			"newssearch: POST /api/v2/headlines: 401 Unauthorized: the API key was refused: check the key passed to WithAPIKey or NEWSSEARCH_API_KEY"},
		{"empty 404", "", "", 404, "",
			"newssearch: POST /api/v2/headlines: 404 Not Found: not found: check the base URL, and that the query ID came from SubmitQuery with the same key"},
		{"empty 429", "{}", "", 429, "",
			"newssearch: POST /api/v2/headlines: 429 Too Many Requests: rate limited: slow down and retry later"},
		{"empty 500", "", "", 500, "",
			"newssearch: POST /api/v2/headlines: 500 Internal Server Error: the service failed: retry later"},
		{"error key", `{"error":"bad thing"}`, "", 400, "bad thing",
			"newssearch: POST /api/v2/headlines: 400 Bad Request: bad thing"},
		{"detail key", `{"detail":"Method Not Allowed"}`, "", 405, "Method Not Allowed",
			"newssearch: POST /api/v2/headlines: 405 Method Not Allowed: Method Not Allowed"},
		{"unknown status", `{"message":"teapot"}`, "", 599, "teapot",
			"newssearch: POST /api/v2/headlines: 599: teapot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.ctype != "" {
					w.Header().Set("Content-Type", tt.ctype)
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			c := clientFor(t, srv, WithMaxRetries(0))
			_, err := c.Headlines(context.Background())
			got := apiErrorOf(t, err)
			if got.Message != tt.wantMsg || got.StatusCode != tt.status || string(got.Body) != tt.body {
				t.Errorf("APIError = {%d %q %q}, want {%d %q %q}", got.StatusCode, got.Message, got.Body, tt.status, tt.wantMsg, tt.body)
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAPIErrorBodyCapped(t *testing.T) {
	t.Parallel()
	big := `{"state":"FAILED","message":"` + strings.Repeat("x", 100<<10) + `"}`
	c, _ := serveScript(t, []scripted{{path: pathHeadlines, status: 500, response: big}}, WithMaxRetries(0))
	_, err := c.Headlines(context.Background())
	got := apiErrorOf(t, err)
	if len(got.Body) != 64<<10 || !bytes.Equal(got.Body, []byte(big[:64<<10])) {
		t.Errorf("len(Body) = %d, want the first %d bytes", len(got.Body), 64<<10)
	}
	if len(got.Message) > maxMessageLen+3 {
		t.Errorf("len(Message) = %d, want at most %d", len(got.Message), maxMessageLen+3)
	}
}

func TestFailedStateOn200(t *testing.T) {
	t.Parallel()
	body := `{"query_id":"q1","state":"FAILED","message":"the job failed: narrow the date range and resubmit"}`
	c, _ := serveScript(t, []scripted{{path: pathGetResults, response: body, header: http.Header{"X-Request-Id": {"r9"}}}})
	_, err := c.GetResults(context.Background(), "q1", 1)
	got := apiErrorOf(t, err)
	want := &APIError{StatusCode: 200, State: StateFailed, Message: "the job failed: narrow the date range and resubmit",
		Endpoint: pathGetResults, RequestID: "r9", Body: []byte(body)}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(APIError{})); diff != "" {
		t.Errorf("APIError mismatch (-want +got):\n%s", diff)
	}
	// A failed job is a *JobFailedError, whichever call sees it; the
	// service's answer is inside.
	var failed *JobFailedError
	if !errors.As(err, &failed) || failed.QueryID != "q1" || failed.State != StateFailed || failed.Message != want.Message {
		t.Errorf("error %#v, want a *JobFailedError for q1", err)
	}
	wantMsg := `newssearch: query job "q1" ended in state "FAILED": the job failed: narrow the date range and resubmit: waiting cannot help; check the query and submit it again`
	if diff := cmp.Diff(wantMsg, err.Error()); diff != "" {
		t.Errorf("message mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ErrJobFailed"}, matching(err)); diff != "" {
		t.Errorf("sentinels matching a failed job (-want +got):\n%s", diff)
	}
}

func TestFailedStateEveryEndpoint(t *testing.T) {
	t.Parallel()
	const body = `{"state":"error"}`
	calls := map[string]func(*Client) error{
		pathQuery:      func(c *Client) error { _, err := c.Search(context.Background(), SearchParams{Query: "q"}); return err },
		pathQueryAsync: func(c *Client) error { _, err := c.SubmitQuery(context.Background(), asyncQuery); return err },
		pathGetResults: func(c *Client) error { _, err := c.GetResults(context.Background(), "q", 0); return err },
		pathHeadlines:  func(c *Client) error { _, err := c.Headlines(context.Background()); return err },
	}
	for path, call := range calls {
		c, _ := serveScript(t, []scripted{{path: path, response: body}})
		err := call(c)
		got := apiErrorOf(t, err)
		if got.StatusCode != 200 || got.State != "error" || got.Endpoint != path {
			t.Errorf("%s: APIError = %+v", path, got)
		}
		want := "newssearch: POST " + path + `: service reported state "error": the service gave no reason: check the request and retry`
		if path == pathGetResults {
			want = `newssearch: query job "q" ended in state "error": waiting cannot help; check the query and submit it again`
		}
		if err.Error() != want {
			t.Errorf("%s: error = %q, want %q", path, err, want)
		}
	}
}

func TestMalformedSuccess(t *testing.T) {
	t.Parallel()
	calls := map[string]func(*Client) error{
		pathQuery:      func(c *Client) error { _, err := c.Search(context.Background(), SearchParams{Query: "q"}); return err },
		pathQueryAsync: func(c *Client) error { _, err := c.SubmitQuery(context.Background(), asyncQuery); return err },
		pathGetResults: func(c *Client) error { _, err := c.GetResults(context.Background(), "q", 0); return err },
		pathHeadlines:  func(c *Client) error { _, err := c.Headlines(context.Background()); return err },
	}
	for path, call := range calls {
		c, _ := serveScript(t, []scripted{{path: path, response: `<html>captive portal</html>`}})
		err := call(c)
		got := apiErrorOf(t, err)
		var syntaxErr *json.SyntaxError
		if !errors.As(err, &syntaxErr) {
			t.Errorf("%s: error %v does not wrap *json.SyntaxError", path, err)
		}
		// Served as application/json, but it starts with a tag.
		want := "newssearch: POST " + path + ": malformed response (HTTP 200): the answer is an HTML page, not the service's JSON: " +
			`check the base URL or a proxy (Content-Type "application/json", page "<html>captive portal</html>")`
		if err.Error() != want {
			t.Errorf("%s: error = %q, want %q", path, err, want)
		}
		if string(got.Body) != `<html>captive portal</html>` {
			t.Errorf("%s: Body = %q", path, got.Body)
		}
	}
	c, _ := serveScript(t, []scripted{{path: pathQueryAsync, response: `{"state":"SUCCESS"}`}})
	_, err := c.SubmitQuery(context.Background(), asyncQuery)
	want := `newssearch: POST /api/v2/query-async: malformed response (HTTP 200): the answer has no "query_id": ` +
		"the service's answer does not have the documented shape; report it with the request id"
	if err == nil || err.Error() != want {
		t.Errorf("missing query_id: error = %v, want %q", err, want)
	}
}

func TestValidationErrorIs(t *testing.T) {
	t.Parallel()
	err := error(&ValidationError{Field: "F", Problem: "p"})
	if diff := cmp.Diff([]string{"ErrBadRequest"}, matching(err)); diff != "" {
		t.Errorf("sentinels mismatch (-want +got):\n%s", diff)
	}
	if err.Error() != "newssearch: invalid F: p" {
		t.Errorf("Error() = %q", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{" 120 ", 2 * time.Minute, true},
		{"99999999999999999999999", maxRetryAfter, true},
		{"9223372037", maxRetryAfter, true},
		{"9223372036", 9223372036 * time.Second, true},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"Sat, 01 Mar 2025 12:00:30 GMT", 30 * time.Second, true},
		{"Sat, 01 Mar 2025 11:00:00 GMT", 0, true},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestHTMLAnswer: a 200 HTML page (a captive portal, a proxy's login page,
// a wrong base URL) is an error saying so, with the status, the content
// type and the page's title, for every endpoint; never the key.
func TestHTMLAnswer(t *testing.T) {
	t.Parallel()
	const key = "sk-html-canary-0123456789"
	page := "\n<!DOCTYPE html><html><head><title>Wi-Fi login " + key + "</title></head><body>sign in</body></html>"
	for path, call := range endpointCalls() {
		c, _ := serveScript(t, []scripted{{path: path, header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, response: page}}, WithAPIKey(key))
		err := call(c)
		got := apiErrorOf(t, err)
		want := "newssearch: POST " + path + ": malformed response (HTTP 200): the answer is an HTML page, not the service's JSON: " +
			`check the base URL or a proxy (Content-Type "text/html; charset=utf-8", page "Wi-Fi login [REDACTED]")`
		if err.Error() != want {
			t.Errorf("%s: error = %q, want %q", path, err, want)
		}
		if got.StatusCode != 200 || bytes.Contains(got.Body, []byte(key)) {
			t.Errorf("%s: StatusCode %d, Body %q", path, got.StatusCode, got.Body)
		}
	}
}

// TestAnswerWithNoKnownMember: a 200 JSON object with none of the members
// of the endpoint's answer ({} from a proxy, another API's answer) is an
// error, not an empty result.
func TestAnswerWithNoKnownMember(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{}`, ` {"ok": true, "data": []} `} {
		for path, call := range endpointCalls() {
			c, _ := serveScript(t, []scripted{{path: path, response: body}})
			err := call(c)
			apiErrorOf(t, err)
			want := map[string]string{
				pathQuery:      "the answer is a JSON object with none of the members of this endpoint's answer (state, results, articles, totalResults, totalArticles, query_id, page, message): check the base URL or a proxy",
				pathGetResults: "the answer is a JSON object with none of the members of this endpoint's answer (state, results, articles, totalResults, totalArticles, query_id, page, message): check the base URL or a proxy",
				pathHeadlines:  "the answer is a JSON object with none of the members of this endpoint's answer (state, headlines, message): check the base URL or a proxy",
				pathQueryAsync: `the answer has no "query_id"`,
			}[path]
			want = "newssearch: POST " + path + ": malformed response (HTTP 200): " + want
			if path != pathQueryAsync {
				want = strings.TrimSuffix(want, ": check the base URL or a proxy") + ": check the base URL or a proxy: " +
					"the service's answer does not have the documented shape; report it with the request id"
			} else {
				want += ": the service's answer does not have the documented shape; report it with the request id"
			}
			if err.Error() != want {
				t.Errorf("%s answering %s: error = %q, want %q", path, body, err, want)
			}
		}
	}
	// One member is enough: a pending job's answer has only two.
	c, _ := serveScript(t, []scripted{{path: pathGetResults, response: `{"STATE":"PENDING"}`}})
	if p, err := c.GetResults(context.Background(), "q", 1); err != nil || !p.State.IsPending() {
		t.Errorf("a pending answer: %+v, %v", p, err)
	}
}

// endpointCalls calls each endpoint once.
func endpointCalls() map[string]func(*Client) error {
	return map[string]func(*Client) error{
		pathQuery:      func(c *Client) error { _, err := c.Search(context.Background(), SearchParams{Query: "q"}); return err },
		pathQueryAsync: func(c *Client) error { _, err := c.SubmitQuery(context.Background(), asyncQuery); return err },
		pathGetResults: func(c *Client) error { _, err := c.GetResults(context.Background(), "q", 0); return err },
		pathHeadlines:  func(c *Client) error { _, err := c.Headlines(context.Background()); return err },
	}
}

// TestErrorsSayNewssearchOnce: an error wrapping another of this package
// names the package once.
func TestErrorsSayNewssearchOnce(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockURL(pathGetResults), httpmock.NewErrorResponder(errors.New("connection refused")))
	c := mockClient(t, mt, WithMaxRetries(0))
	_, err := c.Poll(context.Background(), "job-1", &PollOptions{MinDelay: time.Millisecond})
	if err == nil || strings.Count(err.Error(), "newssearch:") != 1 {
		t.Errorf("Poll error = %v, want \"newssearch:\" once", err)
	}
	want := `newssearch: polling query job "job-1" stopped after 1 request: POST /api/v2/get-results: Post "` + mockURL(pathGetResults) + `": connection refused`
	if err.Error() != want {
		t.Errorf("Poll error = %q, want %q", err, want)
	}
	if !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("the cause is lost: %v", err)
	}
}
