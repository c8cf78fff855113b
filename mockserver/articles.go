package mockserver

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
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
// Lines or one JSON array, in LoadCorpus's form and required fields, each _id
// new to the corpus. The first bad article fails the call, naming its line or
// item, and nothing is added. Articles keep their datePublished, whatever the
// date shift.
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

// maxArrived bounds the articles arrivals faults add to a world between
// Resets.
const maxArrived = 1_000

// arrive publishes the articles of x's arrivals fault: they match q's text,
// language and sites and are dated the world's clock now, within q's dates.
// It returns the corpus that holds them. Past maxArrived, or if they cannot
// be added, none are, which the journal notes.
func (s *Server) arrive(x *exchange, q search.Query) *Corpus {
	n := x.fault.Arrivals
	first := s.arrived.Add(int64(n)) - int64(n)
	if first+int64(n) > maxArrived {
		s.arrived.Add(-int64(n))
		x.entry.Fault += fmt.Sprintf(" (no arrivals: the world holds the most, %d; Reset removes them)", maxArrived)
		return s.Corpus()
	}
	when := x.now
	if !q.To.IsZero() && when.After(q.To.Add(s.shift)) {
		when = q.To.Add(s.shift)
	}
	if !q.From.IsZero() && when.Before(q.From.Add(s.shift)) {
		when = q.From.Add(s.shift)
	}
	site := "arrivals.example"
	if len(q.Sites) > 0 {
		site = search.NormalizeSite(q.Sites[0])
	}
	text := strings.TrimSpace(strings.ReplaceAll(q.Text, `"`, " "))
	if text == matchAll {
		text = "Breaking news"
	}
	var lines bytes.Buffer
	for i := range int64(n) {
		id := fmt.Sprintf("%08x%016x", uint32(when.Unix()), mix64(s.ids.seed^mix64(uint64(first+i)^0xa77e1a15)))
		lines.Write(encodeJSON(map[string]string{
			"_id": id, "title": text, "description": "Just published: " + text, "bodyText": text,
			"url": "https://" + site + "/arrivals/" + id, "site": site, "language": cmp.Or(q.Language, "en"),
			"datePublished": when.UTC().Format(time.RFC3339Nano),
		}))
		lines.WriteByte('\n')
	}
	if _, err := s.AddArticles(&lines); err != nil {
		s.arrived.Add(-int64(n))
		x.entry.Fault += " (no arrivals: " + strings.TrimPrefix(err.Error(), "mockserver: AddArticles: ") + ")"
	}
	return s.Corpus()
}

// resetArticles returns the world to its start-up corpus.
func (s *Server) resetArticles() {
	s.addMu.Lock()
	defer s.addMu.Unlock()
	s.arrived.Store(0)
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
