package record

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

func open(t *testing.T, drop ...string) (*Recorder, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	r, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path), Drop: drop,
		Clock: func() time.Time { return time.Date(2025, 1, 19, 1, 4, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	return r, path
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return string(b)
}

const (
	art1 = `{"_id":"AAAAAAAAAAAAAAAAAAAAAAAA","title":"One","url":"https://a.example/1","site":"a.example","datePublished":"2024-11-13 01:04:00","bodyText":"long","embeddings":[1,2]}`
	art2 = `{"_id":"bbbbbbbbbbbbbbbbbbbbbbbb", "title" : "Two", "url":"https://a.example/2","site":"a.example","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT"}`
)

func TestAnswerDropsDeduplicatesAndReplacesStubs(t *testing.T) {
	t.Parallel()
	r, path := open(t, "bodyText", "embeddings")
	headlines := `{"headlines":[{"topic":"t","count":3,"articles":[` +
		`{"title":"Two","url":"https://a.example/2","site":"a.example","datePublished":"2024-11-13 01:44:17","category":null},` +
		`{"title":"Three","url":"https://a.example/3","site":"a.example","datePublished":"2024-11-13 02:00:00"}]}],"state":"SUCCESS"}`
	for _, step := range []struct{ endpoint, body string }{
		{"headlines", headlines},
		{"query", `{"results":{"totalResults":2,"articles":[` + art1 + `,` + art2 + `]},"state":"SUCCESS"}`},
		{"get-results", `{"articles":[` + art1 + `],"totalArticles":1,"page":1}`},
		{"headlines", headlines},
		{"query-async", `{"query_id":"q"}`},
		{"query", `not json`},
	} {
		if err := r.Answer(step.endpoint, nil, []byte(step.body)); err != nil {
			t.Fatal(err)
		}
	}
	two, three := stubID("https://a.example/2"), stubID("https://a.example/3")
	// The file is only appended to: the stub of Two stays, and the full
	// article, which came later, replaces it with _replaces.
	want := `{"_id":"` + two + `","title":"Two","url":"https://a.example/2","site":"a.example","datePublished":"2024-11-13 01:44:17","category":null}
{"_id":"` + three + `","title":"Three","url":"https://a.example/3","site":"a.example","datePublished":"2024-11-13 02:00:00"}
{"_id":"AAAAAAAAAAAAAAAAAAAAAAAA","title":"One","url":"https://a.example/1","site":"a.example","datePublished":"2024-11-13 01:04:00"}
{"_id":"bbbbbbbbbbbbbbbbbbbbbbbb","title":"Two","url":"https://a.example/2","site":"a.example","datePublished":"Wed, 13 Nov 2024 01:44:17 GMT","_replaces":"` + two + `"}
`
	if diff := cmp.Diff(want, read(t, path)); diff != "" {
		t.Errorf("corpus (-want +got):\n%s", diff)
	}
	c, err := corpus.LoadJSONL(strings.NewReader(read(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	if ids, want := loadedIDs(c), []string{"aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb", three}; ids != strings.Join(sorted(want), " ") {
		t.Errorf("the file loads %s; want One, Two in full and the stub of Three", ids)
	}
	s := r.Summary()
	if s.ArticlesRecorded != 4 || s.ArticlesInFile != 3 || s.HeadlineStubs != 2 || s.Duplicates != 3 || s.HeadlineAnswers != 2 {
		t.Errorf("summary %+v", s)
	}
	if got := read(t, HeadlinesPathFor(path)); got != `{"recorded_at":"2025-01-19T01:04:00Z","answer":`+compactString(headlines)+"}\n" {
		t.Errorf("headlines file:\n%s", got)
	}

	// Reopened, the recorder knows the ids, URLs and stubs of the file.
	again, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)})
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Answer("headlines", nil, []byte(headlines)); err != nil {
		t.Fatal(err)
	}
	if err := again.Answer("query", nil, []byte(`{"articles":[{"_id":"cccccccccccccccccccccccc","title":"Three","url":"https://a.example/3","site":"a.example","datePublished":"2024-11-13"}]}`)); err != nil {
		t.Fatal(err)
	}
	got := read(t, path)
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, `"_replaces":"`+three+`"}`+"\n") || strings.Count(got, "\n") != 5 {
		t.Errorf("after reopening:\n%s", got)
	}
	if c, err := corpus.LoadJSONL(strings.NewReader(got)); err != nil || loadedIDs(c) != "aaaaaaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbb cccccccccccccccccccccccc" {
		t.Errorf("after reopening, the file loads %v (%v); want One, Two and Three in full", loadedIDs(c), err)
	}
	if s := again.Summary(); s.ArticlesInFile != 3 || s.HeadlinesInFile != 1 {
		t.Errorf("reopened summary %+v", s)
	}
}

