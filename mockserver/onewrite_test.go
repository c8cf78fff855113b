package mockserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/internal/onewrite"
)

// TestSocketAnswersInOneWrite checks that the mock's socket sends a long
// answer with one write system call (internal/onewrite: net/http alone
// makes two), and that what it sends is byte for byte what its handler
// answers in process. It is not parallel: other tests' writes would count.
func TestSocketAnswersInOneWrite(t *testing.T) {
	if _, err := onewrite.WriteCalls(); err != nil {
		t.Skipf("cannot count write system calls: %v", err)
	}
	s, err := Start(WithClock(func() time.Time { return t0 }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	// A job of the same search, polled once (PENDING) so that the next
	// get-results answers its page: head, the cached articles, tail.
	id := submit(t, s, map[string]any{"query": "kestrava"})
	poll := `{"api_key":"` + DefaultAPIKey + `","query_id":"` + id + `","page":1}`
	s.Handler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/api/v2/get-results", strings.NewReader(poll)))
	for _, tc := range []struct{ path, body string }{
		{"/api/v2/query", `{"api_key":"` + DefaultAPIKey + `","query":"kestrava","page":1}`},
		{"/api/v2/get-results", poll},
	} {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, tc.path, strings.NewReader(tc.body)))
		want := rec.Body.Bytes()
		if rec.Code != http.StatusOK || len(want) <= onewrite.MinBody || !bytes.Contains(want, []byte(`"articles":[{`)) {
			t.Fatalf("%s in process: %d with %d bytes; want 200 with articles, more than %d bytes", tc.path, rec.Code, len(want), onewrite.MinBody)
		}
		const answers = 100
		req := "POST " + tc.path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " +
			strconv.Itoa(len(tc.body)) + "\r\n\r\n" + tc.body
		status, got, n, err := onewrite.CountWrites(strings.TrimPrefix(s.URL(), "http://"), []byte(req), answers)
		if err != nil || status != http.StatusOK || !bytes.Equal(got, want) {
			t.Fatalf("%s over the socket: %d with %d bytes (%v); want 200 with the %d bytes answered in process", tc.path, status, len(got), err, len(want))
		}
		// One write for each request (the client's) and one for each
		// answer; the runtime may add a few of its own.
		if n > answers*2+answers/10 {
			t.Errorf("%s: %d write system calls for %d requests and answers of %d bytes; want about %d (one each)", tc.path, n, answers, len(want), 2*answers)
		}
	}
}
