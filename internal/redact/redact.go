// Package redact removes secrets, such as an API key, from text before it
// is logged, stored, shown or returned in an error.
//
// A Redactor replaces every occurrence of its keys that stands as a token,
// in any of the forms text carries a string in:
//
//   - plain: secret
//   - JSON-escaped, any mix of escapes and plain characters:
//     \u0073ecret, \u0073\u0065\u0063\u0072\u0065\u0074, a\/b for a/b,
//     \ud83d\ude00 for a character outside the Basic Multilingual Plane
//   - URL-encoded, any mix of percent-escapes (either case of hex digit)
//     and plain characters, with + for a space: s%65cret, a+b for "a b"
//
// and any mix of these, character by character. An occurrence stands as a
// token when it is not glued to a letter or digit on a side where the key
// itself begins or ends with one: with the key "test", "latest" and
// "tests" are left alone, while "test", "key=test&", "\"test\"",
// "%20test" and "x_test" are redacted. Glued makes long keys redacted glued or
// not. The characters beside an
// occurrence are judged in every way they can be read (a plain "0" in
// "%20" is also an encoded space): when one of the readings separates the
// key from the text around it, the occurrence is redacted. In doubt, it
// redacts.
//
// Text without a key is returned as it is, without a copy: the common
// case costs a scan of the text and no allocation.
//
// What is not undone: encodings nested in one another (a URL-encoded JSON
// escape, %5Cu0073), double percent-encoding (%2573), base64, HTML
// character references, and a key split across lines or cut short.
// Redact before cutting text to a length, never after: a key cut in two
// is no longer recognised (Clip does both, in that order).
//
// Redacting once is enough for keys such as API keys: long, and without
// '%' or ”. For a key of a few bytes, one holding '%' or ”, or one that
// is not valid UTF-8, a rare text can hold it glued to a word that is
// itself an occurrence, once that is replaced by the mark ("25" in
// "%2525", where "%25" reads as an escape and separates the second "25").
// Occurrences that touch the one before them are always redacted.
package redact

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Mark is the text a key is replaced with, as the mock server's journal and
// recorder write it.
const Mark = "[redacted]"

// A Redactor removes a fixed set of keys from text. It is immutable and
// safe for concurrent use. The nil *Redactor removes nothing.
type Redactor struct {
	keys []key
	mark string
	// first marks the bytes an occurrence of a key can begin with: the
	// key's first byte, and the bytes that begin an escape of it.
	first [256]bool
}

// key is one key and what matching it needs.
type key struct {
	s string
	// wordStart and wordEnd say whether the key begins (ends) with a
	// letter or digit: only then must an occurrence not be glued to one
	// on that side.
	wordStart, wordEnd bool
}

// New returns a Redactor of keys, which replaces them by Mark. Empty keys
// and repeats are ignored; New() redacts nothing. Keys are matched exactly,
// letter case included.
//
// Every key is redacted whatever its length; a caller whose keys may be
// short words should leave those out, since a one-letter key would be
// redacted wherever that letter stands alone.
func New(keys ...string) *Redactor {
	r := &Redactor{mark: Mark}
	for _, s := range keys {
		if s == "" || r.has(s) {
			continue
		}
		first, _ := utf8.DecodeRuneInString(s)
		last, _ := utf8.DecodeLastRuneInString(s)
		r.keys = append(r.keys, key{s: s, wordStart: isWord(first), wordEnd: isWord(last)})
		r.first[s[0]] = true
		if s[0] == ' ' {
			r.first['+'] = true
		}
	}
	if len(r.keys) > 0 {
		r.first['%'], r.first['\\'] = true, true
	}
	return r
}

func (r *Redactor) has(s string) bool {
	for _, k := range r.keys {
		if k.s == s {
			return true
		}
	}
	return false
}

// WithMark returns a copy of r that replaces keys by mark, e.g.
// "[REDACTED]".
func (r *Redactor) WithMark(mark string) *Redactor {
	if r == nil {
		r = New()
	}
	c := *r
	c.keys = append([]key(nil), r.keys...)
	c.mark = mark
	return &c
}

// Glued returns a copy of r that redacts each key of at least min bytes
// wherever it stands, glued to letters or digits or not ("ab" + key +
// "9"): a key that long is no part of a word by chance. Shorter keys keep
// the token rule.
func (r *Redactor) Glued(min int) *Redactor {
	c := r.WithMark(r.markOrDefault())
	for i := range c.keys {
		if len(c.keys[i].s) >= min {
			c.keys[i].wordStart, c.keys[i].wordEnd = false, false
		}
	}
	return c
}

