package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The canary keys: the accepted one, and one the recorder refuses. Both
// hold characters that every encoding writes its own way ('/', '+', '~').
const (
	canaryKey   = "CaNaRy7f3e/9b+Q2x~kEy0"
	canaryWrong = "WrOnG8d2c/1a+Z9y~kEy1"
)

// keyForms are the ways the canary upstream writes a key.
func keyForms(key string) map[string]string {
	var allU, partU, allPct strings.Builder
	for i, r := range key {
		fmt.Fprintf(&allU, `\u%04X`, r)
		if i%2 == 0 {
			fmt.Fprintf(&partU, `\u%04x`, r)
		} else if r == '/' {
			partU.WriteString(`\/`)
		} else {
			partU.WriteRune(r)
		}
	}
	for _, c := range []byte(key) {
		fmt.Fprintf(&allPct, "%%%02x", c)
	}
	return map[string]string{
		"plain": key, "json escapes": allU.String(), "partly escaped": partU.String(),
		"query-escaped": url.QueryEscape(key), "path-escaped": url.PathEscape(key), "percent-escaped": allPct.String(),
	}
}

// decodeView reads text with every JSON and URL escape undone (\uXXXX, \/,
// %XX, + as a space), so that a key written in any of those forms shows
// plain in it.
var (
	uEscape   = regexp.MustCompile(`\\u([0-9a-fA-F]{4})`)
	pctEscape = regexp.MustCompile(`%([0-9a-fA-F]{2})`)
)

func decodeView(s string) string {
	s = uEscape.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(m[2:], 16, 16)
		return string(rune(v))
	})
	s = strings.ReplaceAll(s, `\/`, "/")
	return pctEscape.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(m[1:], 16, 8)
		return string([]byte{byte(v)})
	})
}

// leaks says how a key (or either half of it, which would be a key cut in
// two) shows in text: in one of the forms the upstream writes it in, or
// plain once every escape is undone (with and without + as a space).
func leaks(text []byte, key string) string {
	s := string(text)
	for name, form := range keyForms(key) {
		if strings.Contains(s, form) {
			return name
		}
	}
	half := len(key) / 2
	for _, view := range []string{s, decodeView(s), decodeView(strings.ReplaceAll(s, "+", " "))} {
		for _, part := range []string{key, key[:half], key[half:]} {
			if strings.Contains(view, part) {
				return fmt.Sprintf("%q after undoing escapes", part)
			}
		}
	}
	return ""
}

// canaryUpstream answers like the service, echoing the request's key in
// every form it can: in article members, member names, ids, dates, count
// names and headline topics (plain, JSON-escaped, partly escaped), in
// headers (X-Request-Id plain, escaped and percent-encoded; X-Echo;
// Set-Cookie), in refused answers (401, FAILED states, an HTML 500), in an
// answer cut short and in a query_id.
func canaryUpstream(t *testing.T) *httptest.Server {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Key string `json:"api_key"`
		}
		_ = json.Unmarshal(body, &req)
		f := keyForms(req.Key)
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("X-Echo", "key="+f["query-escaped"]+"; all="+f["percent-escaped"])
		switch r.URL.Path {
		case "/api/v2/query":
			h.Set("X-Request-Id", "req-"+req.Key)
			fmt.Fprintf(w, `{"articles":[`+
				`{"_id":"c00000000000000000000001","title":"A","url":"https://c.example/a","site":"c.example","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT",`+
				`"description":"plain %[1]s, escaped \"%[2]s\", partly %[3]s, in a link https://c.example/?k=%[4]s&x=1","%[3]s":1,"api_key":"%[1]s","meta":{"by":"%[2]s"}},`+
				`{"_id":"%[2]s","title":"B","url":"https://c.example/b","site":"c.example","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT"},`+
				`{"_id":"c00000000000000000000003","title":"C","url":"https://c.example/c?k=%[5]s","site":"c.example","datePublished":"%[3]s"}`+
				`],"totalArticles":3,"%[2]s":9,"state":"SUCCESS"}`,
				req.Key, f["json escapes"], f["partly escaped"], f["query-escaped"], f["percent-escaped"])
		case "/api/v2/headlines":
			h.Set("X-Request-Id", f["query-escaped"])
			fmt.Fprintf(w, `{"state":"SUCCESS","headlines":[{"topic":"about %[1]s","count":1,"articles":[`+
				`{"title":"%[2]s","url":"https://c.example/h?k=%[3]s","site":"c.example","datePublished":"2024-11-13 01:04:00","image":null}]}]}`,
				f["json escapes"], f["partly escaped"], f["query-escaped"])
		case "/api/v2/get-results":
			h.Set("X-Request-Id", f["json escapes"])
			h.Set("Set-Cookie", "k="+req.Key)
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"state":"FAILED","message":"key %s is not valid"}`, f["partly escaped"])
		case "/api/v2/query-async":
			h.Set("X-Request-Id", f["path-escaped"])
			fmt.Fprintf(w, `{"query_id":"%s","state":"FAILED","message":"no job for %s"}`, req.Key, f["json escapes"])
		case "/api/v2/truncated":
			h.Set("Content-Length", "10000")
			fmt.Fprintf(w, `{"articles":[{"_id":"c00000000000000000000009","description":"%s`, req.Key)
			_ = http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler)
		default:
			h.Set("Content-Type", "text/html")
			h.Set("X-Request-Id", req.Key+"+"+f["partly escaped"])
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, "<html><title>Error for %s</title><p>%s</p></html>", req.Key, f["percent-escaped"])
		}
	}))
	t.Cleanup(hs.Close)
	return hs
}

