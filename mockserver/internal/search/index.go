// Package search is the mock server's search engine: an in-memory inverted
// index over a corpus with BM25F ranking, the request filters (sites, dates,
// language, traffic, encoded articles, key_phrases), both sort orders and
// paging.
//
// Text is split into terms by package analysis (lower-cased, Latin diacritics
// folded, no stemming, no stop words). Title, description and body are indexed
// separately with word positions, so a quoted phrase must occur within one
// field. An Index is immutable after New and safe for concurrent use.
package search

import (
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

// BM25F parameters: term-frequency saturation and length normalisation.
const (
	k1 = 1.2
	b  = 0.75
)

// numFields counts the indexed fields: title, description and body.
const numFields = 3

// fieldWeights are the BM25F weights of title, description and body.
var fieldWeights = [numFields]float64{3, 2, 1}

// Index is an inverted index over one corpus.
type Index struct {
	c *corpus.Corpus

	// The postings of term t are the entries termStart[t] to
	// termStart[t+1]-1 of docs (ascending document numbers) and posOff. The
	// positions of posting i are pos[posOff[i]:posOff[i+1]], as uvarint
	// deltas, the first one absolute.
	terms     map[string]int32 // term -> term id; ids are assigned in order of first appearance
	termStart []uint32
	docs      []int32
	posOff    []uint32
	pos       []byte

	// Positions of one document run title 0..t-1, then description from
	// t+1, then body from descEnd+1: the gaps keep phrases inside one field.
	// The fields' lengths in terms, which BM25F normalises by, are
	// titleEnd, descEnd-titleEnd-1 and bodyLen.
	titleEnd []uint32 // by doc: first position after the title
	descEnd  []uint32 // by doc: first position after the description
	bodyLen  []uint32 // by doc: the body's length in terms
	fieldLen [numFields]uint64

	idRank   []int32 // by doc: rank in ID order
	dateRank []int32 // by doc: rank in ByDate order (Published desc, ID asc)
	byID     []int32 // the documents in ID order

	lang  []int32 // by doc: index into langs
	langs map[string]int32
	// siteRank is, by doc, its site's position among all sites ordered by
	// traffic (busiest first, ties by domain): the percentile traffic_rank
	// filters on is this rank, never the raw traffic value.
	siteRank []int32
	ranked   []siteTraffic // the sites in siteRank order
	encoded  []bool
	sites    map[string]int32 // domain -> index into siteDocs
	siteDocs [][]int32        // ascending docs of each site

	alone *Layers // the index searched alone
}

// termDocs returns the ascending documents of term t.
func (ix *Index) termDocs(t int32) []int32 { return ix.docs[ix.termStart[t]:ix.termStart[t+1]] }

// positions returns the encoded positions of posting i.
func (ix *Index) positions(i int) []byte { return ix.pos[ix.posOff[i]:ix.posOff[i+1]] }

// Corpus returns the indexed corpus.
func (ix *Index) Corpus() *corpus.Corpus { return ix.c }

// New indexes the corpus. Its articles must be in the order Corpus.Articles
// documents (Published, then ID, ascending), and it must not change
// afterwards.
func New(c *corpus.Corpus) *Index {
	n := len(c.Articles)
	ix := &Index{
		c:        c,
		terms:    map[string]int32{},
		titleEnd: make([]uint32, n),
		descEnd:  make([]uint32, n),
		bodyLen:  make([]uint32, n),
		lang:     make([]int32, n),
		langs:    map[string]int32{},
		siteRank: make([]int32, n),
		encoded:  make([]bool, n),
		sites:    map[string]int32{},
	}
	ix.indexText()
	ix.computeRanks()
	for d := range c.Articles {
		a := &c.Articles[d]
		ix.encoded[d] = a.Encoded()
		code := strings.ToLower(a.Language)
		l, ok := ix.langs[code]
		if !ok {
			l = int32(len(ix.langs))
			ix.langs[code] = l
		}
		ix.lang[d] = l
		site := normalizeSite(a.Site)
		s, ok := ix.sites[site]
		if !ok {
			s = int32(len(ix.siteDocs))
			ix.sites[site] = s
			ix.siteDocs = append(ix.siteDocs, nil)
		}
		ix.siteDocs[s] = append(ix.siteDocs[s], int32(d))
	}
	ix.ranked = ix.sitesByTraffic()
	for rank, st := range ix.ranked {
		for _, d := range ix.siteDocs[st.s] {
			ix.siteRank[d] = int32(rank)
		}
	}
	ix.alone = NewLayers(ix)
	return ix
}

// part is a range of documents tokenized on a goroutine of its own, with
// term ids of its own ("local" ids).
type part struct {
	lo, hi   int
	terms    []string    // by local id, in order of first appearance
	lists    []termState // by local id
	global   []int32     // by local id: the index's term id
	stream   []int32     // the local id of every token of the part, in order
	fieldLen [numFields]uint64
}

// termState is a part's bookkeeping of one term while the postings are
// built.
type termState struct {
	lastDoc  int32  // the last document the term was seen in
	lastPos  uint32 // its last position there
	postings uint32 // first pass: the part's postings of the term; second: the next posting to write
	bytes    uint32 // first pass: their position bytes; second: the next byte to write
}

// indexText builds the postings in two passes over parts of the corpus, a
// part per CPU, each on its own goroutine. The first tokenizes a part and
// counts each term's postings and position bytes; their sums place every
// part's share of each term's postings in the flat arrays, which the
// second pass fills from the part's tokens. A term's id is its rank by first
// appearance in the corpus, however the corpus is split.
func (ix *Index) indexText() {
	n := len(ix.c.Articles)
	parts := make([]part, max(1, min(runtime.GOMAXPROCS(0), n/minPart)))
	for i := range parts {
		parts[i].lo, parts[i].hi = n*i/len(parts), n*(i+1)/len(parts)
	}
	inParallel(parts, ix.scanPart)

	var postings, bytes []uint32 // by term id: the index's postings and position bytes
	for i := range parts {
		p := &parts[i]
		for f := range numFields {
			ix.fieldLen[f] += p.fieldLen[f]
		}
		for t, term := range p.terms {
			g, found := ix.terms[term]
			if !found {
				g = int32(len(postings))
				ix.terms[term] = g
				postings, bytes = append(postings, 0), append(bytes, 0)
			}
			p.global = append(p.global, g)
			postings[g] += p.lists[t].postings
			bytes[g] += p.lists[t].bytes
		}
	}
	// postings and bytes become where the next part's share of a term goes.
	ix.termStart = make([]uint32, len(postings)+1)
	var totalPostings, totalBytes uint32
	for g := range postings {
		ix.termStart[g] = totalPostings
		totalPostings, postings[g] = totalPostings+postings[g], totalPostings
		totalBytes, bytes[g] = totalBytes+bytes[g], totalBytes
	}
	ix.termStart[len(postings)] = totalPostings
	for i := range parts {
		p := &parts[i]
		for t, g := range p.global {
			l := &p.lists[t]
			l.postings, postings[g] = postings[g], postings[g]+l.postings
			l.bytes, bytes[g] = bytes[g], bytes[g]+l.bytes
			l.lastDoc = -1
		}
	}
	ix.docs = make([]int32, totalPostings)
	ix.posOff = make([]uint32, totalPostings+1)
	ix.posOff[totalPostings] = totalBytes
	ix.pos = make([]byte, totalBytes)
	inParallel(parts, ix.fillPart)
}

// minPart is the fewest documents worth a goroutine of their own.
const minPart = 2000

// inParallel runs fn on every part, each on a goroutine of its own.
func inParallel(parts []part, fn func(*part)) {
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() { fn(&parts[i]) })
	}
	wg.Wait()
}

