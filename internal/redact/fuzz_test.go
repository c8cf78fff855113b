package redact

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeAll reads s left to right, turning every escape Redactor knows
// into what it stands for: %XX, + (a space), \uXXXX (a surrogate pair as
// one character, a lone surrogate as U+FFFD) and the two-byte JSON escapes.
// Anything else is kept. It is the fuzz tests' independent reading of
// text: written apart from the matcher, as simply as possible.
func decodeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 3
		case c == '+':
			b.WriteByte(' ')
			i++
		case c == '\\' && i+1 < len(s) && strings.IndexByte(`"\/bfnrt`, s[i+1]) >= 0:
			b.WriteByte(map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[s[i+1]])
			i += 2
		case c == '\\' && i+5 < len(s) && s[i+1] == 'u' && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]):
			v, _ := strconv.ParseUint(s[i+2:i+6], 16, 16)
			r := rune(v)
			i += 6
			if utf16.IsSurrogate(r) {
				var lo rune
				if r < 0xdc00 && i+5 < len(s) && s[i] == '\\' && s[i+1] == 'u' && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]) {
					v, _ := strconv.ParseUint(s[i+2:i+6], 16, 16)
					lo = rune(v)
				}
				if p := utf16.DecodeRune(r, lo); p != utf8.RuneError {
					r = p
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

func isHex(c byte) bool { _, ok := hexDigit(c); return ok }

// foundAnywhere reports whether key can be read in s from some position
// on, glued to other words or not. An escape is at most 12 bytes long for
// one character, which bounds what needs reading from each position.
func foundAnywhere(s, key string) bool {
	for i := range len(s) {
		if strings.HasPrefix(decodeAll(s[i:min(len(s), i+12*len(key)+12)]), key) {
			return true
		}
	}
	return false
}

// encodeKey writes key in one of the forms a service may echo it in,
// choosing per character with rng: form 0 plain, 1 JSON escapes mixed with
// plain characters, 2 percent-escapes mixed with plain ones (+ for a
// space), 3 any mix of all of them, 4 every character \u-escaped, 5 every
// byte percent-escaped.
func encodeKey(key string, form int, rng *rand.Rand) string {
	hexCase := func(s string) string { // the hex digits only
		if rng.IntN(2) == 0 {
			return strings.ToUpper(s)
		}
		return s
	}
	uEsc := func(r rune) string {
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			return `\u` + hexCase(fmt.Sprintf("%04x", hi)) + `\u` + hexCase(fmt.Sprintf("%04x", lo))
		}
		return `\u` + hexCase(fmt.Sprintf("%04x", r))
	}
	pctEsc := func(r rune) string {
		var b strings.Builder
		for _, c := range []byte(string(r)) {
			b.WriteString("%" + hexCase(fmt.Sprintf("%02x", c)))
		}
		return b.String()
	}
	short := map[rune]string{'"': `\"`, '\\': `\\`, '/': `\/`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
	var b strings.Builder
	for _, r := range key {
		var forms []string
		switch form {
		case 0:
			forms = []string{string(r)}
		case 1:
			forms = []string{string(r), uEsc(r)}
			if s, ok := short[r]; ok {
				forms = append(forms, s)
			}
		case 2:
			forms = []string{string(r), pctEsc(r)}
			if r == ' ' {
				forms = append(forms, "+")
			}
		case 3:
			forms = []string{string(r), uEsc(r), pctEsc(r)}
			if s, ok := short[r]; ok {
				forms = append(forms, s)
			}
			if r == ' ' {
				forms = append(forms, "+")
			}
		case 4:
			forms = []string{uEsc(r)}
		default:
			forms = []string{pctEsc(r)}
		}
		b.WriteString(forms[rng.IntN(len(forms))])
	}
	return b.String()
}

// separators are the characters put between a key and the text around it.
var separators = []string{" ", ",", ";", ":", "(", ")", "=", "&", `"`, "'", "<", ">", "|", "!", "\t", "\n", "#", "*", "?", "@", "^", "~", "{", "}", "/", "."}

// FuzzRedactsEveryForm: a key written in any form, between separators,
// amid arbitrary text that cannot itself hold a piece of the key, is
// replaced by the mark, and nothing else changes. The surrounding text is
// made unable to hold the key by replacing every byte of the key, and
// every byte that begins an escape, with a separator.
func FuzzRedactsEveryForm(f *testing.F) {
	for _, seed := range []struct {
		key, before, after string
		form               uint8
		seed               uint64
	}{
		{"sk-live-0123456789", `{"message":"bad key`, `"}`, 0, 1},
		{"secret", "x=", "&y=1", 1, 2},
		{"secret", "x=", "&y=1", 2, 3},
		{"secret", "x=", "&y=1", 3, 4},
		{"secret", "", "", 4, 5},
		{"secret", "", "", 5, 6},
		{"my key/with+odd\"chars\\", "before", "after", 3, 7},
		{"clé😀9", "é", "ü", 3, 8},
		{"50%off", "", "", 2, 9},
		{"a", "", "", 1, 10},
		{"-x-", "abc", "def", 0, 11},
		{"test", "the latest", "tests", 0, 12},
		{"\t\n", "x", "y", 1, 13},
	} {
		f.Add(seed.key, seed.before, seed.after, seed.form, seed.seed)
	}
	f.Fuzz(func(t *testing.T, key, before, after string, form uint8, seed uint64) {
		if key == "" || len(key) > 200 || !utf8.ValidString(key) || len(before)+len(after) > 4096 {
			t.Skip()
		}
		rng := rand.New(rand.NewPCG(seed, uint64(form)))
		var seps []string
		for _, s := range separators {
			if !strings.Contains(key, s) {
				seps = append(seps, s)
			}
		}
		if len(seps) == 0 {
			t.Skip()
		}
		sep := func() string { return seps[rng.IntN(len(seps))] }
		filler := seps[0]
		clean := func(s string) string {
			var b strings.Builder
			for i := range len(s) {
				if c := s[i]; strings.IndexByte(key, c) >= 0 || c == '%' || c == '\\' || c == '+' {
					b.WriteString(filler)
				} else {
					b.WriteByte(c)
				}
			}
			return b.String()
		}
		before, after = clean(before)+sep(), sep()+clean(after)
		enc := encodeKey(key, int(form%6), rng)
		if decodeAll(enc) != key && !strings.ContainsAny(key, `%\+`) {
			t.Fatalf("the test's encoding of %q, %q, does not read back", key, enc)
		}
		r := New(key)
		in := before + enc + after
		got := r.String(in)
		if want := before + Mark + after; got != want {
			t.Fatalf("key %q written %q:\nString(%q)\n = %q\nwant %q", key, enc, in, got, want)
		}
		if b := string(r.Bytes([]byte(in))); b != got {
			t.Fatalf("Bytes and String differ: %q, %q", b, got)
		}
		if !strings.Contains(Mark, key) && foundAnywhere(got, key) {
			t.Fatalf("key %q can still be read in %q", key, got)
		}
	})
}

// FuzzLeavesOtherTextAlone: text in which the key cannot be read from any
// position, in any form, comes back unchanged (the very string, not a
// copy). Keys holding a byte that begins an escape are left out: for them
// a position can be read two ways, which decodeAll does not follow.
func FuzzLeavesOtherTextAlone(f *testing.F) {
	for _, seed := range [][2]string{
		{"secret", "nothing here"},
		{"test", "the latest tests are testing"},
		{"secret", `{"a":"\u0073ecre","b":"s%65cre t"}`},
		{"sk-1", `sk-2 sk-10 \\u0073k-1`},
		{"clé", `cl\u00e8 cl%C3%A8`},
		{"a", `\ud83d\ude00 \ud83d %zz`},
		{"abc", "ab\\u0063"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, key, text string) {
		if key == "" || strings.ContainsAny(key, `%\+`) || len(text) > 4096 || foundAnywhere(text, key) {
			t.Skip()
		}
		r := New(key)
		if got := r.String(text); got != text {
			t.Fatalf("key %q: String(%q) = %q; the key is not there", key, text, got)
		}
		if r.Contains(text) {
			t.Fatalf("key %q: Contains(%q) is true", key, text)
		}
	})
}

// FuzzAnyInput: arbitrary keys and text never make Redactor panic; String
// and Bytes agree; Contains says whether String changes the text; and what
// String leaves holds no occurrence String would replace. That last
// property is not promised for every key: a mark can change what is beside
// an occurrence, and some keys can stand glued to a word in the input and
// alone beside a mark in the output. It takes a key that is part of the
// mark or holds one of its brackets; a key that is not text (it can split a
// character); or a key whose end can also be read as the end of an escape
// beginning before it: one holding '%' or '\', or shorter than the
// longest escape (12 bytes: a surrogate pair), such as "25" in "%2525",
// which reads "%25" then a glued "25". Real API keys are none of these.
func FuzzAnyInput(f *testing.F) {
	f.Add("secret-key-1234", "a secret-key-1234 b", "c")
	f.Add("%25", "%25%2525", "")
	f.Add(`\`, `\\\u005c`, "x")
	f.Add("]x", "]x]x", "")
	f.Add("abcdefghijkl", "abcdefghijkl%61bcdefghijkl", "zz")
	f.Add("\xca", "\u02ab0", "0") // found by the fuzzer: a key splitting a character
	f.Add("25", "%2525", "0")     // found by the fuzzer: "%25" read before a glued "25"
	f.Fuzz(func(t *testing.T, key, text, other string) {
		if len(text) > 1<<14 {
			t.Skip()
		}
		r := New(key, other)
		got := r.String(text)
		if b := string(r.Bytes([]byte(text))); b != got {
			t.Fatalf("Bytes and String differ: %q, %q", b, got)
		}
		if (got != text) != r.Contains(text) {
			t.Fatalf("Contains(%q) = %v, but String changed it: %v", text, r.Contains(text), got != text)
		}
		unsettled := func(k string) bool {
			return k != "" && (strings.Contains(Mark, k) || strings.ContainsAny(k, `[]%\`) || len(k) < 12 || !utf8.ValidString(k))
		}
		if r.Contains(got) && !unsettled(key) && !unsettled(other) {
			t.Fatalf("keys %q, %q: String(%q) = %q still holds one", key, other, text, got)
		}
	})
}
