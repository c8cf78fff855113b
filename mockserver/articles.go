package mockserver

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// articleCountsBody counts the articles searched: those of the start-up
// corpus (or PUT /_mock/articles's) and those added since.
type articleCountsBody struct {
	Start int `json:"start_articles"`
	Added int `json:"added_articles"`
	Total int `json:"articles"`
}

// counts counts the articles the server searches.
func (s *Server) counts() articleCountsBody {
	c := s.Corpus()
	start, now := c.root.Len(), c.Len()
	return articleCountsBody{Start: start, Added: now - start, Total: now}
}

// AddArticles adds articles to the world's corpus and returns how many: JSON
// Lines or one JSON array, each article in LoadCorpus's form with the same
// required fields, and an _id not in the corpus yet. The first bad article
// fails the call, naming its line or item, and nothing is added. An article is
// served at the datePublished given, whatever the date shift.
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

// replaceArticles makes the articles read from r, as AddArticles reads
// them, the whole corpus the world searches (PUT /_mock/articles), at the
// cost of those articles alone. Reset goes back to the start-up corpus;
// jobs keep the corpus they were submitted to.
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

// resetArticles returns the world to its start-up corpus.
func (s *Server) resetArticles() {
	s.addMu.Lock()
	defer s.addMu.Unlock()
	cur := s.Corpus()
	s.data.Store(s.start)
	cur.retire()
}

// articleCounts is the answer of the /_mock/articles endpoints; batch is
// what a POST added (0 and left out otherwise).
func (s *Server) articleCounts(batch int) any {
	return struct {
		State string `json:"state"`
		articleCountsBody
		Batch int `json:"added_now,omitempty"`
	}{"SUCCESS", s.counts(), batch}
}

// freeMemoryAfter is the size of an articles body after which the memory
// it took goes back to the system at once, not minutes later.
const freeMemoryAfter = 32 << 20

// articlesTooBig is the 413 message of POST /_mock/articles.
const articlesTooBig = "the articles are more than %d bytes: send them in several POST /_mock/articles calls"

// adminAddArticles answers POST /_mock/articles (add) and PUT (replace),
// one request at a time: several large bodies read at once would each hold
// memory up to the limit.
func (s *Server) adminAddArticles(c *adminCall) (any, *apiError) {
	select {
	case s.articlesBody <- struct{}{}:
		defer func() { <-s.articlesBody }()
	case <-c.r.Context().Done():
		return nil, &apiError{status: http.StatusServiceUnavailable, msg: "the request was cancelled while it waited " +
			"for another POST /_mock/articles to finish: send it again"}
	}
	v, read, aerr := s.addArticlesFromBody(c)
	if read >= freeMemoryAfter {
		debug.FreeOSMemory() // the body is garbage now, whether it was added or refused
	}
	return v, aerr
}

// addArticlesFromBody adds the articles of the body as it is read, never
// holding it whole, and returns how many bytes it read.
func (s *Server) addArticlesFromBody(c *adminCall) (any, int64, *apiError) {
	tooBig := &apiError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf(articlesTooBig, s.maxArticlesBody)}
	if c.r.ContentLength > s.maxArticlesBody {
		refuseBody(c.w, c.r)
		c.unread = true
		return nil, 0, tooBig
	}
	body := &countReader{r: http.MaxBytesReader(c.w, c.r.Body, s.maxArticlesBody)}
	add := s.AddArticles
	if c.r.Method == http.MethodPut {
		add = s.replaceArticles
	}
	n, err := add(body)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, body.n, tooBig
	case err != nil:
		return nil, body.n, badRequest("%s", strings.TrimPrefix(err.Error(), "mockserver: AddArticles: "))
	}
	return s.articleCounts(n), body.n, nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