// scanPart tokenizes the part's documents, records their field lengths,
// and counts each term's postings and position bytes.
func (ix *Index) scanPart(p *part) {
	ids := map[string]int32{} // by term: its local id
	var tk analysis.Tokenizer
	var varint [binary.MaxVarintLen32]byte
	text := 0
	for d := p.lo; d < p.hi; d++ {
		a := &ix.c.Articles[d]
		text += len(a.Title) + len(a.Description) + len(a.Body)
	}
	p.stream = make([]int32, 0, text/5) // news text has a token every six bytes or so
	for d := p.lo; d < p.hi; d++ {
		a := &ix.c.Articles[d]
		pos := uint32(0)
		for f, text := range [numFields]string{a.Title, a.Description, a.Body} {
			start := pos
			tk.Reset(text)
			for tok, ok := tk.Next(); ok; tok, ok = tk.Next() {
				t, found := ids[string(tok)]
				if !found {
					t = int32(len(p.terms))
					ids[string(tok)] = t
					p.terms = append(p.terms, string(tok))
					p.lists = append(p.lists, termState{lastDoc: -1})
				}
				l := &p.lists[t]
				delta := pos - l.lastPos
				if l.lastDoc != int32(d) {
					l.lastDoc = int32(d)
					l.postings++
					delta = pos
				}
				l.bytes += uint32(binary.PutUvarint(varint[:], uint64(delta)))
				l.lastPos = pos
				p.stream = append(p.stream, t)
				pos++
			}
			p.fieldLen[f] += uint64(pos - start)
			switch f {
			case 0:
				ix.titleEnd[d] = pos
			case 1:
				ix.descEnd[d] = pos
			case 2:
				ix.bodyLen[d] = pos - start
			}
			pos++ // the gap between fields
		}
	}
}

