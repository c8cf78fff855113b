package corpus

import (
	"math"
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
func embedParts(parts ...string) []float32 {
	var counts [EmbeddingSize]int32
	var total int32
	add := func(tok []byte) {
		h := tokenHash(tok)
		total++
		for i := range counts {
			counts[i] += int32(h >> uint(i) & 1)
		}
	}
	for _, p := range parts {
		ScanTokens(p, add)
	}
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

// tokenHash hashes a token (FNV-1a, then a SplitMix64 finaliser for well-mixed
// bits) under embedSeed.
func tokenHash(tok []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, b := range tok {
		h ^= uint64(b)
		h *= 0x100000001b3
	}
	return mix64(h ^ embedSeed)
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
			if _, stop := stopWords[string(buf)]; !stop {
				fn(buf, digit || capital && !sentenceStart)
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

// stopWords are function words of the corpus languages that carry no topic.
var stopWords = func() map[string]struct{} {
	words := []string{
		// English
		"the", "an", "of", "to", "in", "on", "for", "and", "or", "is", "are", "was", "were", "be", "been",
		"by", "with", "at", "as", "from", "that", "this", "it", "its", "has", "have", "had", "will", "would",
		"after", "over", "into", "than", "but", "not", "their", "they", "his", "her", "he", "she", "who",
		"which", "about", "more", "also", "could", "can", "up", "out",
		// Spanish
		"el", "la", "los", "las", "de", "del", "en", "un", "una", "por", "para", "con", "que", "se", "su",
		"sus", "al", "es", "lo", "como", "más", "tras", "sobre", "ha", "han",
		// French
		"le", "les", "des", "du", "une", "et", "au", "aux", "pour", "par", "sur", "avec", "qui", "est",
		"dans", "son", "sa", "ses", "ce", "cette", "après", "plus", "il", "elle", "ont", "pas",
		// German
		"der", "die", "das", "den", "dem", "ein", "eine", "einen", "einem", "und", "im", "zu", "mit", "von",
		"für", "auf", "ist", "nach", "bei", "aus", "am", "sich", "nicht", "auch", "wird", "hat", "vor",
		// Italian
		"il", "gli", "di", "della", "dello", "dei", "delle", "per", "nel", "nella", "alla", "da", "ed",
		"che", "sul", "sulla", "dopo", "ha", "sono", "si",
		// Portuguese
		"os", "as", "do", "da", "dos", "das", "em", "no", "na", "nos", "um", "uma", "com", "ao", "após",
		"mais", "foi", "seu", "sua",
		// Dutch
		"het", "een", "en", "van", "op", "te", "voor", "met", "aan", "bij", "naar", "dat", "om", "door",
		"zijn", "wordt", "na", "ook",
		// Swedish
		"och", "på", "ett", "att", "av", "för", "med", "som", "till", "det", "är", "om", "från", "efter",
		"har", "vid", "sin", "sitt",
	}
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}()
