package search

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/newssearch/newssearch-go/mockserver/internal/blob"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// WriteSnapshot writes the index to w in the form ReadSnapshot reads. The
// corpus is not included: write it before, with Corpus.WriteSnapshot.
func (ix *Index) WriteSnapshot(w *blob.Writer) error {
	// The names of terms, languages and sites, in the order of their ids,
	// so that the bytes do not depend on the maps' iteration order.
	var cols []blob.StringColumn
	for _, m := range []map[string]int32{ix.terms, ix.langs, ix.sites} {
		names := byID(m)
		cols = append(cols, blob.StringColumn{Refs: len(names), Visit: func(f func(string, bool)) {
			for _, s := range names {
				f(s, false)
			}
		}})
	}
	if err := blob.WriteStrings(w, cols...); err != nil {
		return fmt.Errorf("search: snapshot: %w", err)
	}
	w.Uint32s(ix.termStart)
	w.Int32s(ix.docs)
	w.Uint32s(ix.posOff)
	w.Bytes8(ix.pos)
	w.Uint32s(ix.titleEnd)
	w.Uint32s(ix.descEnd)
	w.Uint32s(ix.bodyLen)
	w.Int32s(ix.idRank)
	w.Int32s(ix.dateRank)
	w.Int32s(ix.lang)
	w.Int32s(ix.siteRank)
	w.Begin(len(ix.encoded), 1)
	for _, e := range ix.encoded {
		if e {
			w.Raw("\x01")
		} else {
			w.Raw("\x00")
		}
	}
	w.End()
	w.Begin(len(ix.siteDocs)+1, 4)
	w.U32(0)
	at := 0
	for _, docs := range ix.siteDocs {
		at += len(docs)
		w.U32(uint32(at))
	}
	w.End()
	w.Begin(at, 4)
	for _, docs := range ix.siteDocs {
		for _, d := range docs {
			w.U32(uint32(d))
		}
	}
	w.End()
	return w.Err()
}

// byID returns the names of m in the order of their ids.
func byID(m map[string]int32) []string {
	names := make([]string, len(m))
	for s, id := range m {
		names[id] = s
	}
	return names
}

// errSnapshot is wrapped by every complaint about an index snapshot.
var errSnapshot = errors.New("search: index snapshot is damaged")

// ReadSnapshot reads an index written by WriteSnapshot for corpus c, which
// must be the corpus it was written with. Its arrays point into r's data,
// which must outlive the index and never change. Every bound the queries
// rely on is checked: a damaged snapshot gives an error, never a panic
// later.
func ReadSnapshot(c *corpus.Corpus, r *blob.Reader) (*Index, error) {
	table := blob.NewStringTable(r.Bytes8())
	ix := &Index{c: c}
	termRefs, langRefs, siteRefs := r.Uint32s(), r.Uint32s(), r.Uint32s()
	ix.termStart, ix.docs, ix.posOff, ix.pos = r.Uint32s(), r.Int32s(), r.Uint32s(), r.Bytes8()
	ix.titleEnd, ix.descEnd, ix.bodyLen = r.Uint32s(), r.Uint32s(), r.Uint32s()
	ix.idRank, ix.dateRank, ix.lang = r.Int32s(), r.Int32s(), r.Int32s()
	ix.siteRank = r.Int32s()
	encoded := r.Bytes8()
	siteStart, siteDocs := r.Uint32s(), r.Int32s()
	if err := r.Err(); err != nil {
		return nil, err
	}
	bad := func(what string) (*Index, error) { return nil, fmt.Errorf("%w: %s", errSnapshot, what) }
	n := len(c.Articles)
	numTerms := len(termRefs) / 2
	if len(ix.termStart) != numTerms+1 || len(ix.posOff) != len(ix.docs)+1 {
		return bad("the term columns differ in length")
	}
	if len(ix.titleEnd) != n || len(ix.descEnd) != n || len(ix.bodyLen) != n || len(ix.idRank) != n ||
		len(ix.dateRank) != n || len(ix.lang) != n || len(ix.siteRank) != n || len(encoded) != n {
		return bad(fmt.Sprintf("the document columns do not have %d entries", n))
	}
	if !blob.Ascending(ix.termStart, uint32(len(ix.docs))) || ix.termStart[0] != 0 || ix.termStart[numTerms] != uint32(len(ix.docs)) {
		return bad("the postings' starts are out of order")
	}
	if !blob.Ascending(ix.posOff, uint32(len(ix.pos))) {
		return bad("the positions' offsets are out of order")
	}
	if !inRange(ix.docs, n) || !inRange(ix.idRank, n) || !inRange(ix.dateRank, n) || !inRange(ix.siteRank, n) {
		return bad("a document number is out of range")
	}
	for t := range numTerms { // each term's documents ascend, as the merges assume
		docs := ix.termDocs(int32(t))
		for i := 1; i < len(docs); i++ {
			if docs[i] <= docs[i-1] {
				return bad(fmt.Sprintf("the documents of term %d do not ascend", t))
			}
		}
	}
	for d := range n {
		if ix.descEnd[d] <= ix.titleEnd[d] {
			return bad(fmt.Sprintf("document %d's description ends before its title", d))
		}
	}
	for _, e := range encoded {
		if e > 1 {
			return bad("an encoded flag is neither 0 nor 1")
		}
	}
	if n > 0 {
		ix.encoded = unsafe.Slice((*bool)(unsafe.Pointer(&encoded[0])), n)
	} else {
		ix.encoded = []bool{}
	}
	var err error
	ix.terms, err = nameMap(table, termRefs)
	if err != nil {
		return bad("terms: " + err.Error())
	}
	if ix.langs, err = nameMap(table, langRefs); err != nil {
		return bad("languages: " + err.Error())
	}
	if !inRange(ix.lang, len(ix.langs)) {
		return bad("a language number is out of range")
	}
	if ix.sites, err = nameMap(table, siteRefs); err != nil {
		return bad("sites: " + err.Error())
	}
	if len(siteStart) != len(ix.sites)+1 || !blob.Ascending(siteStart, uint32(len(siteDocs))) || siteStart[0] != 0 || !inRange(siteDocs, n) {
		return bad("the sites' documents are out of range")
	}
	ix.siteDocs = make([][]int32, len(ix.sites))
	for s := range ix.siteDocs {
		ix.siteDocs[s] = siteDocs[siteStart[s]:siteStart[s+1]:siteStart[s+1]]
	}
	ix.summarise()
	return ix, nil
}

// nameMap builds a name -> id map from string references in id order.
func nameMap(table blob.StringTable, refs []uint32) (map[string]int32, error) {
	if len(refs)%2 != 0 {
		return nil, errors.New("odd reference column")
	}
	m := make(map[string]int32, len(refs)/2)
	for id := range len(refs) / 2 {
		s, ok := table.Get(refs[2*id], refs[2*id+1])
		if !ok {
			return nil, fmt.Errorf("name %d lies outside the string table", id)
		}
		if _, dup := m[s]; dup {
			return nil, fmt.Errorf("name %d repeats an earlier one", id)
		}
		m[s] = int32(id)
	}
	return m, nil
}

// inRange reports whether every value is in [0, n).
func inRange(v []int32, n int) bool {
	for _, x := range v {
		if x < 0 || int(x) >= n {
			return false
		}
	}
	return true
}
