package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
)

// listening starts a server on a loopback socket at the clock t0, closed
// when the test ends.
func listening(t *testing.T, opts ...Option) *Server {
	t.Helper()
	s, err := Start(append([]Option{WithClock(func() time.Time { return t0 })}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// exchangeStep is one request of a recorded session.
type exchangeStep struct {
	method, path, body string
	headers            []string
}

// sameAnswer fails unless two replies have the same status, body and
// headers (but Date, which is the second they were sent).
func sameAnswer(t *testing.T, step string, want, got reply) {
	t.Helper()
	want.Header.Del("Date")
	got.Header.Del("Date")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: the proxied answer differs from the direct one (-want +got):\n%s", step, diff)
	}
}

func TestRecordAnswersAsTheUpstream(t *testing.T) {
	t.Parallel()
	const key = "record-test-key-1"
	path := filepath.Join(t.TempDir(), "news.jsonl")
	direct := listening(t, WithSeed(3), WithAPIKeys(key))
	behind := listening(t, WithSeed(3), WithAPIKeys(key))
	rec := listening(t, WithRecord(RecordOptions{Upstream: behind.URL(), CorpusPath: path}))

	k := `"api_key":"` + key + `"`
	steps := []exchangeStep{
		{"POST", "/api/v2/query", `{` + k + `,"query":"vaccine"}`, nil},
		{"POST", "/api/v2/query", `{` + k + `,"query":"vaccine","page":2}`, nil},
		{"POST", "/api/v2/query", `{` + k + `,"query":"vaccine"}`, nil}, // all recorded already
		{"POST", "/api/v2/query-async", `{` + k + `,"query":"election","sort_order":"Date Published"}`, nil},
		{"POST", "/api/v2/get-results", `{` + k + `,"query_id":"QID"}`, nil}, // PENDING
		{"POST", "/api/v2/get-results", `{` + k + `,"query_id":"QID","page":3}`, nil},
		{"POST", "/api/v2/headlines", `{` + k + `}`, nil},
		{"POST", "/api/v2/query", `{"api_key":"not-the-key","query":"x"}`, nil},
		{"POST", "/api/v2/query", `{` + k + `,"query":"x","language":"xx"}`, nil},
		{"POST", "/api/v2/query", `{` + k + `,"query":`, nil},
		{"GET", "/api/v2/query", ``, nil},
		{"POST", "/api/v2/nowhere", `{` + k + `}`, nil},
		{"POST", "/api/v2/query", `{` + k + `,"query":"strike"}`, []string{FaultHeader, "status=429;retry-after=3"}},
		{"POST", "/api/v2/get-results", `{` + k + `,"query_id":"0123"}`, nil},
	}
	var qid string
	articles := map[string]bool{}
	headlineURLs := map[string]bool{}
	for i, st := range steps {
		body := strings.ReplaceAll(st.body, "QID", qid)
		want, err := tryCall(direct, st.method, st.path, body, st.headers...)
		if err != nil {
			t.Fatalf("step %d direct: %v", i, err)
		}
		got, err := tryCall(rec, st.method, st.path, body, st.headers...)
		if err != nil {
			t.Fatalf("step %d through the recorder: %v", i, err)
		}
		sameAnswer(t, fmt.Sprintf("step %d (%s %s)", i, st.method, st.path), want, got)
		if want.Status != http.StatusOK {
			continue
		}
		var ans struct {
			QueryID  string        `json:"query_id"`
			Articles []wireArticle `json:"articles"`
			Results  struct {
				Articles []wireArticle `json:"articles"`
			} `json:"results"`
			Headlines []struct {
				Articles []headlineArticle `json:"articles"`
			} `json:"headlines"`
		}
		if err := json.Unmarshal(want.Body, &ans); err != nil {
			t.Fatal(err)
		}
		if ans.QueryID != "" {
			qid = ans.QueryID
		}
		for _, a := range append(ans.Articles, ans.Results.Articles...) {
			articles[a.ID] = true
		}
		for _, c := range ans.Headlines {
			for _, a := range c.Articles {
				headlineURLs[a.URL] = true
			}
		}
	}

	c, err := LoadCorpusFile(path)
	if err != nil {
		t.Fatalf("the recording does not load: %v", err)
	}
	recordedURLs := map[string]bool{}
	var recorded []string
	for i := range c.Len() {
		recorded = append(recorded, c.c.Articles[i].ID)
		recordedURLs[c.c.Articles[i].URL] = true
	}
	stubs := 0
	for u := range headlineURLs {
		if !recordedURLs[u] {
			t.Errorf("headline article %s is not in the recording", u)
		}
	}
	for _, id := range recorded {
		if !articles[id] {
			stubs++
		}
	}
	for id := range articles {
		if !slices.Contains(recorded, id) {
			t.Errorf("article %s of an answer is not in the recording", id)
		}
	}
	if len(articles) != 75 || stubs == 0 {
		t.Fatalf("the session saw %d search articles and %d headline-only ones; want 75 and some", len(articles), stubs)
	}

	sum := rec.RecordSummary()
	want := RecordSummary{
		Recording: true, Upstream: behind.URL(), CorpusFile: path, HeadlinesFile: strings.TrimSuffix(path, ".jsonl") + ".headlines.jsonl",
		RefusedFile: strings.TrimSuffix(path, ".jsonl") + ".refused.jsonl", RefusedRecorded: 7, RefusedInFile: 7,
		RequestsProxied: len(steps),
		Requests:        map[string]int{"query": 8, "query-async": 1, "get-results": 3, "headlines": 1, "/api/v2/nowhere": 1},
		Outcomes:        map[string]int{"200": 7, "400": 2, "401": 1, "404": 2, "405": 1, "429": 1},
		ArticlesSeen:    sum.ArticlesSeen, ArticlesRecorded: 75 + stubs, ArticlesInFile: 75 + stubs,
		Duplicates: sum.ArticlesSeen - 75 - stubs, HeadlineStubs: stubs, Rejections: []RecordRejection{},
		HeadlineAnswers: 1, HeadlinesInFile: 1, UnmodeledFields: []RecordField{},
		DateFormats: []RecordDateFormat{
			{Where: "article", Format: "RFC 1123 (Mon, 02 Jan 2006 15:04:05 GMT)", Count: 100},
			{Where: "headline article", Format: "YYYY-MM-DD HH:MM:SS", Count: sum.ArticlesSeen - 100},
		},
		CountFields: []RecordField{
			{Where: "get-results", Name: "totalArticles", Count: 1},
			{Where: "get-results", Name: "totalResults", Count: 1},
			{Where: "query", Name: "results.totalResults", Count: 3},
		},
	}
	for i := range sum.DateFormats {
		sum.DateFormats[i].Example = ""
	}
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Errorf("RecordSummary (-want +got):\n%s", diff)
	}

	// GET /_mock/record shows the same, and the journal has every request.
	r := call(t, rec, "GET", "/_mock/record", "")
	var shown RecordSummary
	if err := json.Unmarshal(r.Body, &shown); err != nil || r.Status != http.StatusOK || shown.ArticlesInFile != 75+stubs || shown.RequestsProxied != len(steps) {
		t.Errorf("GET /_mock/record = %d %s (%v)", r.Status, r.Body, err)
	}
	if j := rec.Journal(); len(j) != len(steps) || j[3].QueryID != qid || j[4].QueryID != qid || j[7].Status != http.StatusUnauthorized {
		t.Errorf("journal of the recorder: %+v", j)
	}
}

func TestRecordThenReplay(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "news.jsonl")
	upstream := listening(t, WithSeed(5))
	rec := listening(t, WithRecord(RecordOptions{Upstream: upstream.URL(), CorpusPath: path}))

	site := query(t, upstream, map[string]any{"query": "election"}).Results.Articles[0].Site
	week := t0.Add(-7 * 24 * time.Hour)
	searches := []newssearch.SearchParams{
		{Query: "vaccine", StartDate: t0.Add(-30 * 24 * time.Hour)},
		{Query: "*", Sites: []string{site}, StartDate: week},
		{Query: "election", StartDate: t0.Add(-5 * 24 * time.Hour), EndDate: t0.Add(-2 * 24 * time.Hour)},
	}
	session := func(c *newssearch.Client) (sync [][]string, async [][]string) {
		t.Helper()
		for _, p := range searches {
			var ids []string
			for a, err := range c.SearchAll(ctx, p, nil) {
				if err != nil {
					t.Fatalf("SearchAll %+v: %v", p, err)
				}
				ids = append(ids, a.ID)
			}
			if len(ids) == 0 || len(ids) > 100 {
				t.Fatalf("search %+v found %d articles; pick one with a few pages at most", p, len(ids))
			}
			sync = append(sync, ids)
			job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: p, SortOrder: newssearch.SortDatePublished})
			if err != nil {
				t.Fatal(err)
			}
			ids = nil
			for a, err := range c.Results(ctx, job.QueryID, nil) {
				if err != nil {
					t.Fatalf("Results %+v: %v", p, err)
				}
				ids = append(ids, a.ID)
			}
			async = append(async, ids)
		}
		return sync, async
	}
	recordedSync, recordedAsync := session(rec.Client())
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// The same session against a mock serving the recording.
	c, err := LoadCorpusFile(path)
	if err != nil {
		t.Fatal(err)
	}
	replay := start(t, WithCorpus(c), WithoutDateShift())
	replaySync, replayAsync := session(replay.Client())
	for i := range searches {
		if diff := cmp.Diff(sorted(recordedSync[i]), sorted(replaySync[i])); diff != "" {
			t.Errorf("search %+v on the replay (-recorded +replayed):\n%s", searches[i], diff)
		}
		if diff := cmp.Diff(recordedAsync[i], replayAsync[i]); diff != "" {
			t.Errorf("async search %+v by date on the replay (-recorded +replayed):\n%s", searches[i], diff)
		}
	}

	// A recorder restarted on the recording adds nothing for the same session.
	again := listening(t, WithRecord(RecordOptions{Upstream: upstream.URL(), CorpusPath: path}))
	if s := again.RecordSummary(); s.ArticlesInFile != c.Len() {
		t.Fatalf("restarted recorder counts %d articles in the file, want %d", s.ArticlesInFile, c.Len())
	}
	session(again.Client())
	if s := again.RecordSummary(); s.ArticlesRecorded != 0 || s.Duplicates != s.ArticlesSeen {
		t.Errorf("restarted recorder: %d recorded, %d duplicates of %d seen; want 0 and all", s.ArticlesRecorded, s.Duplicates, s.ArticlesSeen)
	}
	if second, _ := os.ReadFile(path); !bytes.Equal(first, second) {
		t.Errorf("the recording changed on the second session")
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

func TestRecordPassesUpstreamFaultsOn(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "news.jsonl")
	direct := listening(t, WithSeed(9))
	behind := listening(t, WithSeed(9))
	rec := listening(t, WithRecord(RecordOptions{Upstream: behind.URL(), CorpusPath: path}))
	// A first answer, so that the file exists.
	body := `{"api_key":"k","query":"vaccine"}`
	if r := call(t, rec, "POST", "/api/v2/query", body); r.Status != http.StatusOK {
		t.Fatal(r.Status, string(r.Body))
	}
	_ = call(t, direct, "POST", "/api/v2/query", body)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"status=503", "status=500;retry-after=2", "drop", "truncate", "truncate;status=502", "latency=5ms;drop"} {
		body := `{"api_key":"k","query":"strike"}` // new articles, had it succeeded
		want, werr := tryCall(direct, "POST", "/api/v2/query", body, FaultHeader, f)
		got, gerr := tryCall(rec, "POST", "/api/v2/query", body, FaultHeader, f)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("fault %s: direct error %v, proxied error %v", f, werr, gerr)
		}
		if werr != nil {
			want.Header, got.Header = http.Header{}, http.Header{}
		}
		sameAnswer(t, "fault "+f, want, got)
		after, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(before, after) {
			t.Errorf("fault %s changed the recording (%v)", f, err)
		}
	}
	if _, err := LoadCorpusFile(path); err != nil {
		t.Fatal(err)
	}
	s := rec.RecordSummary()
	if diff := cmp.Diff(map[string]int{"200": 1, "503": 1, "500": 1, "dropped": 2, "truncated": 2}, s.Outcomes); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	j := rec.Journal()
	if len(j) != 7 || j[3].Status != 0 || j[3].Fault != "upstream: dropped the connection" || j[4].Status != 200 || j[4].Fault != "upstream: truncated the answer" {
		t.Errorf("journal: %+v", j)
	}
}

