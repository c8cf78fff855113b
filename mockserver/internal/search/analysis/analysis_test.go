package analysis_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

func TestTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ,.;  ", nil},
		{"Electric CARS, 2025!", []string{"electric", "cars", "2025"}},
		{"don't stop-gap", []string{"don", "t", "stop", "gap"}},
		{"Café crème À LA Über", []string{"cafe", "creme", "a", "la", "uber"}},
		{"Straße Œuvre Ærø ĳs Þing", []string{"strasse", "oeuvre", "aero", "ijs", "thing"}},
		{"São Paulo, Málaga, Kraków, Łódź, İstanbul, Ș", []string{"sao", "paulo", "malaga", "krakow", "lodz", "istanbul", "s"}},
		{"cafe\u0301 x", []string{"cafe", "x"}},                  // decomposed accent
		{"Ελλάδα Москва 東京", []string{"ελλάδα", "москва", "東京"}}, // other scripts are lower-cased, kept
		{"a\xffb", []string{"a", "b"}},                           // invalid UTF-8 separates
		{"x²", []string{"x²"}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, analysis.Tokens(tc.in)); diff != "" {
			t.Errorf("Tokens(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestTokenizerReuse(t *testing.T) {
	t.Parallel()
	var tk analysis.Tokenizer
	var got []string
	for _, s := range []string{"One two", "", "THREE"} {
		tk.Reset(s)
		for tok, ok := tk.Next(); ok; tok, ok = tk.Next() {
			got = append(got, string(tok))
		}
	}
	if diff := cmp.Diff([]string{"one", "two", "three"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestHasTerm(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", " ", "!!!", "\x00", "\xff\xfe", "\ufffd", "*", "--- ...", "\u0301"} {
		if analysis.HasTerm(s) || len(analysis.Tokens(s)) != 0 {
			t.Errorf("HasTerm(%q) = %v, Tokens %q: want no term", s, analysis.HasTerm(s), analysis.Tokens(s))
		}
	}
	for _, s := range []string{"a", " 7 ", "!!!x", "\xffcafé", "東京", "٣"} {
		if !analysis.HasTerm(s) || len(analysis.Tokens(s)) == 0 {
			t.Errorf("HasTerm(%q) = %v, Tokens %q: want a term", s, analysis.HasTerm(s), analysis.Tokens(s))
		}
	}
}