func (r *Redactor) markOrDefault() string {
	if r == nil {
		return Mark
	}
	return r.mark
}

// Empty reports whether r has no key to remove.
func (r *Redactor) Empty() bool { return r == nil || len(r.keys) == 0 }

// String returns s with every occurrence of r's keys replaced by the mark;
// occurrences that overlap or touch become one mark. Without an occurrence it
// returns s itself.
func (r *Redactor) String(s string) string {
	if r.Empty() {
		return s
	}
	out, changed := replace(r, s, nil)
	if !changed {
		return s
	}
	return string(out)
}

// Bytes is String for a byte slice. Without an occurrence it returns b
// itself; otherwise a new slice, and b is unchanged.
func (r *Redactor) Bytes(b []byte) []byte {
	if r.Empty() {
		return b
	}
	out, changed := replace(r, b, nil)
	if !changed {
		return b
	}
	return out
}

// Index returns the byte span of the first occurrence of one of r's keys
// in s (occurrences that overlap or touch joined), or -1, -1.
func (r *Redactor) Index(s string) (start, end int) {
	start, end = -1, -1
	if r.Empty() {
		return start, end
	}
	scan(r, s, func(i, j int) bool {
		if start < 0 || i <= end {
			if start < 0 {
				start = i
			}
			end = max(end, j)
			return true
		}
		return false
	})
	return start, end
}

// Contains reports whether s holds one of r's keys in a form String
// replaces.
func (r *Redactor) Contains(s string) bool {
	i, _ := r.Index(s)
	return i >= 0
}

