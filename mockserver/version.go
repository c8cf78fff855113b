package mockserver

import (
	"cmp"
	"slices"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/cluster"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// A version is the immutable *Corpus AddArticles makes: a start-up corpus
// (its root) and the articles added, searched together (search.Layers)
// exactly as one corpus of them all. The root is shared, never copied, so
// adding articles costs what they do. The added articles live in segments
// of their own, oldest first; a call adds one, merged with the newest ones
// while they are at most twice its size, so there are O(log added).
type segment struct {
	c  *corpus.Corpus
	ix *search.Index
}

func newSegment(c *corpus.Corpus) *segment { return &segment{c: c, ix: search.New(c)} }

// withArticles returns the version of c with the articles of added on top
// (see segment).
func (c *Corpus) withArticles(added *corpus.Corpus) *Corpus {
	segs := slices.Clone(c.segs)
	merged := added
	for len(segs) > 0 && len(segs[len(segs)-1].c.Articles) <= 2*len(merged.Articles) {
		merged = corpus.Merge(segs[len(segs)-1].c, merged)
		segs = segs[:len(segs)-1]
	}
	return newVersion(c.root, append(segs, newSegment(merged)))
}

// newVersion returns the version of root and segs.
func newVersion(root *Corpus, segs []*segment) *Corpus {
	ixs := []*search.Index{root.index()}
	langs := slices.Clone(root.c.Languages)
	for _, sg := range segs {
		ixs = append(ixs, sg.ix)
		for _, l := range sg.c.Languages {
			if !slices.ContainsFunc(langs, func(have corpus.Language) bool { return have.Code == l.Code }) {
				langs = append(langs, l)
			}
		}
	}
	slices.SortFunc(langs, func(a, b corpus.Language) int { return cmp.Compare(a.Code, b.Code) })
	v := &Corpus{
		root:     root,
		segs:     segs,
		layers:   search.NewLayers(ixs...),
		clusters: map[[2]int]func() []cluster.Cluster{},
	}
	v.setLanguages(langs)
	return v
}

// retire empties the caches of a version no longer searched, for good, so
// the jobs still holding it keep only its articles and indexes.
func (c *Corpus) retire() {
	if c.root == c {
		return
	}
	c.answers.close()
	c.clusterMu.Lock()
	clear(c.clusters)
	c.clusterMu.Unlock()
}

// article returns the article of document doc. Documents number the
// root's articles first, then each segment's (search.Layers).
func (c *Corpus) article(doc int32) *corpus.Article {
	if r := c.root; int(doc) < len(r.c.Articles) {
		return &r.c.Articles[doc]
	}
	layer, d := c.layers.Locate(doc)
	return &c.segs[layer-1].c.Articles[d]
}

// versionClusters clusters a version's articles published within [from,
// to], in the date order of one corpus of them all, as that corpus would.
func (c *Corpus) versionClusters(from, to time.Time) []cluster.Cluster {
	var docs []int32
	lo, hi := c.root.c.Window(from, to)
	for d := lo; d < hi; d++ {
		docs = append(docs, int32(d))
	}
	for i, sg := range c.segs {
		lo, hi := sg.c.Window(from, to)
		start := c.layers.Start(i + 1)
		for d := lo; d < hi; d++ {
			docs = append(docs, start+int32(d))
		}
	}
	slices.SortFunc(docs, func(x, y int32) int {
		a, b := c.article(x), c.article(y)
		return cmp.Or(a.Published.Compare(b.Published), cmp.Compare(a.ID, b.ID))
	})
	window := &corpus.Corpus{Articles: make([]corpus.Article, len(docs))}
	positions := make([]int32, len(docs))
	for i, d := range docs {
		window.Articles[i] = *c.article(d)
		positions[i] = int32(i)
	}
	clusters := cluster.Build(window, positions)
	for _, cl := range clusters {
		for i, p := range cl.Docs {
			cl.Docs[i] = docs[p]
		}
	}
	return clusters
}

// known is a corpus or version as corpus.ReadAdded checks against it.
type known struct{ c *Corpus }

func (k known) HasID(id string) bool {
	if _, ok := k.c.root.index().FindID(id); ok {
		return true
	}
	for _, sg := range k.c.segs {
		if _, ok := sg.ix.FindID(id); ok {
			return true
		}
	}
	return false
}

func (k known) SiteTraffic(domain string) (int, bool) {
	if s, ok := k.c.root.c.Site(domain); ok {
		return s.Traffic, true
	}
	for _, sg := range k.c.segs {
		if s, ok := sg.c.Site(domain); ok {
			return s.Traffic, true
		}
	}
	return 0, false
}

func (k known) EmbeddingLen() int {
	if n := k.c.root.embedLen(); n > 0 {
		return n
	}
	for _, sg := range k.c.segs {
		if n := sg.c.EmbeddingLen(); n > 0 {
			return n
		}
	}
	return 0
}
