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

// TestSocketAnswerDate: an answer that leaves by the socket carries one
// Date header, the real time (whatever the server's clock says) in HTTP's
// format, as net/http would write it; an answer in process has none, as
// before the mock wrote it itself.
func TestSocketAnswerDate(t *testing.T) {
	t.Parallel()
	s, err := Start(WithClock(func() time.Time { return t0 }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	body := `{"api_key":"` + DefaultAPIKey + `","query":"kestrava"}`
	for range 3 { // the second and third from the formatted second, most likely
		before := time.Now().Truncate(time.Second)
		r := do(t, s, http.MethodPost, s.URL()+"/api/v2/query", body, "Content-Type", "application/json")
		after := time.Now()
		dates := r.Header.Values("Date")
		if r.Status != http.StatusOK || len(dates) != 1 {
			t.Fatalf("query: %d with Date %q; want 200 with one Date", r.Status, dates)
		}
		at, err := time.Parse(http.TimeFormat, dates[0])
		if err != nil || at.Before(before) || at.After(after) {
			t.Errorf("Date: %s (%v); want the time of the answer, between %s and %s, in http.TimeFormat",
				dates[0], err, before.UTC().Format(http.TimeFormat), after.UTC().Format(http.TimeFormat))
		}
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v2/query", strings.NewReader(body)))
	if rec.Code != http.StatusOK || rec.Header()["Date"] != nil {
		t.Errorf("in process: %d with Date %q; want 200 and no Date", rec.Code, rec.Header()["Date"])
	}
}
