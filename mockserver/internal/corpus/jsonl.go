package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/newssearch/newssearch-go/internal/textutil"
)

// MaxLineBytes is the longest line LoadJSONL accepts.
const MaxLineBytes = 1 << 20

// defaultTraffic is the traffic percentile of a site no line gives one for.
const defaultTraffic = 50

// Date layouts of datePublished. WriteJSONL writes rfc1123GMT (or RFC 3339
// with nanoseconds when a time has a fraction of a second).
const (
	rfc1123GMT = "Mon, 02 Jan 2006 15:04:05 GMT"
	sqlLayout  = "2006-01-02 15:04:05"
	dateLayout = "2006-01-02"
)

// wireArticle is an article as a JSONL line spells it (the wire form plus
// traffic). Pointers tell absent and null fields from empty ones.
type wireArticle struct {
	ID            *string            `json:"_id"`
	Title         *string            `json:"title"`
	Description   string             `json:"description"`
	Body          string             `json:"bodyText"`
	URL           *string            `json:"url"`
	Site          *string            `json:"site"`
	Image         json.RawMessage    `json:"image"`
	Favicon       string             `json:"favicon"`
	Category      *string            `json:"category"`
	Language      *string            `json:"language"`
	DatePublished *string            `json:"datePublished"`
	Topics        []string           `json:"topics"`
	Sentiment     wireSentiment      `json:"sentiment"`
	Entities      []wireEntity       `json:"entities"`
	Relationships []wireRelationship `json:"entity_relationships"`
	Embeddings    []float32          `json:"embeddings"`
	Traffic       *int               `json:"traffic"`
	Replaces      *string            `json:"_replaces,omitempty"` // read only: WriteJSONL never writes it
}

type wireSentiment struct {
	Title       float64 `json:"title"`
	Description float64 `json:"description"`
}

type wireEntity struct {
	Name       string  `json:"name"`
	Type       string  `json:"type"`
	WikidataID string  `json:"wikidata_id"`
	Sentiment  float64 `json:"sentiment"`
	Confidence float64 `json:"confidence"`
}

type wireRelationship struct {
	Source     string  `json:"source"`
	Target     string  `json:"target"`
	Relation   string  `json:"relation"`
	Confidence float64 `json:"confidence"`
}

