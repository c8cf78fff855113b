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
// shared by servers.
//
// Every article passes LoadJSONL's checks, and these against c: an _id
// already in c is refused; an article's traffic must be the one c gives its
// site, and an article that gives none takes it (a new site takes the
// traffic the batch gives it, else 50); embeddings must have the length of
// c's. The first bad article fails the whole batch, and nothing is added:
// the error names its line ("line 3: ...") or array item ("array item 3:
// ...", counted from 1).
//
// shift is the date shift of the server the articles are added to: every
// added article's publication time moves back by it, so that the server,
// which moves every corpus date forward by shift, serves and filters it at
// the datePublished it was given.
func (c *Corpus) Add(r io.Reader, shift time.Duration) (*Corpus, int, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	l := loader{ids: map[string]int{}, traffic: map[string]siteTraffic{}, embedLine: -1, base: newBaseFacts(c)}
	first, err := firstByte(br)
	switch {
	case err == io.EOF:
		return nil, 0, errNoArticles
	case err != nil:
		return nil, 0, fmt.Errorf("reading the articles: %w; send the whole body again", err)
	case first == '[':
		l.array = true
		items, err := arrayItems(br)
		if err != nil {
			return nil, 0, err
		}
		err = l.load(func() ([]numberedLine, error) { return items, io.EOF }, "array item")
		if err != nil {
			// decodeLine's advice is written for lines.
			return nil, 0, errors.New(strings.ReplaceAll(err.Error(), "write each article as one JSON object on its own line", "make every item of the array one article object"))
		}
	default:
		if err := l.load(jsonlBatches(br, "line", false), "line"); err != nil {
			return nil, 0, err
		}
	}
	if len(l.articles) == 0 {
		return nil, 0, errNoArticles
	}
	l.setTraffic(l.base.traffic)
	for i := range l.articles {
		l.articles[i].Published = l.articles[i].Published.Add(-shift)
	}
	return c.merge(l.articles), len(l.articles), nil
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

// baseFacts is what Add's checks need of the corpus added to.
type baseFacts struct {
	ids      map[string]struct{}
	traffic  map[string]int // by site domain
	embedLen int            // 0 when no article has an embedding
}

func newBaseFacts(c *Corpus) *baseFacts {
	f := &baseFacts{ids: make(map[string]struct{}, len(c.Articles)), traffic: make(map[string]int, len(c.Sites))}
	for i := range c.Articles {
		a := &c.Articles[i]
		f.ids[a.ID] = struct{}{}
		if f.embedLen == 0 {
			f.embedLen = a.vectorLen()
		}
	}
	for _, s := range c.Sites {
		f.traffic[s.Domain] = s.Traffic
	}
	return f
}

// check runs the checks of an added article against the corpus; a nil
// baseFacts (LoadJSONL, Checker) checks nothing.
func (f *baseFacts) check(a *Article, traffic *int) error {
	if f == nil {
		return nil
	}
	if _, dup := f.ids[a.ID]; dup {
		return fmt.Errorf("_id %q is already in the corpus; give every article its own _id (DELETE /_mock/articles returns to the start-up corpus)", a.ID)
	}
	if t, ok := f.traffic[a.Site]; ok && traffic != nil && *traffic != t {
		return fmt.Errorf("traffic %d for site %q differs from %d, the traffic the corpus gives the site; leave traffic out or give %d", *traffic, a.Site, t, t)
	}
	if f.embedLen > 0 && a.Embedding != nil && len(a.Embedding) != f.embedLen {
		return fmt.Errorf("embeddings has %d values but the corpus's articles have %d; give every article vectors of the same length", len(a.Embedding), f.embedLen)
	}
	return nil
}

// merge returns a corpus of c's articles and added (which it sorts), merged
// in one pass: c's articles are already in order.
func (c *Corpus) merge(added []Article) *Corpus {
	slices.SortFunc(added, compareArticles)
	all := make([]Article, 0, len(c.Articles)+len(added))
	i, j := 0, 0
	for i < len(c.Articles) && j < len(added) {
		if compareArticles(c.Articles[i], added[j]) <= 0 {
			all = append(all, c.Articles[i])
			i++
		} else {
			all = append(all, added[j])
			j++
		}
	}
	all = append(append(all, c.Articles[i:]...), added[j:]...)
	return newCorpus(all)
}
