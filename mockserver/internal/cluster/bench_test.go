package cluster

import (
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// recent returns the articles of c published within d of its newest one.
func recent(c *corpus.Corpus, d time.Duration) []int32 {
	cut := c.Newest().Add(-d)
	var docs []int32
	for i := len(c.Articles) - 1; i >= 0 && c.Articles[i].Published.After(cut); i-- {
		docs = append(docs, int32(i))
	}
	return docs
}

func benchmarkBuild(b *testing.B, c *corpus.Corpus, d time.Duration) {
	docs := recent(c, d)
	b.ReportMetric(float64(len(docs)), "docs")
	b.ResetTimer()
	for b.Loop() {
		Build(c, docs)
	}
}

func BenchmarkBuild48h(b *testing.B) { benchmarkBuild(b, corpus.Default(), 48*time.Hour) }
func BenchmarkBuild7d(b *testing.B)  { benchmarkBuild(b, corpus.Default(), 7*24*time.Hour) }
func BenchmarkBuild48hX5(b *testing.B) {
	cfg := corpus.DefaultConfig()
	cfg.Articles *= 5
	benchmarkBuild(b, corpus.Generate(cfg), 48*time.Hour)
}
func BenchmarkBuild7dX5(b *testing.B) {
	cfg := corpus.DefaultConfig()
	cfg.Articles *= 5
	benchmarkBuild(b, corpus.Generate(cfg), 7*24*time.Hour)
}