// WriteJSONL writes c as JSON Lines, one article per line in the wire form
// of search results (without score) plus "traffic". Empty images and
// categories are written as null, as are nil entities, relationships and
// embeddings; LoadJSONL reads the output back to an equal corpus, Story
// labels aside.
func WriteJSONL(w io.Writer, c *Corpus) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range c.Articles {
		if err := enc.Encode(toWire(&c.Articles[i])); err != nil {
			return fmt.Errorf("corpus: writing JSONL: %w; check the output stream", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("corpus: writing JSONL: %w; check the output stream", err)
	}
	return nil
}

// toWire converts an article to its line form.
func toWire(a *Article) *wireArticle {
	w := &wireArticle{
		ID: &a.ID, Title: &a.Title, Description: a.Description, Body: a.Body, URL: &a.URL, Site: &a.Site,
		Image: json.RawMessage("null"), Favicon: a.Favicon, Language: &a.Language, Topics: a.Topics,
		Sentiment: wireSentiment(a.Sentiment), Embeddings: a.Vector(), Traffic: &a.Traffic,
	}
	if a.Image != "" {
		w.Image, _ = json.Marshal(a.Image) // a string always marshals
	}
	if a.Category != "" {
		w.Category = &a.Category
	}
	if w.Topics == nil {
		w.Topics = []string{}
	}
	date := a.Published.UTC().Format(rfc1123GMT)
	if a.Published.Nanosecond() != 0 {
		date = a.Published.UTC().Format(time.RFC3339Nano)
	}
	w.DatePublished = &date
	if a.Entities != nil {
		w.Entities = make([]wireEntity, len(a.Entities))
		for i, e := range a.Entities {
			w.Entities[i] = wireEntity(e)
		}
	}
	if a.Relationships != nil {
		w.Relationships = make([]wireRelationship, len(a.Relationships))
		for i, r := range a.Relationships {
			w.Relationships[i] = wireRelationship(r)
		}
	}
	return w
}

// LoadJSONL reads a corpus written as JSON Lines: one article object per
// line, in the wire form of search results plus an optional "traffic" (the
// site's monthly-traffic score, 0..100, higher is busier; 50 when no article
// of the site gives one). traffic_rank ranks the sites by it: it keeps a
// share of the sites, whatever the scores are. _id (24 hex characters, unique), title, url, site and datePublished
// are required; language defaults to "en". Blank lines are skipped; lines
// may be up to MaxLineBytes long. The first bad line fails the whole load
// with an error naming its line number, what is wrong and how to fix it.
// Site domains are lower-cased and lose every leading "www.", so
// "WWW.www.Example.com" loads as "example.com". Loaded articles
// have Story -1. Lines are decoded in parallel, a batch at a time.
//
// Two rules serve files that are only ever appended to, such as the mock's
// recordings. A line with "_replaces": "<_id>" replaces the article of an
// earlier line with that _id, which is then not loaded (its _id stays
// taken). And a last line without a line ending that is JSON cut short
// (TornLine), which is what a write stopped mid-way leaves, is skipped.
func LoadJSONL(r io.Reader) (*Corpus, error) {
	l := loader{ids: map[string]int{}, traffic: map[string]siteTraffic{}, embedLine: -1}
	if err := l.load(jsonlBatches(r, "corpus line", true), "corpus line"); err != nil {
		return nil, err
	}
	if len(l.articles) == 0 {
		return nil, errors.New("corpus: the input holds no articles; write one JSON object per line")
	}
	l.setTraffic(nil)
	return newCorpus(l.articles), nil
}

// load decodes the batches next returns (in parallel within a batch) and
// accepts their articles in order. The first bad article's error is
// prefixed with label and its number ("corpus line 7: ...").
func (l *loader) load(next func() ([]numberedLine, error), label string) error {
	for {
		batch, stop := next()
		parsed := make([]parsedLine, len(batch))
		parallel(len(batch), func(i int) {
			p := &parsed[i]
			p.article, p.traffic, p.replaces, p.err = decodeLine(batch[i].text)
		})
		for i := range parsed {
			if err := l.accept(batch[i].number, &parsed[i]); err != nil {
				return fmt.Errorf("%s %d: %w", label, batch[i].number, err)
			}
		}
		if stop == io.EOF {
			l.articles = l.kept.all()
			if len(l.replaced) > 0 {
				l.articles = slices.DeleteFunc(l.articles, func(a Article) bool { return l.replaced[a.ID] })
			}
			return nil
		}
		if stop != nil {
			return stop
		}
	}
}

// jsonlBatches returns the batch reader of JSON Lines input; its errors
// name a line as label does ("corpus line", or Add's "line"). With
// skipTorn, a torn last line (TornLine) is left out.
func jsonlBatches(r io.Reader, label string, skipTorn bool) func() ([]numberedLine, error) {
	br, ok := r.(*bufio.Reader) // ReadAdded's, sized to its input
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	next := 1
	return func() ([]numberedLine, error) { return readBatch(br, &next, label, skipTorn) }
}

// TornLine reports whether text, the last line of an input that does not
// end in a line ending, is JSON cut short: what a write stopped mid-way
// leaves (a process killed while it appended a line, a full disk). A line
// with any other fault is not torn, and is reported as bad.
func TornLine(text []byte) bool {
	text = bytes.TrimSpace(text)
	if len(text) == 0 || json.Valid(text) {
		return false
	}
	var v json.RawMessage
	return errors.Is(json.NewDecoder(bytes.NewReader(text)).Decode(&v), io.ErrUnexpectedEOF)
}

// setTraffic gives every article its site's traffic: the one known for the
// site (known may be nil), else the one a line gave, else defaultTraffic.
func (l *loader) setTraffic(known func(site string) (int, bool)) {
	for i := range l.articles {
		a := &l.articles[i]
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

// batchLines is the number of lines LoadJSONL decodes at a time.
const batchLines = 2048

// numberedLine is a non-blank input line and its number.
type numberedLine struct {
	number int
	text   []byte
}

// readBatch reads up to batchLines non-blank lines, numbering them from
// *next on. stop is nil when more lines may follow, io.EOF at the end of the
// input, or the error (naming its line) that ended reading; the lines before
// it are returned either way, so that an earlier bad line is reported first.
// With skipTorn, a torn last line (TornLine) is left out.
func readBatch(br *bufio.Reader, next *int, label string, skipTorn bool) (batch []numberedLine, stop error) {
	for len(batch) < batchLines {
		number := *next
		*next++
		text, err := readLine(br, nil)
		switch {
		case errors.Is(err, errLineTooLong):
			return batch, fmt.Errorf("%s %d: line is longer than %d bytes; keep each article on one line of at most 1 MiB", label, number, MaxLineBytes)
		case err != nil && err != io.EOF:
			return batch, fmt.Errorf("%s %d: reading input: %w; check the input stream", label, number, err)
		}
		if number == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
		}
		if len(bytes.TrimSpace(text)) > 0 && !(err == io.EOF && skipTorn && TornLine(text)) {
			batch = append(batch, numberedLine{number, text})
		}
		if err == io.EOF {
			return batch, io.EOF
		}
	}
	return batch, nil
}

// minParallel is the fewest calls worth a goroutine of their own.
const minParallel = 16

// parallel calls f(0) ... f(n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/minParallel)
	if workers <= 1 { // a few articles (an upload): not worth goroutines to wait for
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				f(i)
			}
		})
	}
	wg.Wait()
}

