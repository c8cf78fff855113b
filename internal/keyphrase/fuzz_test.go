package keyphrase_test

import (
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/internal/keyphrase"
)

// suggested finds the phrases a message suggests.
var suggested = regexp.MustCompile(`(?:e\.g\.|write)(?: and)? ('[^']*')`)

// FuzzParse checks that Check and Parse never panic; that every error is a
// *SyntaxError pointing inside the input (or one past its end); that Check
// and Parse without rules agree exactly, and Parse with rules refuses only
// more, for a Rule; that every phrase a message suggests is accepted; and
// that a parsed expression survives a round trip through String.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"('elon' or 'musk') and not 'sam altman'",
		"'a' and", "(('a')", "'a' 'b'", "elon", "''", "'x", "not not 'x'", "'café' OR 'Ü'",
		`"sam altman" and 'x'`, "'a' musk", "'a' NOT 'b'", "“elon”", "'a' - 'b'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := utf8.RuneCountInString(s)
		check := syntaxError(t, keyphrase.Check(s))
		_, bare := keyphrase.Parse(s, keyphrase.Rules{})
		if diff := cmp.Diff(check, syntaxError(t, bare)); diff != "" {
			t.Fatalf("Check(%q) and Parse without rules differ (-Check +Parse):\n%s", s, diff)
		}
		e, err := keyphrase.Parse(s, rules)
		ruled := syntaxError(t, err)
		for _, se := range []*keyphrase.SyntaxError{check, ruled} {
			if se == nil {
				continue
			}
			if se.Pos < 1 || se.Pos > n+1 {
				t.Fatalf("%q: error position %d outside 1..%d", s, se.Pos, n+1)
			}
			if se.Msg == "" {
				t.Fatalf("%q: empty message", s)
			}
			for _, m := range suggested.FindAllStringSubmatch(se.Msg, -1) {
				if _, err := keyphrase.Parse(m[1], rules); err != nil {
					t.Fatalf("%q: the message %q suggests %s, which is refused: %v", s, se.Msg, m[1], err)
				}
			}
		}
		switch {
		case check != nil && check.Rule:
			t.Fatalf("Check(%q) reports a Rule error: %v", s, check)
		case ruled != nil && !ruled.Rule && (check == nil || *check != *ruled):
			t.Fatalf("%q: Parse with rules reports %v, Check %v", s, ruled, check)
		case ruled == nil && check != nil:
			t.Fatalf("%q: Parse with rules accepts what Check refuses: %v", s, check)
		}
		if err != nil {
			return
		}
		canon := e.String()
		if utf8.RuneCountInString(canon) > rules.MaxLength {
			return // the canonical spacing grew it past the limit Parse enforces
		}
		again, err := keyphrase.Parse(canon, rules)
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
