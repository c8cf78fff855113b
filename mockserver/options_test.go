package mockserver

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestStartReportsEveryBadOption(t *testing.T) {
	t.Parallel()
	_, err := Start(WithoutListener(), WithAPIKeys("ok", " "), WithCorpus(nil), WithClock(nil), WithPendingPolls(-1),
		WithPendingDuration(-time.Second), WithRateLimit(0, 1), WithLimits(Limits{JobTTL: -time.Second}), WithLimits(Limits{MaxJobs: -1}), WithJournalSize(-1),
		WithLimits(Limits{HeadlineClusters: -1, HeadlineArticles: 5}), WithAddr(" "), nil)
	want := strings.Join([]string{
		"mockserver: WithAPIKeys: key 1 is blank: give non-empty keys",
		"mockserver: WithCorpus(nil): pass a corpus from LoadCorpus or LoadCorpusFile, or leave the option out",
		"mockserver: WithClock(nil): pass a func() time.Time, or leave the option out for time.Now",
		"mockserver: WithPendingPolls(-1): pass 0 or more polls",
		"mockserver: WithPendingDuration(-1s): pass a duration of 0 or more",
		"mockserver: WithRateLimit(0, 1): pass a positive rate and a burst of 1 or more",
		"mockserver: WithLimits: JobTTL is -1s: pass a positive duration, or 0 for the default",
		"mockserver: WithLimits: MaxJobs is -1: pass 1 or more, or 0 for the default",
		"mockserver: WithJournalSize(-1): pass 0 (no journal) or more",
		"mockserver: WithLimits: HeadlineClusters is -1: pass 1 or more, or 0 for the default",
		`mockserver: WithAddr(" "): pass a host:port such as "127.0.0.1:0"`,
	}, "\n")
	if err == nil {
		t.Fatal("Start accepted bad options")
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if _, err := Start(WithAPIKeys()); err == nil ||
		err.Error() != "mockserver: WithAPIKeys(): give at least one key, or leave the option out to accept any key" {
		t.Fatalf("WithAPIKeys(): %v", err)
	}
	if _, err := Start(WithoutListener(), WithAddr("127.0.0.1:1234")); err == nil ||
		err.Error() != "mockserver: WithAddr and WithoutListener contradict each other: drop one" {
		t.Fatalf("WithAddr with WithoutListener: %v", err)
	}
	if _, err := Start(WithAddr("256.0.0.1:0")); err == nil || !strings.Contains(err.Error(), "mockserver: cannot listen on 256.0.0.1:0") {
		t.Fatalf("bad address: %v", err)
	}
}

func TestNewPanicsOnBadOptions(t *testing.T) {
	t.Parallel()
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "WithLimits: MaxJobs is -1: pass 1 or more, or 0 for the default") {
			t.Fatalf("recovered %v", p)
		}
	}()
	New(WithoutListener(), WithLimits(Limits{MaxJobs: -1}))
}