// errLineTooLong reports a line over MaxLineBytes.
var errLineTooLong = errors.New("line too long")

// readLine appends the next line of br, without its line ending, to buf. It
// returns io.EOF with the last line when the input ends, and any other read
// error without a line: a line cut short by a failing reader is never
// returned as if it were whole.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes+len("\r\n") {
			return buf, errLineTooLong
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			buf = bytes.TrimSuffix(buf[:len(buf)-1], []byte("\r"))
			if len(buf) > MaxLineBytes {
				return buf, errLineTooLong
			}
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			if len(buf) > MaxLineBytes {
				return buf, errLineTooLong
			}
			return buf, io.EOF
		default:
			return nil, err
		}
	}
}

// siteTraffic is the traffic a site was first given, and where.
type siteTraffic struct {
	value, line int
}

// parsedLine is a decoded line that passed the checks needing no other line,
// or the error of the first check it failed.
type parsedLine struct {
	article  Article
	traffic  *int   // as given, nil when absent
	replaces string // the _id of the earlier article it replaces (_replaces), lower case; "" for none
	err      error
}

// loader accumulates the articles of LoadJSONL and runs the checks across
// lines, in line order.
type loader struct {
	kept      articleChunks          // the articles accepted so far
	articles  []Article              // all of kept, once load has read the whole input
	ids       map[string]int         // line of every id
	replaced  map[string]bool        // the ids a later line replaces (_replaces)
	traffic   map[string]siteTraffic // explicit traffic per site
	embedLine int                    // line of the first embedding, -1 before one
	embedLen  int
	discard   bool // keep no articles (Checker)

	// The checks against the corpus articles are added to (ReadAdded);
	// nil otherwise.
	base  *addChecks
	array bool // the input is a JSON array: articles are numbered items, not lines
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

// accept runs the checks across lines on a parsed line and keeps its
// article.
func (l *loader) accept(line int, p *parsedLine) error {
	if p.err != nil {
		return p.err
	}
	a := &p.article
	if first, dup := l.ids[a.ID]; dup {
		return fmt.Errorf("duplicate _id %q (first used %s); give every article its own _id", a.ID, l.where(first))
	}
	if p.replaces != "" {
		if _, ok := l.ids[p.replaces]; !ok {
			return fmt.Errorf("_replaces %q names no article above; name the _id of an earlier line, whose article this one replaces, or remove _replaces", p.replaces)
		}
	}
	if err := l.base.check(a, p.traffic); err != nil {
		return err
	}
	if t := p.traffic; t != nil {
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
	if p.replaces != "" {
		if l.replaced == nil {
			l.replaced = map[string]bool{}
		}
		l.replaced[p.replaces] = true
	}
	if !l.discard {
		l.kept.add(a)
	}
	return nil
}

// decodeLine decodes one line and runs the checks that need no other line.
// It returns the article, the traffic as given (nil when absent) and the
// _id it replaces ("" for none).
func decodeLine(text []byte) (a Article, traffic *int, replaces string, err error) {
	var w wireArticle
	a, traffic, err = decodeWire(text, &w)
	if err != nil || w.Replaces == nil {
		return a, traffic, "", err
	}
	if replaces = strings.ToLower(*w.Replaces); !isHexID(replaces) || replaces == a.ID {
		return a, traffic, "", fmt.Errorf("_replaces %q is not the _id of another article; name the 24-hexadecimal _id of the earlier line this one replaces", *w.Replaces)
	}
	return a, traffic, replaces, nil
}

// decodeWire decodes one line into w and the article.
func decodeWire(text []byte, w *wireArticle) (Article, *int, error) {
	var a Article
	if text = bytes.TrimSpace(text); text[0] != '{' {
		return a, nil, errors.New("expected a JSON object; write each article as one JSON object on its own line")
	}
	if err := json.Unmarshal(text, w); err != nil {
		return a, nil, jsonError(err)
	}
	for _, f := range []struct {
		name  string
		value *string
	}{{"_id", w.ID}, {"title", w.Title}, {"url", w.URL}, {"site", w.Site}, {"datePublished", w.DatePublished}} {
		if f.value == nil || strings.TrimSpace(*f.value) == "" {
			return a, nil, fmt.Errorf("required field %q is missing or empty; every article needs _id, title, url, site and datePublished", f.name)
		}
	}
	a = Article{Title: *w.Title, Description: w.Description, Body: w.Body, Favicon: w.Favicon, Story: -1}
	if a.ID = strings.ToLower(*w.ID); !isHexID(a.ID) {
		return a, nil, fmt.Errorf("_id %q is not 24 hexadecimal characters; use an id such as \"5f1c0a9e3b2d4c6e8f7a1b2c\"", *w.ID)
	}
	var err error
	if a.Published, err = parseDate(*w.DatePublished); err != nil {
		return a, nil, err
	}
	if a.Language, err = parseLanguage(w.Language); err != nil {
		return a, nil, err
	}
	if u, err := url.Parse(*w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return a, nil, fmt.Errorf("url %q is not an absolute http or https URL; use a URL such as \"https://example.com/2025/03/04/some-slug\"", *w.URL)
	}
	a.URL = *w.URL
	if a.Site, err = normaliseSite(*w.Site); err != nil {
		return a, nil, err
	}
	if a.Favicon == "" {
		a.Favicon = "https://" + a.Site + "/favicon.ico"
	}
	if w.Category != nil {
		a.Category = *w.Category
	}
	if a.Image, err = parseImage(w.Image); err != nil {
		return a, nil, err
	}
	if len(w.Topics) > 0 {
		a.Topics = w.Topics
	}
	if t := w.Traffic; t != nil && (*t < 0 || *t > 100) {
		return a, nil, fmt.Errorf("traffic %d is out of range; use a percentile from 0 to 100", *t)
	}
	if err := checkScore("sentiment.title", w.Sentiment.Title, -1); err != nil {
		return a, nil, err
	}
	if err := checkScore("sentiment.description", w.Sentiment.Description, -1); err != nil {
		return a, nil, err
	}
	a.Sentiment = Sentiment(w.Sentiment)
	if a.Entities, err = entitiesFromWire(w.Entities); err != nil {
		return a, nil, err
	}
	if a.Relationships, err = relationshipsFromWire(w.Relationships); err != nil {
		return a, nil, err
	}
	if len(w.Embeddings) > 0 {
		a.Embedding = w.Embeddings
	}
	return a, w.Traffic, nil
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
	if len(s) != 24 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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

// normaliseSite lower-cases a domain, drops every leading "www." (so
// "www.www.example.com" becomes "example.com") and checks what is left looks
// like a domain name, without spaces of any kind. Its result normalises to
// itself, so a corpus written with WriteJSONL loads back unchanged.
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

// parseImage reads an image given as a string, an array of strings (the
// first non-empty one is kept) or null.
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

// entitiesFromWire checks and converts entities, keeping null apart from [].
func entitiesFromWire(in []wireEntity) ([]Entity, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]Entity, len(in))
	for i, e := range in {
		field := fmt.Sprintf("entities[%d]", i)
		if e.Name == "" || e.Type == "" {
			return nil, fmt.Errorf("%s needs a name and a type; give every entity both", field)
		}
		if err := checkScore(field+".sentiment", e.Sentiment, -1); err != nil {
			return nil, err
		}
		if err := checkScore(field+".confidence", e.Confidence, 0); err != nil {
			return nil, err
		}
		out[i] = Entity(e)
	}
	return out, nil
}

// relationshipsFromWire checks and converts relationships, keeping null
// apart from [].
func relationshipsFromWire(in []wireRelationship) ([]Relationship, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]Relationship, len(in))
	for i, r := range in {
		field := fmt.Sprintf("entity_relationships[%d]", i)
		if r.Source == "" || r.Target == "" || r.Relation == "" {
			return nil, fmt.Errorf("%s needs a source, a target and a relation; give every relationship all three", field)
		}
		if err := checkScore(field+".confidence", r.Confidence, 0); err != nil {
			return nil, err
		}
		out[i] = Relationship(r)
	}
	return out, nil
}

