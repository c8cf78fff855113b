package mockserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

// The default corpus speaks news: the searches the documentation shows
// find articles, and common news topics find articles about them in every
// language of the corpus. These tests ask a running server, as users do.

// queryRes and keyPhraseRes find the search text and key_phrases
// expressions used in README.md, docs/*.md, examples/ and the help of
// cmd/newssearch: JSON "query" members (in code, curl bodies and shell
// strings), Go Query: fields, newssearch search|range|async command lines
// and the Python example client's submit calls.
var (
	queryRes = []*regexp.Regexp{
		regexp.MustCompile(`"query"\s*:\s*"([^"\\]*)"`),
		regexp.MustCompile(`\bQuery:\s*"([^"\\]*)"`),
		regexp.MustCompile(`newssearch (?:search|range|async) +(?:"([^"]+)"|'([^']+)'|([^\s"'-][^\s"'` + "`" + `]*))`),
		regexp.MustCompile(`\.submit\("([^"\\]*)"\)`),
	}
	keyPhraseRes = []*regexp.Regexp{
		regexp.MustCompile(`"key_phrases"\s*:\s*"([^"\\]*)"`),
		regexp.MustCompile(`\bKeyPhrases:\s*"([^"\\]*)"`),
		regexp.MustCompile(`--key-phrases +"([^"]+)"`),
	}
)

// docSources lists the files whose searches TestDocQueries runs.
func docSources(t *testing.T) []string {
	t.Helper()
	root := ".."
	files := []string{filepath.Join(root, "README.md")}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md found (%v)", err)
	}
	files = append(files, docs...)
	sources := []string{".go", ".py", ".md", ".js", ".mjs", ".cjs", ".ts", ".sh"}
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch name := d.Name(); {
		case d.IsDir() && (name == "node_modules" || name == "testdata" || name == "venv" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")):
			return filepath.SkipDir // installed packages and test data are not examples
		case !d.IsDir() && slices.Contains(sources, filepath.Ext(name)):
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cli, err := filepath.Glob(filepath.Join(root, "cmd", "newssearch", "*.go"))
	if err != nil || len(cli) == 0 {
		t.Fatalf("no cmd/newssearch sources found (%v)", err)
	}
	for _, f := range cli {
		if !strings.HasSuffix(f, "_test.go") {
			files = append(files, f)
		}
	}
	return files
}

// docSearch is a search found in the documentation.
type docSearch struct {
	where, query, keyPhrases string
}

// findDocSearches reads every search of the files: a query alone, a
// key_phrases expression alone (with query "*"), and a key_phrases
// expression with the query of its line, or of a line at most 8 above (a
// Go struct's Query and KeyPhrases fields).
func findDocSearches(t *testing.T, files []string) []docSearch {
	t.Helper()
	var found []docSearch
	seen := map[docSearch]bool{}
	add := func(s docSearch) {
		key := docSearch{query: s.query, keyPhrases: s.keyPhrases}
		if !seen[key] {
			seen[key] = true
			found = append(found, s)
		}
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(b), `\"`, `"`) // Go strings, JSON in shell strings
		lastQuery, lastLine := "", -10
		for n, line := range strings.Split(text, "\n") {
			where := file + ":" + strconv.Itoa(n+1)
			var queries, phrases []string
			for _, re := range queryRes {
				for _, m := range re.FindAllStringSubmatch(line, -1) {
					q := strings.Join(m[1:], "") // one group matched
					if isPlaceholder(q) {
						continue
					}
					queries = append(queries, q)
				}
			}
			for _, re := range keyPhraseRes {
				for _, m := range re.FindAllStringSubmatch(line, -1) {
					phrases = append(phrases, m[1])
				}
			}
			for _, q := range queries {
				add(docSearch{where: where, query: q})
				lastQuery, lastLine = q, n
			}
			if len(queries) == 0 && n-lastLine <= 8 {
				queries = []string{lastQuery} // a KeyPhrases field a few lines below its Query
			}
			for _, p := range phrases {
				add(docSearch{where: where, query: "*", keyPhrases: p})
				for _, q := range queries {
					add(docSearch{where: where, query: q, keyPhrases: p})
				}
			}
		}
	}
	return found
}

// isPlaceholder reports whether a match stands for a query rather than
// being one: a placeholder (QUERY, QUERY_ID, $VAR), prose ("checkpoint:")
// or code that builds the query ("' + 'x'.repeat(n) + '").
func isPlaceholder(q string) bool {
	return q == "" || q == strings.ToUpper(q) && strings.ContainsAny(q, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") ||
		strings.HasSuffix(q, ":") || strings.HasPrefix(q, "$") || strings.Contains(q, "' +") || strings.Contains(q, "+ '")
}

// newsAnswer is what the tests read of a search's answer.
type newsAnswer struct {
	State   string `json:"state"`
	Message string `json:"message"`
	QueryID string `json:"query_id"`
	Total   int    `json:"totalResults"` // get-results
	Results struct {
		TotalResults int `json:"totalResults"`
		Articles     []struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			BodyText    string `json:"bodyText"`
			Language    string `json:"language"`
		} `json:"articles"`
	} `json:"results"`
}

// newsPost sends a JSON body to the server and decodes the answer.
func newsPost(t *testing.T, s *Server, path string, body map[string]any) (int, newsAnswer) {
	t.Helper()
	body["api_key"] = "news-queries"
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(s.URL()+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var a newsAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("POST %s %s: %v in %s", path, b, err, raw)
	}
	return res.StatusCode, a
}

