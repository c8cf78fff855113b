package mockserver

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
)

// wireExchange is one HTTP exchange as the SDK's transport saw it: the
// request it sent and the answer's bytes as they came (Date left out: it
// is the second the answer was sent).
type wireExchange struct {
	Request string
	Status  int
	Header  http.Header
	Body    string
	ReadErr string
}

// capturing is an http.RoundTripper that keeps every exchange.
type capturing struct {
	base http.RoundTripper
	mu   sync.Mutex
	log  []wireExchange
}

func (c *capturing) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	x := wireExchange{Request: req.Method + " " + req.URL.Path + " " + string(reqBody)}
	resp, err := c.base.RoundTrip(req)
	if err != nil {
		x.ReadErr = "no answer"
		c.add(x)
		return nil, err
	}
	body, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	x.Status, x.Header, x.Body = resp.StatusCode, resp.Header.Clone(), string(body)
	x.Header.Del("Date")
	if rerr != nil {
		x.ReadErr = rerr.Error()
	}
	c.add(x)
	resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{rerr}))
	return resp, nil
}

func (c *capturing) add(x wireExchange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, x)
}

// errReader returns its error, or io.EOF when it has none.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// TestRecordSDKSessionIsByteIdentical runs one session of the SDK's calls
// (searches and their pages, an async job polled and paged, headlines,
// answers the service refuses, a 503 retried and a truncated answer)
// against a mock directly and against a recorder in front of an identical
// mock: every answer the SDK's transport receives must be the same, byte
// for byte, headers included (but Date).
func TestRecordSDKSessionIsByteIdentical(t *testing.T) {
	t.Parallel()
	const key = "sdk-session-key-77"
	path := filepath.Join(t.TempDir(), "news.jsonl")
	opts := []Option{WithSeed(11), WithAPIKeys(key), WithPendingPolls(2)}
	direct := listening(t, opts...)
	behind := listening(t, opts...)
	rec := listening(t, WithRecord(RecordOptions{Upstream: behind.URL(), CorpusPath: path}))

	type outcome struct {
		IDs    []string
		Errors []bool
	}
	session := func(url string) ([]wireExchange, outcome) {
		t.Helper()
		ctx := t.Context()
		tr := &capturing{base: &http.Transport{}}
		t.Cleanup(tr.base.(*http.Transport).CloseIdleConnections)
		c, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithBaseURL(url), newssearch.WithAPIKey(key),
			newssearch.WithHTTPClient(&http.Client{Transport: tr}), newssearch.WithRetryWait(time.Millisecond, 2*time.Millisecond),
			&newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var out outcome
		ids := func(arts []newssearch.Article) {
			for _, a := range arts {
				out.IDs = append(out.IDs, a.ID)
			}
		}
		res, err := c.Search(ctx, newssearch.SearchParams{Query: "vaccine"})
		if err != nil {
			t.Fatal(err)
		}
		ids(res.Articles)
		n := 0
		for a, err := range c.SearchAll(ctx, newssearch.SearchParams{Query: "*", StartDate: t0.Add(-24 * time.Hour)}, nil) {
			if err != nil {
				t.Fatal(err)
			}
			ids([]newssearch.Article{a})
			if n++; n == 60 { // three pages
				break
			}
		}
		job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "strike"}, SortOrder: newssearch.SortDatePublished})
		if err != nil {
			t.Fatal(err)
		}
		page, err := c.Poll(ctx, job.QueryID, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids(page.Articles)
		if page, err = c.GetResults(ctx, job.QueryID, 2); err != nil {
			t.Fatal(err)
		}
		ids(page.Articles)
		h, err := c.Headlines(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range h.Headlines {
			for _, a := range cl.Articles {
				out.IDs = append(out.IDs, a.URL)
			}
		}
		// Answers the SDK turns into errors, each passed on as it came.
		for _, call := range []func() error{
			func() error { _, err := c.GetResults(ctx, "0123456789abcdef0123456789abcdef", 1); return err },
			func() error {
				_, err := c.Search(ctx, newssearch.SearchParams{Query: "x"}, newssearch.WithHeader(FaultHeader, "status=503"), newssearch.WithMaxRetries(1))
				return err
			},
			func() error {
				_, err := c.Search(ctx, newssearch.SearchParams{Query: "y"}, newssearch.WithHeader(FaultHeader, "truncate"), newssearch.WithMaxRetries(0))
				return err
			},
			func() error {
				_, err := c.Search(ctx, newssearch.SearchParams{Query: "z"}, newssearch.WithHeader(FaultHeader, "status=429;retry-after=1"), newssearch.WithMaxRetries(0))
				return err
			},
		} {
			out.Errors = append(out.Errors, call() != nil)
		}
		tr.mu.Lock()
		defer tr.mu.Unlock()
		return tr.log, out
	}

	wantLog, want := session(direct.URL())
	gotLog, got := session(rec.URL())
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what the SDK returned (-direct +through the recorder):\n%s", diff)
	}
	if diff := cmp.Diff(wantLog, gotLog); diff != "" {
		t.Errorf("answers on the wire (-direct +through the recorder):\n%s", diff)
	}
	if len(wantLog) < 12 || len(want.IDs) < 150 || !cmp.Equal(want.Errors, []bool{true, true, true, true}) {
		t.Fatalf("the session made %d requests, saw %d articles and errors %v; want at least 12, 150 and four errors", len(wantLog), len(want.IDs), want.Errors)
	}
	statuses := map[int]int{}
	for _, x := range gotLog {
		statuses[x.Status]++
	}
	if statuses[http.StatusNotFound] != 1 || statuses[http.StatusServiceUnavailable] != 2 || statuses[http.StatusTooManyRequests] != 1 || gotLog[len(gotLog)-2].ReadErr != "unexpected EOF" {
		t.Errorf("statuses %v, truncated read %q; want one 404, two 503s, one 429 and an unexpected EOF", statuses, gotLog[len(gotLog)-2].ReadErr)
	}

	// Every article the SDK was shown is in the recording, which loads.
	c, err := LoadCorpusFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inFile := map[string]bool{}
	for i := range c.Len() {
		inFile[c.c.Articles[i].ID] = true
		inFile[c.c.Articles[i].URL] = true
	}
	for _, id := range got.IDs {
		if !inFile[id] {
			t.Errorf("%s, shown to the SDK, is not in the recording", id)
		}
	}
}