// articleChunks collects articles in chunks of at most maxChunk, so that
// keeping one never copies those already kept. A slice grown by append
// would copy every article about four times over while a large corpus
// loads (it grows by a quarter at a time), each time in one long copy that
// the garbage collector must wait for. Loading 240,000 articles took 18-20 s
// of CPU that way, much of it in those copies and in the runtime's attempts
// to interrupt them, and takes 11 s in chunks.
type articleChunks struct {
	chunks [][]Article
	n      int
}

// Chunk sizes: a chunk holds as many articles as were kept before it,
// between minChunk and maxChunk, so that a few articles cost little and a
// large corpus copies each article once, in all.
const (
	minChunk = 64
	maxChunk = 4096
)

// add keeps a copy of *a.
func (c *articleChunks) add(a *Article) {
	last := len(c.chunks) - 1
	if last < 0 || len(c.chunks[last]) == cap(c.chunks[last]) {
		c.chunks = append(c.chunks, make([]Article, 0, min(max(c.n, minChunk), maxChunk)))
		last++
	}
	c.chunks[last] = append(c.chunks[last], *a)
	c.n++
}

// all returns the articles kept, in order, in one slice, and empties c.
func (c *articleChunks) all() []Article {
	var out []Article
	switch len(c.chunks) {
	case 0:
	case 1:
		out = c.chunks[0]
	default:
		out = make([]Article, 0, c.n)
		for i, chunk := range c.chunks {
			out = append(out, chunk...)
			c.chunks[i] = nil // the garbage collector may take it now
		}
	}
	*c = articleChunks{}
	return out
}
