package corpus

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// baseCorpus loads a small corpus: id1 and id2 on example.com (traffic 70).
func baseCorpus(t *testing.T) *Corpus {
	t.Helper()
	c, err := LoadJSONL(strings.NewReader(line(t, id1, map[string]any{"traffic": 70}) + "\n" +
		line(t, id2, map[string]any{"datePublished": "2025-03-05T10:00:00Z"}) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAddMergesInOrderAndLeavesTheBaseAlone(t *testing.T) {
	t.Parallel()
	base := baseCorpus(t)
	const idNew = "aaaaaaaaaaaaaaaaaaaaaaaa"
	for _, tc := range []struct{ name, body string }{
		{"JSON Lines", "\n" + line(t, id3, map[string]any{"datePublished": "2025-03-04T12:00:00Z", "site": "other.org"}) + "\r\n\n" +
			line(t, idNew, map[string]any{"datePublished": "2025-03-03T00:00:00Z"}) + "\n"},
		{"JSON array", " [" + line(t, id3, map[string]any{"datePublished": "2025-03-04T12:00:00Z", "site": "other.org"}) + ",\n" +
			line(t, idNew, map[string]any{"datePublished": "2025-03-03T00:00:00Z"}) + "]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, n, err := add(base, strings.NewReader(tc.body), time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			if n != 2 || len(got.Articles) != 4 || len(base.Articles) != 2 {
				t.Fatalf("added %d, corpus %d articles, base %d; want 2, 4, 2", n, len(got.Articles), len(base.Articles))
			}
			var ids []string
			for _, a := range got.Articles {
				ids = append(ids, a.ID)
			}
			// Dates move back by the shift: idNew 2025-03-02 23:00, id3 2025-03-04 11:00, after id1 at 10:00.
			if want := []string{idNew, id1, id3, id2}; strings.Join(ids, ",") != strings.Join(want, ",") {
				t.Errorf("order %v, want %v", ids, want)
			}
			if p := got.Articles[2].Published; !p.Equal(time.Date(2025, 3, 4, 11, 0, 0, 0, time.UTC)) {
				t.Errorf("id3 published %v, want its datePublished less the 1h shift", p)
			}
			// idNew is on example.com and takes the corpus's traffic; other.org is new and gets 50.
			if got.Articles[0].Traffic != 70 || got.Articles[2].Traffic != 50 {
				t.Errorf("traffic %d and %d, want 70 (the site's in the corpus) and 50", got.Articles[0].Traffic, got.Articles[2].Traffic)
			}
			if len(got.Sites) != 2 || len(base.Sites) != 1 {
				t.Errorf("sites %v (base %v), want example.com and other.org (base example.com)", got.Sites, base.Sites)
			}
		})
	}
}

func TestAddErrors(t *testing.T) {
	t.Parallel()
	base := baseCorpus(t)
	ok3 := line(t, id3, nil)
	for _, tc := range []struct{ name, body, want string }{
		{"empty", " \n\n", "the input holds no articles: send JSON Lines (one article object per line) or a JSON array of article objects"},
		{"empty array", "[]", "the input holds no articles: send JSON Lines (one article object per line) or a JSON array of article objects"},
		{"id in the corpus", ok3 + "\n" + line(t, id1, nil),
			`line 2: _id "5f1c0a9e3b2d4c6e8f7a1b2c" is already in the corpus; give every article its own _id (DELETE /_mock/articles returns to the start-up corpus)`},
		{"id twice in an array", "[" + ok3 + "," + ok3 + "]",
			`array item 2: duplicate _id "5f1c0a9e3b2d4c6e8f7a1b2e" (first used in array item 1); give every article its own _id`},
		{"traffic against the corpus", line(t, id3, map[string]any{"traffic": 10}),
			`line 1: traffic 10 for site "example.com" differs from 70, the traffic the corpus gives the site; leave traffic out or give 70`},
		{"traffic within the batch", "[" + line(t, id3, map[string]any{"site": "new.org", "traffic": 5}) + ",\n" +
			line(t, "bbbbbbbbbbbbbbbbbbbbbbbb", map[string]any{"site": "new.org", "traffic": 6}) + "]",
			`array item 2: traffic 6 for site "new.org" differs from 5 in array item 1; give every article of a site the same traffic`},
		{"bad field", ok3 + "\n" + line(t, "bbbbbbbbbbbbbbbbbbbbbbbb", map[string]any{"datePublished": "soon"}),
			`line 2: datePublished "soon" is not a date; use RFC 1123 ("Wed, 13 Nov 2024 01:44:17 GMT"), RFC 3339 ("2024-11-13T01:44:17Z"), "2024-11-13 01:44:17" or "2024-11-13"`},
		{"array item not an object", "[" + ok3 + ", 7]",
			"array item 2: expected a JSON object; make every item of the array one article object"},
		{"array cut short", "[" + ok3 + ",",
			"the JSON array ends too early; close it with ] and send the whole body"},
		{"bad JSON in the array", "[" + ok3 + " " + ok3 + "]",
			"invalid JSON at byte " + strconv.Itoa(len(ok3)+2) + " of the array; send one JSON array of article objects, or JSON Lines"},
		{"data after the array", "[" + ok3 + "] {}",
			"the JSON array is followed by more data; send one array, or JSON Lines"},
		{"JSON Lines line too long", ok3 + "\n" + strings.Repeat("x", MaxLineBytes+1),
			"line 2: line is longer than 1048576 bytes; keep each article on one line of at most 1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, n, err := add(base, strings.NewReader(tc.body), 0)
			if err == nil {
				t.Fatalf("Add = %d articles, nil error; want %q", n, tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			if got != nil || n != 0 || len(base.Articles) != 2 {
				t.Errorf("a failed Add returned %v, %d and left %d base articles; want nil, 0, 2", got, n, len(base.Articles))
			}
		})
	}
}

func TestAddEmbeddingLength(t *testing.T) {
	t.Parallel()
	base, err := LoadJSONL(strings.NewReader(line(t, id1, map[string]any{"embeddings": []float32{1, 0, 0}})))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = add(base, strings.NewReader(line(t, id2, map[string]any{"embeddings": []float32{1, 0}})), 0)
	want := "line 1: embeddings has 2 values but the corpus's articles have 3; give every article vectors of the same length"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if _, n, err := add(base, strings.NewReader(line(t, id2, map[string]any{"embeddings": []float32{0, 1, 0}})), 0); err != nil || n != 1 {
		t.Errorf("same length: %d, %v; want 1 article added", n, err)
	}
}

// add reads articles into c as a server's AddArticles does: ReadAdded
// against c, then Merge.
func add(c *Corpus, r io.Reader, shift time.Duration) (*Corpus, int, error) {
	added, err := ReadAdded(r, shift, layeredKnown{c})
	if err != nil {
		return nil, 0, err
	}
	return Merge(c, added), len(added.Articles), nil
}

// layeredKnown answers Known for several corpora at once, as a server's
// corpus with added articles does.
type layeredKnown []*Corpus

func (k layeredKnown) HasID(id string) bool {
	for _, c := range k {
		for i := range c.Articles {
			if c.Articles[i].ID == id {
				return true
			}
		}
	}
	return false
}

func (k layeredKnown) SiteTraffic(domain string) (int, bool) {
	for _, c := range k {
		if s, ok := c.Site(domain); ok {
			return s.Traffic, true
		}
	}
	return 0, false
}

func (k layeredKnown) EmbeddingLen() int {
	for _, c := range k {
		if n := c.EmbeddingLen(); n > 0 {
			return n
		}
	}
	return 0
}

// TestReadAddedChecksEveryLayer: ReadAdded returns only the new articles,
// in order, checked against every corpus Known answers for; Merge of the
// layers is the corpus Add would make.
func TestReadAddedChecksEveryLayer(t *testing.T) {
	t.Parallel()
	base := baseCorpus(t)
	first, err := ReadAdded(strings.NewReader(line(t, id3, map[string]any{"site": "other.org", "traffic": 20,
		"embeddings": []float32{1, 0}})), 0, layeredKnown{base})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Articles) != 1 || len(first.Sites) != 1 || first.Sites[0] != (Site{"other.org", 20, "en", "https://other.org/favicon.ico"}) {
		t.Fatalf("first batch: %d articles, sites %+v", len(first.Articles), first.Sites)
	}
	known := layeredKnown{base, first}
	for _, tc := range []struct{ name, body, want string }{
		{"id of the base", line(t, id1, nil), `line 1: _id "` + id1 + `" is already in the corpus`},
		{"id of an earlier batch", line(t, "bbbbbbbbbbbbbbbbbbbbbbbb", nil) + "\n" + line(t, id3, nil), `line 2: _id "` + id3 + `" is already in the corpus`},
		{"traffic of an earlier batch's site", line(t, "bbbbbbbbbbbbbbbbbbbbbbbb", map[string]any{"site": "other.org", "traffic": 21}),
			`line 1: traffic 21 for site "other.org" differs from 20`},
		{"embeddings of an earlier batch", line(t, "bbbbbbbbbbbbbbbbbbbbbbbb", map[string]any{"embeddings": []float32{1, 0, 0}}),
			"line 1: embeddings has 3 values but the corpus's articles have 2"},
	} {
		if _, err := ReadAdded(strings.NewReader(tc.body), 0, known); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one starting %q", tc.name, err, tc.want)
		}
	}
	second, err := ReadAdded(strings.NewReader(line(t, "bbbbbbbbbbbbbbbbbbbbbbbb", map[string]any{"site": "other.org"})+"\n"+
		line(t, "aaaaaaaaaaaaaaaaaaaaaaaa", map[string]any{"datePublished": "2025-03-01T00:00:00Z"})), time.Hour, known)
	if err != nil {
		t.Fatal(err)
	}
	if second.Articles[0].ID != "aaaaaaaaaaaaaaaaaaaaaaaa" || second.Articles[1].Traffic != 20 || second.Articles[0].Traffic != 70 {
		t.Errorf("second batch: %+v", second.Articles)
	}
	merged := Merge(Merge(base, first), second)
	var ids []string
	for _, a := range merged.Articles {
		ids = append(ids, a.ID)
	}
	// The second batch moved back an hour: bbbb… to 09:00 on the 4th, before id1 and id3 (10:00).
	if want := []string{"aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb", id1, id3, id2}; strings.Join(ids, ",") != strings.Join(want, ",") {
		t.Errorf("merged order %v, want %v", ids, want)
	}
	if len(merged.Sites) != 2 || len(base.Articles) != 2 || len(first.Articles) != 1 {
		t.Errorf("merged sites %+v; the layers changed: %d and %d articles", merged.Sites, len(base.Articles), len(first.Articles))
	}
	if _, ok := merged.Site("example.org"); ok {
		t.Error("Site finds a domain the corpus does not have")
	}
}
