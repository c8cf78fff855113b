package mockserver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// endpoint is one API endpoint.
type endpoint struct {
	path    string
	faults  fault.Target // its name (as in FaultRule.Endpoint), and what its answers have that faults change
	example string       // a minimal valid body, for messages
	serve   func(s *Server, x *exchange, f fields) answer
}

// endpoints are the API endpoints in documentation order.
var endpoints = []*endpoint{
	{path: "/api/v2/query", faults: fault.Target{Endpoint: EndpointQuery, Results: true}, serve: (*Server).serveQuery,
		example: `{"api_key": "<your key>", "query": "electric cars"}`},
	{path: "/api/v2/query-async", faults: fault.Target{Endpoint: EndpointQueryAsync, Jobs: true}, serve: (*Server).serveQueryAsync,
		example: `{"api_key": "<your key>", "query": "electric cars"}`},
	{path: "/api/v2/get-results", faults: fault.Target{Endpoint: EndpointGetResults, Totals: true}, serve: (*Server).serveGetResults,
		example: `{"api_key": "<your key>", "query_id": "<the id /api/v2/query-async returned>"}`},
	{path: "/api/v2/headlines", faults: fault.Target{Endpoint: EndpointHeadlines}, serve: (*Server).serveHeadlines,
		example: `{"api_key": "<your key>"}`},
}

// endpointsByPath finds the endpoints by path.
var endpointsByPath = func() map[string]*endpoint {
	m := map[string]*endpoint{}
	for _, ep := range endpoints {
		m[ep.path] = ep
	}
	return m
}()

// apiPaths lists the endpoints for messages.
const apiPaths = "POST /api/v2/query, /api/v2/query-async, /api/v2/get-results and /api/v2/headlines"

// jobQuery is what a job stores: its validated query and the corpus it was
// submitted to, which it keeps after the world moves on. A version of a
// corpus (AddArticles) shares its start-up corpus, so a job costs the
// articles added, not a corpus.
type jobQuery struct {
	corpus     *Corpus
	query      search.Query
	embeddings bool
	body       []byte // the submitted body, redacted when Jobs lists it
}

// serveQuery answers /api/v2/query.
func (s *Server) serveQuery(x *exchange, f fields) answer {
	p, aerr := s.parseSearch(f, false)
	if aerr != nil {
		return aerr.answer()
	}
	if x.fault.Arrivals > 0 {
		p.corpus = s.arrive(x, p.query)
	}
	return s.page(p.corpus, s.pageKey(x, widen(p.query, x.fault, s.shift), p.page, p.embeddings, ""))
}

// serveQueryAsync answers /api/v2/query-async: the query is validated at
// once (a bad one creates no job) and stored as a job.
func (s *Server) serveQueryAsync(x *exchange, f fields) answer {
	p, aerr := s.parseSearch(f, true)
	if aerr != nil {
		return aerr.answer()
	}
	outcome := jobs.Succeed
	switch x.fault.Job {
	case fault.JobFail:
		outcome = jobs.Fail
	case fault.JobStuck:
		outcome = jobs.Stuck
	case fault.JobRefuse:
		return answer{status: http.StatusOK, body: refusedSubmission}
	}
	id := s.ids.query(s.jobSeq.Add(1))
	s.jobs.Submit(id, x.owner, jobQuery{corpus: p.corpus, query: widen(p.query, x.fault, s.shift), embeddings: p.embeddings, body: x.body}, outcome, x.now)
	x.entry.QueryID = id
	return ok(struct {
		QueryID string `json:"query_id"`
		State   string `json:"state"`
	}{id, "SUCCESS"})
}

// refusedSubmission is query-async's answer under a job=refuse fault, as
// the service refuses a submission: 200, FAILED, no query_id.
var refusedSubmission = failureBody("the query was refused because a job=refuse fault was injected: " +
	"submit it again without the fault (remove the X-Mock-Fault header or the fault rule)")

// maxEchoedID bounds the query_id kept in the journal.
const maxEchoedID = 64

