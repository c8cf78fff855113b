package keyphrase_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/internal/keyphrase"
)

const hint = "; write quoted phrases joined by lower-case and/or/not, e.g. ('elon' or 'musk') and not 'sam altman'"

// words is a term analysis for the tests: runs of letters and digits,
// lower-cased. (The mock's own, with diacritic folding, is tested in
// mockserver/internal/search.)
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// rules are limits like the mock's.
var rules = keyphrase.Rules{MaxLength: 4096, MaxDepth: 64, Terms: words}

func syntaxError(t *testing.T, err error) *keyphrase.SyntaxError {
	t.Helper()
	var se *keyphrase.SyntaxError
	if err != nil && !errors.As(err, &se) {
		t.Fatalf("error %T (%v) is not a *SyntaxError", err, err)
	}
	return se
}

// TestErrors holds every message with the input it is for and the input
// fixed as the message says, which must then be accepted. A Rule error is
// the rules' only: Check accepts its input.
func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		pos      int
		msg      string
		rule     bool
		fixed    string
	}{
		{"empty", "", 1, "the expression is empty; write at least one quoted phrase", false, "'elon'"},
		{"blank", " \t ", 1, "the expression is empty; write at least one quoted phrase", false, "'elon'"},
		{"unterminated", "'elon", 1, "the quote that opens this phrase is never closed; end the phrase with another '", false, "'elon'"},
		{"unterminated later", "'a' and 'b", 9, "the quote that opens this phrase is never closed; end the phrase with another '", false, "'a' and 'b'"},
		{"empty phrase", "'a' or ''", 8, "empty phrase ''; put at least one word between the quotes", true, "'a' or 'b'"},
		{"phrase without words", "'!!!'", 1, "the phrase '!!!' has no letters or digits to match; put words between the quotes", true, "'x'"},
		{"operand missing at end", "'a' and", 8, `expected a quoted phrase, "(" or "not" after "and", found the end of the input`, false, "'a' and 'b'"},
		{"operand missing after not", "'a' and not", 12, `expected a quoted phrase, "(" or "not" after "not", found the end of the input`, false, "'a' and not 'b'"},
		{"operand missing after paren", "'a' and (", 10, `expected a quoted phrase, "(" or "not" after "(", found the end of the input`, false, "'a' and ('b')"},
		{"operand missing at start", "and 'a'", 1, `expected a quoted phrase, "(" or "not" at the start, found "and"`, false, "'a'"},
		{"doubled operator", "'a' or OR 'b'", 8, `expected a quoted phrase, "(" or "not" after "or", found "OR"`, false, "'a' or 'b'"},
		{"operator before paren", "'a' and )", 9, `expected a quoted phrase, "(" or "not" after "and", found ")"`, false, "'a' and 'b'"},
		{"c operator where a phrase is due", "&& 'b'", 1, `expected a quoted phrase, "(" or "not" at the start, found "&&"`, false, "'b'"},
		{"no operator", "'a' 'b'", 5, `missing operator before this phrase; join phrases with "and" or "or"`, false, "'a' and 'b'"},
		{"no operator in parens", "('a' 'b')", 6, `missing operator before this phrase; join phrases with "and" or "or"`, false, "('a' or 'b')"},
		{"no operator before paren", "'a' ('b')", 5, `missing operator before "("; join the parts with "and" or "or"`, false, "'a' or ('b')"},
		{"bare not", "'a' not 'b'", 5, `"not" cannot join two parts; write "and not" or "or not"`, false, "'a' and not 'b'"},
		{"unclosed paren", "('elon' or 'musk'", 1, `the "(" opened here is never closed; add a ")" to close it`, false, "('elon' or 'musk')"},
		{"unclosed outer paren", "('a' and ('b' or 'c')", 1, `the "(" opened here is never closed; add a ")" to close it`, false, "('a' and ('b' or 'c'))"},
		{"unclosed inner paren", "(('a') and ('b'", 12, `the "(" opened here is never closed; add a ")" to close it`, false, "(('a') and ('b'))"},
		{"unclosed paren after a phrase", "'a' and ('b'", 9, `the "(" opened here is never closed; add a ")" to close it`, false, "'a' and ('b')"},
		{"unmatched close", "'a')", 4, `unmatched ")": there is no "(" before it to close; remove it or add a "("`, false, "'a'"},
		{"empty parens", "'a' and ()", 10, `empty parentheses "()"; put a quoted phrase between them`, false, "'a' and ('b')"},
		{"bare word", "elon", 1, `unknown word "elon"; put phrases in single quotes, e.g. 'elon'`, false, "'elon'"},
		{"bare word after operator", "'a' and musk", 9, `unknown word "musk"; put phrases in single quotes, e.g. 'musk'`, false, "'a' and 'musk'"},
		{"bare word after phrase", "'a' musk", 5, `unknown word "musk"; quote it and join it with "and" or "or", e.g. and 'musk'`, false, "'a' and 'musk'"},
		{"bare word with an apostrophe", "it’s", 1, `unknown word "it’s"; put phrases in single quotes, e.g. 'it’s'`, false, "'it’s'"},
		{"bare word with a closing quote", `elon"`, 1, `unknown word "elon\""; put phrases in single quotes, e.g. 'elon'`, false, "'elon'"},
		{"upper-case and", "'elon' AND 'musk'", 8, `"AND" must be written in lower case; write "and"`, false, "'elon' and 'musk'"},
		{"mixed-case or", "'a' Or 'b'", 5, `"Or" must be written in lower case; write "or"`, false, "'a' or 'b'"},
		{"upper-case not", "NOT 'musk'", 1, `"NOT" must be written in lower case; write "not"`, false, "not 'musk'"},
		{"mixed-case not after and", "'a' and NoT 'b'", 9, `"NoT" must be written in lower case; write "not"`, false, "'a' and not 'b'"},
		{"upper-case not joining", "'a' NOT 'b'", 5, `"NOT" cannot join two parts; write "and not" or "or not"`, false, "'a' or not 'b'"},
		{"c and", "'a' && 'b'", 5, `unknown operator "&&"; write "and"`, false, "'a' and 'b'"},
		{"c or", "'a' | 'b'", 5, `unknown operator "|"; write "or"`, false, "'a' or 'b'"},
		{"c not", "'a' and ! 'b'", 9, `unknown operator "!"; write "not"`, false, "'a' and not 'b'"},
		{"minus joining", "'a' - 'b'", 5, `unknown operator "-"; write "and not" or "or not"`, false, "'a' and not 'b'"},
		{"double quotes", `"elon"`, 1, "phrases take plain single quotes ('), not double quotes; write 'elon'", false, "'elon'"},
		{"double quotes around words", `"sam altman" and 'x'`, 1, "phrases take plain single quotes ('), not double quotes; write 'sam altman'", false, "'sam altman' and 'x'"},
		{"double quote unclosed", `"elon`, 1, "phrases take plain single quotes ('), not double quotes; write 'elon'", false, "'elon'"},
		{"double quotes after a phrase", `'a' "b"`, 5, `phrases take plain single quotes ('), not double quotes, and are joined by "and" or "or"; write and 'b'`, false, "'a' and 'b'"},
		{"typographic quotes", "“elon”", 1, "phrases take plain single quotes ('), not typographic quotes; write 'elon'", false, "'elon'"},
		{"backquotes", "`elon`", 1, "phrases take plain single quotes ('), not backquotes; write 'elon'", false, "'elon'"},
		{"double quotes around no word", `"!!"`, 1, "phrases take plain single quotes ('), not double quotes; e.g. 'sam altman'", false, "'sam altman'"},
		{"punctuation", "*", 1, `unexpected "*"; write a phrase in single quotes, e.g. 'sam altman'`, false, "'sam altman'"},
		{"punctuation after a phrase", "'a' *", 5, `unexpected "*"; join phrases with "and" or "or"`, false, "'a'"},
		{"positions count characters", "'café' bar", 8, `unknown word "bar"; quote it and join it with "and" or "or", e.g. and 'bar'`, false, "'café' and 'bar'"},
		{"long word shortened", "'a' and " + strings.Repeat("w", 50), 9,
			`unknown word "` + strings.Repeat("w", 40) + `…"; put phrases in single quotes, e.g. 'sam altman'`, false, "'a' and 'sam altman'"},
		{"invalid UTF-8", "\xff", 1, "unexpected \"\ufffd\"; write a phrase in single quotes, e.g. 'sam altman'", false, "'sam altman'"},
		{"parens too deep", strings.Repeat("(", 65) + "'a'" + strings.Repeat(")", 65), 65,
			"the expression nests parentheses and 'not' more than 64 levels deep; simplify it", true, "'a'"},
		{"not too deep", strings.Repeat("not ", 65) + "'a'", 257,
			"the expression nests parentheses and 'not' more than 64 levels deep; simplify it", true, "not 'a'"},
		{"too long", "'" + strings.Repeat("é", 4096) + "'", 4097,
			"the expression is 4098 characters long, over the limit of 4096; shorten it", true, "'é'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := keyphrase.Parse(tc.in, rules)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want an error", tc.in, e)
			}
			want := &keyphrase.SyntaxError{Pos: tc.pos, Msg: tc.msg, Rule: tc.rule}
			if diff := cmp.Diff(want, syntaxError(t, err)); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tc.in, diff)
			}
			check := keyphrase.Check(tc.in)
			if tc.rule {
				want = nil
			}
			if diff := cmp.Diff(want, syntaxError(t, check)); diff != "" {
				t.Errorf("Check(%q) (-want +got):\n%s", tc.in, diff)
			}
			if _, err := keyphrase.Parse(tc.fixed, rules); err != nil {
				t.Errorf("the input fixed as the message says, %q: %v", tc.fixed, err)
			}
		})
	}
}

