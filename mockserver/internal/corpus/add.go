package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Add reads articles in LoadJSONL's form, as JSON Lines or as one JSON
// array of article objects (the first character that is not white space
// tells them apart), and returns a new corpus holding c's articles and the
// new ones, with how many were added. c itself never changes: corpora are
// shared by servers. ReadAdded has the checks; Add is ReadAdded against c,
// then a merge, and costs O(c) where ReadAdded costs O(the new articles).
func (c *Corpus) Add(r io.Reader, shift time.Duration) (*Corpus, int, error) {
	added, err := ReadAdded(r, shift, newFacts(c))
	if err != nil {
		return nil, 0, err
	}
	return Merge(c, added), len(added.Articles), nil
}

// Known is what ReadAdded checks new articles against: the corpus they are
// added to, which may be made of several corpora.
type Known interface {
	// HasID reports whether an article of the corpus has the _id id.
	HasID(id string) bool
	// SiteTraffic returns the traffic the corpus gives the site domain, and
	// whether it has the site.
	SiteTraffic(domain string) (int, bool)
	// EmbeddingLen returns the length of the corpus's embeddings, 0 when no
	// article has one.
	EmbeddingLen() int
}

// ReadAdded reads articles in LoadJSONL's form, as JSON Lines or as one
// JSON array of article objects (the first character that is not white
// space tells them apart), and returns them as a corpus of their own,
// ordered as Corpus.Articles is. Its cost is that of the new articles:
// known answers what the checks need of the corpus they are added to.
//
// Every article passes LoadJSONL's checks, and these against known: an
// _id already there is refused; an article's traffic must be the one known
// gives its site, and an article that gives none takes it (a new site takes
// the traffic the batch gives it, else 50); embeddings must have the
// length of known's. The first bad article fails the whole batch: the error
// names its line ("line 3: ...") or array item ("array item 3: ...",
// counted from 1).
//
// shift is the date shift of the server the articles are added to: every
// added article's publication time moves back by it, so that the server,
// which moves every corpus date forward by shift, serves and filters it at
// the datePublished it was given.
func ReadAdded(r io.Reader, shift time.Duration, known Known) (*Corpus, error) {
	// A small buffer: the body is usually in memory already, often a few
	// articles, and a longer line is read in several pieces anyway.
	size := 16 << 10
	if sized, ok := r.(interface{ Len() int }); ok {
		size = min(size, max(sized.Len(), 16))
	}
	br := bufio.NewReaderSize(r, size)
	l := loader{ids: map[string]int{}, traffic: map[string]siteTraffic{}, embedLine: -1,
		base: &addChecks{known: known, embedLen: known.EmbeddingLen()}}
	first, err := firstByte(br)
	switch {
	case err == io.EOF:
		return nil, errNoArticles
	case err != nil:
		return nil, fmt.Errorf("reading the articles: %w; send the whole body again", err)
	case first == '[':
		l.array = true
		items, err := arrayItems(br)
		if err != nil {
			return nil, err
		}
		err = l.load(func() ([]numberedLine, error) { return items, io.EOF }, "array item")
		if err != nil {
			// decodeLine's advice is written for lines.
			return nil, errors.New(strings.ReplaceAll(err.Error(), "write each article as one JSON object on its own line", "make every item of the array one article object"))
		}
	default:
		if err := l.load(jsonlBatches(br, "line", false), "line"); err != nil {
			return nil, err
		}
	}
	if len(l.articles) == 0 {
		return nil, errNoArticles
	}
	l.setTraffic(known.SiteTraffic)
	for i := range l.articles {
		l.articles[i].Published = l.articles[i].Published.Add(-shift)
	}
	return newCorpus(l.articles), nil
}

// errNoArticles is Add's error for input without an article.
var errNoArticles = errors.New("the input holds no articles: send JSON Lines (one article object per line) or a JSON array of article objects")

// firstByte returns the first byte of br that is not white space (or a
// byte-order mark), without consuming it.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			br.Discard(1)
			continue
		case 0xEF:
			if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
				br.Discard(3)
				continue
			}
		}
		return b[0], nil
	}
}

