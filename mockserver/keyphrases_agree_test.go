package mockserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/internal/keyphrase"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// SubmitQuery sends key_phrases as given; the SDK's CheckKeyPhrases checks
// them for a caller who asks (keyphrase.Check: the grammar only), and the
// mock parses them with its own rules on top (search.ParseKeyPhrases: 4096
// characters, 64 levels, every phrase with a word). These tests hold the
// two ends to one contract, through what their users see:
//
//   - what the mock parses, CheckKeyPhrases accepts and the SDK sends;
//   - what the mock refuses for its grammar, CheckKeyPhrases refuses at the
//     same position and in the same words, and SubmitQuery gets the mock's
//     400 with that message;
//   - what only the mock's rules refuse, CheckKeyPhrases accepts, and the
//     mock answers 400 with the rule's message (the mock judges the length
//     first, so an expression too long and malformed is refused by both,
//     each for its own reason);
//   - every phrase a message suggests, the mock parses.

// kpOutcome is how an expression fared.
type kpOutcome int

const (
	kpAccepted kpOutcome = iota // CheckKeyPhrases and the mock take it
	kpGrammar                   // CheckKeyPhrases refuses it for its grammar; the mock refuses it too
	kpRule                      // CheckKeyPhrases takes it, the mock's rules refuse it
)

// kpSuggestion finds the phrases a message suggests.
var kpSuggestion = regexp.MustCompile(`(?:e\.g\.|write)(?: and)? ('[^']*')`)

// kpAgree submits expr with the SDK client c (of the server s), checks the
// outcome against the mock's parser and returns it.
func kpAgree(t testing.TB, s *Server, c *newssearch.Client, expr string) kpOutcome {
	t.Helper()
	const query = "zqxjkv" // matches nothing, so an accepted job costs little
	_, parseErr := search.ParseKeyPhrases(expr)
	var se *keyphrase.SyntaxError
	if parseErr != nil && !errors.As(parseErr, &se) {
		t.Fatalf("ParseKeyPhrases(%q) = %v, not a *keyphrase.SyntaxError", expr, parseErr)
	}
	_, err := c.SubmitQuery(context.Background(), newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: query}, KeyPhrases: expr})
	if se != nil {
		for _, m := range kpSuggestion.FindAllStringSubmatch(se.Msg, -1) {
			if _, err := search.ParseKeyPhrases(m[1]); err != nil {
				t.Fatalf("KeyPhrases %q: the message %q suggests %s, which the mock refuses: %v", expr, se.Msg, m[1], err)
			}
		}
	}
	switch {
	case se == nil || strings.TrimSpace(expr) == "": // blank is no key phrases, on both ends
		if err != nil || newssearch.CheckKeyPhrases(expr) != nil {
			t.Fatalf("KeyPhrases %q: the mock parses it, but SubmitQuery = %v, CheckKeyPhrases = %v", expr, err, newssearch.CheckKeyPhrases(expr))
		}
		return kpAccepted
	}
	if ae := (*newssearch.APIError)(nil); !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest || ae.Message != se.Error() {
		t.Fatalf("KeyPhrases %q: the mock refuses it (%v); SubmitQuery = %v, want it sent and answered 400 with that message", expr, se, err)
	}
	var ve *newssearch.ValidationError
	checked := errors.As(newssearch.CheckKeyPhrases(expr), &ve)
	if !se.Rule {
		if want := fmt.Sprintf("character %d: %s: ", se.Pos, se.Msg); !checked || !strings.HasPrefix(ve.Problem, want) {
			t.Fatalf("KeyPhrases %q: the mock refuses its grammar (%v); CheckKeyPhrases = %v, want a *newssearch.ValidationError starting %q", expr, se, ve, want)
		}
		return kpGrammar
	}
	var ce *keyphrase.SyntaxError
	if checked && errors.As(keyphrase.Check(expr), &ce) && strings.HasPrefix(ve.Problem, fmt.Sprintf("character %d: %s: ", ce.Pos, ce.Msg)) {
		return kpGrammar // malformed beyond the rule the mock met first
	}
	if checked {
		t.Fatalf("KeyPhrases %q: only the mock's rules refuse it (%v); CheckKeyPhrases = %v, want nil", expr, se, ve)
	}
	return kpRule
}

