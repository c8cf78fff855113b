package newssearch

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRedirectToAnotherHostIsNotFollowed(t *testing.T) {
	t.Parallel()
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "req-1")
		http.Redirect(w, r, "https://elsewhere.example/api/v2/headlines", http.StatusTemporaryRedirect)
	}))
	_, err := clientFor(t, srv).Headlines(t.Context())
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("Headlines after a redirect to another host: %v, want an *APIError", err)
	}
	want := "newssearch: POST /api/v2/headlines: 307 Temporary Redirect: the service redirected the request to " +
		"https://elsewhere.example/api/v2/headlines, on another host: the client does not follow it, because the API key " +
		"travels in the request body; if you trust that address, pass it to WithBaseURL (request id req-1)"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}

func TestRedirectWithinTheHostIsFollowed(t *testing.T) {
	t.Parallel()
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == pathHeadlines {
			http.Redirect(w, r, sdkPrefix+"/moved"+pathHeadlines, http.StatusPermanentRedirect)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"headlines":[{"topic":"Moved","count":1,"articles":[]}],"state":"SUCCESS"}`))
	}))
	hc := srv.Client()
	res, err := clientFor(t, srv, WithHTTPClient(hc)).Headlines(t.Context())
	if err != nil {
		t.Fatalf("Headlines through a same-host 308: %v", err)
	}
	if len(res.Headlines) != 1 || res.Headlines[0].Topic != "Moved" {
		t.Errorf("Headlines = %+v, want the moved answer", res)
	}
	if hc.CheckRedirect != nil {
		t.Error("NewClient modified the caller's http.Client (CheckRedirect set)")
	}
}

func TestCleanRequestID(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"req-1":                       "req-1",
		"a\x00b\r\nc\x7f":             "abc",
		strings.Repeat("é", 100):      strings.Repeat("é", maxRequestID/2),
		strings.Repeat("r", 1<<20):    strings.Repeat("r", maxRequestID),
		"x" + strings.Repeat("é", 70): "x" + strings.Repeat("é", (maxRequestID-1)/2),
	} {
		c, err := NewClient(WithAPIKey("k"), WithoutEnvironment())
		if err != nil {
			t.Fatal(err)
		}
		if got := c.cfg.requestID(&http.Response{Header: http.Header{"X-Request-Id": {in}}}); got != want {
			t.Errorf("requestID(%.20q…) = %.20q… (%d bytes), want %d bytes", in, got, len(got), len(want))
		}
	}
}

func TestExcerpt(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"<html><TITLE>502 Bad Gateway</Title></html>": "502 Bad Gateway",
		"plain\n  text\tbody":                         "plain text body",
		"<title>\xfe\x9a\xab\xf2\xe6</title>":         "\uFFFD", // invalid UTF-8 once panicked
		"<title>no end":                               "<title>no end",
		strings.Repeat("x", maxMessageLen+10):         strings.Repeat("x", maxMessageLen) + "...",
	} {
		if got := excerpt(nil, []byte(in), maxMessageLen); got != want {
			t.Errorf("excerpt(%.30q) = %.40q, want %.40q", in, got, want)
		}
	}
}
