// Package search is the mock server's search engine: an in-memory inverted
// index with BM25F ranking, the request filters, both sort orders and
// paging. Terms are package analysis's; title, description and body are
// indexed with word positions. An Index is immutable and safe for
// concurrent use.
package search

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

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

// New indexes the corpus, whose articles are in Corpus.Articles's order and
// must not change.
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
		site := NormalizeSite(a.Site)
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

// termState is the bookkeeping of one term while the postings are built.
type termState struct {
	lastDoc  int32  // the last document the term was seen in
	lastPos  uint32 // its last position there
	postings uint32 // first pass: the term's postings; second: the next posting to write
	bytes    uint32 // first pass: their position bytes; second: the next byte to write
}

// indexText builds the postings in two passes: the first tokenizes, keeping
// the term ids, and counts each term's postings and bytes; the second
// writes them into the flat arrays.
func (ix *Index) indexText() {
	var states []termState // by term id
	var varint [binary.MaxVarintLen32]byte
	text := 0
	for i := range ix.c.Articles {
		a := &ix.c.Articles[i]
		text += len(a.Title) + len(a.Description) + len(a.Body)
	}
	stream := make([]int32, 0, text/5) // every token's term id; news text has a token every six bytes or so
	var tk analysis.Tokenizer
	for d := range ix.c.Articles {
		a := &ix.c.Articles[d]
		pos := uint32(0)
		for f, text := range [numFields]string{a.Title, a.Description, a.Body} {
			start := pos
			tk.Reset(text)
			for tok, ok := tk.Next(); ok; tok, ok = tk.Next() {
				t, found := ix.terms[string(tok)]
				if !found {
					t = int32(len(states))
					ix.terms[string(tok)] = t
					states = append(states, termState{lastDoc: -1})
				}
				st := &states[t]
				delta := pos - st.lastPos
				if st.lastDoc != int32(d) {
					st.lastDoc = int32(d)
					st.postings++
					delta = pos
				}
				st.bytes += uint32(binary.PutUvarint(varint[:], uint64(delta)))
				st.lastPos = pos
				stream = append(stream, t)
				pos++
			}
			ix.fieldLen[f] += uint64(pos - start)
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

	ix.termStart = make([]uint32, len(states)+1)
	var postings, bytes uint32
	for t := range states {
		st := &states[t]
		ix.termStart[t] = postings
		postings, st.postings = postings+st.postings, postings
		bytes, st.bytes = bytes+st.bytes, bytes
		st.lastDoc = -1
	}
	ix.termStart[len(states)] = postings
	ix.docs = make([]int32, postings)
	ix.posOff = make([]uint32, postings+1)
	ix.posOff[postings] = bytes
	ix.pos = make([]byte, bytes)

	for d := range ix.c.Articles {
		pos := uint32(0)
		titleEnd, descEnd := ix.titleEnd[d], ix.descEnd[d]
		for _, length := range [numFields]uint32{titleEnd, descEnd - titleEnd - 1, ix.bodyLen[d]} {
			for _, t := range stream[:length] {
				st := &states[t]
				delta := pos - st.lastPos
				if st.lastDoc != int32(d) {
					st.lastDoc = int32(d)
					ix.docs[st.postings] = int32(d)
					ix.posOff[st.postings] = st.bytes
					st.postings++
					delta = pos
				}
				st.bytes += uint32(binary.PutUvarint(ix.pos[st.bytes:], uint64(delta)))
				st.lastPos = pos
				pos++
			}
			stream = stream[length:]
			pos++ // the gap between fields
		}
	}
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

// FindID returns the document whose article has the given ID.
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

// sitesByTraffic returns the sites busiest first, ties by domain; a site's
// traffic is the highest of its articles'.
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

// NormalizeSite reduces a site as a caller may write it
// ("https://www.BBC.co.uk/") to the corpus's domain ("bbc.co.uk").
func NormalizeSite(s string) string {
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