// serveGetResults answers /api/v2/get-results for the job's owner: PENDING,
// FAILED (HTTP 200), or SUCCESS with the page and both total fields.
func (s *Server) serveGetResults(x *exchange, f fields) answer {
	id, present, aerr := f.str("query_id")
	switch {
	case aerr != nil:
		return aerr.answer()
	case !present || strings.TrimSpace(id) == "":
		return badRequest("query_id is missing: pass the query_id that /api/v2/query-async returned, e.g. %s", examples["query_id"]).answer()
	}
	page, aerr := f.page()
	if aerr != nil {
		return aerr.answer()
	}
	if len(id) <= maxEchoedID {
		x.entry.QueryID = id
	}
	polled, found := s.jobs.PollResult(id, x.owner, x.now)
	if !found {
		return (&apiError{status: http.StatusNotFound, msg: fmt.Sprintf(
			"query_id is unknown or has expired: ids expire %v after their last use (the least recently used go first beyond %d jobs) "+
				"and are visible only to the api_key that submitted them; submit the query to /api/v2/query-async again",
			s.settings().JobTTL, s.settings().MaxJobs)}).answer()
	}
	type state struct {
		QueryID string `json:"query_id"`
		State   string `json:"state"`
		Message string `json:"message,omitempty"`
	}
	switch polled.State {
	case jobs.Pending:
		a := ok(state{QueryID: id, State: "PENDING"})
		if polled.ReadyIn >= time.Second {
			// Whole seconds rounded up, so that a client that honours it
			// polls once the job is ready, even on a fake clock.
			a.retryAfter = int((polled.ReadyIn + time.Second - 1) / time.Second)
		}
		return a
	case jobs.Failed:
		return ok(state{QueryID: id, State: "FAILED", Message: cmp.Or(polled.Message,
			"the query job failed because a job=fail fault was injected when it was submitted: submit the query again without it")})
	}
	jq := polled.Query
	return s.page(jq.corpus, s.pageKey(x, jq.query, page, jq.embeddings, id))
}

// serveHeadlines answers /api/v2/headlines: the clusters of the
// HeadlineWindow before now, largest first, cut to the headline limits.
func (s *Server) serveHeadlines(x *exchange, _ fields) answer {
	if s.replayHeadlines != nil {
		return answer{status: http.StatusOK, body: s.replayHeadlines}
	}
	to := x.now.Add(-s.shift)
	from := to.Add(-HeadlineWindow)
	c := s.Corpus()
	lo, hi := c.window(from, to)
	type headlinesKey struct {
		lo, hi, clusters, articles int
		shift                      time.Duration
	}
	key := headlinesKey{lo, hi, s.headlineClusters, s.headlineArticles, s.shift}
	return answer{status: http.StatusOK, body: c.answers.get(key, func() []byte { return s.encodeHeadlines(c, from, to, lo, hi) })}
}

func (s *Server) encodeHeadlines(c *Corpus, from, to time.Time, lo, hi int) []byte {
	type cluster struct {
		Topic    string            `json:"topic"`
		Count    int               `json:"count"`
		Articles []headlineArticle `json:"articles"`
	}
	out := struct {
		Headlines []cluster `json:"headlines"`
		State     string    `json:"state"`
	}{Headlines: []cluster{}, State: "SUCCESS"}
	if lo < hi {
		clusters := c.headlineClusters(from, to, lo, hi)
		for _, cl := range clusters[:min(len(clusters), s.headlineClusters)] {
			hc := cluster{Topic: cl.Topic, Count: cl.Count, Articles: []headlineArticle{}}
			for _, d := range cl.Docs[:min(len(cl.Docs), s.headlineArticles)] {
				a := c.article(d)
				hc.Articles = append(hc.Articles, headlineArticle{
					Category: nullable(a.Category), DatePublished: a.Published.Add(s.shift).UTC().Format(time.DateTime),
					Favicon: a.Favicon, Image: nullable(a.Image), Site: a.Site, Title: a.Title, URL: a.URL,
				})
			}
			out.Headlines = append(out.Headlines, hc)
		}
	}
	return encodeJSON(out)
}