func TestCustomCorpus(t *testing.T) {
	t.Parallel()
	def := DefaultCorpus().c
	small := &corpus.Corpus{Articles: def.Articles[len(def.Articles)-60:]}
	buf := bytes.NewBuffer(corpusJSONL(t, small))
	path := filepath.Join(t.TempDir(), "corpus.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	fromReader, err := LoadCorpus(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := LoadCorpusFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Corpus{fromReader, fromFile} {
		if c.Len() != 60 || !c.Newest().Equal(def.Articles[len(def.Articles)-1].Published) {
			t.Fatalf("loaded %d articles, newest %v", c.Len(), c.Newest())
		}
		a, b := start(t, WithCorpus(c)), start(t, WithCorpus(c))
		if a.Corpus() != c || b.Corpus() != c || a.Corpus().index() != b.Corpus().index() {
			t.Fatal("two servers on one *Corpus built two indexes")
		}
		if got := query(t, a, map[string]any{"query": "*"}).Results.TotalResults; got != 60 {
			t.Fatalf("custom corpus: %d results", got)
		}
	}
	_, err = LoadCorpusFile(filepath.Join(t.TempDir(), "missing.jsonl"))
	if err == nil || !strings.HasPrefix(err.Error(), "mockserver: LoadCorpusFile: open ") {
		t.Fatalf("missing file: %v", err)
	}
	_, err = LoadCorpus(strings.NewReader("{not json}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "mockserver: LoadCorpus: ") || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("bad corpus: %v", err)
	}
	if _, err := LoadCorpus(strings.NewReader("")); err == nil {
		t.Fatal("LoadCorpus accepted an empty input")
	}
	s := start(t, WithCorpus(newCorpus(&corpus.Corpus{})))
	if s.DateShift() != 0 || call(t, s, http.MethodPost, "/api/v2/headlines", `{"api_key":"k"}`).Status != 200 {
		t.Fatal("an empty corpus does not serve")
	}
	if got := query(t, s, map[string]any{"query": "*"}).Results.TotalResults; got != 0 {
		t.Fatalf("empty corpus: %d results", got)
	}
}

func TestServerPrintsNoKey(t *testing.T) {
	t.Parallel()
	s := start(t, WithAPIKeys("secret-key-123"))
	for _, got := range []string{fmt.Sprint(s), fmt.Sprintf("%+v", s), fmt.Sprintf("%#v", s)} {
		if got != "mockserver.Server(http://mockserver.invalid)" {
			t.Errorf("printed %q", got)
		}
	}
	if s.APIKey() != "secret-key-123" {
		t.Errorf("APIKey %q", s.APIKey())
	}
	if start(t).APIKey() != DefaultAPIKey {
		t.Error("default key")
	}
}

func TestHandlerInAServerOfYourOwn(t *testing.T) {
	t.Parallel()
	s := start(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	resp, err := ts.Client().Post(ts.URL+"/api/v2/headlines", "application/json", strings.NewReader(`{"api_key":"k"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/v2/headlines", strings.NewReader(`{"api_key":"k"}`))
	req.Header.Set(FaultHeader, "drop")
	if resp, err := ts.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("drop through httptest.Server gave a response")
	}
	s.Close()
	resp, err = ts.Client().Post(ts.URL+"/api/v2/headlines", "application/json", strings.NewReader(`{"api_key":"k"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("X-Request-Id") == "" {
		t.Fatalf("after Close: %d %v", resp.StatusCode, resp.Header)
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	s := startSocket(t, WithFaults(FaultRule{Probability: 0.1, Fault: Fault{Status: 503}}), WithJournalSize(50), WithLimits(Limits{MaxJobs: 20}))
	word := commonWord(t, s)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 15 {
				r := post(t, s, "/api/v2/query-async", map[string]any{"query": word, "sort_order": "Date Published"})
				if r.Status == 200 {
					id := decode[resultsReply](t, r).QueryID
					post(t, s, "/api/v2/get-results", map[string]any{"query_id": id, "page": 1 + i%3})
				}
				post(t, s, "/api/v2/query", map[string]any{"query": word, "page": 1 + (g+i)%4})
				post(t, s, "/api/v2/headlines", nil)
				_ = s.Journal()
			}
		})
	}
	wg.Wait()
	if n := len(s.Journal()); n != 50 {
		t.Fatalf("journal holds %d", n)
	}
	if n := s.jobs.Len(); n > 20 {
		t.Fatalf("%d jobs held, cap 20", n)
	}
}

// TestRateLimiterRetryAfterFits: however slow the rate, Retry-After is a
// positive number of seconds, at most maxRetryAfter.
func TestRateLimiterRetryAfterFits(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		rate float64
		want int
	}{{1e-30, maxRetryAfter}, {1e-9, 1_000_000_000}, {0.001, 1000}, {3, 1}, {1e9, 1}} {
		l := newRateLimiter(tt.rate, 1)
		l.allow(jobs.Owner{1}, t0)
		if ok, wait := l.allow(jobs.Owner{1}, t0); ok || wait != tt.want {
			t.Errorf("rate %v: second request allowed %v, Retry-After %d; want refused, %d", tt.rate, ok, wait, tt.want)
		}
	}
}

func TestRateLimiterPrunesIdleKeys(t *testing.T) {
	t.Parallel()
	l := newRateLimiter(1000, 1)
	for i := range maxBuckets + 10 {
		l.allow(jobs.Owner{byte(i), byte(i >> 8), byte(i >> 16)}, t0.Add(time.Duration(i)*time.Millisecond))
	}
	if n := len(l.keys); n > maxBuckets {
		t.Fatalf("%d buckets, cap %d", n, maxBuckets)
	}
}

// TestOptionDocsNameRealMethods: every Server method an option's doc
// comment sends the reader to exists (WithoutListener's once named
// Responder and Register, which Server never had).
func TestOptionDocsNameRealMethods(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("options.go")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(src), "// WithoutListener starts no socket")
	j := strings.Index(string(src), "func WithoutListener()")
	if i < 0 || j < i {
		t.Fatal("WithoutListener's doc comment is not in options.go")
	}
	doc := string(src[i:j])
	typ := reflect.TypeFor[*Server]()
	for _, name := range []string{"Transport", "HTTPClient", "Client", "Handler", "Responder", "Register"} {
		_, has := typ.MethodByName(name)
		if strings.Contains(doc, " "+name) && !has {
			t.Errorf("WithoutListener's doc names %s, which Server lacks", name)
		}
	}
}