func TestRecordUnreachableUpstream(t *testing.T) {
	t.Parallel()
	gone := listening(t)
	url := gone.URL()
	gone.Close()
	rec := listening(t, WithRecord(RecordOptions{Upstream: url, CorpusPath: filepath.Join(t.TempDir(), "news.jsonl")}))
	r := call(t, rec, "POST", "/api/v2/query", `{"api_key":"k","query":"x"}`)
	msg := decode[failure](t, r).Message
	if r.Status != http.StatusBadGateway || !strings.HasPrefix(msg, "the recording proxy cannot reach the upstream "+url+" (") ||
		!strings.HasSuffix(msg, "): check the URL given to -record and the network") {
		t.Errorf("answer %d %q", r.Status, msg)
	}
}

// realService answers like the real service as the facts file describes it:
// top-level articles and totalArticles, images as [] or null, null entities,
// members the SDK does not model, and headline dates without a zone. It
// echoes the request's key where it can, to prove none of it is kept.
func realService(t *testing.T) *httptest.Server {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		_ = json.NewDecoder(r.Body).Decode(&req)
		key, _ := req["api_key"].(string)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v2/query":
			fmt.Fprintf(w, `{"articles":[`+
				`{"_id":"aaaaaaaaaaaaaaaaaaaaaaaa","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","title":"Rain","description":"key %[1]s here","url":"https://news.example.com/rain","site":"www.news.example.com","image":[],"score":0.4,"topics":["a","b","c"],"entities":null,"entity_relationships":null,"sentiment":{"title":0.1,"description":-0.2},"bodyText":"x","authors":["Ann"],"paywall":false,"api_key":%[2]q,"meta":{"API_Key":%[2]q}},`+
				`{"_id":"bbbbbbbbbbbbbbbbbbbbbbbb","datePublished":"2024-11-13T02:00:00.5Z","title":"Sun","url":"https://news.example.com/sun","site":"news.example.com","image":null,"score":0.3,"authors":[]},`+
				`{"_id":"not-an-id","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","title":"Bad","url":"https://news.example.com/bad","site":"news.example.com"}`+
				`],"totalArticles":3,"state":"SUCCESS"}`, key, key)
		case "/api/v2/headlines":
			fmt.Fprintf(w, `{"state":"SUCCESS","headlines":[{"topic":"Rain %[1]s","count":9,"cluster_id":7,"articles":[`+
				`{"category":null,"datePublished":"2024-11-13 01:04:00","favicon":"https://news.example.com/f.ico","image":null,"site":"news.example.com","title":"Rain","url":"https://news.example.com/rain"},`+
				`{"category":"world","datePublished":"2024-11-12 23:00:00","favicon":"","image":"https://img.example.com/h.jpg","site":"other.example.org","title":"Storm","url":"https://other.example.org/storm","lang":"en"}]}]}`, key)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(hs.Close)
	return hs
}

