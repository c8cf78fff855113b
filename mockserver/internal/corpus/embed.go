package corpus

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// EmbeddingSize is the number of dimensions of an embedding.
const EmbeddingSize = 64

// embedSeed seeds the random projection behind embedParts. Changing it changes
// every vector of every corpus, so it is fixed.
const embedSeed = 0x5eed0f3e11a5c0de

// embedParts returns a deterministic embedding of the concatenation of
// parts, each a separate run of tokens: a vector of EmbeddingSize float32
// values with unit L2 norm. Every token (see ScanTokens) is hashed to a
// pseudo-random ±1 direction and the directions are summed, a hashed bag of
// words under a seeded random projection, so texts that share many words
// get vectors with a high cosine similarity and unrelated texts get vectors
// close to orthogonal. Text without a single token yields the zero vector.
func embedParts(parts ...string) []float32 {
	var ones [EmbeddingSize]int // by dimension: the tokens whose hash has that bit set
	total := 0
	for _, p := range parts {
		ScanTokens(p, func(tok []byte) {
			h := tokenHash(tok)
			for i := range ones {
				ones[i] += int(h >> i & 1)
			}
			total++
		})
	}
	v := make([]float32, EmbeddingSize)
	var norm float64
	for i, n := range ones {
		x := float64(2*n - total) // ones minus zeros: the sum of ±1 terms
		v[i] = float32(x)
		norm += x * x
	}
	if norm == 0 {
		return v
	}
	inv := 1 / math.Sqrt(norm)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
	return v
}

// tokenHash hashes a token (FNV-1a, then a SplitMix64 finaliser for well-mixed
// bits) under embedSeed.
func tokenHash(tok []byte) uint64 { return mix64(fnv1a(tok) ^ embedSeed) }

// fnv1a is the 64-bit FNV-1a hash of b.
func fnv1a(b []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	return h
}

// ScanTokens calls fn for every token of text, in order. A token is a maximal
// run of Unicode letters, digits and combining marks, lower-cased; tokens of a
// single character and common function words of the corpus languages ("the",
// "de", "und", ...) are skipped. tok is only valid during the call; copy it
// (string(tok)) to keep it.
func ScanTokens(text string, fn func(tok []byte)) {
	ScanWords(text, func(tok []byte, _ bool) { fn(tok) })
}

// ScanWords calls fn for every token of text as ScanTokens does, and also
// tells whether the token looks like part of a name or a figure: it holds a
// digit, or it was written with a leading capital letter where no sentence
// begins (sentences begin at the start of text and after '.', '!', '?' and
// ':'). "Toronto" in "Cases rise in Toronto" is name-like; "Cases" is not.
func ScanWords(text string, fn func(tok []byte, namelike bool)) {
	var buf []byte
	runes := 0
	capital, digit := false, false
	sentenceStart := true
	flush := func() {
		if runes > 1 && !stopWords[string(buf)] {
			fn(buf, digit || capital && !sentenceStart)
		}
		if runes > 0 {
			buf, runes = buf[:0], 0
			capital, digit, sentenceStart = false, false, false
		}
	}
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			capital = capital || runes == 0 && unicode.IsUpper(r)
			digit = digit || unicode.IsDigit(r)
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			runes++
			continue
		}
		flush()
		if r == '.' || r == '!' || r == '?' || r == ':' {
			sentenceStart = true
		}
	}
	flush()
}

// stopWords are function words of the corpus languages that carry no
// topic (data/stopwords.txt).
var stopWords = func() map[string]bool {
	words := map[string]bool{}
	for _, line := range dataLines("data/stopwords.txt") {
		for _, w := range strings.Fields(line) {
			words[w] = true
		}
	}
	return words
}()
