package corpus_test

import (
	"bytes"
	"cmp"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// FuzzLoadJSONL feeds arbitrary bytes to the JSON Lines loader. Its seed
// corpus lives in testdata/fuzz/FuzzLoadJSONL/ and runs with every go
// test; see RELIABILITY.md for the command that fuzzes it for longer.
// Property: no panic; an error names the loader ("corpus…"); a loaded
// corpus keeps the documented invariants (ordered by date then id, unique
// 24-hex ids, normalised sites, ISO codes, traffic 0..100, UTC dates) and
// survives WriteJSONL and LoadJSONL again unchanged.
func FuzzLoadJSONL(f *testing.F) {
	for _, s := range []string{
		`{"_id":"5f1c0a9e3b2d4c6e8f7a1b2c","title":"T","url":"https://example.com/a","site":"Example.com","datePublished":"Tue, 04 Mar 2025 10:00:00 GMT"}`,
		"\ufeff{\"_id\":\"5F1C0A9E3B2D4C6E8F7A1B2C\",\"title\":\"T\",\"url\":\"http://x.org/\",\"site\":\"www.x.org\",\"datePublished\":\"2025-03-04\",\"image\":[\"\",\"i\"],\"traffic\":7}\r\n\r\n",
		`{"_id":"000000000000000000000001","title":"a","url":"https://a.b/c","site":"a.b","datePublished":"2025-03-04T10:00:00.5+02:00","entities":[{"name":"n","type":"PERSON","sentiment":0.5,"confidence":1}],"embeddings":[0.5,-1e-7],"entity_relationships":[],"language":"DE","category":"Politics","topics":["x","y","z"],"sentiment":{"title":-1,"description":1}}` + "\n" +
			`{"_id":"000000000000000000000002","title":"b","url":"https://a.b/d","site":"a.b","datePublished":"2025-03-04 10:00:00","embeddings":[1,2],"traffic":100}`,
		`{"_id":"5f1c0a9e3b2d4c6e8f7a1b2c","title":"T","url":"https://example.com/a","site":"www.www.example.com","datePublished":"2025-03-04"}`,
		"{\"_id\":\"5f1c0a9e3b2d4c6e8f7a1b2c\",\"title\":\"T\",\"url\":\"https://x.org/\",\"site\":\"www.\u00a0x.org\",\"datePublished\":\"2025-03-04\"}",
		"{}", "[]", "\n\n", `{"_id":1}`, "{\"title\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := corpus.LoadJSONL(bytes.NewReader(data))
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "corpus") {
				t.Fatalf("LoadJSONL error %q does not name the loader", msg)
			}
			return
		}
		checkCorpus(t, c)
		var out bytes.Buffer
		if err := corpus.WriteJSONL(&out, c); err != nil {
			t.Fatalf("WriteJSONL: %v", err)
		}
		back, err := corpus.LoadJSONL(&out)
		if err != nil {
			t.Fatalf("LoadJSONL(WriteJSONL(c)): %v\n%s", err, out.Bytes())
		}
		if diff := gocmp.Diff(c, back); diff != "" {
			t.Fatalf("round trip of %q (-loaded +reloaded):\n%s", data, diff)
		}
	})
}

// checkCorpus checks the invariants LoadJSONL documents.
func checkCorpus(t *testing.T, c *corpus.Corpus) {
	t.Helper()
	if len(c.Articles) == 0 {
		t.Fatal("LoadJSONL returned an empty corpus without an error")
	}
	seen := map[string]bool{}
	for i := range c.Articles {
		a := &c.Articles[i]
		if i > 0 {
			p := &c.Articles[i-1]
			if cmp.Or(p.Published.Compare(a.Published), cmp.Compare(p.ID, a.ID)) >= 0 {
				t.Fatalf("articles %d and %d are out of order: %v %s, %v %s", i-1, i, p.Published, p.ID, a.Published, a.ID)
			}
		}
		if len(a.ID) != 24 || strings.Trim(a.ID, "0123456789abcdef") != "" || seen[a.ID] {
			t.Fatalf("article %d: _id %q is not 24 lower-case hex digits, or repeats", i, a.ID)
		}
		seen[a.ID] = true
		if a.Site != strings.ToLower(a.Site) || a.Site == "" || strings.ContainsAny(a.Site, "/:?#@ \t") {
			t.Fatalf("article %d: site %q is not a normalised domain", i, a.Site)
		}
		if len(a.Language) != 2 || a.Language != strings.ToLower(a.Language) {
			t.Fatalf("article %d: language %q is not an ISO 639-1 code", i, a.Language)
		}
		if a.Traffic < 0 || a.Traffic > 100 {
			t.Fatalf("article %d: traffic %d outside 0..100", i, a.Traffic)
		}
		if a.Published.Location() != time.UTC || a.Story != -1 || a.Favicon == "" {
			t.Fatalf("article %d: published %v, story %d, favicon %q", i, a.Published, a.Story, a.Favicon)
		}
	}
}
