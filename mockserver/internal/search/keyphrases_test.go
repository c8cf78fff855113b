package search_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/internal/keyphrase"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// TestParseKeyPhrasesRules checks the mock's rules on top of the grammar:
// its limits and its term analysis. Each refusal is a Rule error, which
// the SDK's keyphrase.Check leaves to the service.
func TestParseKeyPhrasesRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		pos      int
		msg      string
	}{
		{"empty phrase", "'a' or ''", 8, "empty phrase ''; put at least one word between the quotes"},
		{"phrase without letters", "'a' and '!!! ?'", 9, "the phrase '!!! ?' has no letters or digits to match; put words between the quotes"},
		{"phrase of invalid UTF-8", "'\xff'", 1, "the phrase '\ufffd' has no letters or digits to match; put words between the quotes"},
		{"parens too deep", strings.Repeat("(", 65) + "'a'" + strings.Repeat(")", 65), 65,
			"the expression nests parentheses and 'not' more than 64 levels deep; simplify it"},
		{"not too deep", strings.Repeat("not ", 65) + "'a'", 257,
			"the expression nests parentheses and 'not' more than 64 levels deep; simplify it"},
		{"too long", "'" + strings.Repeat("é", 4096) + "'", 4097,
			"the expression is 4098 characters long, over the limit of 4096; shorten it"},
	}
	for _, tc := range tests {
		_, err := search.ParseKeyPhrases(tc.in)
		var se *keyphrase.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: ParseKeyPhrases(%.20q) = %v, want a *keyphrase.SyntaxError", tc.name, tc.in, err)
			continue
		}
		if diff := cmp.Diff(&keyphrase.SyntaxError{Pos: tc.pos, Msg: tc.msg, Rule: true}, se); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
		if err := keyphrase.Check(tc.in); err != nil {
			t.Errorf("%s: keyphrase.Check = %v, want it accepted", tc.name, err)
		}
	}
	for _, in := range []string{
		strings.Repeat("(", 64) + "'a'" + strings.Repeat(")", 64),
		strings.Repeat("not ", 64) + "'a'",
		"'" + strings.Repeat("é", 4094) + "'",
	} {
		if _, err := search.ParseKeyPhrases(in); err != nil {
			t.Errorf("ParseKeyPhrases(%.20q…) = %v, want no error", in, err)
		}
	}
}

// TestParseKeyPhrasesTerms: phrases are spelled as the index spells words,
// so phrases that match alike print and count as one.
func TestParseKeyPhrasesTerms(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"'Café, Crème!' or 'Straße'", "'cafe creme' or 'strasse'"},
		{"'X$$' and 'x'", "'x' and 'x'"},
		{"'Sam Altman' or not 'sam  ALTMAN'", "'sam altman' or not 'sam altman'"},
	}
	for _, tc := range tests {
		e, err := search.ParseKeyPhrases(tc.in)
		if err != nil {
			t.Errorf("ParseKeyPhrases(%q): %v", tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, e.String()); diff != "" {
			t.Errorf("ParseKeyPhrases(%q).String() (-want +got):\n%s", tc.in, diff)
		}
	}
	e, err := search.ParseKeyPhrases("'Sam Altman' or ('Café' and not 'sam  ALTMAN') or 'x'")
	if err != nil {
		t.Fatal(err)
	}
	want := []keyphrase.Phrase{
		{Text: "Sam Altman", Terms: []string{"sam", "altman"}, Pos: 1},
		{Text: "Café", Terms: []string{"cafe"}, Pos: 18},
		{Text: "x", Terms: []string{"x"}, Pos: 51},
	}
	if diff := cmp.Diff(want, e.Phrases()); diff != "" {
		t.Errorf("Phrases (-want +got):\n%s", diff)
	}
}