// arrayItems reads a JSON array and returns its items, numbered from 1. The
// items are not checked here: decodeLine does that, naming the item.
func arrayItems(r io.Reader) ([]numberedLine, error) {
	dec := json.NewDecoder(r)
	syntax := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("invalid JSON at byte %d of the array; send one JSON array of article objects, or JSON Lines", se.Offset)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return errors.New("the JSON array ends too early; close it with ] and send the whole body")
		}
		return fmt.Errorf("reading the JSON array: %w; send one JSON array of article objects, or JSON Lines", err)
	}
	if _, err := dec.Token(); err != nil { // '['
		return nil, syntax(err)
	}
	var items []numberedLine
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntax(err)
		}
		items = append(items, numberedLine{number: len(items) + 1, text: raw})
	}
	if _, err := dec.Token(); err != nil { // ']'
		return nil, syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("the JSON array is followed by more data; send one array, or JSON Lines")
	}
	return items, nil
}

// facts answers Known for one corpus, for Add.
type facts struct {
	ids      map[string]struct{}
	traffic  map[string]int // by site domain
	embedLen int            // 0 when no article has an embedding
}

func newFacts(c *Corpus) *facts {
	f := &facts{ids: make(map[string]struct{}, len(c.Articles)), traffic: make(map[string]int, len(c.Sites)),
		embedLen: c.EmbeddingLen()}
	for i := range c.Articles {
		f.ids[c.Articles[i].ID] = struct{}{}
	}
	for _, s := range c.Sites {
		f.traffic[s.Domain] = s.Traffic
	}
	return f
}

func (f *facts) HasID(id string) bool { _, ok := f.ids[id]; return ok }

func (f *facts) SiteTraffic(domain string) (int, bool) { t, ok := f.traffic[domain]; return t, ok }

func (f *facts) EmbeddingLen() int { return f.embedLen }

// EmbeddingLen returns the length of the first embedding of the corpus's
// articles (they all have that length), 0 when no article has one. It
// reads the articles up to the first with an embedding.
func (c *Corpus) EmbeddingLen() int {
	for i := range c.Articles {
		if n := c.Articles[i].vectorLen(); n > 0 {
			return n
		}
	}
	return 0
}

// Site returns the corpus's site of the given domain.
func (c *Corpus) Site(domain string) (Site, bool) {
	i, ok := slices.BinarySearchFunc(c.Sites, domain, func(s Site, d string) int { return strings.Compare(s.Domain, d) })
	if !ok {
		return Site{}, false
	}
	return c.Sites[i], true
}

// addChecks runs the checks of an added article against the corpus it is
// added to; a nil *addChecks (LoadJSONL, Checker) checks nothing.
type addChecks struct {
	known    Known
	embedLen int
}

func (f *addChecks) check(a *Article, traffic *int) error {
	if f == nil {
		return nil
	}
	if f.known.HasID(a.ID) {
		return fmt.Errorf("_id %q is already in the corpus; give every article its own _id (DELETE /_mock/articles returns to the start-up corpus)", a.ID)
	}
	if t, ok := f.known.SiteTraffic(a.Site); ok && traffic != nil && *traffic != t {
		return fmt.Errorf("traffic %d for site %q differs from %d, the traffic the corpus gives the site; leave traffic out or give %d", *traffic, a.Site, t, t)
	}
	if f.embedLen > 0 && a.Embedding != nil && len(a.Embedding) != f.embedLen {
		return fmt.Errorf("embeddings has %d values but the corpus's articles have %d; give every article vectors of the same length", len(a.Embedding), f.embedLen)
	}
	return nil
}

// Merge returns a corpus of the articles of a and b, which must have
// distinct IDs, merged in one pass: both are already in order.
func Merge(a, b *Corpus) *Corpus {
	all := make([]Article, 0, len(a.Articles)+len(b.Articles))
	i, j := 0, 0
	for i < len(a.Articles) && j < len(b.Articles) {
		if compareArticles(a.Articles[i], b.Articles[j]) <= 0 {
			all = append(all, a.Articles[i])
			i++
		} else {
			all = append(all, b.Articles[j])
			j++
		}
	}
	all = append(append(all, a.Articles[i:]...), b.Articles[j:]...)
	return newCorpus(all)
}
