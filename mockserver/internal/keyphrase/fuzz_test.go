package keyphrase_test

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/newssearch/newssearch-go/mockserver/internal/keyphrase"
)

// FuzzParse checks that Parse never panics, that every error is a
// *SyntaxError pointing inside the input (or one past its end), and that a
// parsed expression survives a round trip through String.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"('elon' or 'musk') and not 'sam altman'",
		"'a' and", "(('a')", "'a' 'b'", "elon", "''", "'x", "not not 'x'", "'café' OR 'Ü'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := keyphrase.Parse(s)
		if err != nil {
			var se *keyphrase.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T is not a *SyntaxError", s, err)
			}
			if n := utf8.RuneCountInString(s); se.Pos < 1 || se.Pos > n+1 {
				t.Fatalf("Parse(%q) error position %d outside 1..%d", s, se.Pos, n+1)
			}
			if se.Msg == "" || err.Error() == "" {
				t.Fatalf("Parse(%q) returned an empty message", s)
			}
			return
		}
		canon := e.String()
		if utf8.RuneCountInString(canon) > keyphrase.MaxLength {
			return // the canonical spacing grew it past the limit Parse enforces
		}
		again, err := keyphrase.Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, canon, err)
		}
		if again.String() != canon {
			t.Fatalf("round trip of %q: %q became %q", s, canon, again.String())
		}
		for _, p := range e.Phrases() {
			if len(p.Terms) == 0 {
				t.Fatalf("Parse(%q): phrase %q has no terms", s, p.Text)
			}
		}
		e.Eval(func(i int) bool { return i%2 == 0 })
	})
}