func compactString(s string) string { return string(compact([]byte(s))) }

func sorted(s []string) []string { slices.Sort(s); return s }

// loadedIDs lists the ids of a corpus, sorted, separated by spaces.
func loadedIDs(c *corpus.Corpus) string {
	if c == nil {
		return ""
	}
	var ids []string
	for _, a := range c.Articles {
		ids = append(ids, a.ID)
	}
	slices.Sort(ids)
	return strings.Join(ids, " ")
}

func TestAnswerKeepsTheFileOnAWriteError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "missing-dir", "c.jsonl")
	r, err := Open(Config{CorpusPath: path, HeadlinesPath: path + ".h"})
	if err != nil {
		t.Fatal(err)
	}
	err = r.Answer("query", nil, []byte(`{"articles":[`+art2+`]}`))
	if err == nil {
		t.Fatal("no error writing into a missing directory")
	}
	if s := r.Summary(); s.ArticlesRecorded != 0 || s.ArticlesInFile != 0 {
		t.Errorf("summary after a failed write %+v", s)
	}
	if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := r.Answer("query", nil, []byte(`{"articles":[`+art2+`]}`)); err != nil || strings.Count(read(t, path), "\n") != 1 {
		t.Errorf("the article was not recorded once the directory existed: %v", err)
	}
}

func TestScrub(t *testing.T) {
	t.Parallel()
	const key = `K<"&>\EY-12345`
	in := `{"a":"K\u003c\"\u0026\u003e\\EY-12345","b":"K<\"&>\\EY-12345","c":{"Api_Key":[1]},` +
		`"d":"\u004b\u003c\u0022\u0026\u003e\u005c\u0045\u0059\u002d\u0031\u0032\u0033\u0034\u0035","e":"K%3C%22%26%3E%5CEY-12345"}`
	want := `{"a":"[redacted]","b":"[redacted]","c":{"Api_Key":"[redacted]"},"d":"[redacted]","e":"[redacted]"}`
	if got := string(scrub([]byte(in), Redactor(key))); got != want {
		t.Errorf("scrub = %s\nwant   %s", got, want)
	}
	if got := string(scrub([]byte(`{"a":"short"}`), Redactor("short"))); got != `{"a":"short"}` {
		t.Errorf("a key under %d bytes is scrubbed: %s", MinScrubbedKey, got)
	}
	if got := string(scrub([]byte(`{"a":"the latest-key-12345x"}`), Redactor("latest-key-12345"))); got != `{"a":"the latest-key-12345x"}` {
		t.Errorf("a key inside a word is scrubbed: %s", got)
	}
}

