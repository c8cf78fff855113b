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

// articleCounts is the answer of the /_mock/articles endpoints; batch is
// what a POST added (0 and left out otherwise).
func (s *Server) articleCounts(batch int) any {
	return struct {
		State string `json:"state"`
		articleCountsBody
		Batch int `json:"added_now,omitempty"`
	}{"SUCCESS", s.counts(), batch}
}

// freeMemoryAfter is the size of an articles body after which the server
// hands the memory it took back to the system at once (a body of
// defaultMaxArticlesBody would otherwise stay in the process for minutes).
const freeMemoryAfter = 32 << 20

// articlesTooBig is the 413 message of POST /_mock/articles.
const articlesTooBig = "the articles are more than %d bytes: send them in several POST /_mock/articles calls"

// adminAddArticles answers POST /_mock/articles (add) and PUT (replace). It
// reads the body itself, in blocks (readBodyBlocks), one request at a
// time: AddArticles adds one batch at a time anyway, and several large
// bodies read at once would each hold memory up to the limit.
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

// addArticlesFromBody adds the articles of the body as it is read: it is
// never held whole, as AddArticles holds only the articles. It returns how
// many bytes it read.
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
