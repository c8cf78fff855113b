package keyphrase_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/keyphrase"
)

const hint = "; write quoted phrases joined by and/or/not, e.g. ('elon' or 'musk') and not 'sam altman'"

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		pos      int
		msg      string
	}{
		{"empty", "", 1, "the expression is empty; write at least one quoted phrase"},
		{"blank", " \t ", 1, "the expression is empty; write at least one quoted phrase"},
		{"unterminated", "'elon", 1, "the quote that opens this phrase is never closed; end the phrase with another '"},
		{"unterminated later", "'a' and 'b", 9, "the quote that opens this phrase is never closed; end the phrase with another '"},
		{"empty phrase", "'a' or ''", 8, "empty phrase ''; put at least one word between the quotes"},
		{"phrase without words", "'!!!'", 1, "the phrase '!!!' has no letters or digits to match; put words between the quotes"},
		{"operand missing at end", "'a' and", 8, "expected a quoted phrase, '(' or 'not' after 'and', found the end of the input"},
		{"operand missing after not", "'a' and not", 12, "expected a quoted phrase, '(' or 'not' after 'not', found the end of the input"},
		{"operand missing at start", "and 'a'", 1, "expected a quoted phrase, '(' or 'not' at the start, found 'and'"},
		{"doubled operator", "'a' or OR 'b'", 8, "expected a quoted phrase, '(' or 'not' after 'or', found 'OR'"},
		{"operator before paren", "'a' and )", 9, "expected a quoted phrase, '(' or 'not' after 'and', found ')'"},
		{"no operator", "'a' 'b'", 5, "missing operator before this phrase; join phrases with 'and' or 'or'"},
		{"no operator in parens", "('a' 'b')", 6, "missing operator before this phrase; join phrases with 'and' or 'or'"},
		{"no operator before paren", "'a' ('b')", 5, "missing operator before '('; join the parts with 'and' or 'or'"},
		{"bare not", "'a' not 'b'", 5, "'not' cannot join two parts; write 'and not' or 'or not'"},
		{"unclosed paren", "('elon' or 'musk'", 18, "expected ')' to close the '(' at position 1"},
		{"unclosed inner paren", "('a' and ('b' or 'c')", 22, "expected ')' to close the '(' at position 1"},
		{"unmatched close", "'a')", 4, "unmatched ')': there is no '(' before it to close; remove it or add a '('"},
		{"empty parens", "'a' and ()", 10, "empty parentheses '()'; put a quoted phrase between them"},
		{"bare word", "elon", 1, "unknown word 'elon'; put phrases in single quotes, e.g. 'elon'"},
		{"bare word after operator", "'a' and musk", 9, "unknown word 'musk'; put phrases in single quotes, e.g. 'musk'"},
		{"bare word after phrase", "'a' musk", 5, "unknown word 'musk'; put phrases in single quotes, e.g. 'musk'"},
		{"c and", "'a' && 'b'", 5, "unknown operator '&&'; write 'and'"},
		{"c or", "'a' | 'b'", 5, "unknown operator '|'; write 'or'"},
		{"c not", "'a' and ! 'b'", 9, "unknown operator '!'; write 'not'"},
		{"double quotes", `"elon"`, 1, `unexpected '"elon"'; quote phrases with plain single quotes ('), e.g. 'sam altman'`},
		{"positions count characters", "'café' bar", 8, "unknown word 'bar'; put phrases in single quotes, e.g. 'bar'"},
		{"long word shortened", "'a' " + strings.Repeat("w", 50), 5,
			"unknown word '" + strings.Repeat("w", 40) + "…'; put phrases in single quotes, e.g. '" + strings.Repeat("w", 40) + "…'"},
		{"parens too deep", strings.Repeat("(", 65) + "'a'" + strings.Repeat(")", 65), 65,
			"the expression nests parentheses and 'not' more than 64 levels deep; simplify it"},
		{"not too deep", strings.Repeat("not ", 65) + "'a'", 257,
			"the expression nests parentheses and 'not' more than 64 levels deep; simplify it"},
		{"too long", "'" + strings.Repeat("é", 4096) + "'", 4097,
			"the expression is 4098 characters long, over the limit of 4096; shorten it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := keyphrase.Parse(tc.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want an error", tc.in, e)
			}
			var se *keyphrase.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T is not a *SyntaxError", tc.in, err)
			}
			want := &keyphrase.SyntaxError{Pos: tc.pos, Msg: tc.msg}
			if diff := cmp.Diff(want, se); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestSyntaxErrorMessage(t *testing.T) {
	t.Parallel()
	_, err := keyphrase.Parse("('elon' 'musk'")
	want := "key_phrases: syntax error at position 9: missing operator before this phrase; join phrases with 'and' or 'or'" + hint
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	_, err = keyphrase.Parse("('elon' or 'x'")
	want = "key_phrases: syntax error at position 15: expected ')' to close the '(' at position 1" + hint
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseLimitsAccepted(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		strings.Repeat("(", 64) + "'a'" + strings.Repeat(")", 64),
		strings.Repeat("not ", 64) + "'a'",
		"'" + strings.Repeat("é", 4094) + "'",
	} {
		if _, err := keyphrase.Parse(in); err != nil {
			t.Errorf("Parse(%.20q…) = %v, want no error", in, err)
		}
	}
}

func TestParseCanonical(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"('elon' or 'musk') and not 'sam altman'", "('elon' or 'musk') and not 'sam altman'"},
		{"('tesla takedown')", "'tesla takedown'"},
		{"'A' AND 'b' Or NoT 'c'", "'a' and 'b' or not 'c'"},
		{"'X$$' and 'x'", "'x' and 'x'"},
		{"'Café, Crème!' or 'Straße'", "'cafe creme' or 'strasse'"},
		{"'x'and'y'", "'x' and 'y'"},
		{"'a' and ('b' and 'c')", "'a' and 'b' and 'c'"},
		{"('a' or 'b') or 'c'", "'a' or 'b' or 'c'"},
		{"not ('a' or 'b')", "not ('a' or 'b')"},
		{"not ('a' and 'b')", "not ('a' and 'b')"},
		{"not not 'x'", "not not 'x'"},
		{"'a' or 'b' and 'c'", "'a' or 'b' and 'c'"},
		{"('a' or 'b') and 'c'", "('a' or 'b') and 'c'"},
		{"\t'a'\n", "'a'"},
	}
	for _, tc := range tests {
		e, err := keyphrase.Parse(tc.in)
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
	e, err := keyphrase.Parse("'Sam Altman' or ('Café' and not 'sam  ALTMAN') or 'x'")
	if err != nil {
		t.Fatal(err)
	}
	want := []keyphrase.Phrase{
		{Text: "Sam Altman", Terms: []string{"sam", "altman"}, Pos: 1},
		{Text: "Café", Terms: []string{"cafe"}, Pos: 18},
		{Text: "x", Terms: []string{"x"}, Pos: 51},
	}
	if diff := cmp.Diff(want, e.Phrases()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
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
		e, err := keyphrase.Parse(tc.expr)
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
		e, err := keyphrase.Parse(tc.expr)
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
