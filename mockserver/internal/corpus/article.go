// Package corpus holds the mock server's articles: the record the engine
// reads, the deterministic generator of the default corpus, and the JSON
// Lines loader of users' own. A Corpus is immutable once built: every
// Server in a process shares the default one.
//
// The default corpus is not stored: Generate expands the embedded
// vocabularies and templates of data/ into stories, several sites'
// differently worded reports of one event, denser towards the newest date.
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
	// Entities and Relationships are nil ("null" on the wire) on articles
	// that were not encoded (Encoded), which have no embedding either.
	Entities      []Entity
	Relationships []Relationship
	// Embedding is the vector an article was loaded with; read embeddings
	// through Vector, as generated articles derive theirs.
	Embedding []float32
	// DerivedEmbedding marks a generated article, whose embedding Vector
	// computes from its text when asked: most servers never send one.
	DerivedEmbedding bool
	// Story is the generator's label for the event an article reports, or
	// -1: for its tests; search and clustering must never read it.
	Story int32
}

// Encoded reports whether the article carries entities and embeddings.
func (a *Article) Encoded() bool { return a.Entities != nil && a.HasEmbedding() }

// HasEmbedding reports whether the article has an embedding.
func (a *Article) HasEmbedding() bool { return a.Embedding != nil || a.DerivedEmbedding }

// Vector returns the article's embedding, or nil; a generated article's is
// computed on each call (about 10 µs).
func (a *Article) Vector() []float32 {
	if a.Embedding == nil && a.DerivedEmbedding {
		return embedParts(a.Title, a.Description, a.Body)
	}
	return a.Embedding
}

// vectorLen returns the length of the article's embedding, without
// computing a derived one.
func (a *Article) vectorLen() int {
	if a.Embedding == nil && a.DerivedEmbedding {
		return EmbeddingSize
	}
	return len(a.Embedding)
}

// Sentiment holds the title and description sentiment scores, in [-1, 1].
// The JSON names here and below are the wire form's.
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

// Window returns the articles published within [from, to] as the document
// numbers [lo, hi); a zero from or to leaves that side open.
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
