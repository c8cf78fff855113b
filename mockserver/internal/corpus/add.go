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

// ReadAdded reads articles in LoadJSONL's form, as JSON Lines or one JSON
// array of article objects, and returns them as a corpus of their own, at
// the cost of the new articles alone.
//
// Every article passes LoadJSONL's checks and these against known, the
// corpus they are added to: a new _id; the traffic known gives the site, or
// none (then it is taken, or for a new site the batch's, else 50);
// embeddings of known's length. The first bad article fails the batch,
// named by line ("line 3: ...") or array item ("array item 3: ...").
//
// Every publication time moves back by shift, the server's date shift, so
// that the server serves it at the datePublished given.
func ReadAdded(r io.Reader, shift time.Duration, known Known) (*Corpus, error) {
	br := bufio.NewReader(r)
	l := newLoader()
	l.known, l.knownEmbedLen = known, known.EmbeddingLen()
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
		for i, item := range items {
			if err := l.add(i+1, item); err != nil {
				// decodeLine's advice is written for lines.
				msg := strings.ReplaceAll(err.Error(), "write each article as one JSON object on its own line", "make every item of the array one article object")
				return nil, fmt.Errorf("array item %d: %s", i+1, msg)
			}
		}
	default:
		if err := eachLine(br, "line", false, l.add); err != nil {
			return nil, err
		}
	}
	articles := l.articles()
	if len(articles) == 0 {
		return nil, errNoArticles
	}
	l.setTraffic(articles, known.SiteTraffic)
	for i := range articles {
		articles[i].Published = articles[i].Published.Add(-shift)
	}
	return newCorpus(articles), nil
}

// errNoArticles is ReadAdded's error for input without an article.
var errNoArticles = errors.New("the input holds no articles: send JSON Lines (one article object per line) or a JSON array of article objects")

// firstByte returns the first byte of br that is not white space or a
// byte-order mark, without consuming it.
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

// arrayItems reads a JSON array and returns its items, unchecked.
func arrayItems(r io.Reader) ([]json.RawMessage, error) {
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
	var items []json.RawMessage
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntax(err)
		}
		items = append(items, raw)
	}
	if _, err := dec.Token(); err != nil { // ']'
		return nil, syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("the JSON array is followed by more data; send one array, or JSON Lines")
	}
	return items, nil
}

// EmbeddingLen returns the length of the articles' embeddings, 0 when no
// article has one.
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

// Merge returns a corpus of the articles of a and b, which must have
// distinct IDs.
func Merge(a, b *Corpus) *Corpus {
	return newCorpus(slices.Concat(a.Articles, b.Articles))
}
