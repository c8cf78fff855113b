package corpus

import (
	"bytes"
	"io"
	"testing"
)

func BenchmarkGenerateDefault(b *testing.B) {
	for b.Loop() {
		Generate(DefaultConfig())
	}
}

// BenchmarkGenerateX5 builds the five times larger corpus the search
// benchmarks use.
func BenchmarkGenerateX5(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Articles *= 5
	for b.Loop() {
		Generate(cfg)
	}
}

func BenchmarkWriteJSONL(b *testing.B) {
	c := Default()
	for b.Loop() {
		if err := WriteJSONL(io.Discard, c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadJSONL(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, Default()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := LoadJSONL(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmbed(b *testing.B) {
	a := Default().Articles[0]
	text := a.Title + " " + a.Description + " " + a.Body
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Embed(text)
	}
}
