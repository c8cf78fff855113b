// Package cluster groups news articles into headline clusters by the
// similarity of their text.
//
// Build turns each article's title and description into a TF-IDF vector
// (name-like tokens weighted up) and merges articles by average-linkage
// agglomerative clustering until no two clusters are similar enough on
// average. Average linkage keeps apart stories that merely share a name or
// a phrasing: clusters join only when their articles resemble each other as
// a whole, not through a chain of look-alikes. Only the text is used, never
// Story labels or embeddings, so loaded corpora cluster the same way.
package cluster

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// Clustering parameters.
const (
	// mergeThreshold is the average cosine similarity two clusters need to
	// merge.
	mergeThreshold = 0.45
	// minEdge is the smallest similarity kept in the similarity graph;
	// weaker pairs count as unrelated.
	minEdge = 0.2
	// Terms in more than max(commonTermFloor, commonTermShare*n) of n
	// documents say nothing of the story and would make the comparison
	// quadratic: they are left out.
	commonTermShare = 0.05
	commonTermFloor = 50
	// nameBoost multiplies the weight of name-like terms (corpus.ScanWords):
	// names and figures tell stories apart far better than other words.
	nameBoost = 3.0
)

// Cluster is a group of articles about one story.
type Cluster struct {
	// Topic is the title of the cluster's representative article, the one
	// closest to the centroid of the cluster's vectors.
	Topic string
	// Count is the number of articles in the cluster.
	Count int
	// Docs lists every member as an index into the corpus's Articles: the
	// representative first, then the others newest first, ties by ID.
	Docs []int32
}

// Build clusters the articles docs (indexes into c.Articles; those out of
// range and repeats are ignored) by the similarity of their titles and
// descriptions: largest first, then newest member first, then by the
// representative's ID, so clusters of one come last. The result depends
// only on the set of documents.
func Build(c *corpus.Corpus, docs []int32) []Cluster {
	ds := normalise(len(c.Articles), docs)
	if len(ds) == 0 {
		return nil
	}
	vecs := vectorise(c, ds)
	groups := agglomerate(len(ds), similarities(vecs))
	out := make([]Cluster, 0, len(groups))
	dense := make([]float64, numTerms(vecs))
	for _, members := range groups {
		out = append(out, makeCluster(c, ds, vecs, members, dense))
	}
	slices.SortFunc(out, func(a, b Cluster) int {
		return cmp.Or(
			cmp.Compare(b.Count, a.Count),
			newest(c, b).Compare(newest(c, a)),
			cmp.Compare(c.Articles[a.Docs[0]].ID, c.Articles[b.Docs[0]].ID),
		)
	})
	return out
}

// normalise returns the valid distinct documents of docs in ascending order.
func normalise(n int, docs []int32) []int32 {
	ds := make([]int32, 0, len(docs))
	for _, d := range docs {
		if d >= 0 && int(d) < n {
			ds = append(ds, d)
		}
	}
	slices.Sort(ds)
	return slices.Compact(ds)
}

// entry is one term weight of a sparse vector.
type entry struct {
	term   int32
	weight float64
}

// vectorise returns the unit TF-IDF vector of every document's title and
// description, entries sorted by term. Documents without a usable term get
// an empty vector.
func vectorise(c *corpus.Corpus, ds []int32) [][]entry {
	dict := map[string]int32{}
	var df []int32 // by term: the documents it is in
	raw := make([][]rawTerm, len(ds))
	for i, d := range ds {
		var v []rawTerm
		add := func(tok []byte, namelike bool) {
			id, ok := dict[string(tok)]
			if !ok {
				id = int32(len(df))
				dict[string(tok)] = id
				df = append(df, 0)
			}
			k := slices.IndexFunc(v, func(t rawTerm) bool { return t.term == id })
			if k < 0 {
				k = len(v)
				v = append(v, rawTerm{term: id})
				df[id]++
			}
			v[k].tf++
			v[k].namelike = v[k].namelike || namelike
		}
		corpus.ScanWords(c.Articles[d].Title, add)
		corpus.ScanWords(c.Articles[d].Description, add)
		slices.SortFunc(v, func(x, y rawTerm) int { return cmp.Compare(x.term, y.term) })
		raw[i] = v
	}
	n := float64(len(ds))
	maxDF := int32(max(commonTermFloor, commonTermShare*n))
	vecs := make([][]entry, len(ds))
	for i, v := range raw {
		vec := make([]entry, 0, len(v))
		norm := 0.0
		for _, t := range v {
			if df[t.term] > maxDF {
				continue
			}
			w := (1 + math.Log(float64(t.tf))) * (math.Log((n+1)/float64(df[t.term]+1)) + 1)
			if t.namelike {
				w *= nameBoost
			}
			vec = append(vec, entry{t.term, w})
			norm += w * w
		}
		for j := range vec {
			vec[j].weight /= math.Sqrt(norm)
		}
		vecs[i] = vec
	}
	return vecs
}

