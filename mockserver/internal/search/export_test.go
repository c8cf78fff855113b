package search

import "github.com/newssearch/newssearch-go/mockserver/internal/corpus"

// Corpus returns the indexed corpus.
func (ix *Index) Corpus() *corpus.Corpus { return ix.c }

// Article returns the article of document doc.
func (l *Layers) Article(doc int32) *corpus.Article {
	i, d := l.Locate(doc)
	return &l.ixs[i].c.Articles[d]
}