// TestRecordForwardsRequestsUnchanged checks what the upstream receives:
// the method, path (escapes kept, under the upstream URL's own path), query
// string, headers (but hop-by-hop ones) and body bytes the client sent;
// and what the client gets back: the upstream's status and headers, a
// compressed answer unpacked, a redirect not followed.
func TestRecordForwardsRequestsUnchanged(t *testing.T) {
	t.Parallel()
	type received struct {
		Method, URI, Body string
		Header            http.Header
	}
	var mu sync.Mutex
	var seen []received
	const answer = `{"articles":[{"_id":"0123456789abcdef01234567","title":"T","url":"https://x.example/t","site":"x.example","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT"}],"totalArticles":1}`
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h := http.Header{}
		for _, name := range []string{"Content-Type", "User-Agent", "Authorization", "X-Trace", "X-Hop", "Connection", "Accept-Encoding", "X-Forwarded-For", "Via"} {
			if v := r.Header.Values(name); v != nil {
				h[name] = v
			}
		}
		mu.Lock()
		seen = append(seen, received{r.Method, r.RequestURI, string(b), h})
		mu.Unlock()
		switch {
		case strings.HasSuffix(r.URL.Path, "/moved"):
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		case strings.HasSuffix(r.URL.Path, "/query"):
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Header()["Set-Cookie"] = []string{"a=1", "b=2"}
			w.Header().Set("X-Ratelimit-Remaining", "7")
			w.Header().Set("Content-Encoding", "gzip")
			w.WriteHeader(http.StatusAccepted)
			zw := gzip.NewWriter(w)
			_, _ = zw.Write([]byte(answer))
			_ = zw.Close()
		default:
			w.WriteHeader(http.StatusTeapot)
		}
	}))
	t.Cleanup(up.Close)
	path := filepath.Join(t.TempDir(), "news.jsonl")
	rec := listening(t, WithRecord(RecordOptions{Upstream: up.URL + "/base/", CorpusPath: path}))

	body := "{ \"api_key\" : \"fwd-key-1234567\",\n  \"query\":\"caf\\u00e9\", \"query\":\"dup\" }"
	send := func(method, target string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, rec.URL()+target, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
		req.Header.Set("User-Agent", "app-under-test/1.0")
		req.Header.Set("Authorization", "Bearer tok")
		req.Header["X-Trace"] = []string{"a", "b"}
		req.Header.Set("Connection", "X-Hop")
		req.Header.Set("X-Hop", "for the proxy only")
		req.Header.Set("Accept-Encoding", "gzip") // asked by hand: the transport does not unpack the answer
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(b)
	}

	resp, got := send(http.MethodPost, "/api/v2/query?trace=1&x=%2F")
	if got != answer || resp.StatusCode != http.StatusAccepted {
		t.Errorf("answer %d %s; want 202 %s", resp.StatusCode, got, answer)
	}
	wantHeader := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Set-Cookie": {"a=1", "b=2"},
		"X-Ratelimit-Remaining": {"7"}, "Content-Length": {strconv.Itoa(len(answer))}}
	resp.Header.Del("Date")
	if diff := cmp.Diff(wantHeader, resp.Header); diff != "" {
		t.Errorf("answer headers (-want +got):\n%s", diff)
	}
	resp, got = send(http.MethodPost, "/api/v2/moved")
	if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != "/elsewhere" {
		t.Errorf("redirect: %d, Location %q, body %q; want 307 to /elsewhere", resp.StatusCode, resp.Header.Get("Location"), got)
	}
	resp, _ = send(http.MethodPut, "/api/v2/a%2Fb/c%20d?q")
	if resp.StatusCode != http.StatusTeapot {
		t.Errorf("PUT to an escaped path: %d, want the upstream's 418", resp.StatusCode)
	}

	sent := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "User-Agent": {"app-under-test/1.0"},
		"Authorization": {"Bearer tok"}, "X-Trace": {"a", "b"}, "Accept-Encoding": {"gzip"}}
	want := []received{
		{"POST", "/base/api/v2/query?trace=1&x=%2F", body, sent},
		{"POST", "/base/api/v2/moved", body, sent},
		{"PUT", "/base/api/v2/a%2Fb/c%20d?q", body, sent},
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("requests the upstream received (-want +got):\n%s", diff)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Contains(b, []byte(`"_id":"0123456789abcdef01234567"`)) {
		t.Errorf("the 202 answer's article was not recorded (%v): %s", err, b)
	}
}