// pageKey is all a page of results depends on besides its corpus.
type pageKey struct {
	Query      search.Query
	Page       int
	Shift      time.Duration
	Embeddings bool
	Shape      AnswerShape
	QueryID    string // get-results only
	Empty      bool   // an empty-page fault: no articles, the totals kept
	Overlap    int    // an overlap fault: the previous page's last Overlap articles first
}

// pageKey is the key of a page of q's results for x, with x's faults.
func (s *Server) pageKey(x *exchange, q search.Query, page int, embeddings bool, queryID string) pageKey {
	k := pageKey{Query: q, Page: page, Embeddings: embeddings, Shape: s.shape(x), QueryID: queryID}
	k.Empty = x.fault.EmptyPage == page
	if page > 1 {
		k.Overlap = x.fault.Overlap
	}
	return k
}

// widen widens q's date bounds as a window fault asks: by its duration on
// each side, or to whole UTC days (of the dates as served, shift later).
func widen(q search.Query, a fault.Action, shift time.Duration) search.Query {
	for _, t := range []*time.Time{&q.From, &q.To} {
		switch {
		case t.IsZero():
		case a.WindowDay:
			day := t.Add(shift).Truncate(24 * time.Hour).Add(-shift)
			if t == &q.To {
				day = day.Add(24*time.Hour - time.Nanosecond)
			}
			*t = day
		case t == &q.To:
			*t = t.Add(a.Window)
		default:
			*t = t.Add(-a.Window)
		}
	}
	return q
}

// cacheKey is k as a comparable value, for the corpus's cache.
func (k pageKey) cacheKey() any {
	q := k.Query
	type key struct {
		text, keyPhrases, sites, language string
		from, to                          time.Time
		trafficRank                       int
		encodedOnly                       bool
		order                             search.Order
		page                              int
		shift                             time.Duration
		embeddings                        bool
		shape                             AnswerShape
		queryID                           string
		empty                             bool
		overlap                           int
	}
	var sites string
	if len(q.Sites) > 0 {
		sites = fmt.Sprintf("%q", q.Sites) // quoted: no two lists give the same text
	}
	return key{q.Text, q.KeyPhrases, sites, q.Language, q.From.UTC().Round(0), q.To.UTC().Round(0),
		q.TrafficRank, q.EncodedOnly, q.Order, k.Page, k.Shift, k.Embeddings, k.Shape, k.QueryID, k.Empty, k.Overlap}
}

// page answers a page of a validated search: query's, or get-results' with
// k.QueryID. The corpus is immutable, so its answers are cached.
func (s *Server) page(c *Corpus, k pageKey) answer {
	k.Shift = s.shift
	var failed *apiError
	body := c.answers.get(k.cacheKey(), func() []byte {
		off, limit := pageOffset(k.Page), pageSize
		switch {
		case k.Empty:
			limit = 0
		case k.Overlap > 0:
			off, limit = max(off-k.Overlap, 0), limit+min(off, k.Overlap)
		}
		res, err := c.search(k.Query, off, limit)
		if err != nil { // validated queries cannot fail; should one, it is the caller's expression
			failed = badRequest("%s", err.Error())
			return nil
		}
		return encodePage(k, res.Total, s.articles(c, res.Hits, k.Embeddings))
	})
	if failed != nil {
		return failed.answer()
	}
	return answer{status: http.StatusOK, body: body}
}