func TestDateFormat(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Wed, 13 Nov 2024 01:44:17 GMT":   "RFC 1123 (Mon, 02 Jan 2006 15:04:05 GMT)",
		"2025-01-19 01:04:00":             "YYYY-MM-DD HH:MM:SS",
		"2025-01-19T01:04:00Z":            "RFC 3339 (2006-01-02T15:04:05Z07:00)",
		"2025-01-19T01:04:00.123+02:00":   "RFC 3339 with fraction (2006-01-02T15:04:05.000Z07:00)",
		"2025-01-19":                      "YYYY-MM-DD",
		"Wed, 13 Nov 2024 01:44:17 +0100": "RFC 1123 with offset (Mon, 02 Jan 2006 15:04:05 -0700)",
		"13/11/2024 1h":                   "unknown: 99/99/9999 9a",
	} {
		if got := dateFormat(in); got != want {
			t.Errorf("dateFormat(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShiftHeadlines(t *testing.T) {
	t.Parallel()
	in := `{"headlines":[{"topic":"datePublished","articles":[{"datePublished":"2025-01-19 01:04:00","x":{"datePublished":"2025-01-19"}},` +
		`{"datePublished":"Sun, 19 Jan 2025 01:04:00 GMT"},{"datePublished":"soon"},{"datePublished":7}]}], "datePublished": "2025-01-19"}`
	want := `{"headlines":[{"topic":"datePublished","articles":[{"datePublished":"2025-01-20 02:04:00","x":{"datePublished":"2025-01-19"}},` +
		`{"datePublished":"Mon, 20 Jan 2025 02:04:00 GMT"},{"datePublished":"soon"},{"datePublished":7}]}],"datePublished": "2025-01-19"}`
	if got := string(ShiftHeadlines([]byte(in), 25*time.Hour)); got != want {
		t.Errorf("ShiftHeadlines =\n%s\nwant\n%s", got, want)
	}
}

// loaded loads a corpus file's text as the mock does and counts its
// articles.
func loaded(text string) (int, error) {
	c, err := corpus.LoadJSONL(strings.NewReader(text))
	if err != nil {
		return 0, err
	}
	return len(c.Articles), nil
}

// TestFileLoadsAtEveryMoment loads the corpus file while answers are
// appended to it: at the worst instant, when half of an answer's lines are
// written, and over and over from another goroutine. Every load succeeds
// (a last line cut short is skipped), finds at least the articles of the
// load before, and every read of the file begins with the bytes of the
// read before: a record once written never changes.
func TestFileLoadsAtEveryMoment(t *testing.T) {
	t.Parallel()
	r, path := open(t)
	const answers, per = 60, 5
	var mu sync.Mutex // guards the fields below, used by two goroutines
	reads, midWrites, lastN := 0, 0, 0
	var last []byte
	check := func(during bool) error {
		mu.Lock() // reads in turn, so that each follows the one it is compared with
		defer mu.Unlock()
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		n, err := loaded(string(b))
		reads++
		if during {
			midWrites++
		}
		switch {
		case err != nil && strings.Count(string(b), "\n") > 0: // before its first whole line the file loads nothing
			return fmt.Errorf("read %d: %d articles, error %v", reads, n, err)
		case !bytes.HasPrefix(b, last):
			return fmt.Errorf("read %d: the file no longer begins with what it held before", reads)
		case n < lastN:
			return fmt.Errorf("read %d: %d articles, fewer than the %d of the read before", reads, n, lastN)
		}
		last, lastN = b, n
		return nil
	}
	var midErr error
	r.testMidWrite = func() error {
		if err := check(true); err != nil && midErr == nil {
			midErr = err
		}
		return nil
	}
	done := make(chan error, 1)
	go func() {
		for i := range answers {
			if err := r.Answer("query", nil, answerOf(1+i*per, per)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if midErr != nil {
				t.Fatalf("while half an answer was written: %v", midErr)
			}
			if n, err := loaded(read(t, path)); err != nil || n != answers*per {
				t.Fatalf("at the end: %d articles, error %v; want %d", n, err, answers*per)
			}
			if midWrites != answers {
				t.Fatalf("the file was read %d times half-way through a write; want %d", midWrites, answers)
			}
			t.Logf("%d loads of the file while it was recorded into, each whole", reads)
			return
		default:
			if err := check(false); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestAppendOnly: every answer appends to the files; an earlier record's
// bytes never change, the file is never replaced (the same file, by
// inode, from the first answer to the last), replacing a headline stub
// included.
func TestAppendOnly(t *testing.T) {
	t.Parallel()
	r, path := open(t)
	hpath := HeadlinesPathFor(path)
	headlines := func(n int) string {
		return fmt.Sprintf(`{"headlines":[{"topic":"t%d","articles":[{"title":"H","url":"https://a.example/%d","site":"a.example","datePublished":"2024-11-13 01:44:17"}]}],"state":"SUCCESS"}`, n, n)
	}
	var firstInfo [2]os.FileInfo
	var prev [2]string
	for i := range 12 {
		var err error
		switch i % 3 {
		case 0:
			err = r.Answer("headlines", nil, []byte(headlines(1000+i)))
		case 1:
			err = r.Answer("query", nil, answerOf(1000+i-1, 1)) // the article of the stub just recorded
		default:
			err = r.Answer("query", nil, answerOf(1+i*3, 3))
		}
		if err != nil {
			t.Fatal(err)
		}
		for f, p := range []string{path, hpath} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if firstInfo[f] == nil {
				firstInfo[f] = fi
			} else if !os.SameFile(firstInfo[f], fi) {
				t.Fatalf("answer %d: %s was replaced by another file", i, p)
			}
			now := read(t, p)
			if !strings.HasPrefix(now, prev[f]) || len(now) < len(prev[f]) {
				t.Fatalf("answer %d: %s changed its earlier records:\nbefore\n%s\nafter\n%s", i, p, prev[f], now)
			}
			prev[f] = now
		}
	}
	if n, err := loaded(prev[0]); err != nil || n != 4*3+4 || r.Summary().ArticlesInFile != n {
		t.Errorf("the file loads %d articles (%v), the summary counts %d; want %d: the stubs replaced", n, err, r.Summary().ArticlesInFile, 4*3+4)
	}
	if n := strings.Count(prev[0], `"_replaces"`); n != 4 {
		t.Errorf("%d lines replace a stub; want 4", n)
	}
}

// TestAFailedWriteLeavesNoHalfLine: a write that fails after half of an
// answer's lines are written is undone, the file cut back to what it was,
// so that the next answer is appended after whole lines; the recorder
// forgets the articles that were not written.
func TestAFailedWriteLeavesNoHalfLine(t *testing.T) {
	t.Parallel()
	r, path := open(t)
	if err := r.Answer("query", nil, answerOf(1, 2)); err != nil {
		t.Fatal(err)
	}
	before := read(t, path)
	r.testMidWrite = func() error { return errors.New("no space left on device") }
	if err := r.Answer("query", nil, answerOf(10, 3)); err == nil || err.Error() != "no space left on device" {
		t.Fatalf("Answer = %v; want the write's error", err)
	}
	if got := read(t, path); got != before {
		t.Fatalf("after the failed write the file is\n%s\nwant it as before:\n%s", got, before)
	}
	r.testMidWrite = nil
	if err := r.Answer("query", nil, answerOf(10, 3)); err != nil {
		t.Fatal(err)
	}
	if n, err := loaded(read(t, path)); err != nil || n != 5 || r.Summary().ArticlesRecorded != 5 {
		t.Errorf("after recording again: %d articles (%v), summary %+v; want 5", n, err, r.Summary())
	}
}

// TestOpenRepairsTheLastLine: a recorder opened on files whose last line
// a write cut short removes that line; a whole last line without a line
// ending gets one; then it appends after them.
func TestOpenRepairsTheLastLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	one := string(compact(answerOf(1, 1)[len(`{"results":{"totalResults":1000,"articles":[`) : len(answerOf(1, 1))-len(`]},"state":"SUCCESS"}`)]))
	h := `{"recorded_at":"2025-01-19T01:04:00Z","answer":{"headlines":[],"state":"SUCCESS"}}`
	for _, tc := range []struct{ corpus, headlines, wantCorpus, wantHeadlines string }{
		{one + "\n" + one[:40], h + "\n" + h[:30], one + "\n", h + "\n"},
		{one, h, one + "\n", h + "\n"},
	} {
		if err := os.WriteFile(path, []byte(tc.corpus), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(HeadlinesPathFor(path), []byte(tc.headlines), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)})
		if err != nil {
			t.Fatal(err)
		}
		if got := read(t, path); got != tc.wantCorpus {
			t.Errorf("corpus after Open:\n%q\nwant\n%q", got, tc.wantCorpus)
		}
		if got := read(t, HeadlinesPathFor(path)); got != tc.wantHeadlines {
			t.Errorf("headlines after Open:\n%q\nwant\n%q", got, tc.wantHeadlines)
		}
		if err := r.Answer("query", nil, answerOf(2, 1)); err != nil {
			t.Fatal(err)
		}
		if n, err := loaded(read(t, path)); err != nil || n != 2 {
			t.Errorf("after an answer: %d articles (%v); want 2", n, err)
		}
	}
	// A bad last line that no write cut short is the reader's to report.
	if err := os.WriteFile(path, []byte(one+"\n"+`{"_id": }`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Config{CorpusPath: path, HeadlinesPath: HeadlinesPathFor(path)}); err == nil || !strings.Contains(err.Error(), "line 2: invalid JSON") {
		t.Errorf("Open on a bad last line: %v", err)
	}
}

func TestFileModeKept(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Windows files have no Unix permission bits")
	}
	r, path := open(t)
	if err := r.Answer("query", nil, answerOf(1, 1)); err != nil {
		t.Fatal(err)
	}
	mode := func() os.FileMode {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if got := mode(); got != newFileMode {
		t.Errorf("new recording has mode %v, want %v", got, newFileMode)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := r.Answer("query", nil, answerOf(2, 1)); err != nil {
		t.Fatal(err)
	}
	if got := mode(); got != 0o640 {
		t.Errorf("after recording into a file of mode 0640 its mode is %v", got)
	}
}

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	for body, want := range map[string][]string{
		`{"api_key":"key-one-1234","query":"x"}`:                                  {"key-one-1234"},
		`{"api_key":"key-one-1234","API_Key":"key-two","api_key":"key-one-1234"}`: {"key-one-1234", "key-two"},
		`{"query":"x","api_key":"key-one-1234",`:                                  {"key-one-1234"}, // cut short
		`{"api_key":"key-one-1234","query":}`:                                     {"key-one-1234"}, // a value missing after it
		`{"query":"x","nested":{"api_key":"inner"}}`:                              nil,              // only top-level members are the key
		`{"api_key":7}`: nil,
		`not json`:      nil,
		``:              nil,
	} {
		if diff := cmp.Diff(want, APIKeys([]byte(body))); diff != "" {
			t.Errorf("APIKeys(%s) (-want +got):\n%s", body, diff)
		}
	}
}

// TestLastHeadlinesSkipsATornLine: a headlines file whose last line a
// write cut short replays the answer before it.
func TestLastHeadlinesSkipsATornLine(t *testing.T) {
	t.Parallel()
	h := func(topic string) string {
		return `{"recorded_at":"2025-01-19T01:04:00Z","answer":{"headlines":[{"topic":"` + topic + `"}],"state":"SUCCESS"}}`
	}
	ans, n, err := LastHeadlines(strings.NewReader(h("one") + "\n" + h("two")[:50]))
	if err != nil || n != 1 || !strings.Contains(string(ans), `"one"`) {
		t.Errorf("LastHeadlines = %s, %d, %v; want the first answer", ans, n, err)
	}
	if _, _, err := LastHeadlines(strings.NewReader(h("one") + "\n" + `{"answer": }` + "\n")); err == nil || !strings.HasPrefix(err.Error(), "line 2: is not valid JSON") {
		t.Errorf("a bad line that no write cut short: %v", err)
	}
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }
