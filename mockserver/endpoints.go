package mockserver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
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
			s.pending.TTL, s.pending.Max)})
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
	*buf = append(b, `,"articles":`...)
	// The page's articles are sent as the cache holds them, not copied
	// into buf (onewrite.SendParts).
	return response{status: http.StatusOK, body: buf, mid: pg.articles, tail: successTail}
}

// successTail ends a get-results answer with its page; never changed.
var successTail = []byte(`,"state":"SUCCESS"}`)

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

// fragments are the constant parts of one article's JSON, encoded once per
// corpus. An article is written as
//
//	head + datePublished + `","score":` + score + tail [+ `,"embeddings":` + vector] + "}"
type fragments struct {
	head []byte // `{"_id":…,"language":"en","datePublished":"`
	tail []byte // `,"topics":[…],…,"entity_relationships":…`
}

// Wire forms of the constant article fields, in wire order.
type (
	articleHead struct {
		ID          string  `json:"_id"`
		Title       string  `json:"title"`
		Description string  `json:"description"`
		BodyText    string  `json:"bodyText"`
		URL         string  `json:"url"`
		Site        string  `json:"site"`
		Image       *string `json:"image"`
		Favicon     string  `json:"favicon"`
		Category    *string `json:"category"`
		Language    string  `json:"language"`
	}
	articleTail struct {
		Topics        []string       `json:"topics"`
		Sentiment     wireSentiment  `json:"sentiment"`
		Entities      []wireEntity   `json:"entities"`
		Relationships []wireRelation `json:"entity_relationships"`
	}
	wireSentiment struct {
		Title       float64 `json:"title"`
		Description float64 `json:"description"`
	}
	wireEntity struct {
		Name       string  `json:"name"`
		Type       string  `json:"type"`
		WikidataID string  `json:"wikidata_id"`
		Sentiment  float64 `json:"sentiment"`
		Confidence float64 `json:"confidence"`
	}
	wireRelation struct {
		Source     string  `json:"source"`
		Target     string  `json:"target"`
		Relation   string  `json:"relation"`
		Confidence float64 `json:"confidence"`
	}
	// headlineArticle has exactly the fields of a headline cluster article.
	headlineArticle struct {
		Category      *string `json:"category"`
		DatePublished string  `json:"datePublished"`
		Favicon       string  `json:"favicon"`
		Image         *string `json:"image"`
		Site          string  `json:"site"`
		Title         string  `json:"title"`
		URL           string  `json:"url"`
	}
)

// nullable maps "" to JSON null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// mustJSON encodes values built here from plain strings, numbers and
// slices, which encoding/json cannot fail on (corpus floats are finite: JSON
// cannot carry anything else), and times, which the clock's range keeps
// within the years JSON can write (a WithClock clock that leaves the range
// makes it panic, and the handler answers 500). HTML characters are left as
// they are.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("mockserver: encoding an answer: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}

// fragmentsOf returns the encoded constant parts of article doc, encoding
// them on first use. Concurrent first uses may both encode; the results are
// identical and one wins.
func (c *Corpus) fragmentsOf(doc int32) *fragments {
	a, cache, _ := c.articleAt(doc)
	if f := cache.Load(); f != nil {
		return f
	}
	f := encodeFragments(a)
	cache.Store(f)
	return f
}

// embeddingOf returns article doc's encoded embedding (a JSON array, or
// null), encoding it on first use. It is cached apart from the other
// fragments so only articles whose vectors are asked for pay its memory.
func (c *Corpus) embeddingOf(doc int32) []byte {
	a, _, cache := c.articleAt(doc)
	if e := cache.Load(); e != nil {
		return *e
	}
	e := appendVector(nil, a.Vector())
	cache.Store(&e)
	return e
}

