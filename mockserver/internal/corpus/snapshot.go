package corpus

import (
	"errors"
	"fmt"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/blob"
)

// Article flags in a snapshot.
const (
	snapDerived       = 1 << iota // DerivedEmbedding
	snapEntities                  // Entities is not nil
	snapRelationships             // Relationships is not nil
	snapTopics                    // Topics is not nil
)

// articleStrings counts the string fields of an Article in a snapshot.
const articleStrings = 10

// WriteSnapshot writes the corpus to w in the form ReadSnapshot reads. It
// refuses what the form does not hold: stored embedding vectors and
// publication times outside UTC (a generated corpus has neither). It streams:
// beyond a map of the strings that repeat, it holds nothing the corpus does
// not, so storing a snapshot hardly adds to a process's peak memory.
func (c *Corpus) WriteSnapshot(w *blob.Writer) error {
	n := len(c.Articles)
	var ents, rels int
	for i := range c.Articles {
		a := &c.Articles[i]
		if a.Embedding != nil {
			return fmt.Errorf("corpus: snapshot: article %s stores an embedding vector", a.ID)
		}
		if a.Published.Location() != time.UTC {
			return fmt.Errorf("corpus: snapshot: article %s is not published in UTC", a.ID)
		}
		ents += len(a.Entities)
		rels += len(a.Relationships)
	}
	lists, err := c.topicLists()
	if err != nil {
		return err
	}

	// The strings, then their references column by column.
	err = blob.WriteStrings(w,
		blob.StringColumn{Refs: articleStrings * n, Visit: func(f func(string, bool)) {
			for i := range c.Articles {
				a := &c.Articles[i]
				f(a.ID, false)
				f(a.Title, false)
				f(a.Description, false)
				f(a.Body, false)
				f(a.URL, false)
				f(a.Site, true)
				f(a.Image, false)
				f(a.Favicon, true)
				f(a.Category, true)
				f(a.Language, true)
			}
		}},
		blob.StringColumn{Refs: lists.topics, Visit: func(f func(string, bool)) {
			for _, i := range lists.first {
				for _, t := range c.Articles[i].Topics {
					f(t, true)
				}
			}
		}},
		blob.StringColumn{Refs: 3 * ents, Visit: func(f func(string, bool)) {
			for i := range c.Articles {
				for _, e := range c.Articles[i].Entities {
					f(e.Name, true)
					f(e.Type, true)
					f(e.WikidataID, true)
				}
			}
		}},
		blob.StringColumn{Refs: 3 * rels, Visit: func(f func(string, bool)) {
			for i := range c.Articles {
				for _, r := range c.Articles[i].Relationships {
					f(r.Source, true)
					f(r.Target, true)
					f(r.Relation, true)
				}
			}
		}},
		blob.StringColumn{Refs: 3 * len(c.Sites), Visit: func(f func(string, bool)) {
			for _, s := range c.Sites {
				f(s.Domain, true)
				f(s.Language, true)
				f(s.Favicon, true)
			}
		}},
		blob.StringColumn{Refs: 2 * len(c.Languages), Visit: func(f func(string, bool)) {
			for _, l := range c.Languages {
				f(l.Code, true)
				f(l.Name, true)
			}
		}},
	)
	if err != nil {
		return fmt.Errorf("corpus: snapshot: %w", err)
	}

	// The numbers, a column at a time.
	column := func(size, count int, each func(a *Article)) {
		w.Begin(count, size)
		for i := range c.Articles {
			each(&c.Articles[i])
		}
		w.End()
	}
	column(4, n, func(a *Article) { w.U32(uint32(int32(a.Traffic))) })
	column(4, n, func(a *Article) { w.U32(uint32(a.Story)) })
	column(4, n, func(a *Article) { w.U32(snapFlags(a)) })
	column(8, n, func(a *Article) { w.U64(uint64(a.Published.Unix())) })
	column(4, n, func(a *Article) { w.U32(uint32(a.Published.Nanosecond())) })
	column(8, 2*n, func(a *Article) { w.F64(a.Sentiment.Title); w.F64(a.Sentiment.Description) })
	w.Uint32s(lists.of)
	w.Begin(len(lists.first)+1, 4)
	start := 0
	for _, i := range lists.first {
		w.U32(uint32(start))
		start += len(c.Articles[i].Topics)
	}
	w.U32(uint32(start))
	w.End()
	starts := func(count func(a *Article) int) {
		w.Begin(n+1, 4)
		w.U32(0)
		at := 0
		for i := range c.Articles {
			at += count(&c.Articles[i])
			w.U32(uint32(at))
		}
		w.End()
	}
	starts(func(a *Article) int { return len(a.Entities) })
	column(8, 2*ents, func(a *Article) {
		for _, e := range a.Entities {
			w.F64(e.Sentiment)
			w.F64(e.Confidence)
		}
	})
	starts(func(a *Article) int { return len(a.Relationships) })
	column(8, rels, func(a *Article) {
		for _, r := range a.Relationships {
			w.F64(r.Confidence)
		}
	})
	w.Begin(len(c.Sites), 4)
	for _, s := range c.Sites {
		w.U32(uint32(int32(s.Traffic)))
	}
	w.End()
	return w.Err()
}

