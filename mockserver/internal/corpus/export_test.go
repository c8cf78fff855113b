package corpus

// Helpers only tests use.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Embed returns the embedding of text (see embedParts).
func Embed(text string) []float32 { return embedParts(text) }

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
		ID:            &a.ID,
		Title:         &a.Title,
		Description:   a.Description,
		Body:          a.Body,
		URL:           &a.URL,
		Site:          &a.Site,
		Image:         json.RawMessage("null"),
		Favicon:       a.Favicon,
		Language:      &a.Language,
		Topics:        a.Topics,
		Sentiment:     a.Sentiment,
		Entities:      a.Entities,
		Relationships: a.Relationships,
		Embeddings:    a.Vector(),
		Traffic:       &a.Traffic,
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
	date := a.Published.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	if a.Published.Nanosecond() != 0 {
		date = a.Published.UTC().Format(time.RFC3339Nano)
	}
	w.DatePublished = &date
	return w
}

// Figures summarises a corpus.
type Figures struct {
	Articles  int
	Encoded   int // articles with entities and embeddings
	Sites     int
	Languages int
	// Stories counts the generator's stories (distinct Story labels other
	// than -1); loaded corpora have none.
	Stories int
	Oldest  time.Time
	Newest  time.Time
}

// Span is the time between the oldest and the newest article.
func (f Figures) Span() time.Duration { return f.Newest.Sub(f.Oldest) }

// Figures counts the corpus's articles, sites, languages and stories.
func (c *Corpus) Figures() Figures {
	f := Figures{Articles: len(c.Articles), Sites: len(c.Sites), Languages: len(c.Languages)}
	if len(c.Articles) == 0 {
		return f
	}
	f.Oldest, f.Newest = c.Articles[0].Published, c.Newest()
	stories := map[int32]bool{}
	for i := range c.Articles {
		a := &c.Articles[i]
		if a.Encoded() {
			f.Encoded++
		}
		if a.Story >= 0 {
			stories[a.Story] = true
		}
	}
	f.Stories = len(stories)
	return f
}
