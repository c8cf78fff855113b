package corpus

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// EmbeddingSize is the number of dimensions of the vectors Embed returns.
const EmbeddingSize = 64

// embedSeed seeds the random projection behind Embed. Changing it changes
// every vector of every corpus, so it is fixed.
const embedSeed = 0x5eed0f3e11a5c0de

// Embed returns a deterministic embedding of text: a vector of EmbeddingSize
// float32 values with unit L2 norm. Every token of text (see ScanTokens) is
// hashed to a pseudo-random ±1 direction and the directions are summed, a
// hashed bag of words under a seeded random projection, so texts that share
// many words get vectors with a high cosine similarity and unrelated texts get
// vectors close to orthogonal. Text without a single token yields the zero
// vector.
func Embed(text string) []float32 { return embedParts(text) }

// embedParts embeds the concatenation of parts, each a separate run of
// tokens, without building the concatenation.
//
// Each token's hash adds its bits to 64 per-dimension counts. The counts are
// kept eight to a word, one byte each (bitLanes spreads a byte of the hash
// over the bytes of a word), and moved to int32 counts before a byte can
// overflow, so a token costs eight additions instead of 64.
func embedParts(parts ...string) []float32 {
	var counts [EmbeddingSize]int32
	var lanes [EmbeddingSize / 8]uint64
	var total, pending int32
	drain := func() {
		for j, l := range lanes {
			for k := range 8 {
				counts[8*j+k] += int32(l >> (8 * k) & 0xff)
			}
			lanes[j] = 0
		}
		pending = 0
	}
	for _, p := range parts {
		scanWords(p, func(_ []byte, fnv uint64, _ bool) {
			h := mix64(fnv ^ embedSeed)
			for j := range lanes {
				lanes[j] += bitLanes[byte(h>>(8*j))]
			}
			total++
			if pending++; pending == 255 {
				drain()
			}
		})
	}
	drain()
	v := make([]float32, EmbeddingSize)
	var norm float64
	for i, c := range counts {
		x := float64(2*c - total) // ones minus zeros: the sum of ±1 terms
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

// bitLanes maps a byte to a word whose byte k is bit k of the byte.
var bitLanes = func() (t [256]uint64) {
	for x := range t {
		for k := range 8 {
			t[x] |= uint64(x>>k&1) << (8 * k)
		}
	}
	return t
}()

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
	scanWords(text, func(tok []byte, _ uint64, namelike bool) { fn(tok, namelike) })
}

// scanWords is ScanWords that also hands fn the token's FNV-1a hash, which
// it computes anyway to look the token up among the stop words.
func scanWords(text string, fn func(tok []byte, fnv uint64, namelike bool)) {
	var arr [64]byte
	buf := arr[:0]
	runes := 0
	capital, digit := false, false
	sentenceStart := true
	flush := func() {
		if runes == 0 {
			return
		}
		if runes > 1 {
			h := fnv1a(buf)
			if !stopWords.has(buf, h) {
				fn(buf, h, digit || capital && !sentenceStart)
			}
		}
		buf, runes = buf[:0], 0
		capital, digit, sentenceStart = false, false, false
	}
	for i := 0; i < len(text); {
		b := text[i]
		if b < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= b && b <= 'z':
				buf = append(buf, b)
			case '0' <= b && b <= '9':
				buf = append(buf, b)
				digit = true
			case 'A' <= b && b <= 'Z':
				buf = append(buf, b+'a'-'A')
				capital = capital || runes == 0
			default:
				flush()
				if b == '.' || b == '!' || b == '?' || b == ':' {
					sentenceStart = true
				}
				continue
			}
			runes++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			capital = capital || runes == 0 && unicode.IsUpper(r)
			digit = digit || unicode.IsDigit(r)
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			runes++
		} else {
			flush()
		}
	}
	flush()
}

// stopWords are function words of the corpus languages that carry no
// topic (data/stopwords.txt).
var stopWords = func() *wordSet {
	var words []string
	for _, line := range dataLines("data/stopwords.txt") {
		words = append(words, strings.Fields(line)...)
	}
	return newWordSet(words)
}()

// wordSet is a fixed set of short words, looked up by their FNV-1a hash:
// an open-addressing table, faster than a map for the many short tokens a
// corpus is scanned for.
type wordSet struct {
	slots  []wordSlot // a power of two, at most half full
	maxLen int        // the longest word, in bytes
}

// wordSlot is one entry of a wordSet; word is "" in an empty slot.
type wordSlot struct {
	hash uint64
	word string
}

// newWordSet returns the set of words.
func newWordSet(words []string) *wordSet {
	size := 16
	for size < 2*len(words) {
		size *= 2
	}
	ws := &wordSet{slots: make([]wordSlot, size)}
	for _, w := range words {
		h := fnv1a([]byte(w))
		if ws.has([]byte(w), h) {
			continue
		}
		i := h & uint64(size-1)
		for ws.slots[i].word != "" {
			i = (i + 1) & uint64(size-1)
		}
		ws.slots[i] = wordSlot{h, w}
		ws.maxLen = max(ws.maxLen, len(w))
	}
	return ws
}

// has reports whether tok, whose FNV-1a hash is h, is in the set.
func (ws *wordSet) has(tok []byte, h uint64) bool {
	if len(tok) > ws.maxLen {
		return false
	}
	mask := uint64(len(ws.slots) - 1)
	for i := h & mask; ws.slots[i].word != ""; i = (i + 1) & mask {
		if ws.slots[i].hash == h && ws.slots[i].word == string(tok) {
			return true
		}
	}
	return false
}
