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
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

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

	// own holds the figures of this index searched alone; Layers combines
	// those of several (see stats).
	own *stats
	sum layerSum

	idRank   []int32 // by doc: rank in ID order
	dateRank []int32 // by doc: rank in ByDate order (Published desc, ID asc)

	lang  []int32 // by doc: index into langs
	langs map[string]int32
	// siteRank is, by doc, its site's position among all sites ordered by
	// traffic (busiest first, ties by domain): the percentile traffic_rank
	// filters on is this rank, never the raw traffic value.
	siteRank []int32
	encoded  []bool
	sites    map[string]int32 // domain -> index into siteDocs
	siteDocs [][]int32        // ascending docs of each site

	// Made on first use, for Layers and FindID.
	ranked atomic.Pointer[[]siteTraffic] // the sites in siteRank order
	byID   atomic.Pointer[[]int32]       // the documents in ID order
}

// termDocs returns the ascending documents of term t.
func (ix *Index) termDocs(t int32) []int32 { return ix.docs[ix.termStart[t]:ix.termStart[t+1]] }

// positions returns the encoded positions of posting i.
func (ix *Index) positions(i int) []byte { return ix.pos[ix.posOff[i]:ix.posOff[i+1]] }

// New indexes the corpus. Its articles must be in the order Corpus.Articles
// documents (Published, then ID, ascending), and it must not change
// afterwards.
func New(c *corpus.Corpus) *Index { return build(c, runtime.GOMAXPROCS(0)) }

// build indexes the corpus using up to workers goroutines; the result does
// not depend on workers.
func build(c *corpus.Corpus, workers int) *Index {
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
	lengths := make([]uint32, numFields*n)
	ix.indexText(lengths, workers)
	for d := range n {
		ix.bodyLen[d] = lengths[numFields*d+2]
	}
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
	ix.rankSites()
	ix.summarise()
	return ix
}