// TestRecordCanary is the recorder's canary test over every place it
// writes or shows text: the corpus, headlines and refused files, the
// journal (Go and GET /_mock/journal), the log at debug level, the summary
// (Go, JSON, text and GET /_mock/record) and the error answers it makes
// itself (a refused key, an injected fault, an unreachable upstream). The
// upstream echoes the key plain, JSON-escaped, partly escaped,
// percent-encoded in headers and in X-Request-Id; the client sends it, and
// a refused key, in the body and the URL. Neither key shows anywhere, in
// any form, not even half of it; the upstream's own answers still reach the
// client unchanged, key and all.
func TestRecordCanary(t *testing.T) {
	t.Parallel()
	// The checker itself finds every form, and a key cut in two.
	for name, form := range keyForms(canaryKey) {
		if leaks([]byte(`{"x":"a `+form+` b"}`), canaryKey) == "" {
			t.Fatalf("leaks does not see the key %s: %s", name, form)
		}
	}
	if leaks([]byte("…"+canaryKey[:12]+"…"), canaryKey) == "" || leaks([]byte(`\u0043aNaRy7f3e\/9b%2BQ2x~kEy0`), canaryKey) == "" {
		t.Fatal("leaks does not see a cut or mixed key")
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "news.jsonl")
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&syncWriter{w: &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	up := canaryUpstream(t)
	rec := listening(t, WithRecord(RecordOptions{Upstream: up.URL, CorpusPath: path}), WithAPIKeys(canaryKey), WithLogger(logger),
		WithFaults(FaultRule{Endpoint: EndpointHeadlines, Times: 1, Fault: Fault{Status: 503}}))

	body := func(key string) string {
		return `{"api_key":"` + key + `","query":"` + key + `","sites":["` + key + `"]}`
	}
	answers := map[string][]byte{}
	for _, p := range []string{"/api/v2/query", "/api/v2/headlines", "/api/v2/headlines", "/api/v2/get-results", "/api/v2/query-async",
		"/api/v2/other?api_key=" + url.QueryEscape(canaryKey)} {
		r := call(t, rec, http.MethodPost, p, body(canaryKey))
		answers[p+" "+strconv.Itoa(r.Status)] = r.Body
	}
	if _, err := tryCall(rec, http.MethodPost, "/api/v2/truncated", body(canaryKey)); err == nil {
		t.Error("the truncated answer came whole")
	}
	refusedKey := call(t, rec, http.MethodPost, "/api/v2/query?k="+url.QueryEscape(canaryWrong), body(canaryWrong))
	gone := listening(t)
	goneURL := gone.URL()
	gone.Close()
	unreachable := listening(t, WithRecord(RecordOptions{Upstream: goneURL, CorpusPath: filepath.Join(dir, "gone.jsonl")}), WithLogger(logger))
	noUpstream := call(t, unreachable, http.MethodPost, "/api/v2/query?k="+url.QueryEscape(canaryKey)+"&p="+url.PathEscape(canaryKey), body(canaryKey))

	// What the recorder kept is what the upstream sent, minus the key.
	if refusedKey.Status != http.StatusUnauthorized || noUpstream.Status != http.StatusBadGateway ||
		answers["/api/v2/headlines 503"] == nil || answers["/api/v2/headlines 200"] == nil || answers["/api/v2/query 200"] == nil {
		t.Fatalf("answers: 401? %d, 502? %d, and %v", refusedKey.Status, noUpstream.Status, answerNames(answers))
	}
	if leaks(answers["/api/v2/query 200"], canaryKey) == "" {
		t.Fatal("the upstream's answer lost the key on its way to the client: the recorder must pass answers on unchanged")
	}
	s := rec.RecordSummary()
	if s.ArticlesRecorded != 2 || s.ArticlesRejected != 2 || s.HeadlineStubs != 1 || s.RefusedRecorded != 3 || s.Outcomes["fault"] != 1 ||
		s.Outcomes["key refused"] != 1 || s.Outcomes["truncated"] != 1 {
		t.Errorf("summary:\n%s", s)
	}
	c, err := LoadCorpusFile(path)
	if err != nil || c.Len() != 2 {
		t.Fatalf("the recording: %v (%v); want 2 articles", c, err)
	}

	surfaces := map[string][]byte{}
	for name, p := range map[string]string{"corpus file": path, "headlines file": filepath.Join(dir, "news.headlines.jsonl"),
		"refused file": filepath.Join(dir, "news.refused.jsonl")} {
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte(`[redacted]`)) {
			t.Errorf("the %s: %v; want it to hold [redacted]:\n%s", name, err, b)
		}
		surfaces[name] = b
	}
	for name, s := range map[string]*Server{"recorder": rec, "unreachable recorder": unreachable} {
		surfaces[name+" journal"], _ = json.Marshal(s.Journal())
		surfaces[name+" GET /_mock/journal"] = call(t, s, http.MethodGet, "/_mock/journal", "").Body
		surfaces[name+" summary JSON"], _ = json.Marshal(s.RecordSummary())
		surfaces[name+" summary text"] = []byte(s.RecordSummary().String())
		surfaces[name+" GET /_mock/record"] = call(t, s, http.MethodGet, "/_mock/record", "").Body
	}
	surfaces["log"] = logs.Bytes()
	surfaces["401 for a refused key"] = refusedKey.Body
	surfaces["injected 503"] = answers["/api/v2/headlines 503"]
	surfaces["502 of the unreachable upstream"] = noUpstream.Body
	for name, b := range surfaces {
		if len(b) == 0 {
			t.Errorf("the %s is empty", name)
		}
		for _, key := range []string{canaryKey, canaryWrong} {
			if how := leaks(b, key); how != "" {
				t.Errorf("the %s holds the key %s (%s):\n%s", name, key, how, b)
			}
		}
	}

	// The places where a scrubbed key shows as the mark, not as nothing.
	j := rec.Journal()
	if j[0].RequestID != "req-[redacted]" || !strings.Contains(string(j[0].Body), `"query":"[redacted]"`) || j[4].QueryID != "[redacted]" {
		t.Errorf("journal: %+v", j[:5])
	}
	if !strings.Contains(string(noUpstream.Body), "k=[redacted]&p=[redacted]") {
		t.Errorf("the 502 no longer names the target: %s", noUpstream.Body)
	}
	if s.DateFormats[1].Format != "unknown: [aaaaaaaa]" || s.Rejections[0].ID != "[redacted]" {
		t.Errorf("the summary's date formats %+v and rejections %+v", s.DateFormats, s.Rejections)
	}
	if !bytes.Contains(logs.Bytes(), []byte(`"request_id":"req-[redacted]"`)) {
		t.Errorf("the log does not show the scrubbed request id:\n%s", logs.Bytes())
	}
}

func answerNames(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
