package mockserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

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
