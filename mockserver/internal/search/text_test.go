package search_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/internal/keyphrase"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

var textDocs = []doc{
	{title: "Electric cars are booming", desc: "Sales rise", body: "Makers sell more electric cars than ever."},
	{title: "Cars that are electric", body: "Old petrol cars are gone.", hour: 1},
	{title: "A report on electric", desc: "cars and trucks", body: "nothing", hour: 2},
	{title: "Le café de Paris", body: "Un café crème, s'il vous plaît.", lang: "fr", hour: 3},
	{title: "Elon Musk speaks", body: "Tesla and SpaceX news. Sam Altman was not there.", hour: 4},
	{title: "Musk and Altman", body: "Sam met Altman, then Sam Altman replied to Elon.", hour: 5},
	{title: "Tesla takedown protests", body: "Protests against Tesla.", hour: 6},
}

func TestText(t *testing.T) {
	t.Parallel()
	ix := search.New(build(textDocs))
	tests := []struct {
		name string
		text string
		want []int
	}{
		{"terms are anded in any order", "cars electric", []int{1, 2, 3}},
		{"case is ignored", "ELECTRIC Cars", []int{1, 2, 3}},
		{"phrase", `"electric cars"`, []int{1}},
		{"phrase and term", `"electric cars" makers`, []int{1}},
		{"phrase needs one field", `"electric cars" report`, nil},
		{"phrase in the body", `"petrol cars"`, []int{2}},
		{"unbalanced quote closes at the end", `gone "petrol cars`, []int{2}},
		{"one-word phrase is a term", `"tesla"`, []int{5, 7}},
		{"empty quotes are ignored", `tesla ""`, []int{5, 7}},
		{"diacritics fold", "cafe creme", []int{4}},
		{"diacritics fold in the query", "CAFÉ", []int{4}},
		{"punctuation separates", "s il vous", []int{4}},
		{"unknown term", "electric zeppelin", nil},
		{"phrase with repeated word", `"sam altman"`, []int{5, 6}},
		{"phrase order matters", `"altman sam"`, nil},
		{"no letters matches all", "!!", []int{1, 2, 3, 4, 5, 6, 7}},
		{"long text", strings.Repeat(`cars "electric cars" `, 2000), []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := hexIDs(tc.want...)
			got := ids(t, ix, search.Query{Text: tc.text, Order: search.ByDate})
			// ByDate lists newest first; the table is in date order.
			for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
				got[i], got[j] = got[j], got[i]
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestKeyPhrases(t *testing.T) {
	t.Parallel()
	ix := search.New(build(textDocs))
	tests := []struct {
		name, text, kp string
		want           []int
	}{
		{"phrase", "", "'tesla takedown'", []int{7}},
		{"parenthesised phrase", "", "('tesla takedown')", []int{7}},
		{"or", "", "'elon' or 'musk'", []int{5, 6}},
		{"and not", "", "('elon' or 'musk') and not 'sam altman'", nil},
		{"and not some", "", "'tesla' and not 'sam altman'", []int{7}},
		{"phrases in any case", "", "'ELON' or 'Protests' and not 'SpaceX'", []int{5, 6, 7}},
		{"not first", "", "not 'tesla' and not 'cars'", []int{4, 6}},
		{"not alone", "", "not 'electric'", []int{4, 5, 6, 7}},
		{"precedence", "", "'cafe' or 'tesla' and 'protests'", []int{4, 7}},
		{"parentheses", "", "('cafe' or 'tesla') and 'protests'", []int{7}},
		{"phrase needs one field", "", "'electric cars'", []int{1}},
		{"phrase across fields", "", "'electric cars and'", nil},
		{"unknown word never matches", "", "'zeppelin' or 'cafe'", []int{4}},
		{"not unknown word matches all", "", "not 'zeppelin'", []int{1, 2, 3, 4, 5, 6, 7}},
		{"with text", "cars", "not 'petrol'", []int{1, 3}},
		{"with text and phrase", `"sam altman"`, "'elon'", []int{5, 6}},
		{"blank is none", "tesla", "   ", []int{5, 7}},
		{"diacritics", "", "'Café Crème'", []int{4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := ids(t, ix, search.Query{Text: tc.text, KeyPhrases: tc.kp, Order: search.ByDate})
			for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
				got[i], got[j] = got[j], got[i]
			}
			if diff := cmp.Diff(hexIDs(tc.want...), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestKeyPhrasesSyntaxError(t *testing.T) {
	t.Parallel()
	ix := search.New(build(textDocs))
	// The syntax is checked even when nothing could match.
	res, err := ix.Search(search.Query{Text: "zeppelin", KeyPhrases: "('elon' or 'musk'", Sites: []string{"nope"}}, 0, 25)
	var se *keyphrase.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("Search error = %v (%T), want a *keyphrase.SyntaxError", err, err)
	}
	if diff := cmp.Diff(&keyphrase.SyntaxError{Pos: 1, Msg: `the "(" opened here is never closed; add a ")" to close it`}, se); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(search.Result{}, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}
