package mockserver

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestUIServesEmbeddedFiles(t *testing.T) {
	t.Parallel()
	s := start(t, WithFaults(FaultRule{Fault: Fault{Status: 503}})) // the page is never faulted
	for _, tc := range []struct {
		path, contentType, contains string
	}{
		{UIPath, "text/html; charset=utf-8", `<script src="ui/inspector.js" defer></script>`},
		{UIPath + "/inspector.js", "text/javascript; charset=utf-8", "'use strict'"},
		{UIPath + "/inspector.css", "text/css; charset=utf-8", "prefers-color-scheme"},
	} {
		r := call(t, s, http.MethodGet, tc.path, "")
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != tc.contentType || !strings.Contains(string(r.Body), tc.contains) {
			t.Errorf("GET %s: %d %q, body contains %q: %v", tc.path, r.Status, r.Header.Get("Content-Type"), tc.contains,
				strings.Contains(string(r.Body), tc.contains))
		}
		for name, want := range map[string]string{
			"Content-Security-Policy": uiCSP,
			"X-Content-Type-Options":  "nosniff",
			"Cache-Control":           "no-cache",
		} {
			if got := r.Header.Get(name); got != want {
				t.Errorf("GET %s: %s = %q, want %q", tc.path, name, got, want)
			}
		}
		if r.Header.Get("X-Request-Id") == "" {
			t.Errorf("GET %s: no X-Request-Id", tc.path)
		}
		etag := r.Header.Get("ETag")
		again := call(t, s, http.MethodGet, tc.path, "", "If-None-Match", etag)
		if etag == "" || again.Status != http.StatusNotModified || len(again.Body) != 0 {
			t.Errorf("GET %s with If-None-Match %s: %d, %d bytes; want 304 and no body", tc.path, etag, again.Status, len(again.Body))
		}
		head := call(t, s, http.MethodHead, tc.path, "")
		if head.Status != http.StatusOK || len(head.Body) != 0 || head.Header.Get("Content-Length") != r.Header.Get("Content-Length") {
			t.Errorf("HEAD %s: %d, %d bytes, Content-Length %q", tc.path, head.Status, len(head.Body), head.Header.Get("Content-Length"))
		}
	}
	if got := s.Journal(); len(got) != 0 {
		t.Errorf("the inspector's files were journaled: %+v", got)
	}
}

func TestUIErrors(t *testing.T) {
	t.Parallel()
	s := start(t)
	for _, tc := range []struct {
		method, path string
		status       int
		message      string
		header       [2]string
	}{
		{http.MethodPost, UIPath, http.StatusMethodNotAllowed,
			`/_mock/ui does not accept "POST": open it in a browser (GET)`, [2]string{"Allow", "GET, HEAD"}},
		{http.MethodDelete, UIPath + "/inspector.js", http.StatusMethodNotAllowed,
			`/_mock/ui/inspector.js does not accept "DELETE": open it in a browser (GET)`, [2]string{"Allow", "GET, HEAD"}},
		{http.MethodGet, UIPath + "/missing.js", http.StatusNotFound,
			`there is no inspector file at "/_mock/ui/missing.js": open /_mock/ui`, [2]string{}},
		{http.MethodGet, UIPath + "/index.html", http.StatusNotFound,
			`there is no inspector file at "/_mock/ui/index.html": open /_mock/ui`, [2]string{}},
		{http.MethodGet, UIPath + "/", http.StatusMovedPermanently,
			`the inspector is at /_mock/ui (without the trailing slash)`, [2]string{"Location", "../ui"}},
		{http.MethodGet, "/_mock/uix", http.StatusNotFound,
			`there is no endpoint at "/_mock/uix": the mock's own endpoints are GET /_mock/health, GET /_mock/journal, DELETE /_mock/journal, GET /_mock/record, POST /_mock/reset, ` +
				`GET /_mock/faults, PUT /_mock/faults, POST /_mock/faults, DELETE /_mock/faults, DELETE /_mock/faults/{index}, GET /_mock/jobs, GET /_mock/jobs/{id}, ` +
				`POST /_mock/jobs/{id}, DELETE /_mock/jobs/{id}, GET /_mock/clock, POST /_mock/clock, GET /_mock/articles, POST /_mock/articles, PUT /_mock/articles, DELETE /_mock/articles, GET /_mock/settings, PATCH /_mock/settings, DELETE /_mock/settings, GET /_mock/expectations, POST /_mock/expectations, DELETE /_mock/expectations, GET /_mock/verify, GET /_mock/worlds, POST /_mock/worlds, DELETE /_mock/worlds, DELETE /_mock/worlds/{id}, GET /_mock/ui (the inspector page)`,
			[2]string{}},
	} {
		rec := httptest.NewRecorder() // not a client: it would follow the redirect
		s.Handler().ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		r := reply{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
		got := decode[failure](t, r)
		if diff := cmp.Diff(failure{State: "FAILED", Message: tc.message}, got); diff != "" || r.Status != tc.status {
			t.Errorf("%s %s: status %d, want %d (-want +got):\n%s", tc.method, tc.path, r.Status, tc.status, diff)
		}
		if tc.header[0] != "" && r.Header.Get(tc.header[0]) != tc.header[1] {
			t.Errorf("%s %s: %s = %q, want %q", tc.method, tc.path, tc.header[0], r.Header.Get(tc.header[0]), tc.header[1])
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", tc.method, tc.path, ct)
		}
	}
}

// TestUIIsSelfContained checks the embedded files: every file is served,
// and nothing in them reaches beyond the server (no absolute URL in a
// src, href or fetch, no inline script or style, which the CSP forbids).
func TestUIIsSelfContained(t *testing.T) {
	t.Parallel()
	var names []string
	err := fs.WalkDir(uiFS, "ui", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(uiAssets) {
		t.Errorf("embedded files %v, served %d: every file must have a content type in loadUIAssets", names, len(uiAssets))
	}
	page := string(uiAssets[UIPath].body)
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if u := m[1]; u != "data:," && !strings.HasPrefix(u, "ui/") {
			t.Errorf("index.html refers to %q: use a path relative to /_mock/ui (ui/…)", u)
		}
	}
	if regexp.MustCompile(`<script>|<style|\son[a-z]+=`).MatchString(page) {
		t.Error("index.html has inline script, style or an event attribute, which the Content-Security-Policy blocks")
	}
	js := string(uiAssets[UIPath+"/inspector.js"].body)
	for _, bad := range []string{"http://", "https://cdn", "innerHTML", "localStorage", "sessionStorage", "eval("} {
		if strings.Contains(js, bad) {
			t.Errorf("inspector.js contains %q", bad)
		}
	}
	for _, m := range regexp.MustCompile(`request\('[A-Z]+', '([^']*)'`).FindAllStringSubmatch(js, -1) {
		if strings.HasPrefix(m[1], "/") {
			t.Errorf("inspector.js calls %q: use a relative URL so that a mount prefix keeps working", m[1])
		}
	}
}

// TestUIUnderPrefix serves the handler under a prefix, as a user mounting
// Handler in a server of their own would: the page's relative URLs must
// reach the mock's endpoints.
func TestUIUnderPrefix(t *testing.T) {
	t.Parallel()
	s := start(t)
	mux := http.NewServeMux()
	mux.Handle("/mock/", http.StripPrefix("/mock", s.Handler()))
	for _, tc := range []struct{ page, ref, want string }{
		{"/mock/_mock/ui", "ui/inspector.js", "/mock/_mock/ui/inspector.js"},
		{"/mock/_mock/ui", "journal", "/mock/_mock/journal"},
		{"/mock/_mock/ui", "../api/v2/query", "/mock/api/v2/query"},
	} {
		base, err := http.NewRequest(http.MethodGet, "http://host"+tc.page, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := base.URL.Parse(tc.ref)
		if err != nil || ref.Path != tc.want {
			t.Errorf("%q from %s resolves to %v (%v), want %s", tc.ref, tc.page, ref, err, tc.want)
		}
	}
	for _, p := range []string{"/mock/_mock/ui", "/mock/_mock/ui/inspector.js", "/mock/_mock/journal"} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s under a prefix: %d %s", p, rec.Code, rec.Body)
		}
	}
}

