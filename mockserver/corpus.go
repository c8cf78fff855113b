package mockserver

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/cluster"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// Corpus is an immutable set of articles with its search index, built on first
// use and shared by every Server that serves it.
type Corpus struct {
	// A start-up corpus's articles and index; nil in a version.
	c     *corpus.Corpus
	index func() *search.Index

	root     *Corpus        // the start-up corpus: itself, or the one a version adds to
	segs     []*segment     // a version's added articles, oldest segment first
	layers   *search.Layers // a version's root index and segment indexes
	embedLen func() int     // a start-up corpus's embedding length (corpus.Corpus.EmbeddingLen)

	langCodes map[string]string // lower-case code or name -> code
	langList  string            // "en (English), es (Spanish)" for messages

	clusterMu sync.Mutex
	clusters  map[[2]int]func() []cluster.Cluster // keyed by document range

	answers answerCache
}

// maxClusterCache bounds how many headline windows a Corpus remembers.
const maxClusterCache = 64

func newCorpus(c *corpus.Corpus) *Corpus {
	pc := &Corpus{
		c:        c,
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

var defaultCorpus = sync.OnceValue(func() *Corpus {
	pc := newCorpus(corpus.Default())
	pc.index()
	return pc
})

// DefaultCorpus returns the embedded corpus, built in memory once per process.
func DefaultCorpus() *Corpus { return defaultCorpus() }

// LoadCorpus reads a corpus for WithCorpus: JSON Lines of article objects in
// the wire form of a search result. Required: _id (24 hex digits,
// unique), title, url (absolute http or https), site and datePublished;
// language defaults to "en". The first bad line fails the load with an error
// naming it.
func LoadCorpus(r io.Reader) (*Corpus, error) {
	c, err := corpus.LoadJSONL(r)
	if err != nil {
		return nil, fmt.Errorf("mockserver: LoadCorpus: %w", err)
	}
	return newCorpus(c), nil
}

// LoadCorpusFile is LoadCorpus reading the file at path.
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

// Len returns the number of articles.
func (c *Corpus) Len() int {
	if c.layers != nil {
		return c.layers.Len()
	}
	return len(c.c.Articles)
}

// Newest returns the publication time of the newest article as stored, before
// any date shift.
func (c *Corpus) Newest() time.Time {
	newest := c.root.c.Newest()
	for _, sg := range c.segs {
		if t := sg.c.Newest(); t.After(newest) {
			newest = t
		}
	}
	return newest
}

// search runs a query for one window of its result (Hit.Doc as article
// takes it).
func (c *Corpus) search(q search.Query, offset, limit int) (search.Result, error) {
	if c.layers != nil {
		return c.layers.Search(q, offset, limit)
	}
	return c.index().Search(q, offset, limit)
}

// answerCache holds a corpus's recent answers, shared and never changed,
// keyed by all else they depend on. A full generation (answerCacheBytes)
// becomes the previous one, so memory stays below two generations and
// recently used answers survive.
type answerCache struct {
	mu        sync.Mutex
	cur, prev map[any][]byte
	curBytes  int
	closed    bool // keep nothing more (see Corpus.retire)
}

// answerCacheBytes bounds a generation: about 100 full pages.
const answerCacheBytes = 4 << 20

// get returns the answer under key, made by make if not cached; nil is not
// cached.
func (ac *answerCache) get(key any, make func() []byte) []byte {
	ac.mu.Lock()
	b, ok := ac.cur[key]
	if !ok {
		if b, ok = ac.prev[key]; ok {
			ac.putLocked(key, b)
		}
	}
	ac.mu.Unlock()
	if ok {
		return b
	}
	b = make() // unlocked: concurrent first uses may both make it; the results are identical
	if b != nil {
		ac.mu.Lock()
		ac.putLocked(key, b)
		ac.mu.Unlock()
	}
	return b
}

func (ac *answerCache) putLocked(key any, b []byte) {
	if ac.closed || len(b) > answerCacheBytes/4 { // a page of huge articles: not worth evicting others for
		return
	}
	if ac.curBytes+len(b) > answerCacheBytes {
		ac.prev, ac.cur, ac.curBytes = ac.cur, nil, 0
	}
	if ac.cur == nil {
		ac.cur = map[any][]byte{}
	}
	ac.curBytes += len(b) - len(ac.cur[key])
	ac.cur[key] = b
}

// close forgets every answer and keeps no more (see Corpus.retire).
func (ac *answerCache) close() {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	ac.cur, ac.prev, ac.curBytes, ac.closed = nil, nil, 0, true
}

// language resolves a language code or English name (any case) to its code.
func (c *Corpus) language(s string) (string, bool) {
	code, ok := c.langCodes[strings.ToLower(strings.TrimSpace(s))]
	return code, ok
}

// window returns the documents published within [from, to] (corpus time)
// as [lo, hi), their positions in the date order of all the articles; it
// keys the headline caches.
func (c *Corpus) window(from, to time.Time) (lo, hi int) {
	lo, hi = c.root.c.Window(from, to)
	for _, sg := range c.segs {
		l, h := sg.c.Window(from, to)
		lo, hi = lo+l, hi+h
	}
	return lo, hi
}

// headlineClusters returns the clusters of [from, to], window [lo, hi),
// computed once per window.
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
