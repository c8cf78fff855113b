package main

import (
	"errors"
	"strings"
	"unicode"

	"github.com/newssearch/newssearch-go/internal/keyphrase"
)

// exampleKeyPhrases is the --key-phrases value suggested when a mistake
// cannot be repaired: a whole flag, quoted for the shell.
const exampleKeyPhrases = `--key-phrases "('elon' or 'musk') and not 'sam altman'"`

// checkKeyPhrases judges --key-phrases with the parser the SDK and the mock
// use, before any request, and on a mistake returns a usage error that
// names it and ends with a whole --key-phrases flag, quoted for the shell,
// that the command accepts: the value repaired when that is possible, else
// an example. (The parser's own suggestions are fragments in the
// expression's single quotes, which a shell strips when pasted as they are.)
func checkKeyPhrases(s string) error {
	var se *keyphrase.SyntaxError
	if !errors.As(keyphrase.Check(s), &se) {
		return nil
	}
	fix := exampleKeyPhrases
	if r, ok := repairKeyPhrases(s); ok {
		fix = "--key-phrases " + shellQuote(r)
	}
	return usagef("--key-phrases %s: character %d: %s\nThis would be accepted: %s", shellQuote(s), se.Pos, se.Msg, fix)
}

// repairKeyPhrases rewrites a malformed key_phrases expression into the
// well-formed one it most likely meant: other quotes become single quotes,
// bare words phrases, AND/OR/NOT, &&, ||, ! and - the lower-case operators,
// an operand missing its operator gets "and", dangling operators and
// unmatched parentheses go. It reports false when the result is still
// refused by the parser (or empty).
func repairKeyPhrases(s string) (string, bool) {
	var toks []string
	rs := []rune(s)
	bare := false // the last token is a phrase made of bare words
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '(' || r == ')':
			toks = append(toks, string(r))
			bare = false
			i++
		case r == '\'' || isOtherQuote(r):
			j := i + 1
			for j < len(rs) && rs[j] != '\'' && !isOtherQuote(rs[j]) {
				j++
			}
			text := strings.TrimSpace(string(rs[i+1 : min(j, len(rs))]))
			if j < len(rs) {
				j++
			}
			if text != "" {
				toks = append(toks, "'"+text+"'")
			}
			bare = false
			i = j
		default:
			j := i
			for j < len(rs) && !unicode.IsSpace(rs[j]) && rs[j] != '(' && rs[j] != ')' && rs[j] != '\'' && !isOtherQuote(rs[j]) {
				j++
			}
			w := string(rs[i:j])
			i = j
			switch strings.ToLower(w) {
			case "and", "&", "&&", "+":
				toks, bare = append(toks, "and"), false
			case "or", "|", "||":
				toks, bare = append(toks, "or"), false
			case "not", "!", "-":
				toks, bare = append(toks, "not"), false
			default:
				if !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
					continue
				}
				if bare { // words in a row are one phrase: elon musk -> 'elon musk'
					last := toks[len(toks)-1]
					toks[len(toks)-1] = last[:len(last)-1] + " " + w + "'"
					continue
				}
				toks, bare = append(toks, "'"+w+"'"), true
			}
		}
	}

	var out []string
	depth := 0
	endsOperand := func() bool {
		return len(out) > 0 && (strings.HasPrefix(out[len(out)-1], "'") || out[len(out)-1] == ")")
	}
	trimOps := func() {
		for len(out) > 0 {
			switch out[len(out)-1] {
			case "and", "or", "not":
				out = out[:len(out)-1]
				continue
			}
			return
		}
	}
	closeParen := func() {
		trimOps()
		if len(out) > 0 && out[len(out)-1] == "(" { // empty parentheses
			out = out[:len(out)-1]
		} else {
			out = append(out, ")")
		}
		depth--
	}
	for _, t := range toks {
		switch {
		case strings.HasPrefix(t, "'") || t == "(" || t == "not":
			if endsOperand() {
				out = append(out, "and")
			}
			if t == "(" {
				depth++
			}
			out = append(out, t)
		case t == ")":
			if depth > 0 {
				closeParen()
			}
		default: // and, or
			if endsOperand() {
				out = append(out, t)
			}
		}
	}
	for depth > 0 {
		closeParen()
	}
	trimOps()
	var b strings.Builder
	for i, t := range out {
		if i > 0 && out[i-1] != "(" && t != ")" {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	r := b.String()
	return r, r != "" && keyphrase.Check(r) == nil
}

// isOtherQuote reports a quote mark people put around phrases in place of
// the plain single quote.
func isOtherQuote(r rune) bool { return strings.ContainsRune("\"`‘’‚“”„«»", r) }

// shellQuote quotes s as one word for a POSIX shell, so that a suggestion
// pasted into a command line reaches newssearch as printed: bare when it
// needs no quoting, else in double quotes, else (it holds ", \, $, ` or !)
// in single quotes.
func shellQuote(s string) string {
	plain := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.,/:@%+=", r)
	}
	switch {
	case s != "" && !strings.ContainsFunc(s, func(r rune) bool { return !plain(r) }):
		return s
	case !strings.ContainsAny(s, "\"\\$`!"):
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
