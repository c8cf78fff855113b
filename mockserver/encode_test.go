package mockserver

import "testing"

// TestAppendStringMatchesEncodingJSON checks appendString's fast path
// against encoding/json for strings on both sides of it.
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "abc", "0123456789abcdef0123456789abcdef", "~ !#$%'()*+,-./:;=?@[]^_`{|}", `a"b`, `a\b`, "tab\there",
		"new\nline", "\x00", "\x1f", "\x7f", "é", "<&>", "\u2028\u2029", string([]byte{0xff, 'a'})} {
		if got, want := string(appendString([]byte("x"), s)), "x"+string(mustJSON(s)); got != want {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}