func TestSyntaxErrorMessage(t *testing.T) {
	t.Parallel()
	err := keyphrase.Check("('elon' 'musk'")
	want := `key_phrases: syntax error at position 9: missing operator before this phrase; join phrases with "and" or "or"` + hint
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	_, err = keyphrase.Parse("('elon' or 'x'", rules)
	want = `key_phrases: syntax error at position 1: the "(" opened here is never closed; add a ")" to close it` + hint
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLimitsAccepted(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		strings.Repeat("(", 64) + "'a'" + strings.Repeat(")", 64),
		strings.Repeat("not ", 64) + "'a'",
		"'" + strings.Repeat("é", 4094) + "'",
	} {
		if _, err := keyphrase.Parse(in, rules); err != nil {
			t.Errorf("Parse(%.20q…) = %v, want no error", in, err)
		}
	}
}

// TestCheckHasNoLimits: Check takes what only a service's rules refuse,
// and any depth or length without exhausting the stack or time.
func TestCheckHasNoLimits(t *testing.T) {
	t.Parallel()
	const n = 1 << 18 // nesting no service allows, parsed in linear time without recursion
	for _, in := range []string{
		"''", "'!!!'", "'a' or ''",
		strings.Repeat("(", n) + "'a'" + strings.Repeat(")", n),
		strings.Repeat("not ", n) + "'a'",
		strings.Repeat("'a' and ", n/4) + "'b'",
		strings.Repeat("'a' or 'b' and ", n/4) + "'c'",
		"'" + strings.Repeat("x", n) + "'",
	} {
		if err := keyphrase.Check(in); err != nil {
			t.Errorf("Check(%.20q…) = %v, want no error", in, err)
		}
		if _, err := keyphrase.Parse(in, keyphrase.Rules{}); err != nil {
			t.Errorf("Parse(%.20q…, Rules{}) = %v, want no error", in, err)
		}
	}
	deep := strings.Repeat("(", n) + "'a'"
	se := syntaxError(t, keyphrase.Check(deep))
	if se == nil || se.Pos != n {
		t.Errorf("Check of %d unclosed parentheses = %v, want the innermost at position %d", n, se, n)
	}
}

