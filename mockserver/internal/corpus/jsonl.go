package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/newssearch/newssearch-go/internal/textutil"
)

// MaxLineBytes is the longest line LoadJSONL accepts.
const MaxLineBytes = 1 << 20

// defaultTraffic is the traffic percentile of a site no line gives one for.
const defaultTraffic = 50

// Date layouts of datePublished besides RFC 3339 and RFC 1123.
const (
	sqlLayout  = "2006-01-02 15:04:05"
	dateLayout = "2006-01-02"
)

// wireArticle is an article as a JSONL line spells it (the wire form plus
// traffic). Pointers tell absent and null fields from empty ones.
type wireArticle struct {
	ID            *string         `json:"_id"`
	Title         *string         `json:"title"`
	Description   string          `json:"description"`
	Body          string          `json:"bodyText"`
	URL           *string         `json:"url"`
	Site          *string         `json:"site"`
	Image         json.RawMessage `json:"image"`
	Favicon       string          `json:"favicon"`
	Category      *string         `json:"category"`
	Language      *string         `json:"language"`
	DatePublished *string         `json:"datePublished"`
	Topics        []string        `json:"topics"`
	Sentiment     Sentiment       `json:"sentiment"`
	Entities      []Entity        `json:"entities"`
	Relationships []Relationship  `json:"entity_relationships"`
	Embeddings    []float32       `json:"embeddings"`
	Traffic       *int            `json:"traffic"`
	Replaces      *string         `json:"_replaces,omitempty"`
}

// LoadJSONL reads a corpus written as JSON Lines: one article object per
// line, in the wire form of search results plus an optional "traffic" (the
// site's monthly-traffic score, 0..100; 50 when no article of the site
// gives one). _id (24 hex characters, unique), title, url, site and
// datePublished are required; language defaults to "en". Blank lines are
// skipped. The first bad line fails the load with an error naming it, what
// is wrong and how to fix it. Site domains are lower-cased and lose every
// leading "www.". Loaded articles have Story -1.
//
// For files only ever appended to, such as recordings: a line with
// "_replaces": "<_id>" replaces the earlier article of that _id (which stays
// taken), and a torn last line (TornLine) is skipped.
func LoadJSONL(r io.Reader) (*Corpus, error) {
	l := newLoader()
	if err := eachLine(bufio.NewReaderSize(r, 64<<10), "corpus line", true, l.add); err != nil {
		return nil, err
	}
	articles := l.articles()
	if len(articles) == 0 {
		return nil, errors.New("corpus: the input holds no articles; write one JSON object per line")
	}
	l.setTraffic(articles, nil)
	return newCorpus(articles), nil
}

// TornLine reports whether text, the last line of an input without a final
// line ending, is JSON cut short, as a write stopped mid-way leaves it.
func TornLine(text []byte) bool {
	text = bytes.TrimSpace(text)
	if len(text) == 0 || json.Valid(text) {
		return false
	}
	var v json.RawMessage
	return errors.Is(json.NewDecoder(bytes.NewReader(text)).Decode(&v), io.ErrUnexpectedEOF)
}

// eachLine calls fn with every non-blank line of br and its number from 1,
// without line ending or byte-order mark; errors name the line after label
// ("corpus line 3: ..."). With skipTorn, a torn last line is skipped.
func eachLine(br *bufio.Reader, label string, skipTorn bool, fn func(n int, text []byte) error) error {
	var text []byte
	for n := 1; ; n++ {
		var err error
		text, err = ReadLine(br, text[:0])
		switch {
		case errors.Is(err, ErrLineTooLong):
			return fmt.Errorf("%s %d: line is longer than %d bytes; keep each article on one line of at most 1 MiB", label, n, MaxLineBytes)
		case err != nil && err != io.EOF:
			return fmt.Errorf("%s %d: reading input: %w; check the input stream", label, n, err)
		}
		if n == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
		}
		last := err == io.EOF
		if len(bytes.TrimSpace(text)) > 0 && !(last && skipTorn && TornLine(text)) {
			if err := fn(n, text); err != nil {
				return fmt.Errorf("%s %d: %w", label, n, err)
			}
		}
		if last {
			return nil
		}
	}
}

