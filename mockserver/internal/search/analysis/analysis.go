// Package analysis turns text into index terms. The search index, free-text
// queries and key_phrases expressions all use it, so a word is spelled the
// same way wherever it is looked up.
//
// The rules, in order:
//   - A term is a maximal run of letters and digits (Unicode categories L and
//     N, plus spacing combining marks); everything else separates terms.
//   - Letters are lower-cased.
//   - Common Latin diacritics are folded to their base letter ("café" becomes
//     "cafe", "Straße" becomes "strasse", "œuvre" becomes "oeuvre"); non-spacing
//     marks are dropped, so decomposed accents fold too.
//   - There is no stemming and there are no stop words: "cars" does not find
//     "car", and every word of a query must be present.
package analysis

import (
	"unicode"
	"unicode/utf8"
)

// Tokenizer splits a string into terms without allocating per term. The zero
// value is ready to use after Reset; a Tokenizer is not safe for concurrent use.
type Tokenizer struct {
	s   string
	i   int
	buf []byte
}

// Reset makes the tokenizer read s from its beginning.
func (t *Tokenizer) Reset(s string) {
	t.s = s
	t.i = 0
}

// Next returns the next term of the text and true, or nil and false at the
// end. The returned bytes are only valid until the next call.
func (t *Tokenizer) Next() ([]byte, bool) {
	buf := t.buf[:0]
	s, i := t.s, t.i
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				buf = append(buf, c)
				continue
			case 'A' <= c && c <= 'Z':
				buf = append(buf, c+'a'-'A')
				continue
			}
			if len(buf) > 0 {
				break
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) {
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mc, r) {
			buf = appendFolded(buf, r)
			continue
		}
		if len(buf) > 0 {
			break
		}
	}
	t.s, t.i, t.buf = s, i, buf
	return buf, len(buf) > 0
}

// Tokens returns the terms of s in order.
func Tokens(s string) []string {
	var t Tokenizer
	t.Reset(s)
	var out []string
	for {
		tok, ok := t.Next()
		if !ok {
			return out
		}
		out = append(out, string(tok))
	}
}

// HasTerm reports whether s has at least one term: whether Tokens(s) would
// be non-empty.
func HasTerm(s string) bool {
	var t Tokenizer
	t.Reset(s)
	_, ok := t.Next()
	return ok
}

// latin1 holds the base letters of U+00E0..U+00FF; '#' marks the letters
// that fold to two letters and '-' the one that is not a letter.
const latin1 = "aaaaaa#ceeeeiiiidnooooo-ouuuuy#y"

// latinExtA holds the base letters of U+0100..U+017F, upper and lower case;
// '#' marks the ligatures that fold to two letters.
const latinExtA = "aaaaaaccccccccdd" + "ddeeeeeeeeeegggg" + "gggghhhhiiiiiiii" + "ii##jjkkklllllll" +
	"lllnnnnnnnnnoooo" + "oo##rrrrrrssssss" + "ssttttttuuuuuuuu" + "uuuuwwyyyzzzzzzs"

// appendFolded appends the lower-cased, diacritic-folded form of r.
func appendFolded(buf []byte, r rune) []byte {
	r = unicode.ToLower(r)
	switch {
	case r >= 0xE0 && r <= 0xFF && latin1[r-0xE0] != '#':
		return append(buf, latin1[r-0xE0])
	case r >= 0x100 && r <= 0x17F && latinExtA[r-0x100] != '#':
		return append(buf, latinExtA[r-0x100])
	}
	switch r {
	case 'æ':
		return append(buf, "ae"...)
	case 'þ':
		return append(buf, "th"...)
	case 'ß':
		return append(buf, "ss"...)
	case 'ĳ':
		return append(buf, "ij"...)
	case 'œ':
		return append(buf, "oe"...)
	case 'ș':
		return append(buf, 's')
	case 'ț':
		return append(buf, 't')
	}
	return utf8.AppendRune(buf, r)
}