func TestKeyPhrasesSDKAndMockAgree(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := s.Client(newssearch.WithMaxRetries(0))
	tests := []struct {
		expr string
		want kpOutcome
	}{
		{"", kpAccepted},
		{" \t", kpAccepted},
		{"'elon'", kpAccepted},
		{"('tesla takedown')", kpAccepted},
		{"('elon' or 'musk') and not 'sam altman'", kpAccepted},
		{"not not 'x'", kpAccepted},
		{"'a' and ('b' or ('c' and not 'd'))", kpAccepted},
		{"'élan vital' or 'ça va'\tor\n'東京'", kpAccepted},
		{"'x'and'y'", kpAccepted},
		{"'ELON' or 'Musk'", kpAccepted},
		{"'it''s'", kpGrammar},
		{"'elon", kpGrammar},
		{"('elon' or 'musk'", kpGrammar},
		{"'elon')", kpGrammar},
		{"'elon' 'musk'", kpGrammar},
		{"'elon' AND 'musk'", kpGrammar},
		{"NOT 'musk'", kpGrammar},
		{"'a' not 'b'", kpGrammar},
		{"elon", kpGrammar},
		{"'a' musk", kpGrammar},
		{`"elon"`, kpGrammar},
		{`"sam altman" or 'x'`, kpGrammar},
		{"“elon”", kpGrammar},
		{"'a' && 'b'", kpGrammar},
		{"'a' and ! 'b'", kpGrammar},
		{"'elon' and", kpGrammar},
		{"()", kpGrammar},
		{"or 'x'", kpGrammar},
		{"*", kpGrammar},
		{"\xff", kpGrammar},
		{"''", kpRule},
		{"'a' or '!!!'", kpRule},
		{"'\xff'", kpRule},
		{strings.Repeat("(", 65) + "'a'" + strings.Repeat(")", 65), kpRule},
		{strings.Repeat("not ", 65) + "'a'", kpRule},
		{"'" + strings.Repeat("x", 4095) + "'", kpRule},
		{strings.Repeat("(", 65) + "'a'", kpGrammar},           // the mock meets the depth before the missing ')'
		{"'" + strings.Repeat("x", 4095) + "' 'b'", kpGrammar}, // the mock judges the length first
	}
	for _, tc := range tests {
		if got := kpAgree(t, s, c, tc.expr); got != tc.want {
			t.Errorf("KeyPhrases %.40q: outcome %d, want %d", tc.expr, got, tc.want)
		}
	}
}

// FuzzKeyPhrasesAgree holds the SDK and the mock to the contract above for
// any expression. Run it with
//
//	go test -run '^$' -fuzz '^FuzzKeyPhrasesAgree$' -fuzztime 30s ./mockserver
func FuzzKeyPhrasesAgree(f *testing.F) {
	for _, s := range []string{
		"('elon' or 'musk') and not 'sam altman'", "('tesla takedown')",
		"'a' and", "(('a')", "'a' 'b'", "elon", "''", "'x", "not not 'x'", "'café' OR 'Ü'",
		`"sam altman" and 'x'`, "'a' musk", "'a' NOT 'b'", "“elon”", "'a' - 'b'", "'!!!'",
		"'a' AND NOT ('b' Or 'c')", "'\xff' and 'x'", "and or not ( )", "(('a' or 'b') and not ('c'",
		strings.Repeat("(", 65) + "'x'" + strings.Repeat(")", 65),
	} {
		f.Add(s)
	}
	s := start(f)
	c := s.Client(newssearch.WithMaxRetries(0))
	f.Fuzz(func(t *testing.T, expr string) {
		kpAgree(t, s, c, expr)
	})
}