// snapFlags returns an article's flags in a snapshot.
func snapFlags(a *Article) uint32 {
	var f uint32
	if a.DerivedEmbedding {
		f |= snapDerived
	}
	if a.Entities != nil {
		f |= snapEntities
	}
	if a.Relationships != nil {
		f |= snapRelationships
	}
	if a.Topics != nil {
		f |= snapTopics
	}
	return f
}

// snapLists are the distinct topic lists of a corpus: a generated corpus
// shares one []string among the articles of an event, and a snapshot keeps
// it shared.
type snapLists struct {
	of     []uint32 // by article: its list (0 when Topics is nil)
	first  []int    // by list: the first article holding it
	topics int      // topics in all lists
}

// topicLists finds the distinct topic lists, telling them apart by their
// first element's address.
func (c *Corpus) topicLists() (snapLists, error) {
	l := snapLists{of: make([]uint32, len(c.Articles))}
	byAddr := map[*string]uint32{}
	for i := range c.Articles {
		a := &c.Articles[i]
		if a.Topics == nil {
			continue
		}
		var key *string
		if len(a.Topics) > 0 {
			key = &a.Topics[0]
		}
		id, ok := byAddr[key]
		if ok && key != nil {
			if first := c.Articles[l.first[id]].Topics; len(first) != len(a.Topics) {
				return l, fmt.Errorf("corpus: snapshot: article %s shares a topic list of another length", a.ID)
			}
		} else {
			id = uint32(len(l.first))
			l.first = append(l.first, i)
			l.topics += len(a.Topics)
			if key != nil {
				byAddr[key] = id
			}
		}
		l.of[i] = id
	}
	return l, nil
}

// errSnapshot is wrapped by every complaint about a snapshot's contents.
var errSnapshot = errors.New("corpus: snapshot is damaged")

// ReadSnapshot reads a corpus written by WriteSnapshot. Its strings point
// into r's data, which must outlive the corpus. Every offset and count is
// checked: a damaged snapshot gives an error, never a panic.
func ReadSnapshot(r *blob.Reader) (*Corpus, error) { return readSnapshot(r, nil) }

// ReadMappedSnapshot is ReadSnapshot for r's data outside the Go heap and
// never released while the corpus lives (a mapped file): it places the
// articles, their topic lists, entities and relationships outside the Go
// heap too (an anonymous mapping where the system has one), where the
// garbage collector does not scan them. Everything they point to is in r's
// data, so there is nothing for it to find: they were most of a mock
// server's live heap, and marking them was most of its collector's work
// under load. Nothing may ever store a pointer to the Go heap in them (a
// corpus is never changed once read; Vector computes derived embeddings
// without keeping them): the collector would not see it and could free what
// it points to. release frees them; the corpus must not be used afterwards.
func ReadMappedSnapshot(r *blob.Reader) (*Corpus, func(), error) {
	var frees []func()
	release := func() {
		for _, free := range frees {
			free()
		}
		frees = nil
	}
	done := false
	defer func() {
		if !done { // an error or a panic (a fault reading the mapping)
			release()
		}
	}()
	c, err := readSnapshot(r, &frees)
	if err != nil {
		return nil, nil, err
	}
	done = true
	return c, release, nil
}

// snapSlice returns n zero values of T: outside the Go heap when frees is
// not nil and the system allows it (adding the way to free them to
// frees), else made.
func snapSlice[T any](frees *[]func(), n int) []T {
	if frees != nil {
		if s, free, ok := offHeap[T](n); ok {
			*frees = append(*frees, free)
			return s
		}
	}
	return make([]T, n)
}