// fillPart writes the part's postings where indexText placed them.
func (ix *Index) fillPart(p *part) {
	stream := p.stream
	for d := p.lo; d < p.hi; d++ {
		pos := uint32(0)
		titleEnd, descEnd := ix.titleEnd[d], ix.descEnd[d]
		for _, length := range [numFields]uint32{titleEnd, descEnd - titleEnd - 1, ix.bodyLen[d]} {
			for _, t := range stream[:length] {
				l := &p.lists[t]
				delta := pos - l.lastPos
				if l.lastDoc != int32(d) {
					l.lastDoc = int32(d)
					ix.docs[l.postings] = int32(d)
					ix.posOff[l.postings] = l.bytes
					l.postings++
					delta = pos
				}
				l.bytes += uint32(binary.PutUvarint(ix.pos[l.bytes:], uint64(delta)))
				l.lastPos = pos
				pos++
			}
			stream = stream[length:]
			pos++ // the gap between fields
		}
	}
	p.stream = nil
}

// computeRanks orders the documents by ID and by date.
func (ix *Index) computeRanks() {
	arts := ix.c.Articles
	order := make([]int32, len(arts))
	for d := range order {
		order[d] = int32(d)
	}
	slices.SortFunc(order, func(x, y int32) int {
		return cmp.Or(strings.Compare(arts[x].ID, arts[y].ID), cmp.Compare(x, y))
	})
	ix.byID = slices.Clone(order)
	ix.idRank = ranks(order)
	slices.SortFunc(order, func(x, y int32) int {
		return cmp.Or(arts[y].Published.Compare(arts[x].Published), strings.Compare(arts[x].ID, arts[y].ID), cmp.Compare(x, y))
	})
	ix.dateRank = ranks(order)
}

// ranks returns, by document, its position in order.
func ranks(order []int32) []int32 {
	r := make([]int32, len(order))
	for i, d := range order {
		r[d] = int32(i)
	}
	return r
}

// FindID returns the document whose article has the given ID, by binary
// search over the documents in ID order.
func (ix *Index) FindID(id string) (int32, bool) {
	i, found := slices.BinarySearchFunc(ix.byID, id, func(d int32, id string) int {
		return strings.Compare(ix.c.Articles[d].ID, id)
	})
	if !found {
		return -1, false
	}
	return ix.byID[i], true
}

// siteTraffic is a site of the index and its traffic.
type siteTraffic struct {
	domain  string
	s       int32 // index into siteDocs
	traffic int
}

// sitesByTraffic returns the sites busiest first, ties by domain. A site's
// traffic is the highest any of its articles gives (the loader makes them
// agree; "www." variants of one domain may not).
func (ix *Index) sitesByTraffic() []siteTraffic {
	order := make([]siteTraffic, 0, len(ix.sites))
	for domain, s := range ix.sites {
		t := 0
		for _, d := range ix.siteDocs[s] {
			t = max(t, ix.c.Articles[d].Traffic)
		}
		order = append(order, siteTraffic{domain, s, t})
	}
	slices.SortFunc(order, compareSites)
	return order
}

// compareSites orders sites as traffic_rank ranks them: busiest first,
// ties by domain.
func compareSites(a, b siteTraffic) int {
	return cmp.Or(cmp.Compare(b.traffic, a.traffic), strings.Compare(a.domain, b.domain))
}

// normalizeSite reduces a site as a caller may write it ("https://www.BBC.co.uk/")
// to the domain the corpus uses ("bbc.co.uk"). Like the corpus loader, it
// drops every leading "www.", so "www.www.bbc.co.uk" is "bbc.co.uk" too.
func normalizeSite(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+len("://"):]
	}
	s = strings.TrimRight(s, "/")
	for strings.HasPrefix(s, "www.") {
		s = s[len("www."):]
	}
	return s
}