// Clip redacts s, then cuts the result to at most limit bytes: on a rune
// boundary, and before a mark the cut would split. It returns what is
// kept and how many bytes of the redacted text were dropped. Cutting after
// redacting means no part of a key is ever kept; and a key the cut would
// leave standing alone, once part of a word ("test" of "testing"), is cut
// off too.
func (r *Redactor) Clip(s string, limit int) (kept string, dropped int) {
	s = r.String(s)
	if len(s) <= limit {
		return s, 0
	}
	n := max(limit, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	// A mark that straddles the cut is dropped whole.
	mark := r.markOrDefault()
	for i := max(n-len(mark)+1, 0); i < n && mark != ""; i++ {
		if len(s)-i >= len(mark) && s[i:i+len(mark)] == mark {
			n = i
			break
		}
	}
	for {
		i, _ := r.Index(s[:n])
		if i < 0 {
			return s[:n], len(s) - n
		}
		n = i
	}
}

// text is what a Redactor reads.
type text interface{ ~string | ~[]byte }

// replace writes t with every occurrence replaced into dst; changed is
// false, and nothing is written, when t has none.
func replace[T text](r *Redactor, t T, dst []byte) (out []byte, changed bool) {
	prev := 0
	curStart, curEnd := -1, -1
	flush := func() {
		if dst == nil {
			dst = make([]byte, 0, len(t)+len(r.mark))
		}
		dst = append(dst, t[prev:curStart]...)
		dst = append(dst, r.mark...)
		prev = curEnd
	}
	scan(r, t, func(i, j int) bool {
		switch {
		case curStart < 0:
			curStart, curEnd = i, j
		case i <= curEnd: // overlaps or touches: one mark for both
			curEnd = max(curEnd, j)
		default:
			flush()
			curStart, curEnd = i, j
		}
		return true
	})
	if curStart < 0 {
		return nil, false
	}
	flush()
	return append(dst, t[prev:]...), true
}

// scan calls fn with the span of every occurrence of a key in t, in order
// of their starts (an occurrence of each key at each start), until fn
// returns false.
func scan[T text](r *Redactor, t T, fn func(start, end int) bool) {
	var m matcher[T]
	m.t = t
	// The states known to fail, per key: they fail from any start, so
	// they are kept for the whole scan. Made only for a key that needs
	// them (see matcher.memo).
	var memos []map[[2]int]bool
	// reach is the end of the occurrences found so far. An occurrence
	// that begins inside or right after one needs no boundary before it:
	// it will be beside a mark, which separates it from any word, or merge
	// with the one before.
	reach := -1
	for i := 0; i < len(t); i++ {
		if !r.first[t[i]] {
			continue
		}
		for ki := range r.keys {
			k := &r.keys[ki]
			m.k = k
			m.memo = nil
			if memos != nil {
				m.memo = memos[ki]
			}
			// Matching fails at once on almost every candidate; the
			// boundary is judged only for a match.
			end := m.match(i, 0)
			if m.memo != nil {
				if memos == nil {
					memos = make([]map[[2]int]bool, len(r.keys))
				}
				memos[ki] = m.memo
			}
			if end >= 0 && (!k.wordStart || i <= reach || boundaryBefore(t, i)) {
				reach = max(reach, end)
				if !fn(i, end) {
					return
				}
			}
		}
	}
}

// matcher matches one key at positions of t.
type matcher[T text] struct {
	t T
	k *key
	// memo holds the states (text position, key offset) where two
	// readings could both go on (a byte of the key that also begins an
	// escape, such as '%' before "25") and neither led to a match. A
	// state fails whatever the start, so one memo serves a whole scan,
	// which then reads each state once. It is made at the first such
	// state: keys without '%', '\' or '+' never need it.
	memo map[[2]int]bool
}

// match returns the end of an occurrence of the key's bytes from k on,
// starting at text position i, or -1. Each step reads one unit of the
// text: an escape or a plain byte.
func (m *matcher[T]) match(i, k int) int {
	t, key := m.t, m.k.s
	for {
		if k == len(key) {
			if m.k.wordEnd && !boundaryAfter(t, i) {
				return -1
			}
			return i
		}
		if i >= len(t) {
			return -1
		}
		c := t[i]
		if c == key[k] && (c == '%' || c == '\\' || c == '+') {
			// Both the plain byte and an escape beginning here may fit:
			// try the escape, then the byte, and remember a failure.
			st := [2]int{i, k}
			if m.memo == nil {
				m.memo = map[[2]int]bool{}
			} else if m.memo[st] {
				return -1
			}
			if n, dec, ok := unit(t, i); ok && hasPrefix(key[k:], dec.bytes()) {
				if end := m.match(i+n, k+dec.n); end >= 0 {
					return end
				}
			}
			if end := m.match(i+1, k+1); end >= 0 {
				return end
			}
			m.memo[st] = true
			return -1
		}
		if c == key[k] {
			i, k = i+1, k+1
			continue
		}
		n, dec, ok := unit(t, i)
		if !ok || !hasPrefix(key[k:], dec.bytes()) {
			return -1
		}
		i, k = i+n, k+dec.n
	}
}

// decoded is what an escape stands for: up to 4 bytes.
type decoded struct {
	b [utf8.UTFMax]byte
	n int
}

func (d *decoded) bytes() []byte { return d.b[:d.n] }

func hasPrefix(s string, p []byte) bool {
	if len(p) > len(s) {
		return false
	}
	for i := range p {
		if s[i] != p[i] {
			return false
		}
	}
	return true
}

// unit decodes the escape at t[i]: %XX (one byte), + (a space), a JSON
// escape \uXXXX (a UTF-16 surrogate pair \uXXXX\uXXXX as one rune; a lone
// surrogate reads as U+FFFD, as encoding/json reads it) or \" \\ \/ \b \f
// \n \r \t. n is the length of the escape; ok is false when no escape
// begins at i.
func unit[T text](t T, i int) (n int, d decoded, ok bool) {
	switch t[i] {
	case '%':
		if i+2 < len(t) {
			if b, ok := hexByte(t[i+1], t[i+2]); ok {
				d.b[0], d.n = b, 1
				return 3, d, true
			}
		}
	case '+':
		d.b[0], d.n = ' ', 1
		return 1, d, true
	case '\\':
		if i+1 >= len(t) {
			return 0, d, false
		}
		if c := shortEscape(t[i+1]); c != 0 {
			d.b[0], d.n = c, 1
			return 2, d, true
		}
		r, n := uEscape(t, i)
		if n == 0 {
			return 0, d, false
		}
		if utf16IsHigh(r) {
			if lo, m := uEscape(t, i+6); m > 0 && utf16IsLow(lo) {
				r, n = (r-0xd800)<<10+(lo-0xdc00)+0x10000, 12
			} else {
				r = utf8.RuneError
			}
		} else if utf16IsLow(r) {
			r = utf8.RuneError
		}
		d.n = utf8.EncodeRune(d.b[:], r)
		return n, d, true
	}
	return 0, d, false
}

func utf16IsHigh(r rune) bool { return 0xd800 <= r && r < 0xdc00 }
func utf16IsLow(r rune) bool  { return 0xdc00 <= r && r < 0xe000 }

// shortEscape returns the byte a two-byte JSON escape \c stands for, or 0.
func shortEscape(c byte) byte {
	switch c {
	case '"', '\\', '/':
		return c
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return 0
}

// uEscape decodes \uXXXX at t[i]; n is 6, or 0 when there is none.
func uEscape[T text](t T, i int) (r rune, n int) {
	if i < 0 || i+5 >= len(t) || t[i] != '\\' || t[i+1] != 'u' {
		return 0, 0
	}
	for j := i + 2; j < i+6; j++ {
		v, ok := hexDigit(t[j])
		if !ok {
			return 0, 0
		}
		r = r<<4 | rune(v)
	}
	return r, 6
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func hexByte(hi, lo byte) (byte, bool) {
	h, ok1 := hexDigit(hi)
	l, ok2 := hexDigit(lo)
	return h<<4 | l, ok1 && ok2
}

// isWord reports whether r is a letter or a digit, which glue a key to the
// text around it. Everything else separates: space, punctuation, "_",
// quotes, control characters.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// boundaryBefore reports whether the character before t[i] separates, in
// at least one reading: as it stands, or as the end of a %XX or JSON
// escape.
func boundaryBefore[T text](t T, i int) bool {
	if i == 0 {
		return true
	}
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], t[max(0, i-utf8.UTFMax):i])
	if r, _ := utf8.DecodeLastRune(buf[:n]); !isWord(r) {
		return true
	}
	// \n, \t, \/ …: each stands for a separator.
	if i >= 2 && t[i-2] == '\\' && shortEscape(t[i-1]) != 0 {
		return true
	}
	if r, ok := uEscapeBefore(t, i); ok && !isWord(r) {
		return true
	}
	if r, ok := percentBefore(t, i); ok && !isWord(r) {
		return true
	}
	return false
}

// boundaryAfter reports whether the character at t[i] separates, in at
// least one reading (see boundaryBefore).
func boundaryAfter[T text](t T, i int) bool {
	if i >= len(t) {
		return true
	}
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], t[i:min(len(t), i+utf8.UTFMax)])
	if r, _ := utf8.DecodeRune(buf[:n]); !isWord(r) {
		return true
	}
	if t[i] == '%' {
		if r, ok := percentAfter(t, i); ok && !isWord(r) {
			return true
		}
	}
	if t[i] == '\\' {
		if _, d, ok := unit(t, i); ok {
			if r, _ := utf8.DecodeRune(d.bytes()); !isWord(r) {
				return true
			}
		}
	}
	return false
}

