package newssearch

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// checkKeyPhrases judges the structure of a key_phrases expression:
// single-quoted phrases joined by lower-case and, or and not, with
// parentheses. It catches what is certainly malformed (an unterminated
// quote, an unbalanced parenthesis, a missing phrase or operator, a bare
// word) and leaves the rest (length limits, phrases of no searchable word)
// to the service. It returns "" for a well-formed expression, else the
// problem with its 1-based character position.
func checkKeyPhrases(s string) string {
	k := &kpCheck{src: s}
	k.next()
	if k.problem == "" {
		k.or()
	}
	if k.problem == "" && k.tok != kpEOF {
		if k.tok == kpRParen {
			k.fail("unmatched ')' with no '(' before it")
		} else {
			k.fail("expected and, or or the end after a phrase, found " + k.describe())
		}
	}
	return k.problem
}

// Token kinds of checkKeyPhrases.
const (
	kpEOF = iota
	kpPhrase
	kpLParen
	kpRParen
	kpAnd
	kpOr
	kpNot
	kpWord
)

// kpCheck is a recursive-descent recogniser of the key_phrases grammar:
//
//	or   = and { "or" and }
//	and  = unary { "and" unary }
//	unary = "not" unary | "(" or ")" | phrase
type kpCheck struct {
	src     string
	i       int    // byte offset of the next unread byte
	tok     int    // current token
	pos     int    // 1-based character position of the current token
	text    string // the current word
	problem string
}

// fail records the first problem, at the current token.
func (k *kpCheck) fail(msg string) {
	if k.problem == "" {
		k.problem = "character " + strconv.Itoa(k.pos) + ": " + msg
	}
}

// describe names the current token.
func (k *kpCheck) describe() string {
	switch k.tok {
	case kpEOF:
		return "the end"
	case kpPhrase:
		return "a phrase"
	case kpLParen:
		return "'('"
	case kpRParen:
		return "')'"
	}
	return strconv.Quote(k.text)
}

// next reads the next token.
func (k *kpCheck) next() {
	for k.i < len(k.src) {
		r, n := utf8.DecodeRuneInString(k.src[k.i:])
		if !unicode.IsSpace(r) {
			break
		}
		k.i += n
	}
	k.pos = utf8.RuneCountInString(k.src[:k.i]) + 1
	if k.i >= len(k.src) {
		k.tok = kpEOF
		return
	}
	switch c := k.src[k.i]; c {
	case '(':
		k.tok, k.i = kpLParen, k.i+1
	case ')':
		k.tok, k.i = kpRParen, k.i+1
	case '\'':
		end := strings.IndexByte(k.src[k.i+1:], '\'')
		if end < 0 {
			k.tok = kpEOF
			k.fail("the quote opened here is never closed; end the phrase with '")
			return
		}
		k.tok, k.i = kpPhrase, k.i+1+end+1
	default:
		j := k.i
		for j < len(k.src) {
			r, n := utf8.DecodeRuneInString(k.src[j:])
			if unicode.IsSpace(r) || r == '(' || r == ')' || r == '\'' {
				break
			}
			j += n
		}
		k.text, k.i = k.src[k.i:j], j
		switch k.text {
		case "and":
			k.tok = kpAnd
		case "or":
			k.tok = kpOr
		case "not":
			k.tok = kpNot
		default:
			k.tok = kpWord
		}
	}
}

func (k *kpCheck) or() {
	for k.and(); k.problem == "" && k.tok == kpOr; {
		k.next()
		k.and()
	}
}

func (k *kpCheck) and() {
	for k.unary(); k.problem == "" && k.tok == kpAnd; {
		k.next()
		k.unary()
	}
}

func (k *kpCheck) unary() {
	if k.problem != "" {
		return
	}
	switch k.tok {
	case kpNot:
		k.next()
		k.unary()
	case kpLParen:
		open := k.pos
		k.next()
		k.or()
		if k.problem != "" {
			return
		}
		if k.tok != kpRParen {
			k.pos = open
			k.fail("the '(' opened here is never closed; add a ')'")
			return
		}
		k.next()
	case kpPhrase:
		k.next()
	case kpWord:
		if strings.EqualFold(k.text, "and") || strings.EqualFold(k.text, "or") || strings.EqualFold(k.text, "not") {
			k.fail(strconv.Quote(k.text) + " must be written in lower case")
			return
		}
		k.fail("the bare word " + strconv.Quote(k.text) + " is not a phrase; put phrases in single quotes, e.g. '" + k.text + "'")
	default:
		k.fail("expected a quoted phrase, found " + k.describe())
	}
}
