package tools

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// tool returns the path of an npm-installed command of tools/openapi, or
// skips the test (fails it in CI) saying how to install it.
func tool(t *testing.T, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "tools", "openapi", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		msg := fmt.Sprintf("%s is not installed (%v): run `npm ci --prefix tools/openapi` from the repository root (needs Node.js 20 or later and npm)", name, err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI must run this check")
		}
		t.Skip(msg)
	}
	return path
}

// startPrism runs `prism proxy --errors` in front of upstream and returns
// its URL. With --errors Prism answers 422 to a request the document
// rejects instead of forwarding it, and fails a response the document
// rejects.
func startPrism(t *testing.T, upstream string) string {
	t.Helper()
	prism := tool(t, "prism")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	doc, err := filepath.Abs(filepath.Join("..", "..", "api", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, prism, "proxy", "--errors", "-h", "127.0.0.1", "-p", fmt.Sprint(port), doc, upstream)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start prism: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prism's log:\n%s", log.String())
		}
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(2 * time.Minute) // node starts slowly on a busy machine
	for {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			c.Close()
			return url
		}
		if time.Now().After(deadline) {
			t.Fatalf("prism did not listen on %s within 2 minutes", url)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func post(t *testing.T, url, body string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestPrismValidatingProxy puts Prism between clients and the mock server:
// the SDK's traffic and the vendor SDK's traffic must pass both ways
// unflagged, and bad requests must be flagged.
func TestPrismValidatingProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prism (Node.js); skipped under -short")
	}
	srv := mockserver.New(mockserver.WithPendingPolls(1))
	t.Cleanup(srv.Close)
	proxy := startPrism(t, srv.URL())

	t.Run("SDK", func(t *testing.T) {
		client, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithAPIKey("k"),
			newssearch.WithBaseURL(proxy), newssearch.WithMaxRetries(0),
			&newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		ctx := t.Context()
		now := time.Now()
		res, err := client.Search(ctx, newssearch.SearchParams{Query: "bank", Page: 2, Sites: []string{"bbc.co.uk"},
			StartDate: now.AddDate(0, 0, -30), EndDate: now, ToggleState: newssearch.ToggleAllArticles,
			Embeddings: true, Language: newssearch.LanguageEnglish, TrafficRank: 10})
		if err != nil {
			t.Fatalf("Search through Prism: %v", err)
		}
		_ = res
		if _, err := client.Search(ctx, newssearch.SearchParams{Query: "bank"}); err != nil {
			t.Fatalf("Search through Prism: %v", err)
		}
		job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{
			SearchParams: newssearch.SearchParams{Query: "election", StartDate: now.AddDate(0, -2, 0), EndDate: now},
			KeyPhrases:   "('vote' or 'poll') and not 'sport'",
			SortOrder:    newssearch.SortDatePublished,
		})
		if err != nil {
			t.Fatalf("SubmitQuery through Prism: %v", err)
		}
		page, err := client.Poll(ctx, job.QueryID)
		if err != nil {
			t.Fatalf("Poll through Prism: %v", err)
		}
		if _, err := client.GetResults(ctx, page.QueryID, 2); err != nil {
			t.Fatalf("GetResults through Prism: %v", err)
		}
		if _, err := client.Headlines(ctx); err != nil {
			t.Fatalf("Headlines through Prism: %v", err)
		}
	})

	// The vendor's Python SDK cannot be installed here (PyPI is not
	// reachable); these are the bodies service-facts.md says it sends.
	t.Run("VendorSDK", func(t *testing.T) {
		status, h, body := post(t, proxy+"/api/v2/query",
			`{"api_key":"k","query":"bank","page":1,"sites":null,"language":"","toggle_state":"All Articles","embeddings":false,`+
				`"traffic_rank":0,"start_date":"2025-03-03t00:00:00.123456z","end_date":"2025-03-10T23:59:59.999999Z"}`)
		checkPassed(t, "vendor query", status, h, body)
		status, h, body = post(t, proxy+"/api/v2/query-async",
			`{"api_key":"k","query":"bank","sites":null,"language":"","key_phrases":"","sort_order":"Relevance",`+
				`"toggle_state":"All Articles","embeddings":false,"start_date":"2025-03-03T00:00:00.000000Z","end_date":"2025-03-09T23:59:59.999999Z"}`)
		checkPassed(t, "vendor query-async", status, h, body)
		id := between(body, `"query_id":"`, `"`)
		for i := range 2 { // pending, then done
			status, h, body = post(t, proxy+"/api/v2/get-results",
				`{"api_key":"k","query_id":"`+id+`","page":1,"toggle_state":"All Articles","client":"athenanews"}`)
			checkPassed(t, fmt.Sprintf("vendor get-results %d", i+1), status, h, body)
		}
		status, h, body = post(t, proxy+"/api/v2/headlines", `{"api_key":"k"}`)
		checkPassed(t, "vendor headlines", status, h, body)
	})

	// Articles a test uploads carry only the required fields, so their
	// answers hold the defaults the mock fills in (no topics, image, category
	// or entities): those must match the document too.
	t.Run("UploadedArticles", func(t *testing.T) {
		const minimal = `{"_id": "6a1c0a9e3b2d4c6e8f7a1b2c", "title": "Harbour bridge reopens after repairs", ` +
			`"url": "https://example.org/news/harbour-bridge", "site": "example.org", "datePublished": "2026-01-15 09:30:00"}` + "\n" +
			`{"_id": "6a1c0a9e3b2d4c6e8f7a1b2d", "title": "Harbour ferry timetable changes", "description": "", ` +
			`"url": "https://example.org/news/harbour-ferry", "site": "example.org", "datePublished": "2026-01-16T08:00:00Z", ` +
			`"topics": [], "image": null, "entities": null}` + "\n"
		if n, err := srv.AddArticles(strings.NewReader(minimal)); err != nil || n != 2 {
			t.Fatalf("AddArticles: %d, %v", n, err)
		}
		const search = `"query":"harbour","sites":["example.org"],"start_date":"2026-01-01","end_date":"2026-02-01"`
		status, h, body := post(t, proxy+"/api/v2/query", `{"api_key":"k",`+search+`,"embeddings":true}`)
		checkPassed(t, "query of uploaded articles", status, h, body)
		if !strings.Contains(body, `"totalResults":2`) || !strings.Contains(body, `"topics":[]`) {
			t.Errorf("query of uploaded articles: want both, with \"topics\":[]; got %.600s", body)
		}
		status, h, body = post(t, proxy+"/api/v2/query-async", `{"api_key":"k",`+search+`,"sort_order":"Date Published"}`)
		checkPassed(t, "query-async of uploaded articles", status, h, body)
		id := between(body, `"query_id":"`, `"`)
		for i := range 2 { // pending, then done
			status, h, body = post(t, proxy+"/api/v2/get-results", `{"api_key":"k","query_id":"`+id+`"}`)
			checkPassed(t, fmt.Sprintf("get-results of uploaded articles %d", i+1), status, h, body)
		}
		if !strings.Contains(body, `"totalArticles":2`) {
			t.Errorf("get-results of uploaded articles: want both; got %.600s", body)
		}
	})

	t.Run("BadRequestsFlagged", func(t *testing.T) {
		for _, tc := range []struct{ path, body, field string }{
			{"/api/v2/query", `{"api_key":"k","query":"bank","page":0}`, "page"},
			{"/api/v2/query", `{"api_key":"k"}`, "query"},
			{"/api/v2/query", `{"api_key":"k","query":"bank","toggle_state":"Some Articles"}`, "toggle_state"},
			{"/api/v2/query-async", `{"api_key":"k","query":"bank","sort_order":"Oldest"}`, "sort_order"},
			{"/api/v2/query", `{"api_key":"k","query":"bank","start_date":"yesterday"}`, "start_date"},
			{"/api/v2/get-results", `{"api_key":"k"}`, "query_id"},
			{"/api/v2/headlines", `{}`, "api_key"},
		} {
			status, _, body := post(t, proxy+tc.path, tc.body)
			if status != http.StatusUnprocessableEntity || !strings.Contains(body, "Invalid request") || !strings.Contains(body, tc.field) {
				t.Errorf("%s %s: status %d, body %s; want Prism's 422 naming %s", tc.path, tc.body, status, body, tc.field)
			}
		}
	})
}

func checkPassed(t *testing.T, what string, status int, h http.Header, body string) {
	t.Helper()
	if status != http.StatusOK || h.Get("sl-violations") != "" {
		t.Errorf("%s: status %d, sl-violations %q, body %.300s; want 200 and no violation", what, status, h.Get("sl-violations"), body)
	}
}

func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, end)
	return v
}
