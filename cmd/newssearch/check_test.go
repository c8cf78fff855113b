package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// drifted wraps the mock's handler in a service that has drifted from the
// document: articles call their title "headline", dates are RFC 3339,
// articles and the query answer carry members nobody documented, the
// get-results count is called "total", and headlines say "Success".
func drifted(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var m map[string]any
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &m) != nil {
			copyResponse(w, rec, rec.Body.Bytes())
			return
		}
		fixArticles := func(list any) {
			arts, _ := list.([]any)
			for _, x := range arts {
				a := x.(map[string]any)
				a["headline"] = a["title"]
				delete(a, "title")
				if s, ok := a["datePublished"].(string); ok {
					if t, err := time.Parse(time.RFC1123, s); err == nil {
						a["datePublished"] = t.UTC().Format(time.RFC3339)
					}
				}
				a["paywall"] = false
			}
		}
		switch r.URL.Path {
		case "/api/v2/query":
			res := m["results"].(map[string]any)
			fixArticles(res["articles"])
			m["request_cost"] = 1
		case "/api/v2/get-results":
			fixArticles(m["articles"])
			if n, ok := m["totalResults"]; ok {
				m["total"] = n
				delete(m, "totalResults")
				delete(m, "totalArticles")
			}
		case "/api/v2/headlines":
			m["state"] = "Success"
		}
		b, _ := json.Marshal(m)
		copyResponse(w, rec, b)
	})
}

func copyResponse(w http.ResponseWriter, rec *httptest.ResponseRecorder, body []byte) {
	for k, v := range rec.Header() {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(body)
}

// TestCheckNamesEachDifference runs check against a drifted service and
// expects every difference named.
func TestCheckNamesEachDifference(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	ts := httptest.NewServer(drifted(srv.Handler()))
	t.Cleanup(ts.Close)
	r := runCLI(t, srv, runOpts{transport: http.DefaultTransport, env: map[string]string{"NEWSSEARCH_BASE_URL": ts.URL}}, "check", "-o", "table")
	if r.code != exitError {
		t.Errorf("exit %d, want %d", r.code, exitError)
	}
	wantStderr := "newssearch: the service differs from what this newssearch expects (see the report above)\n"
	if r.stderr != wantStderr {
		t.Errorf("stderr = %q, want %q", r.stderr, wantStderr)
	}
	for _, want := range []string{
		`/api/v2/query: sdk: article member "headline" is not modelled by the SDK (kept in Extra)`,
		`/api/v2/query: sdk: article member "paywall" is not modelled by the SDK (kept in Extra)`,
		`/api/v2/query: sdk: answer member "request_cost" is not modelled by the SDK (it is dropped)`,
		`/api/v2/get-results: sdk: no count field (totalResults, or totalArticles): the SDK reports a total of 0`,
		`/api/v2/get-results: sdk: answer member "total" is not modelled by the SDK (it is dropped)`,
		`/api/v2/get-results: sdk: article member "headline" is not modelled by the SDK (kept in Extra)`,
		`/api/v2/headlines: sdk: state "Success" is not a documented literal (SUCCESS); the SDK reads it as success`,
		"/api/v2/query: openapi: answer:",
		"/api/v2/get-results: openapi: answer:",
		"/api/v2/headlines: openapi: answer:",
	} {
		if !strings.Contains(r.stdout, want+"") {
			t.Errorf("the report does not say %q:\n%s", want, r.stdout)
		}
	}
	// The sample's size is the corpus's: every article of it must be named.
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`/api/v2/query: sdk: article member "title" is missing from (\d+) of (\d+) articles`),
		regexp.MustCompile(`/api/v2/query: sdk: datePublished is in RFC 3339, not RFC 1123 \(Wed, 13 Nov 2024 01:44:17 GMT\), in (\d+) of (\d+) articles \(the SDK parses it\)`),
	} {
		if m := want.FindStringSubmatch(r.stdout); m == nil || m[1] != m[2] || m[1] == "0" {
			t.Errorf("the report does not match %s for every article of a sample:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "/api/v2/query-async: ") {
		t.Errorf("the report names a difference of query-async, which did not drift:\n%s", r.stdout)
	}
	r.stdout = strings.ReplaceAll(r.stdout, ts.URL, "http://DRIFTED")
	golden(t, "check_drifted", []string{"check", "-o", "table"}, r)

	// The same as JSON.
	r = runCLI(t, srv, runOpts{transport: http.DefaultTransport, env: map[string]string{"NEWSSEARCH_BASE_URL": ts.URL}}, "check", "-o", "json")
	var rep report
	if err := json.NewDecoder(bytes.NewReader([]byte(r.stdout))).Decode(&rep); err != nil {
		t.Fatalf("check -o json: %v\n%s", err, r.stdout)
	}
	if rep.OK || len(rep.Endpoints) != 4 || !rep.Endpoints[1].OK || rep.Endpoints[0].OK {
		t.Errorf("report ok=%v, endpoints %d; want not ok, 4 endpoints, only query-async ok", rep.OK, len(rep.Endpoints))
	}
}