// rankSites orders the sites by traffic, busiest first and ties by domain,
// and gives every document its site's position in that order.
func (ix *Index) rankSites() {
	for rank, st := range ix.sitesByTraffic() {
		for _, d := range ix.siteDocs[st.s] {
			ix.siteRank[d] = int32(rank)
		}
	}
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

// Corpus returns the indexed corpus.
func (ix *Index) Corpus() *corpus.Corpus { return ix.c }

// termState is one term's bookkeeping while the postings are built.
type termState struct {
	lastDoc int32  // the last document the term was seen in
	lastPos uint32 // its last position there
	count   uint32 // first pass: postings; second: the next posting to write
	bytes   uint32 // first pass: position bytes; second: the next byte to write
}

// chunk is a contiguous range of documents that one goroutine indexes with
// its own term ids ("local" ids).
type chunk struct {
	lo, hi int
	dict   termTable
	terms  []string    // by local id
	states []termState // by local id
	stream [][]uint16  // the local term id of every position, gaps left out, in blocks (see appendID)
	global []int32     // by local id: the global term id
}

// indexText builds the postings and records each field's length in terms.
// Chunks of documents are tokenized in parallel; their term ids are then
// merged in chunk order, so a term's id is its rank by first appearance in
// the corpus whatever the chunking; finally every chunk writes its share of
// the flat, exactly sized posting arrays in parallel.
func (ix *Index) indexText(lengths []uint32, workers int) {
	n := len(ix.c.Articles)
	workers = max(1, min(workers, n/minChunk))
	chunks := make([]chunk, workers)
	for w := range chunks {
		chunks[w] = chunk{lo: n * w / workers, hi: n * (w + 1) / workers}
	}
	parallel(chunks, func(c *chunk) { ix.scanChunk(c, lengths) })

	// Merge: global ids, list sizes, and where each chunk writes.
	var counts, bytes []uint32
	for w := range chunks {
		c := &chunks[w]
		c.global = make([]int32, len(c.terms))
		for l, term := range c.terms {
			g, found := ix.terms[term]
			if !found {
				g = int32(len(counts))
				ix.terms[term] = g
				counts = append(counts, 0)
				bytes = append(bytes, 0)
			}
			c.global[l] = g
			counts[g] += c.states[l].count
			bytes[g] += c.states[l].bytes
		}
		c.dict = termTable{}
	}
	numTerms := len(counts)
	ix.termStart = make([]uint32, numTerms+1)
	var postings, posBytes uint32
	for t := range numTerms {
		ix.termStart[t] = postings
		postings += counts[t]
		counts[t] = ix.termStart[t] // now the next posting to hand out
		bytes[t], posBytes = posBytes, posBytes+bytes[t]
	}
	ix.termStart[numTerms] = postings
	for w := range chunks {
		c := &chunks[w]
		for l, g := range c.global {
			st := &c.states[l]
			st.count, counts[g] = counts[g], counts[g]+st.count
			st.bytes, bytes[g] = bytes[g], bytes[g]+st.bytes
			st.lastDoc = -1
		}
	}
	ix.docs = make([]int32, postings)
	ix.posOff = make([]uint32, postings+1)
	ix.posOff[postings] = posBytes
	ix.pos = make([]byte, posBytes)
	parallel(chunks, func(c *chunk) { ix.fillChunk(c, lengths) })
}

// minChunk is the fewest documents worth a goroutine of their own.
const minChunk = 2000

// parallel runs fn on every chunk, each in its own goroutine.
func parallel(chunks []chunk, fn func(*chunk)) {
	if len(chunks) == 1 { // a small index (of added articles): no goroutine to wait for
		fn(&chunks[0])
		return
	}
	var wg sync.WaitGroup
	for w := range chunks {
		wg.Go(func() { fn(&chunks[w]) })
	}
	wg.Wait()
}

// streamBlock is the size of the blocks of a chunk's term id stream; blocks
// spare the copying of one ever-growing slice.
const streamBlock = 1 << 16

// idEscape starts a term id too large for one uint16 in a chunk's stream:
// the id follows in two more (high half first). A chunk of news text rarely
// has that many distinct words, so the stream, alive while the postings
// are written and so part of the first New's peak memory, takes half the
// space of int32 ids.
const idEscape = 0xffff

// appendID appends a term id to a stream block, escaped if need be; the
// caller leaves room for three values.
func appendID(block []uint16, id int32) []uint16 {
	if id < idEscape {
		return append(block, uint16(id))
	}
	return append(block, idEscape, uint16(id>>16), uint16(id))
}

// nextID reads the term id at the start of a stream block and returns the
// rest of the block.
func nextID(block []uint16) (int32, []uint16) {
	if block[0] != idEscape {
		return int32(block[0]), block[1:]
	}
	return int32(block[1])<<16 | int32(block[2]), block[3:]
}

// scanChunk tokenizes the chunk's documents, assigning local term ids and
// counting each term's postings and position bytes.
func (ix *Index) scanChunk(c *chunk, lengths []uint32) {
	var tk analysis.Tokenizer
	// A chunk of few articles (an overlay of added ones) needs less than a
	// block: a term takes a byte and a separator at least.
	text := 0
	for d := c.lo; d < c.hi && text < 2*streamBlock; d++ {
		a := &ix.c.Articles[d]
		text += len(a.Title) + len(a.Description) + len(a.Body) + numFields
	}
	block := make([]uint16, 0, min(streamBlock, text/2+3))
	for d := c.lo; d < c.hi; d++ {
		a := &ix.c.Articles[d]
		doc := int32(d)
		pos := uint32(0)
		for f, text := range [numFields]string{a.Title, a.Description, a.Body} {
			start := pos
			tk.Reset(text)
			for tok, ok := tk.Next(); ok; tok, ok = tk.Next() {
				id, slot := c.dict.find(tok, c.terms)
				if id < 0 {
					id = int32(len(c.states))
					term := string(tok)
					c.dict.insert(slot, id)
					c.terms = append(c.terms, term)
					c.states = append(c.states, termState{lastDoc: -1})
				}
				st := &c.states[id]
				if st.lastDoc != doc {
					st.lastDoc = doc
					st.count++
					st.bytes += uvarintLen(pos)
				} else {
					st.bytes += uvarintLen(pos - st.lastPos)
				}
				st.lastPos = pos
				if cap(block)-len(block) < 3 { // an escaped id is never split
					c.stream = append(c.stream, block)
					block = make([]uint16, 0, streamBlock)
				}
				block = appendID(block, id)
				pos++
			}
			lengths[numFields*d+f] = pos - start
			pos++ // the gap between fields
		}
	}
	c.stream = append(c.stream, block)
}

// fillChunk writes the chunk's postings where the merge placed them.
func (ix *Index) fillChunk(c *chunk, lengths []uint32) {
	var block []uint16
	blocks := c.stream
	for d := c.lo; d < c.hi; d++ {
		doc := int32(d)
		pos := uint32(0)
		for f := range numFields {
			for range lengths[numFields*d+f] {
				if len(block) == 0 {
					block, blocks = blocks[0], blocks[1:]
				}
				var id int32
				id, block = nextID(block)
				st := &c.states[id]
				delta := pos - st.lastPos
				if st.lastDoc != doc {
					st.lastDoc = doc
					ix.docs[st.count] = doc
					ix.posOff[st.count] = st.bytes
					st.count++
					delta = pos
				}
				st.bytes += uint32(binary.PutUvarint(ix.pos[st.bytes:], uint64(delta)))
				st.lastPos = pos
				pos++
			}
			switch f {
			case 0:
				ix.titleEnd[d] = pos
			case 1:
				ix.descEnd[d] = pos
			}
			pos++
		}
	}
	c.stream = nil
}

// termTable maps a chunk's terms to their local ids: open addressing on an
// FNV-1a hash, with the terms themselves kept by the chunk (by local id).
// It does the work of a map[string]int32 in about half the time for the
// short words of news text, which matters because every word of the corpus
// is looked up once while the first New waits.
type termTable struct {
	slots []termSlot // a power of two, at most three quarters full; empty: id < 0
	used  int
}

// termSlot is one entry of a termTable.
type termSlot struct {
	hash uint32
	id   int32
}

// termPlace is where find found no term: the empty slot insert fills and
// the hash it stores there.
type termPlace struct {
	slot int
	hash uint32
}

// find returns the id of tok among terms, or -1 and the place insert takes.
func (t *termTable) find(tok []byte, terms []string) (int32, termPlace) {
	if len(t.slots) == 0 {
		t.grow()
	}
	h := uint32(2166136261)
	for _, c := range tok {
		h ^= uint32(c)
		h *= 16777619
	}
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.id < 0 {
			return -1, termPlace{i, h}
		}
		if s.hash == h && terms[s.id] == string(tok) {
			return s.id, termPlace{}
		}
	}
}

