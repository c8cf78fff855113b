package mockserver

import (
	"fmt"
	"io"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// articleCountsBody says how many articles a server searches, as the
// /_mock/articles endpoints report them.
type articleCountsBody struct {
	// Start is the size of the corpus the added articles are layered on:
	// the one the server started with, or the one PUT /_mock/articles gave.
	Start int `json:"start_articles"`
	// Added counts the articles AddArticles added since.
	Added int `json:"added_articles"`
	// Total is Start+Added: what searches see.
	Total int `json:"articles"`
}

// counts counts the articles the server searches.
func (s *Server) counts() articleCountsBody {
	c := s.Corpus()
	start, now := c.root.Len(), c.Len()
	return articleCountsBody{Start: start, Added: now - start, Total: now}
}

// AddArticles adds articles to the corpus this server searches, read from r
// in the form of LoadCorpus (JSON Lines, one article object per line) or
// as one JSON array of article objects, and returns how many it added. The
// next request sees them. Every article passes LoadCorpus's checks and
// these: its _id is not in the corpus yet, its traffic (if given) is the one
// the corpus gives its site, and its embeddings have the corpus's length.
// The first bad article fails the whole call with an error naming its line
// or array item (counted from 1), and nothing is added.
//
// Dates are taken as the server shows them: an article given datePublished
// D is answered with D and found by date filters around D, whatever
// DateShift is. Other servers sharing the Corpus are not affected: the
// server searches a new *Corpus made of the old one and the new articles,
// which shares the start-up corpus's search index and indexes only the
// added articles, so a call costs what its articles do, however large the
// corpus, and searches find exactly what they would in a corpus loaded with
// all the articles (same results, scores and order). Jobs submitted before
// the call keep the results of the corpus they were submitted to.
func (s *Server) AddArticles(r io.Reader) (int, error) {
	s.addMu.Lock()
	defer s.addMu.Unlock()
	cur := s.Corpus()
	added, err := corpus.ReadAdded(r, s.shift, known{cur})
	if err != nil {
		return 0, fmt.Errorf("mockserver: AddArticles: %w", err)
	}
	s.data.Store(cur.withArticles(added))
	cur.retire()
	return len(added.Articles), nil
}

// replaceArticles makes the articles read from r, in the form of
// AddArticles, the whole corpus the world searches (PUT /_mock/articles):
// the start-up corpus and the articles added before are no longer
// searched, and a later AddArticles adds to the new one. It costs what the
// articles given do, however large the start-up corpus: a test that needs
// a few articles of its own, and none of the others, gives just those.
// Reset (and DELETE /_mock/articles) goes back to the start-up corpus.
// Jobs submitted before keep the corpus they were submitted to.
func (s *Server) replaceArticles(r io.Reader) (int, error) {
	s.addMu.Lock()
	defer s.addMu.Unlock()
	given, err := corpus.ReadAdded(r, s.shift, known{newCorpus(&corpus.Corpus{})})
	if err != nil {
		return 0, fmt.Errorf("mockserver: AddArticles: %w", err)
	}
	c := newCorpus(given)
	c.index() // built now, not by the next search
	cur := s.Corpus()
	s.data.Store(c)
	cur.retire()
	return len(given.Articles), nil
}

// resetArticles returns the server to the corpus it started with, dropping
// every article AddArticles added (DELETE /_mock/articles; Reset).
func (s *Server) resetArticles() {
	s.addMu.Lock()
	defer s.addMu.Unlock()
	cur := s.Corpus()
	s.data.Store(s.start)
	cur.retire()
}
