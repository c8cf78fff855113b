package mockserver

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/cluster"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// Corpus is an immutable set of articles a Server searches. Its search
// index, encoded article fragments and headline clusters are built on first
// use and cached on the *Corpus, so every Server sharing one *Corpus shares
// them. A Corpus is safe for concurrent use.
//
// A Corpus is either a start-up corpus (DefaultCorpus, LoadCorpus: its own
// articles and index) or one that AddArticles made: a start-up corpus with
// the added articles on top, in a few small segments with indexes of their
// own. Such a corpus shares everything of its start-up corpus and costs
// what its added articles do.
type Corpus struct {
	// A start-up corpus's articles, index and per-article caches; nil in a
	// version, which reaches its root's through root.
	c      *corpus.Corpus
	index  func() *search.Index
	frags  []atomic.Pointer[fragments] // per article, encoded on first use
	embeds []atomic.Pointer[[]byte]    // per article, encoded on first use

	root     *Corpus        // the start-up corpus: itself, or the one a version adds to
	segs     []*segment     // a version's added articles, oldest segment first
	layers   *search.Layers // a version's root index and segment indexes
	embedLen func() int     // a start-up corpus's embedding length (corpus.Corpus.EmbeddingLen)

	langCodes map[string]string // lower-case code or name -> code
	langList  string            // "en (English), es (Spanish)" for messages

	clusterMu sync.Mutex
	clusters  map[[2]int]func() []cluster.Cluster // keyed by document range

	results resultCache

	origin string // for the default corpus: where it came from (Origin)
}

// maxClusterCache bounds how many headline windows a Corpus remembers.
const maxClusterCache = 64

func newCorpus(c *corpus.Corpus) *Corpus {
	pc := &Corpus{
		c:        c,
		frags:    make([]atomic.Pointer[fragments], len(c.Articles)),
		embeds:   make([]atomic.Pointer[[]byte], len(c.Articles)),
		clusters: map[[2]int]func() []cluster.Cluster{},
		embedLen: sync.OnceValue(c.EmbeddingLen),
	}
	pc.root = pc
	pc.index = sync.OnceValue(func() *search.Index { return search.New(c) })
	pc.setLanguages(c.Languages)
	return pc
}

// setLanguages makes the lookup of language codes and names.
func (c *Corpus) setLanguages(langs []corpus.Language) {
	c.langCodes = make(map[string]string, 2*len(langs))
	names := make([]string, 0, len(langs))
	for _, l := range langs {
		c.langCodes[strings.ToLower(l.Code)] = l.Code
		if l.Name != "" {
			c.langCodes[strings.ToLower(l.Name)] = l.Code
			names = append(names, fmt.Sprintf("%s (%s)", l.Code, l.Name))
		} else {
			names = append(names, l.Code)
		}
	}
	c.langList = strings.Join(names, ", ")
}

// defaultCorpus is built once per process and shared by every Server.
var defaultCorpus = sync.OnceValue(func() *Corpus {
	pc := newCorpus(corpus.Default())
	pc.origin = "built in this process" // TODO(lead): Origin no longer varies; keep it or retire it
	return pc
})

// DefaultCorpus returns the embedded corpus every Server uses unless
// WithCorpus says otherwise. It and its index are built once per process.
func DefaultCorpus() *Corpus { return defaultCorpus() }

// LoadCorpus reads a corpus in JSON Lines form, one article per line, for
// WithCorpus. The error names the line and field at fault.
func LoadCorpus(r io.Reader) (*Corpus, error) {
	c, err := corpus.LoadJSONL(r)
	if err != nil {
		return nil, fmt.Errorf("mockserver: LoadCorpus: %w", err)
	}
	return newCorpus(c), nil
}

// LoadCorpusFile reads a corpus in JSON Lines form from the file at path
// (see LoadCorpus).
func LoadCorpusFile(path string) (*Corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mockserver: LoadCorpusFile: %w", err)
	}
	defer f.Close()
	c, err := corpus.LoadJSONL(f)
	if err != nil {
		return nil, fmt.Errorf("mockserver: LoadCorpusFile %s: %w", path, err)
	}
	return newCorpus(c), nil
}

// Origin says where the default corpus came from: "built in this process"
// (it is generated at start-up; nothing is read from or written to disk). It is "" for a corpus from LoadCorpus or LoadCorpusFile.
// A corpus with added articles answers its start-up corpus's.
func (c *Corpus) Origin() string { return c.root.origin }

// Len returns the number of articles.
func (c *Corpus) Len() int {
	if c.layers != nil {
		return c.layers.Len()
	}
	return len(c.c.Articles)
}