func readSnapshot(r *blob.Reader, frees *[]func()) (*Corpus, error) {
	table := blob.NewStringTable(r.Bytes8())
	refs, listRefs, entRefs, relRefs, siteRefs, langRefs := r.Uint32s(), r.Uint32s(), r.Uint32s(), r.Uint32s(), r.Uint32s(), r.Uint32s()
	traffic, story, flags := r.Int32s(), r.Int32s(), r.Uint32s()
	secs, nsecs := r.Int64s(), r.Int32s()
	sent := r.Float64s()
	topicList, listStart := r.Uint32s(), r.Uint32s()
	entStart, entNums := r.Uint32s(), r.Float64s()
	relStart, relNums := r.Uint32s(), r.Float64s()
	siteTraffic := r.Int32s()
	if err := r.Err(); err != nil {
		return nil, err
	}
	n := len(traffic)
	bad := func(what string) (*Corpus, error) { return nil, fmt.Errorf("%w: %s", errSnapshot, what) }
	if len(refs) != 2*articleStrings*n || len(story) != n || len(flags) != n || len(secs) != n || len(nsecs) != n ||
		len(sent) != 2*n || len(topicList) != n || len(entStart) != n+1 || len(relStart) != n+1 {
		return bad("the article columns differ in length")
	}
	if len(listRefs)%2 != 0 || len(entRefs) != 3*len(entNums) || len(relRefs) != 6*len(relNums) || len(entNums)%2 != 0 ||
		len(siteRefs) != 6*len(siteTraffic) || len(langRefs)%4 != 0 {
		return bad("the entity, relationship, site or language columns differ in length")
	}
	if !blob.Ascending(listStart, uint32(len(listRefs)/2)) || !blob.Ascending(entStart, uint32(len(entNums)/2)) || !blob.Ascending(relStart, uint32(len(relNums))) ||
		entStart[0] != 0 || relStart[0] != 0 || len(listStart) == 0 || listStart[0] != 0 {
		return bad("a start column is out of order")
	}
	var failed bool
	str := func(refs []uint32) string {
		s, ok := table.Get(refs[0], refs[1])
		failed = failed || !ok
		return s
	}
	// Topic lists, each one []string shared by its articles.
	topics := snapSlice[string](frees, len(listRefs)/2)
	for i := range topics {
		topics[i] = str(listRefs[2*i:])
	}
	ents := snapSlice[Entity](frees, len(entNums)/2)
	// Field by field: assigning whole structs would copy each through the
	// garbage collector's bulk write barrier while it marks (a third of the
	// reading time).
	for i := range ents {
		e := &ents[i]
		e.Name, e.Type, e.WikidataID = str(entRefs[6*i:]), str(entRefs[6*i+2:]), str(entRefs[6*i+4:])
		e.Sentiment, e.Confidence = entNums[2*i], entNums[2*i+1]
	}
	rels := snapSlice[Relationship](frees, len(relNums))
	for i := range rels {
		r := &rels[i]
		r.Source, r.Target, r.Relation = str(relRefs[6*i:]), str(relRefs[6*i+2:]), str(relRefs[6*i+4:])
		r.Confidence = relNums[i]
	}
	c := &Corpus{Articles: snapSlice[Article](frees, n)}
	lists := uint32(len(listStart) - 1)
	for i := range c.Articles {
		a := &c.Articles[i]
		ar := refs[2*articleStrings*i:]
		a.ID, a.Title, a.Description, a.Body, a.URL = str(ar), str(ar[2:]), str(ar[4:]), str(ar[6:]), str(ar[8:])
		a.Site, a.Image, a.Favicon, a.Category, a.Language = str(ar[10:]), str(ar[12:]), str(ar[14:]), str(ar[16:]), str(ar[18:])
		a.Traffic, a.Story = int(traffic[i]), story[i]
		a.Published = time.Unix(secs[i], int64(nsecs[i])).UTC()
		a.Sentiment = Sentiment{Title: sent[2*i], Description: sent[2*i+1]}
		f := flags[i]
		a.DerivedEmbedding = f&snapDerived != 0
		if f&snapTopics != 0 {
			l := topicList[i]
			if l >= lists {
				return bad(fmt.Sprintf("article %d names topic list %d of %d", i, l, lists))
			}
			a.Topics = topics[listStart[l]:listStart[l+1]:listStart[l+1]]
		}
		if f&snapEntities != 0 {
			a.Entities = ents[entStart[i]:entStart[i+1]:entStart[i+1]]
		}
		if f&snapRelationships != 0 {
			a.Relationships = rels[relStart[i]:relStart[i+1]:relStart[i+1]]
		}
	}
	c.Sites = make([]Site, len(siteTraffic))
	for i := range c.Sites {
		c.Sites[i] = Site{Domain: str(siteRefs[6*i:]), Language: str(siteRefs[6*i+2:]), Favicon: str(siteRefs[6*i+4:]), Traffic: int(siteTraffic[i])}
	}
	c.Languages = make([]Language, len(langRefs)/4)
	for i := range c.Languages {
		c.Languages[i] = Language{Code: str(langRefs[4*i:]), Name: str(langRefs[4*i+2:])}
	}
	if failed {
		return bad("a string lies outside the string table")
	}
	return c, nil
}