func TestClearJournal(t *testing.T) {
	t.Parallel()
	s := start(t)
	id := submit(t, s, map[string]any{"query": "cars"})
	post(t, s, "/api/v2/headlines", nil)
	r := call(t, s, http.MethodDelete, "/_mock/journal", "")
	if r.Status != http.StatusOK || string(r.Body) != `{"state":"SUCCESS"}` {
		t.Fatalf("DELETE /_mock/journal: %d %s", r.Status, r.Body)
	}
	if got := s.Journal(); len(got) != 0 {
		t.Fatalf("journal after DELETE: %+v", got)
	}
	// Jobs and numbering survive: only the journal is emptied.
	if res := results(t, s, id, 1); res.State != "SUCCESS" {
		t.Errorf("the job submitted before the clear: state %q", res.State)
	}
	var seqs []uint64
	for _, e := range s.Journal() {
		seqs = append(seqs, e.Seq)
	}
	if diff := cmp.Diff([]uint64{3, 4}, seqs); diff != "" {
		t.Errorf("Seq after the clear (-want +got):\n%s", diff)
	}
	s.journal.Reset()
	if got := decode[struct {
		Entries []JournalEntry `json:"entries"`
	}](t, call(t, s, http.MethodGet, "/_mock/journal", "")); len(got.Entries) != 0 {
		t.Errorf("GET /_mock/journal after ClearJournal: %+v", got.Entries)
	}
	bad := call(t, s, http.MethodPut, "/_mock/journal", "")
	if diff := cmp.Diff(failure{"FAILED", `/_mock/journal does not accept "PUT": use GET or DELETE`}, decode[failure](t, bad)); diff != "" ||
		bad.Status != http.StatusMethodNotAllowed || bad.Header.Get("Allow") != "GET, DELETE" {
		t.Errorf("PUT /_mock/journal: %d, Allow %q (-want +got):\n%s", bad.Status, bad.Header.Get("Allow"), diff)
	}
}

// TestJournalDuration checks the latency the inspector shows: the server
// clock from arrival to the answer.
func TestJournalDuration(t *testing.T) {
	t.Parallel()
	clock := newTestClock(t0)
	var reads int
	s := start(t, WithClock(func() time.Time {
		reads++ // requests run one at a time here
		clock.Advance(3 * time.Millisecond)
		return clock.Now()
	}))
	before := reads
	post(t, s, "/api/v2/headlines", nil)
	j := s.Journal()
	if len(j) != 1 || j[0].Duration != time.Duration(reads-before-1)*3*time.Millisecond || j[0].Duration <= 0 {
		t.Errorf("journal %+v after %d clock reads: want Duration 3 ms per read after the first", j, reads-before)
	}
	fixed := start(t)
	post(t, fixed, "/api/v2/headlines", nil)
	if d := fixed.Journal()[0].Duration; d != 0 {
		t.Errorf("Duration under a fixed clock: %v, want 0", d)
	}
}
