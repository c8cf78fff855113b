package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// drop marks a field line() leaves out.
type drop struct{}

// line returns a valid JSONL article with the given id, changed by mods
// (a drop{} value removes the field).
func line(t *testing.T, id string, mods map[string]any) string {
	t.Helper()
	m := map[string]any{
		"_id":           id,
		"title":         "Norvale Energy to buy Kestrava Bank",
		"description":   "The deal is worth $740 million.",
		"bodyText":      "Shares rose. Regulators will review it.",
		"url":           "https://www.example.com/2025/03/04/norvale-energy-" + id[18:],
		"site":          "example.com",
		"datePublished": "Tue, 04 Mar 2025 10:00:00 GMT",
		"language":      "en",
	}
	for k, v := range mods {
		if _, ok := v.(drop); ok {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const (
	id1 = "5f1c0a9e3b2d4c6e8f7a1b2c"
	id2 = "5f1c0a9e3b2d4c6e8f7a1b2d"
	id3 = "5f1c0a9e3b2d4c6e8f7a1b2e"
)

func TestLoadJSONLErrors(t *testing.T) {
	t.Parallel()
	ok1 := line(t, id1, nil)
	bad := func(mods map[string]any) string { return ok1 + "\n\n" + line(t, id2, mods) + "\n" } // the bad line is line 3
	for _, tc := range []struct {
		name, input, want string
	}{
		{"bad JSON", ok1 + "\n\n" + `{"_id": }` + "\n",
			"corpus line 3: invalid JSON at byte 9; write each article as one JSON object on its own line"},
		{"two objects on a line", ok1 + " " + ok1 + "\n",
			"corpus line 1: invalid JSON at byte " + strconv.Itoa(len(ok1)+2) + "; write each article as one JSON object on its own line"},
		{"not an object", ok1 + "\n[1, 2]\n",
			"corpus line 2: expected a JSON object; write each article as one JSON object on its own line"},
		{"wrong type", bad(map[string]any{"traffic": "high"}),
			`corpus line 3: field "traffic" must be an integer, not a JSON string; fix the value's type`},
		{"fractional traffic", bad(map[string]any{"traffic": 50.5}),
			`corpus line 3: field "traffic" must be an integer, not a JSON number 50.5; fix the value's type`},
		{"missing id", bad(map[string]any{"_id": drop{}}),
			`corpus line 3: required field "_id" is missing or empty; every article needs _id, title, url, site and datePublished`},
		{"empty title", bad(map[string]any{"title": " "}),
			`corpus line 3: required field "title" is missing or empty; every article needs _id, title, url, site and datePublished`},
		{"null url", bad(map[string]any{"url": nil}),
			`corpus line 3: required field "url" is missing or empty; every article needs _id, title, url, site and datePublished`},
		{"missing site", bad(map[string]any{"site": drop{}}),
			`corpus line 3: required field "site" is missing or empty; every article needs _id, title, url, site and datePublished`},
		{"missing date", bad(map[string]any{"datePublished": drop{}}),
			`corpus line 3: required field "datePublished" is missing or empty; every article needs _id, title, url, site and datePublished`},
		{"bad id", bad(map[string]any{"_id": "5f1c-not-hex"}),
			`corpus line 3: _id "5f1c-not-hex" is not 24 hexadecimal characters; use an id such as "5f1c0a9e3b2d4c6e8f7a1b2c"`},
		{"duplicate id", ok1 + "\n" + line(t, id2, nil) + "\n" + line(t, strings.ToUpper(id1), nil) + "\n",
			`corpus line 3: duplicate _id "5f1c0a9e3b2d4c6e8f7a1b2c" (first used on line 1); give every article its own _id`},
		{"bad date", bad(map[string]any{"datePublished": "yesterday"}),
			`corpus line 3: datePublished "yesterday" is not a date; use RFC 1123 ("Wed, 13 Nov 2024 01:44:17 GMT"), RFC 3339 ("2024-11-13T01:44:17Z"), "2024-11-13 01:44:17" or "2024-11-13"`},
		{"RFC 1123 in another zone", bad(map[string]any{"datePublished": "Tue, 04 Mar 2025 10:00:00 EST"}),
			`corpus line 3: datePublished "Tue, 04 Mar 2025 10:00:00 EST" is not a date; use RFC 1123 ("Wed, 13 Nov 2024 01:44:17 GMT"), RFC 3339 ("2024-11-13T01:44:17Z"), "2024-11-13 01:44:17" or "2024-11-13"`},
		{"bad language", bad(map[string]any{"language": "xx"}),
			`corpus line 3: language "xx" is not an ISO 639-1 code; use a two-letter code such as "en", "es" or "de"`},
		{"language name", bad(map[string]any{"language": "English"}),
			`corpus line 3: language "English" is not an ISO 639-1 code; use a two-letter code such as "en", "es" or "de"`},
		{"relative url", bad(map[string]any{"url": "example.com/story"}),
			`corpus line 3: url "example.com/story" is not an absolute http or https URL; use a URL such as "https://example.com/2025/03/04/some-slug"`},
		{"site with scheme", bad(map[string]any{"site": "https://example.com"}),
			`corpus line 3: site "https://example.com" is not a domain name; use a bare domain such as "example.com"`},
		{"traffic out of range", bad(map[string]any{"traffic": 101}),
			`corpus line 3: traffic 101 is out of range; use a percentile from 0 to 100`},
		{"traffic conflict", line(t, id1, map[string]any{"traffic": 40}) + "\n" + line(t, id2, map[string]any{"site": "WWW.Example.com", "traffic": 70}) + "\n",
			`corpus line 2: traffic 70 for site "example.com" differs from 40 on line 1; give every article of a site the same traffic`},
		{"sentiment out of range", bad(map[string]any{"sentiment": map[string]any{"title": 1.5, "description": 0}}),
			`corpus line 3: sentiment.title 1.5 is out of range; use a value from -1 to 1`},
		{"entity without type", bad(map[string]any{"entities": []map[string]any{{"name": "Norvale Energy"}}}),
			`corpus line 3: entities[0] needs a name and a type; give every entity both`},
		{"entity confidence", bad(map[string]any{"entities": []map[string]any{{"name": "Norvale Energy", "type": "ORGANIZATION", "confidence": 2}}}),
			`corpus line 3: entities[0].confidence 2 is out of range; use a value from 0 to 1`},
		{"relationship without relation", bad(map[string]any{"entity_relationships": []map[string]any{{"source": "A", "target": "B"}}}),
			`corpus line 3: entity_relationships[0] needs a source, a target and a relation; give every relationship all three`},
		{"embedding length", line(t, id1, map[string]any{"embeddings": []float32{0.6, 0.8}}) + "\n" + line(t, id2, map[string]any{"embeddings": []float32{1, 0, 0}}) + "\n",
			`corpus line 2: embeddings has 3 values but line 1 has 2; give every article vectors of the same length`},
		{"image type", bad(map[string]any{"image": 5}),
			`corpus line 3: image must be a string, an array of strings or null; give the image URL as a string`},
		{"over-long line", ok1 + "\n" + line(t, id2, map[string]any{"bodyText": strings.Repeat("x", MaxLineBytes)}) + "\n" + line(t, id3, nil),
			`corpus line 2: line is longer than 1048576 bytes; keep each article on one line of at most 1 MiB`},
		{"empty input", "",
			`corpus: the input holds no articles; write one JSON object per line`},
		{"blank lines only", "\n  \n\t\n",
			`corpus: the input holds no articles; write one JSON object per line`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := LoadJSONL(strings.NewReader(tc.input))
			if c != nil {
				t.Errorf("LoadJSONL returned a corpus of %d articles with its error", len(c.Articles))
			}
			if err == nil {
				t.Fatalf("LoadJSONL succeeded, want error %q", tc.want)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadJSONLFirstErrorWins checks that the earliest bad line is reported
// although lines are decoded in parallel batches and reading stops at a
// later over-long line.
func TestLoadJSONLFirstErrorWins(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	for i := range 5000 {
		mods := map[string]any{}
		switch i + 1 {
		case 3001:
			mods["language"] = "xx"
		case 4500:
			mods["datePublished"] = "soon"
		case 4900:
			mods["bodyText"] = strings.Repeat("x", MaxLineBytes)
		}
		sb.WriteString(line(t, fmt.Sprintf("%024x", i), mods) + "\n")
	}
	_, err := LoadJSONL(strings.NewReader(sb.String()))
	want := `corpus line 3001: language "xx" is not an ISO 639-1 code; use a two-letter code such as "en", "es" or "de"`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestLoadJSONLReadError(t *testing.T) {
	t.Parallel()
	r := iotest.TimeoutReader(strings.NewReader(line(t, id1, nil) + "\n" + line(t, id2, nil) + "\n"))
	_, err := LoadJSONL(iotest.OneByteReader(r))
	if err == nil || !strings.HasPrefix(err.Error(), "corpus line 1: reading input: ") || !errors.Is(err, iotest.ErrTimeout) {
		t.Errorf("error = %v, want a read error at line 1 wrapping %v", err, iotest.ErrTimeout)
	}
}

func TestLoadJSONLNormalises(t *testing.T) {
	t.Parallel()
	input := "\ufeff" + line(t, id3, map[string]any{
		"site": "WWW.Example.COM", "language": drop{}, "image": []string{"", "https://example.com/a.jpg"},
		"datePublished": "2025-03-04", "traffic": 80, "topics": []string{}, "category": nil,
	}) + "\r\n\r\n" + line(t, strings.ToUpper(id1), map[string]any{
		"site": "news.example.org", "language": "FR", "image": []string{}, "category": "World",
		"datePublished": "2025-03-04T11:30:00.5+01:00", "entities": []any{}, "embeddings": []float32{0.6, 0.8},
	}) + "\n" + line(t, id2, map[string]any{
		"image": "https://example.com/b.jpg", "datePublished": "2025-03-04 10:30:00", "description": drop{},
		"favicon": "https://example.com/icon.png", "entities": nil, "embeddings": nil,
	})
	c, err := LoadJSONL(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	want := &Corpus{
		Articles: []Article{
			{ID: id3, Title: "Norvale Energy to buy Kestrava Bank", Description: "The deal is worth $740 million.",
				Body: "Shares rose. Regulators will review it.", URL: "https://www.example.com/2025/03/04/norvale-energy-7a1b2e",
				Site: "example.com", Image: "https://example.com/a.jpg", Favicon: "https://example.com/favicon.ico",
				Language: "en", Traffic: 80, Published: time.Date(2025, 3, 4, 0, 0, 0, 0, time.UTC), Story: -1},
			{ID: id2, Title: "Norvale Energy to buy Kestrava Bank",
				Body: "Shares rose. Regulators will review it.", URL: "https://www.example.com/2025/03/04/norvale-energy-7a1b2d",
				Site: "example.com", Image: "https://example.com/b.jpg", Favicon: "https://example.com/icon.png",
				Language: "en", Traffic: 80, Published: time.Date(2025, 3, 4, 10, 30, 0, 0, time.UTC), Story: -1},
			{ID: id1, Title: "Norvale Energy to buy Kestrava Bank", Description: "The deal is worth $740 million.",
				Body: "Shares rose. Regulators will review it.", URL: "https://www.example.com/2025/03/04/norvale-energy-7A1B2C",
				Site: "news.example.org", Favicon: "https://news.example.org/favicon.ico", Category: "World",
				Language: "fr", Traffic: 50, Published: time.Date(2025, 3, 4, 10, 30, 0, 5e8, time.UTC),
				Entities: []Entity{}, Embedding: []float32{0.6, 0.8}, Story: -1},
		},
		Sites: []Site{
			{Domain: "example.com", Traffic: 80, Language: "en", Favicon: "https://example.com/favicon.ico"},
			{Domain: "news.example.org", Traffic: 50, Language: "fr", Favicon: "https://news.example.org/favicon.ico"},
		},
		Languages: []Language{{"en", "English"}, {"fr", "French"}},
	}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("LoadJSONL (-want +got):\n%s", diff)
	}
	if c.Articles[1].Encoded() || c.Articles[0].Encoded() {
		t.Error("articles without both entities and embeddings count as encoded")
	}
}

// TestLoadJSONLSiteWWW checks that every leading "www." is dropped, so a
// loaded site loads again as itself, and that a site left without a domain
// or with spaces of any kind inside is refused.
func TestLoadJSONLSiteWWW(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		site, want, wantErr string
	}{
		{site: "www.www.example.com", want: "example.com"},
		{site: " WWW.www.Www.News.Example.org ", want: "news.example.org"},
		{site: "www.example.com", want: "example.com"},
		{site: "www2.www.example.com", want: "www2.www.example.com"},
		{site: "wwwexample.com", want: "wwwexample.com"},
		{site: "www.www.com", wantErr: `corpus line 1: site "www.www.com" is not a domain name; use a bare domain such as "example.com"`},
		{site: "www.www.", wantErr: `corpus line 1: site "www.www." is not a domain name; use a bare domain such as "example.com"`},
		{site: "www.\u00a0example.com", wantErr: `corpus line 1: site "www.\u00a0example.com" is not a domain name; use a bare domain such as "example.com"`},
		{site: "exa\u2003mple.com", wantErr: `corpus line 1: site "exa\u2003mple.com" is not a domain name; use a bare domain such as "example.com"`},
	} {
		t.Run(tc.site, func(t *testing.T) {
			t.Parallel()
			c, err := LoadJSONL(strings.NewReader(line(t, id1, map[string]any{"site": tc.site})))
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("LoadJSONL succeeded with site %q, want error %q", c.Articles[0].Site, tc.wantErr)
				}
				if diff := cmp.Diff(tc.wantErr, err.Error()); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := []Site{{Domain: tc.want, Traffic: 50, Language: "en", Favicon: "https://" + tc.want + "/favicon.ico"}}
			if diff := cmp.Diff(want, c.Sites); diff != "" {
				t.Errorf("sites (-want +got):\n%s", diff)
			}
			if got := c.Articles[0].Site; got != tc.want {
				t.Errorf("article site %q, want %q", got, tc.want)
			}
			again, _ := roundTrip(t, c)
			if diff := cmp.Diff(c, again); diff != "" {
				t.Errorf("loading the written corpus again changed it (-loaded +reloaded):\n%s", diff)
			}
		})
	}
}

// roundTrip writes c and loads it back.
func roundTrip(t *testing.T, c *Corpus) (loaded *Corpus, written string) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, c); err != nil {
		t.Fatal(err)
	}
	written = buf.String()
	loaded, err := LoadJSONL(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return loaded, written
}

// asLoaded returns a generated article as LoadJSONL reads it back: its
// vector in Embedding, and no story label.
func asLoaded(a Article) Article {
	a.Embedding, a.DerivedEmbedding, a.Story = a.Vector(), false, -1
	return a
}

func TestJSONLRoundTripGenerated(t *testing.T) {
	t.Parallel()
	c := Generate(Config{Seed: 11, Articles: 600})
	loaded, written := roundTrip(t, c)
	want := &Corpus{Articles: make([]Article, len(c.Articles)), Sites: c.Sites, Languages: c.Languages}
	for i := range c.Articles {
		want.Articles[i] = asLoaded(c.Articles[i])
	}
	if diff := cmp.Diff(want, loaded); diff != "" {
		t.Errorf("WriteJSONL then LoadJSONL changed the corpus (-want +got):\n%s", diff)
	}
	var again bytes.Buffer
	if err := WriteJSONL(&again, loaded); err != nil {
		t.Fatal(err)
	}
	if again.String() != written {
		t.Error("writing the loaded corpus gave different bytes")
	}
}

// TestJSONLRoundTripDefault round-trips the whole default corpus. cmp.Equal
// over 12,000 articles takes seconds, so articles are compared with
// reflect.DeepEqual (stricter: it also compares time.Time internals) and
// cmp.Diff explains any difference.
func TestJSONLRoundTripDefault(t *testing.T) {
	t.Parallel()
	c := Default()
	loaded, written := roundTrip(t, c)
	if diff := cmp.Diff(c.Sites, loaded.Sites); diff != "" {
		t.Errorf("sites changed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(c.Languages, loaded.Languages); diff != "" {
		t.Errorf("languages changed (-want +got):\n%s", diff)
	}
	if len(loaded.Articles) != len(c.Articles) {
		t.Fatalf("loaded %d articles, wrote %d", len(loaded.Articles), len(c.Articles))
	}
	for i := range c.Articles {
		want := asLoaded(c.Articles[i])
		if !reflect.DeepEqual(want, loaded.Articles[i]) {
			t.Fatalf("article %d changed (-want +got):\n%s", i, cmp.Diff(want, loaded.Articles[i]))
		}
	}
	first, _, _ := strings.Cut(written, "\n")
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(first), &fields); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range fields {
		keys = append(keys, k)
	}
	wantKeys := []string{"_id", "bodyText", "category", "datePublished", "description", "embeddings", "entities",
		"entity_relationships", "favicon", "image", "language", "sentiment", "site", "title", "topics", "traffic", "url"}
	if diff := cmp.Diff(wantKeys, keys, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("JSONL fields (-want +got):\n%s", diff)
	}
	// The default corpus's times carry milliseconds, which the file keeps.
	if want := `"` + c.Articles[0].Published.Format(time.RFC3339Nano) + `"`; c.Articles[0].Published.Nanosecond() == 0 ||
		string(fields["datePublished"]) != want {
		t.Errorf("datePublished %s, want %s, with its fraction of a second", fields["datePublished"], want)
	}
}

func TestWriteJSONLError(t *testing.T) {
	t.Parallel()
	err := WriteJSONL(failingWriter{}, Generate(Config{Seed: 1, Articles: 100}))
	if err == nil || err.Error() != "corpus: writing JSONL: disk full; check the output stream" {
		t.Errorf("error = %v, want the writer's failure", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
