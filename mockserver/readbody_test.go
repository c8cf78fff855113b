package mockserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestReadBodyAnnouncedLength: the body is read in one buffer of its
// announced length, but a handler called directly may get a request whose
// Content-Length is wrong or unknown, and the body is still read whole (or
// refused clearly when it ends early).
func TestReadBodyAnnouncedLength(t *testing.T) {
	t.Parallel()
	s := start(t, WithoutListener())
	body := `{"api_key":"` + s.APIKey() + `","query":"*"}`
	for _, tt := range []struct {
		name       string
		length     int64
		body       io.Reader
		wantStatus int
		wantMsg    string
	}{
		{"exact", int64(len(body)), strings.NewReader(body), http.StatusOK, ""},
		{"unknown length", -1, strings.NewReader(body), http.StatusOK, ""},
		{"longer than announced", 5, strings.NewReader(body), http.StatusOK, ""},
		{"longer than announced by one byte", int64(len(body) - 1), strings.NewReader(body), http.StatusOK, ""},
		{"shorter than announced", int64(len(body) + 10), strings.NewReader(body), http.StatusBadRequest,
			"the request body could not be read (unexpected EOF): send the whole body with the request"},
		{"too large, length unknown", -1, strings.NewReader(`{"query":"` + strings.Repeat("x", MaxBodyBytes) + `"}`),
			http.StatusRequestEntityTooLarge, "the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"},
		{"too large, length announced", MaxBodyBytes + 1, strings.NewReader(strings.Repeat(" ", MaxBodyBytes+1)),
			http.StatusRequestEntityTooLarge, "the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"},
	} {
		r := httptest.NewRequest(http.MethodPost, "/api/v2/query", tt.body)
		r.ContentLength = tt.length
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		if w.Code != tt.wantStatus {
			t.Errorf("%s: status %d, want %d: %s", tt.name, w.Code, tt.wantStatus, w.Body)
			continue
		}
		if tt.wantMsg != "" {
			if want := failureBody(tt.wantMsg); w.Body.String() != string(want) {
				t.Errorf("%s: body %s, want %s", tt.name, w.Body, want)
			}
		}
	}
	// Every request above is in the journal with the body as sent (redacted).
	for _, e := range s.Journal() {
		if e.Status == http.StatusOK && !strings.Contains(string(e.Body), `"query":"*"`) {
			t.Errorf("journal entry %d: body %q lost part of the request", e.Seq, e.Body)
		}
	}
}

// TestAnswerHeadersAreTheCallersOwn: the in-process transport hands each
// answer's header map to the caller; changing it, values included, changes
// no other answer.
func TestAnswerHeadersAreTheCallersOwn(t *testing.T) {
	t.Parallel()
	s := start(t, WithoutListener())
	hc := &http.Client{Transport: s.Transport()}
	body := `{"api_key":"` + s.APIKey() + `","query":"*"}`
	get := func() *http.Response {
		resp, err := hc.Post("http://mock/api/v2/query", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	first := get()
	first.Header["Content-Type"][0] = "text/changed-by-the-caller"
	first.Header["X-Request-Id"][0] = "changed"
	second := get()
	if ct := second.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type of the next answer: %q, want application/json", ct)
	}
	if id := second.Header.Get("X-Request-Id"); !strings.HasPrefix(id, "req-") {
		t.Fatalf("X-Request-Id of the next answer: %q", id)
	}
}
