// Package corpus holds the mock server's article corpus: the record every
// other part of the engine reads, the deterministic generator behind the
// embedded default corpus, and the JSON Lines loader for users' own corpora.
//
// A Corpus is immutable once built. Every Server in a process shares the
// default one, so nothing here may be modified after construction.
//
// The default corpus (Default) is not stored: it is the vocabularies and
// templates of data/ (names, places, topics and per-language wordings,
// embedded; see vocab.go) expanded deterministically by Generate. Articles
// come in stories, several sites' differently worded reports of one event,
// published more densely towards the newest date. WriteJSONL writes a
// corpus as JSON Lines, the form LoadJSONL reads for users' own corpora.
package corpus

import (
	"sort"
	"time"
)

// Article is one article record as the engine stores it. Times are in corpus
// time (UTC, before any per-server date shift).
type Article struct {
	ID          string // 24 lower-case hex characters, unique in the corpus
	Title       string
	Description string
	Body        string // the article body ("bodyText" on the wire)
	URL         string
	Site        string // site domain, lower case, without "www."
	Image       string // image URL; "" is written as null
	Favicon     string // URL of the site's icon
	Category    string // "" is written as null
	Language    string // ISO 639-1 code, lower case ("en", "es", ...)
	Traffic     int    // the site's monthly-traffic percentile, 0..100 (100 = busiest)
	Published   time.Time
	Topics      []string // three topics
	Sentiment   Sentiment
	// Entities and Relationships are nil ("null" on the wire) on articles that
	// were not encoded, and they have no embedding either. An article is
	// "encoded" (toggle_state "Encoded Articles") when it has both Entities
	// and an embedding (HasEmbedding).
	Entities      []Entity
	Relationships []Relationship
	// Embedding is the vector an article was loaded with. Generated articles
	// leave it nil and derive theirs from their text when asked: read
	// embeddings through Vector, never this field alone.
	Embedding []float32
	// DerivedEmbedding marks an article whose embedding is embedParts of its
	// title, description and body, computed by Vector when asked: most
	// servers never send one, so the generator does not spend the time and
	// memory up front. It is false on loaded articles.
	DerivedEmbedding bool
	// Story is the generator's label for the event an article reports, or -1.
	// It exists for the generator's own tests and corpus figures; search and
	// clustering must never read it.
	Story int32
}

// Encoded reports whether the article carries entities and embeddings.
func (a *Article) Encoded() bool { return a.Entities != nil && a.HasEmbedding() }

// HasEmbedding reports whether the article has an embedding.
func (a *Article) HasEmbedding() bool { return a.Embedding != nil || a.DerivedEmbedding }

// Vector returns the article's embedding, or nil when it has none. A
// generated article's vector is computed on each call (about 10 µs);
// callers that need it often keep it.
func (a *Article) Vector() []float32 {
	if a.Embedding == nil && a.DerivedEmbedding {
		return embedParts(a.Title, a.Description, a.Body)
	}
	return a.Embedding
}

// vectorLen returns the length of the article's embedding, 0 without one,
// without computing a derived one.
func (a *Article) vectorLen() int {
	if a.Embedding == nil && a.DerivedEmbedding {
		return EmbeddingSize
	}
	return len(a.Embedding)
}

// Sentiment holds the title and description sentiment scores, each in
// [-1, 1]. The JSON names, here and on Entity and Relationship, are those
// of the wire form.
type Sentiment struct {
	Title       float64 `json:"title"`
	Description float64 `json:"description"`
}

// Entity is a named entity linked to Wikidata.
type Entity struct {
	Name       string  `json:"name"`
	Type       string  `json:"type"`        // PERSON, ORGANIZATION, LOCATION, EVENT, PRODUCT
	WikidataID string  `json:"wikidata_id"` // "Q" followed by digits
	Sentiment  float64 `json:"sentiment"`
	Confidence float64 `json:"confidence"`
}

// Relationship links two entities of the same article.
type Relationship struct {
	Source     string  `json:"source"`
	Target     string  `json:"target"`
	Relation   string  `json:"relation"`
	Confidence float64 `json:"confidence"`
}

// Corpus is an immutable set of articles with the sites and languages they use.
type Corpus struct {
	// Articles are ordered by Published ascending, ties by ID ascending. An
	// article's index in this slice is its document number in the engine.
	Articles []Article
	// Sites lists every site of the corpus, sorted by Domain.
	Sites []Site
	// Languages lists every language of the corpus, sorted by Code.
	Languages []Language
}

// Site is a news site of the corpus.
type Site struct {
	Domain   string
	Traffic  int // monthly-traffic percentile, 0..100
	Language string
	Favicon  string
}

// Language is a language the corpus has articles in.
type Language struct {
	Code string // ISO 639-1, lower case
	Name string // English name, capitalised ("English")
}

// Newest returns the publication time of the newest article, or the zero
// time for an empty corpus.
func (c *Corpus) Newest() time.Time {
	if len(c.Articles) == 0 {
		return time.Time{}
	}
	return c.Articles[len(c.Articles)-1].Published
}

// Window returns the articles published within [from, to] (both
// inclusive) as the half-open range [lo, hi) of document numbers, by binary
// search over the publication order. A zero from or to leaves that side
// open.
func (c *Corpus) Window(from, to time.Time) (lo, hi int) {
	arts := c.Articles
	lo, hi = 0, len(arts)
	if !from.IsZero() {
		lo = sort.Search(len(arts), func(i int) bool { return !arts[i].Published.Before(from) })
	}
	if !to.IsZero() {
		hi = sort.Search(len(arts), func(i int) bool { return arts[i].Published.After(to) })
	}
	return lo, max(lo, hi)
}
