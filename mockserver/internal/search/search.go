package search

import (
	"strings"
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
	// Text is free text whose terms are ANDed; a "quoted phrase" must occur
	// within one field (an unbalanced quote closes at the end). Text
	// without a letter or digit matches every document.
	Text string
	// KeyPhrases is a key_phrases expression (see ParseKeyPhrases) the
	// matches must satisfy; "" or only spaces means none.
	KeyPhrases string
	// Sites keeps only articles of these domains (ignoring case, spaces, a
	// scheme, leading "www." and trailing slashes); empty means all.
	Sites []string
	// From and To are inclusive bounds on Article.Published; a zero time is
	// unbounded.
	From, To time.Time
	// Language keeps only articles in this ISO 639-1 code (any case); ""
	// means all.
	Language string
	// TrafficRank N keeps only articles of the top (100-N)% of sites by
	// traffic (ties by domain): with 400 sites, 90 keeps exactly 40.
	TrafficRank int
	// EncodedOnly keeps only articles for which Article.Encoded is true.
	EncodedOnly bool
	// Order is the order of the hits.
	Order Order
}

// Hit is one matching article.
type Hit struct {
	// Doc is the article's index in Corpus.Articles (for Layers, its
	// number through the layers).
	Doc int32
	// Score is the article's BM25F relevance for the query text, >= 0 (0
	// without terms), whatever the filters and order.
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

// ParseKeyPhrases parses a key_phrases expression under keyPhraseRules.
// Every error is a *keyphrase.SyntaxError.
func ParseKeyPhrases(s string) (*keyphrase.Expr, error) {
	return keyphrase.Parse(s, keyPhraseRules)
}

// Search returns the hits at positions offset to offset+limit-1 (negative
// counts as 0) of the query's result, and the total. The only error is a
// malformed KeyPhrases, a *keyphrase.SyntaxError.
func (ix *Index) Search(q Query, offset, limit int) (Result, error) {
	return ix.alone.Search(q, offset, limit)
}

// Search runs the query over all layers as Index.Search does over one
// index; Hit.Doc numbers documents through the layers.
func (l *Layers) Search(q Query, offset, limit int) (Result, error) {
	var expr *keyphrase.Expr
	if strings.TrimSpace(q.KeyPhrases) != "" {
		var err error
		if expr, err = ParseKeyPhrases(q.KeyPhrases); err != nil {
			return Result{}, err
		}
	}
	offset, limit = max(offset, 0), max(limit, 0)
	text, ok := l.analyse(q.Text)
	if !ok {
		return Result{}, nil
	}
	var plans []*plan
	inRange := 0
	for i := range l.ixs {
		if p := l.plan(i, &q, text, expr); p != nil {
			plans = append(plans, p)
			inRange += p.hi - p.lo
		}
	}
	// Each layer keeps its best matches up to the window's end.
	need := 0
	if limit > 0 && offset < inRange {
		need = offset + min(limit, inRange-offset)
	}
	total, kept := 0, 0
	for _, p := range plans {
		total += p.collect(&q, expr, min(need, p.hi-p.lo))
		kept += len(p.heap)
	}
	if offset >= kept {
		return Result{Total: total}, nil
	}
	hits := make([]Hit, 0, min(limit, kept-offset))
	for n := 0; len(hits) < cap(hits); n++ {
		var best *plan // the layer whose next match comes first
		for _, p := range plans {
			if len(p.heap) > 0 && (best == nil || before(q.Order, p, best)) {
				best = p
			}
		}
		e := best.heap[0]
		best.heap = best.heap[1:]
		if n < offset {
			continue
		}
		h := Hit{Doc: l.starts[best.layer] + e.doc, Score: e.score}
		if q.Order == ByDate && len(best.ids) > 0 {
			h.Score = best.score(e.doc)
		}
		hits = append(hits, h)
	}
	return Result{Total: total, Hits: hits}, nil
}

// before reports whether the next match of layer x comes before layer y's
// in the result order.
func before(order Order, x, y *plan) bool {
	ex, ey := x.heap[0], y.heap[0]
	a, b := &x.ix.c.Articles[ex.doc], &y.ix.c.Articles[ey.doc]
	if order == ByDate {
		if c := b.Published.Compare(a.Published); c != 0 {
			return c < 0
		}
	} else if ex.score != ey.score {
		return ex.score > ey.score
	}
	return a.ID < b.ID
}