// Newest returns the publication time of the newest article as stored,
// before any date shift, or the zero time for an empty corpus.
func (c *Corpus) Newest() time.Time {
	newest := c.root.c.Newest()
	for _, sg := range c.segs {
		if t := sg.c.Newest(); t.After(newest) {
			newest = t
		}
	}
	return newest
}

// search runs a query for one window of its result: Hit.Doc numbers the
// documents of a version through its layers (see article).
func (c *Corpus) search(q search.Query, offset, limit int) (search.Result, error) {
	if c.layers != nil {
		return c.layers.Search(q, offset, limit)
	}
	return c.index().Search(q, offset, limit)
}

// searchKeyed runs a query for one window of its result (key is its
// resultKey), remembering recent results: the corpus is immutable, so a
// repeated query (a test polling pages, a benchmark) is answered without
// searching again.
func (c *Corpus) searchKeyed(key string, q search.Query, offset, limit int) (search.Result, error) {
	if r, ok := c.results.get(key); ok {
		return r, nil
	}
	r, err := c.search(q, offset, limit)
	if err == nil {
		c.results.put(key, r)
	}
	return r, err
}

// encodedPage is one page of a search as the API sends it, with a server's
// date shift applied: the whole /api/v2/query answer, which a server sends
// as it is, and within it the articles as a JSON array, which get-results
// wraps in its own answer. Both are shared and never changed.
type encodedPage struct {
	total    int
	answer   []byte
	articles []byte // a window of answer
}

// page returns a query's page of results encoded for a server with the
// given date shift, with or without embeddings, remembering recent pages
// (see resultCache). The bytes depend on nothing else: the corpus (each
// *Corpus has its own cache, emptied by resultCache.reset whenever what it
// searches changes), the query, the window, the shift and the embeddings
// flag, all in the key. encode writes the articles of a result as a JSON
// array.
func (c *Corpus) page(q search.Query, offset, limit int, shift time.Duration, embeddings bool,
	encode func(b []byte, res search.Result) []byte) (*encodedPage, error) {
	var kb [160]byte // most keys fit: looked up without an allocation
	key := appendResultKey(kb[:0], q, offset, limit)
	n := len(key)
	pkey := appendPageKey(key, shift, embeddings)
	if p := c.results.getPage(pkey); p != nil {
		return p, nil
	}
	res, err := c.searchKeyed(string(pkey[:n]), q, offset, limit)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, 64+2<<10*len(res.Hits))
	b = append(b, `{"results":{"totalResults":`...)
	b = strconv.AppendInt(b, int64(res.Total), 10)
	b = append(b, `,"articles":`...)
	from := len(b)
	b = encode(b, res)
	to := len(b)
	b = append(b, `},"state":"SUCCESS"}`...)
	p := &encodedPage{total: res.Total, answer: b, articles: b[from:to:to]}
	c.results.putPage(string(pkey), p)
	return p, nil
}

// appendPageKey extends a resultKey with what the encoding depends on.
func appendPageKey(b []byte, shift time.Duration, embeddings bool) []byte {
	return appendKeyFlag(appendKeyNum(b, int64(shift)), embeddings)
}

// appendResultKey appends the key of everything a search result depends
// on. Every part has a fixed length or is length-prefixed, and a time
// says first whether it is there, so no two queries share a key; numbers
// are their 8 bytes, not decimal (formatting them was most of the key's
// cost, built on every search and get-results).
func appendResultKey(b []byte, q search.Query, offset, limit int) []byte {
	b = appendKeyString(b, q.Text)
	b = appendKeyString(b, q.KeyPhrases)
	b = appendKeyNum(b, int64(len(q.Sites)))
	for _, s := range q.Sites {
		b = appendKeyString(b, s)
	}
	for _, t := range [2]time.Time{q.From, q.To} {
		if t.IsZero() {
			b = append(b, '-')
		} else {
			b = append(b, 't')
			b = appendKeyNum(b, t.Unix())
			b = appendKeyNum(b, int64(t.Nanosecond()))
		}
	}
	b = appendKeyString(b, q.Language)
	b = appendKeyNum(b, int64(q.TrafficRank))
	b = appendKeyFlag(b, q.EncodedOnly)
	b = appendKeyNum(b, int64(q.Order))
	b = appendKeyNum(b, int64(offset))
	return appendKeyNum(b, int64(limit))
}

func appendKeyString(b []byte, s string) []byte {
	return append(appendKeyNum(b, int64(len(s))), s...)
}