// TestRecordKeyNeverKept is the recorder's canary-key test for what
// TestRecordRealServiceShapesWithoutTheKey leaves out: an upstream that
// echoes the whole request body into the articles and headlines it
// answers, requests that send the key twice under different spellings or
// in a body cut short, and the upstream failing every way (a status with
// the key in its message, a dropped connection, a truncated answer, no
// upstream at all). Neither key may reach the files, the journal, the
// summary (Go, JSON and text), the log or an answer the recorder makes
// itself.
func TestRecordKeyNeverKept(t *testing.T) {
	t.Parallel()
	const keyA, keyB = "CANARY-A-e71f0c-record", "CANARY-B-92d4aa-record"
	n := 0
	var mu sync.Mutex
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		echo, _ := json.Marshal(string(b))
		mu.Lock()
		n++
		id := fmt.Sprintf("%024x", n)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo", strings.ReplaceAll(string(b), "\n", " "))
		switch r.Header.Get("X-Test-Upstream") {
		case "503":
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, `{"state":"FAILED","message":%s}`, echo)
			return
		case "drop":
			conn, _, _ := http.NewResponseController(w).Hijack()
			conn.Close()
			return
		case "truncate":
			w.Header().Set("Content-Length", "10000")
			fmt.Fprintf(w, `{"articles":[{"_id":"%s","description":%s`, id, echo)
			_ = http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler)
		}
		if strings.HasSuffix(r.URL.Path, "/headlines") {
			fmt.Fprintf(w, `{"state":"SUCCESS","headlines":[{"topic":%s,"count":1,"articles":[`+
				`{"category":null,"datePublished":"2024-11-13 01:04:00","title":%s,"url":"https://x.example/h%s","site":"x.example","image":null,"favicon":""}]}]}`, echo, echo, id)
			return
		}
		key := keyB // the first key the request sent, as a member name, a date and a count's name
		if i, j := strings.Index(string(b), keyA), strings.Index(string(b), keyB); i >= 0 && (j < 0 || i < j) {
			key = keyA
		}
		fmt.Fprintf(w, `{"articles":[{"_id":"%s","title":"T","url":"https://x.example/%s","site":"x.example","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","description":%s,"%s":1},`+
			`{"_id":"%s","title":"T","url":"https://x.example/%s","site":"x.example","datePublished":"%s"}],"totalArticles":1,"%s":2,"state":"SUCCESS"}`,
			id, id, echo, key, "ff"+id[2:], "ff"+id[2:], key, key)
	}))
	t.Cleanup(up.Close)
	dir := t.TempDir()
	path := filepath.Join(dir, "news.jsonl")
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rec := listening(t, WithRecord(RecordOptions{Upstream: up.URL, CorpusPath: path}), WithLogger(logger))

	bodies := []string{
		`{"api_key":"` + keyA + `","query":"x"}`,
		`{"api_key":"` + keyA + `","API_KEY":"` + keyB + `","query":"x"}`,
		`{"query":"x","api_key":"` + keyA + `",`,
		`{"Api_Key":"` + keyB + `","query":}`,
	}
	for _, b := range bodies {
		for _, p := range []string{"/api/v2/query", "/api/v2/headlines"} {
			if r := call(t, rec, http.MethodPost, p, b); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "CANARY") {
				t.Fatalf("%s %s: %d %s; want the upstream's answer, key and all", p, b, r.Status, r.Body)
			}
		}
		for _, fault := range []string{"503", "drop", "truncate"} {
			_, _ = tryCall(rec, http.MethodPost, "/api/v2/get-results", b, "X-Test-Upstream", fault)
		}
	}
	gone := listening(t)
	goneURL := gone.URL()
	gone.Close()
	unreachable := listening(t, WithRecord(RecordOptions{Upstream: goneURL, CorpusPath: filepath.Join(dir, "none.jsonl")}), WithLogger(logger))
	refused := call(t, unreachable, http.MethodPost, "/api/v2/query", bodies[1])

	s := rec.RecordSummary()
	if s.ArticlesRecorded != 2*len(bodies) || s.ArticlesRejected != len(bodies) || len(s.UnmodeledFields) != 1 || len(s.DateFormats) != 3 || s.HeadlinesInFile != len(bodies) || s.Outcomes["dropped"] != len(bodies) || s.Outcomes["truncated"] != len(bodies) {
		// Three date formats: RFC 1123, the headlines' and one for both keys, whose shapes differ but are
		// named after they are scrubbed ("unknown: [aaaaaaaa]"), so that the summary shows no key's shape.
		t.Errorf("summary %s; want %d articles recorded and %d rejected, one unmodeled field, three date formats, %d headline answers, drops and truncations",
			s, 2*len(bodies), len(bodies), len(bodies))
	}
	corpusFile, _ := os.ReadFile(path)
	headlinesFile, _ := os.ReadFile(filepath.Join(dir, "news.headlines.jsonl"))
	journal, _ := json.Marshal(rec.Journal())
	journal2, _ := json.Marshal(unreachable.Journal())
	summary, _ := json.Marshal(s)
	for name, b := range map[string][]byte{
		"corpus": corpusFile, "headlines": headlinesFile, "journal": journal, "journal of the unreachable": journal2,
		"summary": summary, "summary text": []byte(s.String()), "/_mock/record": call(t, rec, http.MethodGet, "/_mock/record", "").Body,
		"/_mock/journal": call(t, rec, http.MethodGet, "/_mock/journal", "").Body, "log": logs.Bytes(), "502 answer": refused.Body,
	} {
		if len(b) == 0 || bytes.Contains(b, []byte(keyA)) || bytes.Contains(b, []byte(keyB)) {
			t.Errorf("the %s holds a key (or nothing):\n%s", name, b)
		}
	}
	if _, err := LoadCorpusFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadHeadlinesFile(filepath.Join(dir, "news.headlines.jsonl")); err != nil {
		t.Fatal(err)
	}
}