func encodeFragments(a *corpus.Article) *fragments {
	head := mustJSON(articleHead{
		ID: a.ID, Title: a.Title, Description: a.Description, BodyText: a.Body, URL: a.URL,
		Site: a.Site, Image: nullable(a.Image), Favicon: a.Favicon, Category: nullable(a.Category),
		Language: a.Language,
	})
	tail := articleTail{
		Topics:    a.Topics,
		Sentiment: wireSentiment{Title: a.Sentiment.Title, Description: a.Sentiment.Description},
	}
	if tail.Topics == nil {
		tail.Topics = []string{} // an array in api/openapi.yaml, never null (an uploaded article may have none)
	}
	if a.Entities != nil {
		tail.Entities = make([]wireEntity, len(a.Entities))
		for i, e := range a.Entities {
			tail.Entities[i] = wireEntity(e)
		}
	}
	if a.Relationships != nil {
		tail.Relationships = make([]wireRelation, len(a.Relationships))
		for i, r := range a.Relationships {
			tail.Relationships[i] = wireRelation(r)
		}
	}
	t := mustJSON(tail)
	f := &fragments{
		head: append(head[:len(head)-1:len(head)-1], `,"datePublished":"`...),
		tail: append([]byte{','}, t[1:len(t)-1]...),
	}
	return f
}

// appendArticle writes one search-result article: the cached fragments with
// the shifted date, the score and, when asked for, the embedding spliced in.
func (s *Server) appendArticle(c *Corpus, b []byte, doc int32, score float64, embeddings bool) []byte {
	f := c.fragmentsOf(doc)
	a := c.article(doc)
	b = append(b, f.head...)
	b = appendHTTPDate(b, a.Published.Add(s.shift))
	b = append(b, `","score":`...)
	b = strconv.AppendFloat(b, score, 'f', -1, 64)
	b = append(b, f.tail...)
	if embeddings {
		b = append(b, `,"embeddings":`...)
		b = append(b, c.embeddingOf(doc)...)
	}
	return append(b, '}')
}

// appendHTTPDate writes t in UTC as http.TimeFormat does ("Mon, 02 Jan
// 2006 15:04:05 GMT"), several times faster than time.Time.AppendFormat.
func appendHTTPDate(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, http.TimeFormat)
	}
	b = append(b, weekdays[t.Weekday()]...)
	b = append(b, ", "...)
	b = append2(b, day)
	b = append(b, ' ')
	b = append(b, months[month-1]...)
	b = append(b, ' ')
	b = append2(append2(b, year/100), year%100)
	b = append(b, ' ')
	b = append2(b, hour)
	b = append(b, ':')
	b = append2(b, minute)
	b = append(b, ':')
	b = append2(b, sec)
	return append(b, " GMT"...)
}

var (
	weekdays = [...]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	months   = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// append2 writes n (0..99) as two digits.
func append2(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }

// appendVector writes a JSON array of float32 values, or null for nil.
func appendVector(b []byte, v []float32) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, float64(x), 'g', -1, 32)
	}
	return append(b, ']')
}

// headlineJSON encodes one headline article with its shifted date.
func (s *Server) headlineJSON(c *Corpus, doc int32) headlineArticle {
	a := c.article(doc)
	return headlineArticle{
		Category:      nullable(a.Category),
		DatePublished: a.Published.Add(s.shift).UTC().Format(time.DateTime),
		Favicon:       a.Favicon,
		Image:         nullable(a.Image),
		Site:          a.Site,
		Title:         a.Title,
		URL:           a.URL,
	}
}

// appendString writes s as a JSON string. Printable ASCII without quotes
// or backslashes (query ids, most messages) is copied as it is; anything
// else goes through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return append(b, mustJSON(s)...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// bufPool recycles response buffers. Buffers that grew past maxPooledBuf are
// dropped rather than kept alive.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

const maxPooledBuf = 4 << 20

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

// putBuf returns b to the pool; nil (an answer without a pooled buffer) is
// ignored.
func putBuf(b *[]byte) {
	if b == nil || cap(*b) > maxPooledBuf {
		return
	}
	*b = (*b)[:0]
	bufPool.Put(b)
}