// insert stores id at the place find returned for its term; find must have
// been the table's last call.
func (t *termTable) insert(at termPlace, id int32) {
	t.slots[at.slot] = termSlot{at.hash, id}
	t.used++
	if 4*t.used > 3*len(t.slots) {
		t.grow()
	}
}

// grow doubles the table (or makes its first one).
func (t *termTable) grow() {
	old := t.slots
	t.slots = make([]termSlot, max(1024, 2*len(old)))
	for i := range t.slots {
		t.slots[i].id = -1
	}
	mask := len(t.slots) - 1
	for _, s := range old {
		if s.id < 0 {
			continue
		}
		i := int(s.hash) & mask
		for t.slots[i].id >= 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// uvarintLen is the encoded length of v.
func uvarintLen(v uint32) uint32 {
	n := uint32(1)
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// computeRanks orders the documents by ID and by date.
func (ix *Index) computeRanks() {
	arts := ix.c.Articles
	n := len(arts)
	order := make([]int32, n)
	for d := range order {
		order[d] = int32(d)
	}
	ix.idRank = make([]int32, n)
	slices.SortFunc(order, func(x, y int32) int {
		if c := strings.Compare(arts[x].ID, arts[y].ID); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	for r, d := range order {
		ix.idRank[d] = int32(r)
	}
	ix.dateRank = make([]int32, n)
	slices.SortFunc(order, func(x, y int32) int {
		if c := arts[y].Published.Compare(arts[x].Published); c != 0 {
			return c
		}
		if c := strings.Compare(arts[x].ID, arts[y].ID); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	for r, d := range order {
		ix.dateRank[d] = int32(r)
	}
}

// logIDF is the BM25 inverse document frequency of a term found in df of
// total documents; it is always positive.
func logIDF(total, df float64) float64 {
	return math.Log(1 + (total-df+0.5)/(df+0.5))
}