func TestParseCanonical(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"('elon' or 'musk') and not 'sam altman'", "('elon' or 'musk') and not 'sam altman'"},
		{"('tesla takedown')", "'tesla takedown'"},
		{"'A' and 'b' or not 'C'", "'a' and 'b' or not 'c'"},
		{"'X$$' and 'x'", "'x' and 'x'"},
		{"'x'and'y'", "'x' and 'y'"},
		{"'a' and ('b' and 'c')", "'a' and 'b' and 'c'"},
		{"('a' and 'b') and 'c'", "'a' and 'b' and 'c'"},
		{"('a' or 'b') or 'c'", "'a' or 'b' or 'c'"},
		{"'a' or ('b' or 'c') or 'd'", "'a' or 'b' or 'c' or 'd'"},
		{"not ('a' or 'b')", "not ('a' or 'b')"},
		{"not ('a' and 'b')", "not ('a' and 'b')"},
		{"not not 'x'", "not not 'x'"},
		{"'a' or 'b' and 'c'", "'a' or 'b' and 'c'"},
		{"'a' and 'b' or 'c' and 'd'", "'a' and 'b' or 'c' and 'd'"},
		{"('a' or 'b') and 'c'", "('a' or 'b') and 'c'"},
		{"not 'a' and 'b'", "not 'a' and 'b'"},
		{"'a' and not ('b' or not 'c') or 'd'", "'a' and not ('b' or not 'c') or 'd'"},
		{"\t'a'\n", "'a'"},
	}
	for _, tc := range tests {
		e, err := keyphrase.Parse(tc.in, rules)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, e.String()); diff != "" {
			t.Errorf("Parse(%q).String() (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestPhrases(t *testing.T) {
	t.Parallel()
	e, err := keyphrase.Parse("'Sam Altman' or ('Café' and not 'sam  ALTMAN') or 'x'", rules)
	if err != nil {
		t.Fatal(err)
	}
	want := []keyphrase.Phrase{
		{Text: "Sam Altman", Terms: []string{"sam", "altman"}, Pos: 1},
		{Text: "Café", Terms: []string{"café"}, Pos: 18},
		{Text: "x", Terms: []string{"x"}, Pos: 51},
	}
	if diff := cmp.Diff(want, e.Phrases()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Without a term analysis a phrase is its text.
	e, err = keyphrase.Parse("'Sam Altman' or 'sam altman' or ''", keyphrase.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	want = []keyphrase.Phrase{
		{Text: "Sam Altman", Terms: []string{"Sam Altman"}, Pos: 1},
		{Text: "sam altman", Terms: []string{"sam altman"}, Pos: 17},
		{Text: "", Terms: []string{""}, Pos: 33},
	}
	if diff := cmp.Diff(want, e.Phrases()); diff != "" {
		t.Errorf("Rules{} (-want +got):\n%s", diff)
	}
}

// eval evaluates e with the phrases whose Text is in present matching.
func eval(e *keyphrase.Expr, present ...string) bool {
	return e.Eval(func(i int) bool {
		for _, p := range present {
			if e.Phrases()[i].Text == p {
				return true
			}
		}
		return false
	})
}

func TestEval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr    string
		present []string
		want    bool
	}{
		{"('elon' or 'musk') and not 'sam altman'", []string{"elon"}, true},
		{"('elon' or 'musk') and not 'sam altman'", []string{"musk"}, true},
		{"('elon' or 'musk') and not 'sam altman'", []string{"musk", "sam altman"}, false},
		{"('elon' or 'musk') and not 'sam altman'", nil, false},
		{"'a' or 'b' and 'c'", []string{"a"}, true},
		{"'a' or 'b' and 'c'", []string{"b"}, false},
		{"'a' or 'b' and 'c'", []string{"b", "c"}, true},
		{"('a' or 'b') and 'c'", []string{"a"}, false},
		{"not 'a' and 'b'", []string{"b"}, true},
		{"not 'a' and 'b'", []string{"a", "b"}, false},
		{"not ('a' and 'b')", []string{"a"}, true},
		{"not ('a' and 'b')", []string{"a", "b"}, false},
		{"not not 'a'", []string{"a"}, true},
		{"not 'x'", nil, true},
	}
	for _, tc := range tests {
		e, err := keyphrase.Parse(tc.expr, rules)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.expr, err)
		}
		if got := eval(e, tc.present...); got != tc.want {
			t.Errorf("%q with %q = %v, want %v", tc.expr, tc.present, got, tc.want)
		}
	}
}

func TestRequired(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want []string
	}{
		{"'a'", []string{"a"}},
		{"'a' and 'b' and not 'c'", []string{"a", "b"}},
		{"'a' or 'b'", nil},
		{"('a' and 'b') or ('b' and 'c')", []string{"b"}},
		{"('a' and 'b') or ('b' and 'a')", []string{"a", "b"}},
		{"'x' and ('a' or 'b')", []string{"x"}},
		{"not 'a'", nil},
	}
	for _, tc := range tests {
		e, err := keyphrase.Parse(tc.expr, rules)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.expr, err)
		}
		var got []string
		for _, i := range e.Required() {
			got = append(got, e.Phrases()[i].Text)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Required(%q) (-want +got):\n%s", tc.expr, diff)
		}
	}
}