// rawTerm is a term of a document before weighting.
type rawTerm struct {
	term     int32
	tf       int32
	namelike bool // written like a name or figure at least once
}

// numTerms returns one more than the largest term id of vecs.
func numTerms(vecs [][]entry) int {
	n := 0
	for _, v := range vecs {
		if len(v) > 0 {
			n = max(n, int(v[len(v)-1].term)+1)
		}
	}
	return n
}

// edge is a similarity between documents a < b.
type edge struct {
	a, b int32
	sim  float64
}

// similarities returns every pair of documents with a cosine similarity of
// at least minEdge, computed through an inverted index so that only pairs
// sharing a term are visited.
func similarities(vecs [][]entry) []edge {
	postings := make([][]entry, numTerms(vecs)) // term -> (doc, weight), docs ascending
	for d, v := range vecs {
		for _, e := range v {
			postings[e.term] = append(postings[e.term], entry{int32(d), e.weight})
		}
	}
	acc := make([]float64, len(vecs))
	var touched []int32
	var edges []edge
	for d, v := range vecs {
		for _, e := range v {
			p := postings[e.term]
			// Only later documents: each pair is computed once.
			start, _ := slices.BinarySearchFunc(p, int32(d+1), func(x entry, t int32) int { return cmp.Compare(x.term, t) })
			for _, o := range p[start:] {
				if acc[o.term] == 0 {
					touched = append(touched, o.term)
				}
				acc[o.term] += e.weight * o.weight
			}
		}
		slices.Sort(touched)
		for _, o := range touched {
			if acc[o] >= minEdge {
				edges = append(edges, edge{int32(d), o, acc[o]})
			}
			acc[o] = 0
		}
		touched = touched[:0]
	}
	return edges
}

// link is a neighbour of a cluster and the sum of similarities between
// their documents.
type link struct {
	to  int32
	sum float64
}

// candidate is a possible merge, valid while both clusters are unchanged.
type candidate struct {
	avg        float64
	a, b       int32
	verA, verB int32
}

// candidates is a max-heap of merges by average similarity, ties by ids.
type candidates []candidate