func TestRecordRealServiceShapesWithoutTheKey(t *testing.T) {
	t.Parallel()
	const canary = "CANARY-5b1e-record-SECRET"
	dir := t.TempDir()
	path := filepath.Join(dir, "real.jsonl")
	var logs bytes.Buffer
	up := realService(t)
	rec := listening(t, WithRecord(RecordOptions{Upstream: up.URL, CorpusPath: path, Drop: []string{"bodyText"}}),
		WithLogger(slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	for _, p := range []string{"/api/v2/query", "/api/v2/headlines", "/api/v2/headlines", "/api/v2/other"} {
		r := call(t, rec, "POST", p, `{"api_key":"`+canary+`","query":"rain"}`)
		if !strings.Contains(string(r.Body), canary) && p != "/api/v2/other" {
			t.Fatalf("%s: the proxied answer lost what the upstream sent: %s", p, r.Body)
		}
	}
	corpusBytes, _ := os.ReadFile(path)
	headlineBytes, _ := os.ReadFile(filepath.Join(dir, "real.headlines.jsonl"))
	journal, _ := json.Marshal(rec.Journal())
	summary, _ := json.Marshal(rec.RecordSummary())
	admin := call(t, rec, "GET", "/_mock/record", "").Body
	for name, b := range map[string][]byte{"corpus": corpusBytes, "headlines": headlineBytes, "journal": journal,
		"summary": summary, "/_mock/record": admin, "log": logs.Bytes(), "summary text": []byte(rec.RecordSummary().String())} {
		if bytes.Contains(b, []byte(canary)) || len(b) == 0 {
			t.Errorf("the %s holds the key (or nothing):\n%s", name, b)
		}
	}
	wantCorpus := `{"_id":"aaaaaaaaaaaaaaaaaaaaaaaa","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","title":"Rain","description":"key [redacted] here","url":"https://news.example.com/rain","site":"www.news.example.com","image":[],"score":0.4,"topics":["a","b","c"],"entities":null,"entity_relationships":null,"sentiment":{"title":0.1,"description":-0.2},"authors":["Ann"],"paywall":false,"api_key":"[redacted]","meta":{"API_Key":"[redacted]"}}
{"_id":"bbbbbbbbbbbbbbbbbbbbbbbb","datePublished":"2024-11-13T02:00:00.5Z","title":"Sun","url":"https://news.example.com/sun","site":"news.example.com","image":null,"score":0.3,"authors":[]}
{"_id":"ecd68c194756afb1ca3b995b","category":"world","datePublished":"2024-11-12 23:00:00","favicon":"","image":"https://img.example.com/h.jpg","site":"other.example.org","title":"Storm","url":"https://other.example.org/storm","lang":"en"}
`
	if diff := cmp.Diff(wantCorpus, string(corpusBytes)); diff != "" {
		t.Errorf("corpus file (-want +got):\n%s", diff)
	}
	c, err := LoadCorpusFile(path)
	if err != nil || c.Len() != 3 {
		t.Fatalf("LoadCorpusFile = %v, %v; want 3 articles", c, err)
	}
	if n := strings.Count(string(headlineBytes), "\n"); n != 1 || !strings.Contains(string(headlineBytes), `"topic":"Rain [redacted]"`) {
		t.Errorf("headlines file (want one line, the repeat left out):\n%s", headlineBytes)
	}

	s := rec.RecordSummary()
	want := RecordSummary{
		Recording: true, Upstream: up.URL, CorpusFile: path, HeadlinesFile: filepath.Join(dir, "real.headlines.jsonl"),
		RefusedFile: filepath.Join(dir, "real.refused.jsonl"), RefusedRecorded: 1, RefusedInFile: 1,
		RequestsProxied: 4, Requests: map[string]int{"query": 1, "headlines": 2, "/api/v2/other": 1},
		Outcomes:     map[string]int{"200": 3, "404": 1},
		ArticlesSeen: 7, ArticlesRecorded: 3, ArticlesInFile: 3, Duplicates: 3, HeadlineStubs: 1, ArticlesRejected: 1,
		Rejections: []RecordRejection{{ID: "not-an-id", Endpoint: "query",
			Reason: `_id "not-an-id" is not 24 hexadecimal characters; use an id such as "5f1c0a9e3b2d4c6e8f7a1b2c"`}},
		HeadlineAnswers: 2, HeadlinesInFile: 1,
		UnmodeledFields: []RecordField{
			{Where: "article", Name: "api_key", Count: 1}, {Where: "article", Name: "authors", Count: 2},
			{Where: "article", Name: "meta", Count: 1}, {Where: "article", Name: "paywall", Count: 1},
			{Where: "headline article", Name: "lang", Count: 2},
		},
		DateFormats: []RecordDateFormat{
			{Where: "article", Format: "RFC 1123 (Mon, 02 Jan 2006 15:04:05 GMT)", Example: "Wed, 13 Nov 2024 01:44:17 GMT", Count: 2},
			{Where: "article", Format: "RFC 3339 with fraction (2006-01-02T15:04:05.000Z07:00)", Example: "2024-11-13T02:00:00.5Z", Count: 1},
			{Where: "headline article", Format: "YYYY-MM-DD HH:MM:SS", Example: "2024-11-13 01:04:00", Count: 4},
		},
		CountFields: []RecordField{{Where: "query", Name: "totalArticles", Count: 1}},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("RecordSummary (-want +got):\n%s", diff)
	}

	// The recorded headlines replay verbatim, dates moved by the shift.
	h, err := LoadHeadlinesFile(filepath.Join(dir, "real.headlines.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	replay := start(t, WithCorpus(c), WithHeadlines(h))
	if replay.DateShift() <= 0 {
		t.Fatalf("date shift %v", replay.DateShift())
	}
	got := string(call(t, replay, "POST", "/api/v2/headlines", `{"api_key":"k"}`).Body)
	shifted := func(s string) string {
		d, _ := time.Parse(time.DateTime, s)
		return d.Add(replay.DateShift()).Format(time.DateTime)
	}
	wantHeadlines := `{"state":"SUCCESS","headlines":[{"topic":"Rain [redacted]","count":9,"cluster_id":7,"articles":[` +
		`{"category":null,"datePublished":"` + shifted("2024-11-13 01:04:00") + `","favicon":"https://news.example.com/f.ico","image":null,"site":"news.example.com","title":"Rain","url":"https://news.example.com/rain"},` +
		`{"category":"world","datePublished":"` + shifted("2024-11-12 23:00:00") + `","favicon":"","image":"https://img.example.com/h.jpg","site":"other.example.org","title":"Storm","url":"https://other.example.org/storm","lang":"en"}]}]}`
	if diff := cmp.Diff(wantHeadlines, got); diff != "" {
		t.Errorf("replayed headlines (-want +got):\n%s", diff)
	}
}

// syncWriter serialises writes for a log shared by goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func TestRecordOptionErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"_id\":\"x\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		opts []Option
		want string
	}{
		{[]Option{WithRecord(RecordOptions{Upstream: "ftp://x", CorpusPath: "a.jsonl"})}, `mockserver: WithRecord: Upstream "ftp://x" is not a base URL: pass one such as "https://app.runathena.com"`},
		{[]Option{WithRecord(RecordOptions{Upstream: "http://127.0.0.1:1", CorpusPath: " "})}, `mockserver: WithRecord: CorpusPath " " is blank: pass the path of the JSON Lines file to record into`},
		{[]Option{WithRecord(RecordOptions{Upstream: "http://127.0.0.1:1", CorpusPath: "a.jsonl", Drop: []string{"bodyText", ""}})},
			`mockserver: WithRecord: a Drop field name is blank: name article members such as "bodyText"`},
		{[]Option{WithHeadlines(nil)}, `mockserver: WithHeadlines(nil): pass headlines from LoadHeadlinesFile, or leave the option out`},
		{[]Option{WithRecord(RecordOptions{Upstream: "http://127.0.0.1:1", CorpusPath: filepath.Join(dir, "a.jsonl"), Drop: []string{"url"}})},
			`mockserver: WithRecord: cannot drop "url": a corpus article needs _id, title, url, site, datePublished`},
		{[]Option{WithRecord(RecordOptions{Upstream: "http://127.0.0.1:1", CorpusPath: bad})},
			`mockserver: WithRecord: ` + bad + ` line 1: required field "title" is missing or empty; every article needs _id, title, url, site and datePublished; record into a new file, or fix that line`},
	} {
		_, err := Start(append([]Option{WithoutListener()}, tt.opts...)...)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Start error %v\nwant %s", err, tt.want)
		}
	}
	if _, err := LoadHeadlines(strings.NewReader("\n")); err == nil || !strings.HasPrefix(err.Error(), "mockserver: LoadHeadlines: holds no headline answer;") {
		t.Errorf("LoadHeadlines of nothing: %v", err)
	}
	if _, err := LoadHeadlines(strings.NewReader(`{"answer":{}}`)); err == nil || err.Error() != `mockserver: LoadHeadlines: line 1: has no "answer" object with a "headlines" array; write lines such as {"recorded_at": "2025-01-19T01:04:00Z", "answer": {"headlines": [...], "state": "SUCCESS"}}` {
		t.Errorf("LoadHeadlines of a bad line: %v", err)
	}
	if s := start(t).RecordSummary(); s.Recording || s.String() != "not recording\n" || s.Requests == nil || s.Rejections == nil {
		t.Errorf("summary of a server not recording: %+v", s)
	}
}