// uEscapeBefore decodes a \uXXXX escape (or surrogate pair) that ends at
// t[i].
func uEscapeBefore[T text](t T, i int) (rune, bool) {
	if i < 6 {
		return 0, false
	}
	r, n := uEscape(t, i-6)
	if n == 0 {
		return 0, false
	}
	if utf16IsLow(r) {
		if i >= 12 {
			if hi, m := uEscape(t, i-12); m > 0 && utf16IsHigh(hi) {
				return (hi-0xd800)<<10 + (r - 0xdc00) + 0x10000, true
			}
		}
		return utf8.RuneError, true
	}
	if utf16IsHigh(r) {
		return utf8.RuneError, true
	}
	return r, true
}

// percentBefore decodes the character whose percent-escaped bytes end at
// t[i]: one %XX, or up to four for a multi-byte character.
func percentBefore[T text](t T, i int) (rune, bool) {
	var buf [utf8.UTFMax]byte
	n := 0
	for j := i; n < utf8.UTFMax && j >= 3 && t[j-3] == '%'; j -= 3 {
		b, ok := hexByte(t[j-2], t[j-1])
		if !ok {
			break
		}
		copy(buf[1:], buf[:n])
		buf[0] = b
		n++
		if b < utf8.RuneSelf || utf8.RuneStart(b) {
			break
		}
	}
	if n == 0 {
		return 0, false
	}
	r, _ := utf8.DecodeLastRune(buf[:n])
	return r, true
}

// percentAfter decodes the character whose percent-escaped bytes begin at
// t[i].
func percentAfter[T text](t T, i int) (rune, bool) {
	var buf [utf8.UTFMax]byte
	n := 0
	for j := i; n < utf8.UTFMax && j+2 < len(t) && t[j] == '%'; j += 3 {
		b, ok := hexByte(t[j+1], t[j+2])
		if !ok || n > 0 && (b < utf8.RuneSelf || utf8.RuneStart(b)) {
			break
		}
		buf[n] = b
		n++
	}
	if n == 0 {
		return 0, false
	}
	r, _ := utf8.DecodeRune(buf[:n])
	return r, true
}

// GoString keeps the keys out of %#v.
func (r Redactor) GoString() string {
	return "redact.Redactor{" + strconv.Itoa(len(r.keys)) + " keys}"
}

// Format keeps the keys out of every fmt verb, for a Redactor and a
// pointer to one alike.
func (r Redactor) Format(f fmt.State, _ rune) {
	_, _ = f.Write([]byte(r.GoString()))
}