// ErrLineTooLong is ReadLine's error for a line over MaxLineBytes.
var ErrLineTooLong = errors.New("line too long")

// ReadLine appends the next line of br, without its line ending, to buf. It
// returns io.EOF with the last line, and any other read error without a
// line, which is never returned cut short as if it were whole.
func ReadLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes+len("\r\n") {
			return buf, ErrLineTooLong
		}
		buf = append(buf, chunk...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil:
			buf = bytes.TrimSuffix(buf[:len(buf)-1], []byte("\r"))
		case err != io.EOF:
			return nil, err
		}
		if len(buf) > MaxLineBytes {
			return buf, ErrLineTooLong
		}
		return buf, err
	}
}

// siteTraffic is the traffic a site was first given, and where.
type siteTraffic struct {
	value, line int
}

// loader keeps the articles of LoadJSONL and ReadAdded and runs the checks
// across lines.
type loader struct {
	kept      []Article              // the articles accepted so far
	ids       map[string]int         // line of every id
	replaced  map[string]bool        // the ids a later line replaces (_replaces)
	traffic   map[string]siteTraffic // explicit traffic per site
	embedLine int                    // line of the first embedding, -1 before one
	embedLen  int
	discard   bool // keep no articles (Checker)

	// The corpus ReadAdded adds to (else nil), and its embeddings' length.
	known         Known
	knownEmbedLen int
	array         bool // the input is a JSON array: articles are numbered items, not lines
}

func newLoader() *loader {
	return &loader{ids: map[string]int{}, replaced: map[string]bool{}, traffic: map[string]siteTraffic{}, embedLine: -1}
}

// name names article n of the input: "line 3", or "array item 3".
func (l *loader) name(n int) string {
	if l.array {
		return fmt.Sprintf("array item %d", n)
	}
	return fmt.Sprintf("line %d", n)
}

// where says where article n of the input is: "on line 3", "in array item 3".
func (l *loader) where(n int) string {
	if l.array {
		return "in " + l.name(n)
	}
	return "on " + l.name(n)
}

// add decodes line n of the input and accepts its article.
func (l *loader) add(n int, text []byte) error {
	d, err := decodeLine(text)
	if err != nil {
		return err
	}
	return l.accept(n, d)
}

// accept runs the checks across lines and keeps the article.
func (l *loader) accept(line int, d decoded) error {
	a := &d.article
	if first, dup := l.ids[a.ID]; dup {
		return fmt.Errorf("duplicate _id %q (first used %s); give every article its own _id", a.ID, l.where(first))
	}
	if d.replaces != "" {
		if _, ok := l.ids[d.replaces]; !ok {
			return fmt.Errorf("_replaces %q names no article above; name the _id of an earlier line, whose article this one replaces, or remove _replaces", d.replaces)
		}
	}
	if err := l.checkKnown(a, d.traffic); err != nil {
		return err
	}
	if t := d.traffic; t != nil {
		if prev, ok := l.traffic[a.Site]; ok && prev.value != *t {
			return fmt.Errorf("traffic %d for site %q differs from %d %s; give every article of a site the same traffic", *t, a.Site, prev.value, l.where(prev.line))
		} else if !ok {
			l.traffic[a.Site] = siteTraffic{*t, line}
		}
	}
	if a.Embedding != nil {
		if l.embedLine < 0 {
			l.embedLine, l.embedLen = line, len(a.Embedding)
		} else if len(a.Embedding) != l.embedLen {
			return fmt.Errorf("embeddings has %d values but %s has %d; give every article vectors of the same length", len(a.Embedding), l.name(l.embedLine), l.embedLen)
		}
	}
	l.ids[a.ID] = line
	if d.replaces != "" {
		l.replaced[d.replaces] = true
	}
	if !l.discard {
		l.kept = append(l.kept, *a)
	}
	return nil
}