func (h candidates) Len() int { return len(h) }
func (h candidates) Less(i, j int) bool {
	if h[i].avg != h[j].avg {
		return h[i].avg > h[j].avg
	}
	return h[i].a < h[j].a || h[i].a == h[j].a && h[i].b < h[j].b
}
func (h candidates) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *candidates) Push(x any)   { *h = append(*h, x.(candidate)) }
func (h *candidates) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// agglomerate merges n documents by average linkage over the sparse
// similarity graph (missing pairs count as 0) while the best pair of
// clusters averages at least mergeThreshold. It returns the clusters as
// ascending lists of document positions, by smallest member.
//
// A merge rebuilds only the merged cluster's neighbour list; its
// neighbours' lists keep links to the two old names, which resolve through
// a union-find forest, and add up right, when those neighbours merge.
func agglomerate(n int, edges []edge) [][]int32 {
	adj := make([][]link, n)
	for _, e := range edges {
		adj[e.a] = append(adj[e.a], link{e.b, e.sim})
		adj[e.b] = append(adj[e.b], link{e.a, e.sim})
	}
	parent := make([]int32, n)
	size := make([]int32, n)
	version := make([]int32, n)
	members := make([][]int32, n)
	for i := range n {
		parent[i], size[i], members[i] = int32(i), 1, []int32{int32(i)}
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	var h candidates
	for _, e := range edges {
		if e.sim >= mergeThreshold {
			h = append(h, candidate{e.sim, e.a, e.b, 0, 0})
		}
	}
	heap.Init(&h)
	var scratch []link
	for h.Len() > 0 {
		m := heap.Pop(&h).(candidate)
		a, b := m.a, m.b
		if parent[a] != a || parent[b] != b || version[a] != m.verA || version[b] != m.verB {
			continue // stale: one side has merged since
		}
		// Merge b into a.
		parent[b] = a
		size[a] += size[b]
		members[a] = append(members[a], members[b]...)
		members[b] = nil
		version[a]++
		scratch = append(append(scratch[:0], adj[a]...), adj[b]...)
		adj[a], adj[b] = combine(scratch, a, find), nil
		for _, l := range adj[a] {
			if avg := l.sum / float64(size[a]*size[l.to]); avg >= mergeThreshold {
				x, y := min(a, l.to), max(a, l.to)
				heap.Push(&h, candidate{avg, x, y, version[x], version[y]})
			}
		}
	}
	var groups [][]int32
	for _, m := range members {
		if m != nil {
			slices.Sort(m)
			groups = append(groups, m)
		}
	}
	return groups
}

// combine resolves links to the clusters their targets now belong to, drops
// links to self and adds up links to the same cluster. It returns a new list
// sorted by target.
func combine(ls []link, self int32, find func(int32) int32) []link {
	for i := range ls {
		ls[i].to = find(ls[i].to)
	}
	slices.SortStableFunc(ls, func(x, y link) int { return cmp.Compare(x.to, y.to) })
	var out []link
	for _, l := range ls {
		switch {
		case l.to == self:
		case len(out) > 0 && out[len(out)-1].to == l.to:
			out[len(out)-1].sum += l.sum
		default:
			out = append(out, l)
		}
	}
	return out
}

// makeCluster builds the Cluster of a group of document positions. dense is
// scratch space of one float per term, all zero on entry and exit.
func makeCluster(c *corpus.Corpus, ds []int32, vecs [][]entry, members []int32, dense []float64) Cluster {
	for _, m := range members {
		for _, e := range vecs[m] {
			dense[e.term] += e.weight
		}
	}
	rep, best := members[0], math.Inf(-1)
	for _, m := range members {
		score := 0.0
		for _, e := range vecs[m] {
			score += e.weight * dense[e.term]
		}
		if score > best || score == best && newerFirst(c, ds[m], ds[rep]) < 0 {
			rep, best = m, score
		}
	}
	for _, m := range members {
		for _, e := range vecs[m] {
			dense[e.term] = 0
		}
	}
	docs := make([]int32, 0, len(members))
	for _, m := range members {
		if m != rep {
			docs = append(docs, ds[m])
		}
	}
	slices.SortFunc(docs, func(x, y int32) int { return newerFirst(c, x, y) })
	docs = slices.Insert(docs, 0, ds[rep])
	return Cluster{Topic: c.Articles[ds[rep]].Title, Count: len(docs), Docs: docs}
}

// newerFirst orders documents newest first, ties by ID.
func newerFirst(c *corpus.Corpus, x, y int32) int {
	a, b := &c.Articles[x], &c.Articles[y]
	return cmp.Or(b.Published.Compare(a.Published), cmp.Compare(a.ID, b.ID))
}

// newest returns the publication time of a cluster's newest member: the
// representative or, after it, the newest of the others.
func newest(c *corpus.Corpus, cl Cluster) time.Time {
	t := c.Articles[cl.Docs[0]].Published
	if len(cl.Docs) > 1 {
		if p := c.Articles[cl.Docs[1]].Published; p.After(t) {
			t = p
		}
	}
	return t
}