// encodePage writes a page of results in the answer shape k asks for.
func encodePage(k pageKey, total int, articles []articleJSON) []byte {
	totals := func(which string) *int {
		if k.Shape.Totals == "" || k.Shape.Totals == fault.ShapeBothTotals || k.Shape.Totals == which {
			return &total
		}
		return nil
	}
	if k.QueryID != "" {
		return encodeJSON(struct {
			QueryID       string        `json:"query_id"`
			Page          int           `json:"page"`
			TotalResults  *int          `json:"totalResults,omitempty"`
			TotalArticles *int          `json:"totalArticles,omitempty"`
			Articles      []articleJSON `json:"articles"`
			State         string        `json:"state"`
		}{k.QueryID, k.Page, totals(fault.ShapeTotalResults), totals(fault.ShapeTotalArticles), articles, "SUCCESS"})
	}
	type results struct {
		TotalResults int           `json:"totalResults"`
		Articles     []articleJSON `json:"articles"`
	}
	if k.Shape.Results == fault.ShapeTopLevel {
		return encodeJSON(struct {
			results
			State string `json:"state"`
		}{results{total, articles}, "SUCCESS"})
	}
	return encodeJSON(struct {
		Results results `json:"results"`
		State   string  `json:"state"`
	}{results{total, articles}, "SUCCESS"})
}

// pageOffset returns the position of page's first article. It computes in
// int64 and clamps to math.MaxInt, past every result: on a 32-bit platform
// page 1e9 would otherwise wrap negative and serve page 1.
func pageOffset(page int) int {
	off := (int64(page) - 1) * pageSize
	if off > math.MaxInt {
		return math.MaxInt
	}
	return int(max(off, 0))
}

// articleJSON is a search-result article on the wire, in api/openapi.yaml's
// order of fields.
type articleJSON struct {
	ID            string                `json:"_id"`
	Title         string                `json:"title"`
	Description   string                `json:"description"`
	BodyText      string                `json:"bodyText"`
	URL           string                `json:"url"`
	Site          string                `json:"site"`
	Image         *string               `json:"image"`
	Favicon       string                `json:"favicon"`
	Category      *string               `json:"category"`
	Language      string                `json:"language"`
	DatePublished string                `json:"datePublished"`
	Score         float64               `json:"score"`
	Topics        []string              `json:"topics"`
	Sentiment     corpus.Sentiment      `json:"sentiment"`
	Entities      []corpus.Entity       `json:"entities"`
	Relationships []corpus.Relationship `json:"entity_relationships"`
	// Embeddings is sent when asked for, null for an article without one.
	Embeddings *[]float32 `json:"embeddings,omitempty"`
}

// headlineArticle has exactly the fields of a headline cluster article.
type headlineArticle struct {
	Category      *string `json:"category"`
	DatePublished string  `json:"datePublished"`
	Favicon       string  `json:"favicon"`
	Image         *string `json:"image"`
	Site          string  `json:"site"`
	Title         string  `json:"title"`
	URL           string  `json:"url"`
}

// articles returns the hits as they are sent, with the world's date shift.
func (s *Server) articles(c *Corpus, hits []search.Hit, embeddings bool) []articleJSON {
	out := make([]articleJSON, len(hits))
	for i, h := range hits {
		out[i] = s.articleJSON(c.article(h.Doc), h.Score, embeddings)
	}
	return out
}

func (s *Server) articleJSON(a *corpus.Article, score float64, embeddings bool) articleJSON {
	out := articleJSON{
		ID: a.ID, Title: a.Title, Description: a.Description, BodyText: a.Body, URL: a.URL, Site: a.Site,
		Image: nullable(a.Image), Favicon: a.Favicon, Category: nullable(a.Category), Language: a.Language,
		DatePublished: a.Published.Add(s.shift).UTC().Format(http.TimeFormat),
		Score:         score,
		Topics:        a.Topics,
		Sentiment:     a.Sentiment,
		Entities:      a.Entities,
		Relationships: a.Relationships,
	}
	if out.Topics == nil {
		out.Topics = []string{} // an array in api/openapi.yaml, never null (an uploaded article may have none)
	}
	if embeddings {
		v := a.Vector()
		out.Embeddings = &v
	}
	return out
}

// nullable maps "" to JSON null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func ok(v any) answer { return answer{status: http.StatusOK, body: encodeJSON(v)} }

// encodeJSON encodes, without HTML escapes, values built here, which
// cannot fail: corpus floats are finite and the clock's range keeps times
// within the years JSON can write.
func encodeJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("mockserver: encoding an answer: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}