// checkKnown checks an added article against the corpus it is added to.
func (l *loader) checkKnown(a *Article, traffic *int) error {
	if l.known == nil {
		return nil
	}
	if l.known.HasID(a.ID) {
		return fmt.Errorf("_id %q is already in the corpus; give every article its own _id (DELETE /_mock/articles returns to the start-up corpus)", a.ID)
	}
	if t, ok := l.known.SiteTraffic(a.Site); ok && traffic != nil && *traffic != t {
		return fmt.Errorf("traffic %d for site %q differs from %d, the traffic the corpus gives the site; leave traffic out or give %d", *traffic, a.Site, t, t)
	}
	if n := l.knownEmbedLen; n > 0 && a.Embedding != nil && len(a.Embedding) != n {
		return fmt.Errorf("embeddings has %d values but the corpus's articles have %d; give every article vectors of the same length", len(a.Embedding), n)
	}
	return nil
}

// articles returns the articles kept, less those a later line replaced.
func (l *loader) articles() []Article {
	return slices.DeleteFunc(l.kept, func(a Article) bool { return l.replaced[a.ID] })
}

// setTraffic gives every article its site's traffic: known's (if not nil),
// else a line's, else defaultTraffic.
func (l *loader) setTraffic(articles []Article, known func(site string) (int, bool)) {
	for i := range articles {
		a := &articles[i]
		if known != nil {
			if t, ok := known(a.Site); ok {
				a.Traffic = t
				continue
			}
		}
		if t, ok := l.traffic[a.Site]; ok {
			a.Traffic = t.value
		} else {
			a.Traffic = defaultTraffic
		}
	}
}

// decoded is a line that passed the checks needing no other line.
type decoded struct {
	article  Article
	traffic  *int   // as given, nil when absent
	replaces string // the _id of the earlier article it replaces (_replaces), lower case; "" for none
}

// decodeLine decodes one line and runs the checks that need no other line.
func decodeLine(text []byte) (d decoded, err error) {
	var w wireArticle
	if text = bytes.TrimSpace(text); text[0] != '{' {
		return d, errors.New("expected a JSON object; write each article as one JSON object on its own line")
	}
	if err := json.Unmarshal(text, &w); err != nil {
		return d, jsonError(err)
	}
	for _, f := range []struct {
		name  string
		value *string
	}{{"_id", w.ID}, {"title", w.Title}, {"url", w.URL}, {"site", w.Site}, {"datePublished", w.DatePublished}} {
		if f.value == nil || strings.TrimSpace(*f.value) == "" {
			return d, fmt.Errorf("required field %q is missing or empty; every article needs _id, title, url, site and datePublished", f.name)
		}
	}
	a := Article{Title: *w.Title, Description: w.Description, Body: w.Body, Favicon: w.Favicon, Story: -1}
	if a.ID = strings.ToLower(*w.ID); !isHexID(a.ID) {
		return d, fmt.Errorf("_id %q is not 24 hexadecimal characters; use an id such as \"5f1c0a9e3b2d4c6e8f7a1b2c\"", *w.ID)
	}
	if a.Published, err = parseDate(*w.DatePublished); err != nil {
		return d, err
	}
	if a.Language, err = parseLanguage(w.Language); err != nil {
		return d, err
	}
	if u, err := url.Parse(*w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return d, fmt.Errorf("url %q is not an absolute http or https URL; use a URL such as \"https://example.com/2025/03/04/some-slug\"", *w.URL)
	}
	a.URL = *w.URL
	if a.Site, err = normaliseSite(*w.Site); err != nil {
		return d, err
	}
	if a.Favicon == "" {
		a.Favicon = "https://" + a.Site + "/favicon.ico"
	}
	if w.Category != nil {
		a.Category = *w.Category
	}
	if a.Image, err = parseImage(w.Image); err != nil {
		return d, err
	}
	if len(w.Topics) > 0 {
		a.Topics = w.Topics
	}
	if t := w.Traffic; t != nil && (*t < 0 || *t > 100) {
		return d, fmt.Errorf("traffic %d is out of range; use a percentile from 0 to 100", *t)
	}
	if err := checkScore("sentiment.title", w.Sentiment.Title, -1); err != nil {
		return d, err
	}
	if err := checkScore("sentiment.description", w.Sentiment.Description, -1); err != nil {
		return d, err
	}
	a.Sentiment = w.Sentiment
	if err := checkEntities(w.Entities, w.Relationships); err != nil {
		return d, err
	}
	a.Entities, a.Relationships = w.Entities, w.Relationships
	if len(w.Embeddings) > 0 {
		a.Embedding = w.Embeddings
	}
	d = decoded{article: a, traffic: w.Traffic}
	if w.Replaces != nil {
		if d.replaces = strings.ToLower(*w.Replaces); !isHexID(d.replaces) || d.replaces == a.ID {
			return d, fmt.Errorf("_replaces %q is not the _id of another article; name the 24-hexadecimal _id of the earlier line this one replaces", *w.Replaces)
		}
	}
	return d, nil
}

