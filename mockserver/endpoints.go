package mockserver

import (
	"cmp"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// jobQuery is what a job stores: its validated query and the corpus it was
// submitted to, which it searches page by page. That corpus is the
// server's start-up corpus, which lives as long as the server, or a
// version AddArticles made, which the job keeps after the server moves on:
// a version shares its start-up corpus's index and articles and holds only
// the added ones, so a job costs memory in proportion to the articles
// added, not a corpus per job. A version the server has left caches no
// pages (Corpus.retire): its jobs' pages are searched again when asked for.
type jobQuery struct {
	corpus     *Corpus
	query      search.Query
	embeddings bool
	body       lazyBody // the submitted body, for Jobs
}

// page runs a validated query for one page and returns it encoded, from
// the corpus's page cache when it has it. The query was validated
// (key_phrases included), so Search cannot fail; should it ever, the
// caller's expression is reported as bad input.
func (s *Server) page(c *Corpus, q search.Query, page int, embeddings bool) (*encodedPage, *apiError) {
	p, err := c.page(q, pageOffset(page), pageSize, s.shift, embeddings, func(b []byte, res search.Result) []byte {
		return s.appendArticles(c, b, res.Hits, embeddings)
	})
	if err != nil {
		return nil, badRequest("%s", err.Error())
	}
	return p, nil
}

// pageOffset returns the position of page's first article, computed in
// int64: page 1e9 starts at 24,999,999,975, beyond a 32-bit int, where it
// would wrap negative and serve page 1. An offset past what int holds is
// clamped to math.MaxInt, which is past every result, so such a page is the
// empty page past the end, as on 64-bit platforms.
func pageOffset(page int) int {
	off := (int64(page) - 1) * pageSize
	if off > math.MaxInt {
		return math.MaxInt
	}
	return int(max(off, 0))
}

// appendArticles writes the hits as a JSON array.
func (s *Server) appendArticles(c *Corpus, b []byte, hits []search.Hit, embeddings bool) []byte {
	b = append(b, '[')
	for i, h := range hits {
		if i > 0 {
			b = append(b, ',')
		}
		b = s.appendArticle(c, b, h.Doc, h.Score, embeddings)
	}
	return append(b, ']')
}

func ok(buf *[]byte) response { return response{status: http.StatusOK, body: buf} }

// serveQuery answers /api/v2/query:
// {"results": {"totalResults": N, "articles": [...]}, "state": "SUCCESS"}.
func (s *Server) serveQuery(_ *exchange, f fields) response {
	p, aerr := s.parseSearch(f, false)
	if aerr != nil {
		return s.errorResponse(aerr)
	}
	pg, aerr := s.page(p.corpus, p.query, p.page, p.embeddings)
	if aerr != nil {
		return s.errorResponse(aerr)
	}
	return response{status: http.StatusOK, fixed: pg.answer}
}

// serveQueryAsync answers /api/v2/query-async: the query is validated at
// once (a bad one creates no job) and stored as a job.
func (s *Server) serveQueryAsync(x *exchange, f fields) response {
	p, aerr := s.parseSearch(f, true)
	if aerr != nil {
		return s.errorResponse(aerr)
	}
	outcome := jobs.Succeed
	switch x.fault.Job {
	case fault.JobFail:
		outcome = jobs.Fail
	case fault.JobStuck:
		outcome = jobs.Stuck
	case fault.JobRefuse:
		buf := getBuf()
		*buf = append(*buf, refusedSubmission...)
		return ok(buf)
	}
	id := s.ids.query(s.jobSeq.Add(1))
	jq := jobQuery{corpus: p.corpus, query: p.query, embeddings: p.embeddings, body: newLazyBody(x.body)}
	s.jobs.Submit(id, x.owner, jq, outcome, x.now)
	x.entry.QueryID = id
	buf := getBuf()
	b := append(*buf, `{"query_id":"`...)
	*buf = append(append(b, id...), `","state":"SUCCESS"}`...)
	return ok(buf)
}

// refusedSubmission is query-async's answer under a job=refuse fault: the
// shape the vendor's client expects of a refused submission (HTTP 200, a
// failure state and a message, no query_id).
var refusedSubmission = errorBody("the query was refused because a job=refuse fault was injected: " +
	"submit it again without the fault (remove the X-Mock-Fault header or the fault rule)")

// maxEchoedID bounds the query_id kept in the journal.
const maxEchoedID = 64

// serveGetResults answers /api/v2/get-results for the job's owner: PENDING,
// FAILED (HTTP 200), or SUCCESS with the page and both total fields.
func (s *Server) serveGetResults(x *exchange, f fields) response {
	id, present, aerr := f.str("query_id")
	switch {
	case aerr != nil:
		return s.errorResponse(aerr)
	case !present || strings.TrimSpace(id) == "":
		return s.errorResponse(badRequest("query_id is missing: pass the query_id that /api/v2/query-async returned, e.g. %s", examples["query_id"]))
	}
	page, aerr := f.page()
	if aerr != nil {
		return s.errorResponse(aerr)
	}
	if len(id) <= maxEchoedID {
		x.entry.QueryID = id
	}
	polled, found := s.jobs.PollResult(id, x.owner, x.now)
	state, jq := polled.State, polled.Query
	if !found {
		return s.errorResponse(&apiError{status: http.StatusNotFound, msg: fmt.Sprintf(
			"query_id is unknown or has expired: ids expire %v after their last use (the least recently used go first beyond %d jobs) "+
				"and are visible only to the api_key that submitted them; submit the query to /api/v2/query-async again",
			s.jobTTL, s.maxJobs)})
	}
	buf := getBuf()
	b := append(*buf, `{"query_id":`...)
	b = appendString(b, id)
	switch state {
	case jobs.Pending:
		*buf = append(b, `,"state":"PENDING"}`...)
		resp := ok(buf)
		if polled.ReadyIn >= time.Second {
			// When to ask again, in whole seconds rounded up, so a
			// client that honours it polls once, after the job is
			// ready: on a fake clock a job pending for minutes costs
			// a few requests, not one per poll delay.
			resp.retryAfter = int((polled.ReadyIn + time.Second - 1) / time.Second)
		}
		return resp
	case jobs.Failed:
		b = append(b, `,"state":"FAILED","message":`...)
		b = appendString(b, cmp.Or(polled.Message,
			"the query job failed because a job=fail fault was injected when it was submitted: submit the query again without it"))
		*buf = append(b, '}')
		return ok(buf)
	}
	pg, aerr := s.page(jq.corpus, jq.query, page, jq.embeddings)
	if aerr != nil {
		putBuf(buf)
		return s.errorResponse(aerr)
	}
	total := pg.total
	b = append(b, `,"page":`...)
	b = strconv.AppendInt(b, int64(page), 10)
	b = append(b, `,"totalResults":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, `,"totalArticles":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, `,"articles":`...)
	b = append(b, pg.articles...)
	*buf = append(b, `,"state":"SUCCESS"}`...)
	return ok(buf)
}

// headlineBody is an encoded headlines answer for one document range.
type headlineBody struct {
	c      *Corpus
	lo, hi int
	body   []byte
}

type headlineCluster struct {
	Topic    string            `json:"topic"`
	Count    int               `json:"count"`
	Articles []headlineArticle `json:"articles"`
}

// serveHeadlines answers /api/v2/headlines: the clusters of the articles
// published in the HeadlineWindow before the server clock's now, largest
// first, abbreviated to the headline limits. The answer is cached per
// document range.
func (s *Server) serveHeadlines(x *exchange, _ fields) response {
	if s.replayHeadlines != nil {
		buf := getBuf()
		*buf = append(*buf, s.replayHeadlines...)
		return ok(buf)
	}
	to := x.now.Add(-s.shift)
	from := to.Add(-HeadlineWindow)
	c := s.Corpus()
	lo, hi := c.window(from, to)
	hb := s.headlines.Load()
	if hb == nil || hb.c != c || hb.lo != lo || hb.hi != hi {
		hb = &headlineBody{c: c, lo: lo, hi: hi, body: s.encodeHeadlines(c, from, to, lo, hi)}
		s.headlines.Store(hb)
	}
	return response{status: http.StatusOK, fixed: hb.body}
}

func (s *Server) encodeHeadlines(c *Corpus, from, to time.Time, lo, hi int) []byte {
	out := struct {
		Headlines []headlineCluster `json:"headlines"`
		State     string            `json:"state"`
	}{Headlines: []headlineCluster{}, State: "SUCCESS"}
	if lo < hi {
		clusters := c.headlineClusters(from, to, lo, hi)
		for _, cl := range clusters[:min(len(clusters), s.headlineClusters)] {
			hc := headlineCluster{Topic: cl.Topic, Count: cl.Count, Articles: []headlineArticle{}}
			for _, d := range cl.Docs[:min(len(cl.Docs), s.headlineArticles)] {
				hc.Articles = append(hc.Articles, s.headlineJSON(c, d))
			}
			out.Headlines = append(out.Headlines, hc)
		}
	}
	return mustJSON(out)
}
