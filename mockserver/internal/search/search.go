package search

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/internal/keyphrase"
	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

// Order is the order of search results. Both orders are total, so pages of
// one query never overlap.
type Order int

const (
	// ByRelevance orders by score descending, then article ID ascending.
	ByRelevance Order = iota
	// ByDate orders by publication time descending (newest first), then
	// article ID ascending.
	ByDate
)

// Query describes one search. Every non-zero field narrows the result.
type Query struct {
	// Text is free text. Its terms are ANDed; a "double-quoted phrase" must
	// occur as consecutive words within one field (an unbalanced quote closes
	// at the end of the text). Text without any letters or digits, such as
	// "", matches every document.
	Text string
	// KeyPhrases is a key_phrases expression (see ParseKeyPhrases) the
	// matches must satisfy; "" or only spaces means none.
	KeyPhrases string
	// Sites keeps only articles of these site domains. Comparison ignores
	// case, surrounding spaces, a scheme, every leading "www." and trailing
	// slashes; a site the corpus does not have matches nothing. Empty means
	// all.
	Sites []string
	// From and To are inclusive bounds on Article.Published; a zero time is
	// unbounded.
	From, To time.Time
	// Language keeps only articles in this ISO 639-1 code (any case); ""
	// means all.
	Language string
	// TrafficRank N keeps only articles of the top (100-N)% of sites by
	// monthly traffic, the sites ranked busiest first (ties by domain): 95
	// keeps the top 5% of sites, 0 keeps all. It is a rank percentile, not a
	// bound on Article.Traffic: with 400 sites, 90 keeps exactly 40.
	TrafficRank int
	// EncodedOnly keeps only articles for which Article.Encoded is true.
	EncodedOnly bool
	// Order is the order of the hits.
	Order Order
}

// Hit is one matching article.
type Hit struct {
	// Doc is the article's index in Corpus.Articles.
	Doc int32
	// Score is the article's BM25F relevance for the query text, >= 0; it is
	// 0 for every article when the text has no terms. It does not depend on
	// the filters or the order.
	Score float64
}

// Result is one window of a search result.
type Result struct {
	// Total is the number of matching articles.
	Total int
	// Hits are the matches at positions offset to offset+limit-1 of the
	// ordered result; nil when that window is empty.
	Hits []Hit
}

// keyPhraseRules are the mock's own rules for key_phrases, beyond the
// grammar the SDK checks too.
var keyPhraseRules = keyphrase.Rules{
	MaxLength: 4096,
	MaxDepth:  64,
	Terms:     analysis.Tokens, // a phrase is matched by its terms, as the index spells them
}

// ParseKeyPhrases parses a key_phrases expression as the mock judges it:
// the grammar of keyphrase.Check, at most 4096 characters, parentheses and
// 'not' nested at most 64 deep, and every phrase with a term of package
// analysis. Every error is a *keyphrase.SyntaxError.
func ParseKeyPhrases(s string) (*keyphrase.Expr, error) {
	return keyphrase.Parse(s, keyPhraseRules)
}

// Search runs the query and returns the hits at positions offset (from 0) to
// offset+limit-1 of its ordered result, with the total number of matches.
// A negative offset counts as 0 and a negative limit as 0. The only error is
// a malformed KeyPhrases expression, returned as a *keyphrase.SyntaxError.
func (ix *Index) Search(q Query, offset, limit int) (Result, error) {
	expr, err := parseKeyPhrases(q.KeyPhrases)
	if err != nil {
		return Result{}, err
	}
	offset, limit = max(offset, 0), max(limit, 0)
	s := getScratch(ix)
	defer s.release()
	if !s.plan(ix, &q, expr, ix.own, nil, nil, 0) {
		return Result{}, nil
	}
	k := 0
	if limit > 0 && offset < s.hi-s.lo {
		k = offset + min(limit, s.hi-s.lo-offset)
	}
	total := ix.collect(s, &q, expr, k)
	if offset >= len(s.heap) {
		return Result{Total: total}, nil
	}
	s.sortHeap()
	window := s.heap[offset : offset+min(limit, len(s.heap)-offset)]
	hits := make([]Hit, len(window))
	for i, e := range window {
		hits[i] = Hit{Doc: e.doc, Score: e.score}
		if q.Order == ByDate && len(s.ids) > 0 {
			hits[i].Score = ix.scoreSearched(s, e.doc)
		}
	}
	return Result{Total: total, Hits: hits}, nil
}

// parseKeyPhrases parses a key_phrases expression; nil for none.
func parseKeyPhrases(text string) (*keyphrase.Expr, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	return ParseKeyPhrases(text)
}

// sortHeap puts the kept matches in result order.
func (s *scratch) sortHeap() {
	slices.SortFunc(s.heap, func(x, y entry) int {
		if x.better(y) {
			return -1
		}
		return 1
	})
}

// scratches pools the working memory of searches, shared by every index
// so that a new one (an overlay of added articles) finds some at once.
var scratches sync.Pool // of *scratch

// getScratch returns working memory for a search of ix.
func getScratch(ix *Index) *scratch {
	s, _ := scratches.Get().(*scratch)
	if s == nil {
		s = &scratch{}
	}
	s.ix = ix
	return s
}

// collect walks the matches, counting them and keeping the best k in s.heap.
func (ix *Index) collect(s *scratch, q *Query, expr *keyphrase.Expr, k int) int {
	s.heap = s.heap[:0]
	score := q.Order != ByDate && len(s.ids) > 0
	ranks := ix.idRank
	if q.Order == ByDate {
		ranks = ix.dateRank
	}
	total := 0
	visit := func(d int32) {
		if !ix.accept(s, q, expr, d) {
			return
		}
		total++
		if k == 0 {
			return
		}
		e := entry{doc: d, rank: ranks[d]}
		if score {
			e.score = ix.scoreCursors(s, d)
		}
		s.push(e, k)
	}
	if len(s.lists) == 0 {
		// Newest first, so that ByDate fills its heap with the winners
		// early and rejects the rest with one comparison each.
		for d := s.hi - 1; d >= s.lo; d-- {
			visit(int32(d))
		}
		return total
	}
	driver := &s.lists[0]
	others := s.lists[1:]
next:
	for i, d := range driver.docs {
		driver.i = i
		for j := range others {
			c := &others[j]
			if !c.seek(d) {
				if c.i == len(c.docs) {
					break next
				}
				continue next
			}
		}
		visit(d)
	}
	return total
}

// accept applies the per-document filters and the phrase checks.
func (ix *Index) accept(s *scratch, q *Query, expr *keyphrase.Expr, d int32) bool {
	if s.lang >= 0 && ix.lang[d] != s.lang ||
		q.TrafficRank > 0 && !s.keptBySite(ix.siteRank[d]) ||
		q.EncodedOnly && !ix.encoded[d] {
		return false
	}
	k := 0
	for _, p := range s.phrases {
		idx := s.pidx[:0]
		for range p {
			c := &s.lists[s.phraseList[k]]
			k++
			idx = append(idx, c.base+c.i)
		}
		s.pidx = idx
		if !ix.phraseAt(s, idx) {
			return false
		}
	}
	if expr == nil {
		return true
	}
	s.doc = d
	clear(s.memo)
	return expr.Eval(s.matchKeyPhrase)
}

// dateRange returns the documents published within [from, to] as the range
// [lo, hi) of document numbers.
func (ix *Index) dateRange(from, to time.Time) (lo, hi int) { return ix.c.Window(from, to) }