// newsTotal runs a search, with the asynchronous endpoint when it has
// key_phrases (the synchronous one does not take them), and returns its
// totalResults; ok is false when the server refused it with a 400.
func newsTotal(t *testing.T, s *Server, body map[string]any) (n int, ok bool) {
	t.Helper()
	if body["key_phrases"] == nil {
		status, a := newsPost(t, s, "/api/v2/query", body)
		if status != http.StatusOK {
			t.Fatalf("query %v: status %d: %s", body, status, a.Message)
		}
		return a.Results.TotalResults, true
	}
	status, a := newsPost(t, s, "/api/v2/query-async", body)
	if status == http.StatusBadRequest {
		return 0, false
	}
	if status != http.StatusOK || a.QueryID == "" {
		t.Fatalf("query-async %v: status %d: %s", body, status, a.Message)
	}
	for range 100 {
		status, a = newsPost(t, s, "/api/v2/get-results", map[string]any{"query_id": a.QueryID})
		if status != http.StatusOK {
			t.Fatalf("get-results for %v: status %d: %s", body, status, a.Message)
		}
		if a.State == "SUCCESS" {
			return a.Total, true
		}
	}
	t.Fatalf("query-async %v: still %s after 100 polls", body, a.State)
	return 0, false
}

// TestDocQueries runs every search the documentation, the examples and the
// CLI's help show against the default corpus: each finds articles, and
// finds some in the newest 30 days too (the commands shown search the last
// 7 to 365 days; the newest article is published when the server starts).
func TestDocQueries(t *testing.T) {
	t.Parallel()
	searches := findDocSearches(t, docSources(t))
	var queries []string
	for _, s := range searches {
		queries = append(queries, s.query)
	}
	for _, want := range []string{"central bank", "climate summit", "storm", "election", "electric vehicles", "earthquake"} {
		if !slices.Contains(queries, want) {
			t.Errorf("the documentation's query %q was not found: the extraction missed it (found %q)", want, queries)
		}
	}
	s := New()
	defer s.Close()
	month := time.Now().Add(-30 * 24 * time.Hour).UTC().Format(time.RFC3339)
	for _, ds := range searches {
		body := map[string]any{"query": ds.query}
		if ds.keyPhrases != "" {
			body["key_phrases"] = ds.keyPhrases
		}
		n, ok := newsTotal(t, s, body)
		if !ok {
			t.Logf("%s: key_phrases %q is refused (the documentation shows it as a mistake)", ds.where, ds.keyPhrases)
			continue
		}
		body["start_date"] = month
		recent, _ := newsTotal(t, s, body)
		t.Logf("%s: query %q key_phrases %q: %d articles, %d in the newest 30 days", ds.where, ds.query, ds.keyPhrases, n, recent)
		if n == 0 || recent == 0 {
			t.Errorf("%s: query %q key_phrases %q finds %d articles in the default corpus, %d in the newest 30 days; want some in both",
				ds.where, ds.query, ds.keyPhrases, n, recent)
		}
	}
}

// TestNewsQueries runs the common news searches of
// testdata/newsqueries.txt against the default corpus, each in its
// language, over all time and over the newest 30 days. Every search must
// find articles in its language in both, and the first article must hold
// every word of the query in its title, description or text. The figures
// per language are logged: found / relevant, all time / newest 30 days.
func TestNewsQueries(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "newsqueries.txt"))
	if err != nil {
		t.Fatal(err)
	}
	type figures struct{ queries, found, relevant, foundRecent, relevantRecent int }
	perLang := map[string]*figures{}
	var langs []string
	s := New()
	defer s.Close()
	month := time.Now().Add(-30 * 24 * time.Hour).UTC().Format(time.RFC3339)
	total := 0
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lang, query, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("newsqueries.txt: %q is not a language and a query", line)
		}
		total++
		f := perLang[lang]
		if f == nil {
			f = &figures{}
			perLang[lang] = f
			langs = append(langs, lang)
		}
		f.queries++
		for _, recent := range []bool{false, true} {
			body := map[string]any{"query": query, "language": lang}
			window := "all time"
			if recent {
				body["start_date"], window = month, "the newest 30 days"
			}
			status, a := newsPost(t, s, "/api/v2/query", body)
			if status != http.StatusOK {
				t.Fatalf("%s %q: status %d: %s", lang, query, status, a.Message)
			}
			if len(a.Results.Articles) == 0 {
				t.Errorf("%s %q: no article in %s", lang, query, window)
				continue
			}
			first := a.Results.Articles[0]
			words := analysis.Tokens(first.Title + " " + first.Description + " " + first.BodyText)
			relevant := first.Language == lang && !slices.ContainsFunc(analysis.Tokens(query), func(w string) bool { return !slices.Contains(words, w) })
			if !relevant {
				t.Errorf("%s %q: the first article of %s, in %q, does not hold the query's words: %q", lang, query, window, first.Language, first.Title)
			}
			if recent {
				f.foundRecent++
				f.relevantRecent += b2i(relevant)
			} else {
				f.found++
				f.relevant += b2i(relevant)
				t.Logf("%s %q: %d articles, first %q", lang, query, a.Results.TotalResults, first.Title)
			}
		}
	}
	if total < 150 {
		t.Errorf("newsqueries.txt holds %d queries, want 150 at least", total)
	}
	t.Logf("%-4s %7s %21s %21s", "lang", "queries", "all time found/relev", "30 days found/relev")
	for _, lang := range langs {
		f := perLang[lang]
		t.Logf("%-4s %7d %10d/%-10d %10d/%-10d", lang, f.queries, f.found, f.relevant, f.foundRecent, f.relevantRecent)
	}
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