func appendKeyFlag(b []byte, on bool) []byte {
	if on {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendKeyNum(b []byte, n int64) []byte {
	return binary.LittleEndian.AppendUint64(b, uint64(n))
}

// resultCache is a bounded map of recent search results and of recent
// encoded pages: when the current generation is full it becomes the
// previous one, so memory stays below two generations and recently used
// entries survive. Pages are bounded by their bytes (pageCacheBytes per
// generation), results by their count (resultCacheSize).
//
// Everything cached is derived from the corpus: whatever changes what a
// Corpus searches must call reset.
type resultCache struct {
	mu        sync.Mutex
	cur, prev map[string]search.Result

	pageCur, pagePrev map[string]*encodedPage
	pageBytes         int // the bytes of pageCur's pages

	closed bool // keep nothing more (see close)
}

const (
	// resultCacheSize is the size of one generation of results.
	resultCacheSize = 1024
	// pageCacheBytes bounds the bytes of one generation of pages: about
	// 100 full pages of 25 articles (35 KB each on the embedded corpus).
	pageCacheBytes = 4 << 20
)

func (rc *resultCache) get(key string) (search.Result, bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if r, ok := rc.cur[key]; ok {
		return r, true
	}
	r, ok := rc.prev[key]
	if ok {
		rc.putLocked(key, r)
	}
	return r, ok
}

func (rc *resultCache) put(key string, r search.Result) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.putLocked(key, r)
}

func (rc *resultCache) putLocked(key string, r search.Result) {
	if rc.closed {
		return
	}
	if len(rc.cur) >= resultCacheSize {
		rc.prev, rc.cur = rc.cur, nil
	}
	if rc.cur == nil {
		rc.cur = map[string]search.Result{} // grown as used: a corpus version may serve one search
	}
	rc.cur[key] = r
}

// getPage returns the cached page for key, or nil.
func (rc *resultCache) getPage(key []byte) *encodedPage {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if p := rc.pageCur[string(key)]; p != nil { // no copy of the key to look it up
		return p
	}
	p := rc.pagePrev[string(key)]
	if p != nil {
		rc.putPageLocked(string(key), p)
	}
	return p
}

func (rc *resultCache) putPage(key string, p *encodedPage) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.putPageLocked(key, p)
}

func (rc *resultCache) putPageLocked(key string, p *encodedPage) {
	if rc.closed || len(p.answer) > pageCacheBytes/4 { // closed, or a page of huge articles: not worth evicting others for
		return
	}
	if rc.pageBytes+len(p.answer) > pageCacheBytes {
		rc.pagePrev, rc.pageCur, rc.pageBytes = rc.pageCur, nil, 0
	}
	if rc.pageCur == nil {
		rc.pageCur = map[string]*encodedPage{}
	}
	if old := rc.pageCur[key]; old != nil {
		rc.pageBytes -= len(old.answer)
	}
	rc.pageCur[key] = p
	rc.pageBytes += len(p.answer)
}

// reset forgets every result and page.
func (rc *resultCache) reset() {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.cur, rc.prev = nil, nil
	rc.pageCur, rc.pagePrev, rc.pageBytes = nil, nil, 0
}

// close forgets every result and page and keeps no more: a corpus version
// the server has left keeps only what the jobs submitted to it need.
func (rc *resultCache) close() {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.cur, rc.prev = nil, nil
	rc.pageCur, rc.pagePrev, rc.pageBytes = nil, nil, 0
	rc.closed = true
}

// language resolves a language code or English name (any case) to its code.
func (c *Corpus) language(s string) (string, bool) {
	code, ok := c.langCodes[strings.ToLower(strings.TrimSpace(s))]
	return code, ok
}

// window returns the documents published within [from, to] (corpus time)
// as the half-open range [lo, hi) of their positions in the date order of
// all the corpus's articles. A range identifies its window: it is the key
// of the headline caches.
func (c *Corpus) window(from, to time.Time) (lo, hi int) {
	lo, hi = c.root.c.Window(from, to)
	for _, sg := range c.segs {
		l, h := sg.c.Window(from, to)
		lo, hi = lo+l, hi+h
	}
	return lo, hi
}

// headlineClusters returns the clusters of the documents published within
// [from, to], whose window is [lo, hi), computing them once per window.
func (c *Corpus) headlineClusters(from, to time.Time, lo, hi int) []cluster.Cluster {
	key := [2]int{lo, hi}
	c.clusterMu.Lock()
	get, ok := c.clusters[key]
	if !ok {
		if len(c.clusters) >= maxClusterCache {
			clear(c.clusters)
		}
		get = sync.OnceValue(func() []cluster.Cluster {
			if c.layers != nil {
				return c.versionClusters(from, to)
			}
			docs := make([]int32, hi-lo)
			for i := range docs {
				docs[i] = int32(lo + i)
			}
			return cluster.Build(c.c, docs)
		})
		c.clusters[key] = get
	}
	c.clusterMu.Unlock()
	return get()
}