// jsonError explains a decoding error.
func jsonError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("invalid JSON at byte %d; write each article as one JSON object on its own line", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Errorf("field %q must be %s, not a JSON %s; fix the value's type", typ.Field, textutil.JSONKindOf(typ.Type.Kind()), typ.Value)
	default:
		return fmt.Errorf("invalid JSON (%v); write each article as one JSON object on its own line", err)
	}
}

// isHexID reports whether s is 24 lower-case hexadecimal characters.
func isHexID(s string) bool {
	return len(s) == 24 && strings.Trim(s, "0123456789abcdef") == ""
}

// parseDate reads datePublished in any accepted layout, as UTC.
func parseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	layouts := []string{time.RFC3339Nano, sqlLayout, dateLayout, time.RFC1123Z}
	if strings.HasSuffix(s, " GMT") || strings.HasSuffix(s, " UTC") {
		layouts = []string{time.RFC1123}
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("datePublished %q is not a date; use RFC 1123 (\"Wed, 13 Nov 2024 01:44:17 GMT\"), RFC 3339 (\"2024-11-13T01:44:17Z\"), \"2024-11-13 01:44:17\" or \"2024-11-13\"", s)
}

// parseLanguage checks an ISO 639-1 code; absent or empty means English.
func parseLanguage(s *string) (string, error) {
	if s == nil || strings.TrimSpace(*s) == "" {
		return "en", nil
	}
	code := strings.ToLower(strings.TrimSpace(*s))
	if _, ok := isoLanguages[code]; !ok {
		return "", fmt.Errorf("language %q is not an ISO 639-1 code; use a two-letter code such as \"en\", \"es\" or \"de\"", *s)
	}
	return code, nil
}

// normaliseSite lower-cases a domain, drops every leading "www." and checks
// that a domain name is left. Its result normalises to itself.
func normaliseSite(s string) (string, error) {
	d := strings.ToLower(strings.TrimSpace(s))
	for strings.HasPrefix(d, "www.") {
		d = d[len("www."):]
	}
	if !strings.Contains(d, ".") || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") ||
		strings.ContainsAny(d, "/:?#@") || strings.ContainsFunc(d, unicode.IsSpace) {
		return "", fmt.Errorf("site %q is not a domain name; use a bare domain such as \"example.com\"", s)
	}
	return d, nil
}

// parseImage reads an image: a string, an array of strings (the first
// non-empty one) or null.
func parseImage(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		for _, s := range list {
			if s != "" {
				return s, nil
			}
		}
		return "", nil
	}
	return "", errors.New("image must be a string, an array of strings or null; give the image URL as a string")
}

// checkScore checks a score lies in [lo, 1].
func checkScore(field string, v, lo float64) error {
	if v < lo || v > 1 {
		return fmt.Errorf("%s %v is out of range; use a value from %v to 1", field, v, lo)
	}
	return nil
}

// checkEntities checks the members and scores of entities and relationships.
func checkEntities(es []Entity, rs []Relationship) error {
	for i, e := range es {
		field := fmt.Sprintf("entities[%d]", i)
		if e.Name == "" || e.Type == "" {
			return fmt.Errorf("%s needs a name and a type; give every entity both", field)
		}
		if err := checkScore(field+".sentiment", e.Sentiment, -1); err != nil {
			return err
		}
		if err := checkScore(field+".confidence", e.Confidence, 0); err != nil {
			return err
		}
	}
	for i, r := range rs {
		field := fmt.Sprintf("entity_relationships[%d]", i)
		if r.Source == "" || r.Target == "" || r.Relation == "" {
			return fmt.Errorf("%s needs a source, a target and a relation; give every relationship all three", field)
		}
		if err := checkScore(field+".confidence", r.Confidence, 0); err != nil {
			return err
		}
	}
	return nil
}
