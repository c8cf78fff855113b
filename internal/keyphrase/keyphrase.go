// Package keyphrase parses and evaluates the key_phrases filter language of
// the search service: single-quoted phrases joined by the lower-case
// operators and, or and not, grouped with parentheses, for example
//
//	('elon' or 'musk') and not 'sam altman'
//
// Precedence is not > and > or. This is the one parser of the module: the
// SDK calls Check, which judges the grammar only, and the mock server calls
// Parse with its Rules (its length and nesting limits and its term
// analysis). Every mistake is a *SyntaxError that points at the offending
// character and says how to fix it; Check and Parse report the same grammar
// mistake in the same words.
package keyphrase

import (
	"slices"
	"strings"
)

// Rules are the limits and term analysis a service adds to the grammar.
// The zero value adds nothing: Parse(s, Rules{}) accepts exactly what
// Check accepts.
type Rules struct {
	// MaxLength is the longest expression accepted, in characters; 0 means
	// no limit.
	MaxLength int
	// MaxDepth is how deeply parentheses and 'not' operators may nest; 0
	// means no limit.
	MaxDepth int
	// Terms splits a phrase into the words it matches by (for example
	// lower-cased and stripped of punctuation). A phrase for which it returns
	// none is an error. nil keeps every phrase as one term, its text as
	// written, and accepts an empty phrase.
	Terms func(phrase string) []string
}

// Phrase is one distinct quoted phrase of an expression.
type Phrase struct {
	// Text is the phrase as written between the quotes (of its first
	// occurrence).
	Text string
	// Terms are the phrase's words as Rules.Terms spells them; a document
	// matches the phrase when these occur consecutively in one field. Never
	// empty.
	Terms []string
	// Pos is the 1-based character position of the phrase's opening quote.
	Pos int
}

// Expr is a parsed key_phrases expression. It is immutable and safe for
// concurrent use.
type Expr struct {
	root    *node
	phrases []Phrase
}

type kind uint8

const (
	kindPhrase kind = iota
	kindAnd
	kindOr
	kindNot
)

// node is one operator or phrase of the expression tree. And and Or nodes
// have two or more args, Not nodes exactly one.
type node struct {
	kind   kind
	phrase int
	args   []*node
}

// Phrases returns the distinct phrases of the expression, in order of first
// appearance. The index of a phrase in this slice is the number Eval passes
// to its callback. The caller must not modify the slice.
func (e *Expr) Phrases() []Phrase { return e.phrases }

// Eval evaluates the expression for one document; match reports whether the
// document contains phrase i (an index into Phrases). Operands are evaluated
// left to right and short-circuit, so match may be called for a subset of the
// phrases, and at most once per phrase and node.
func (e *Expr) Eval(match func(i int) bool) bool { return e.root.eval(match) }

func (n *node) eval(match func(int) bool) bool {
	switch n.kind {
	case kindPhrase:
		return match(n.phrase)
	case kindNot:
		return !n.args[0].eval(match)
	case kindAnd:
		for _, a := range n.args {
			if !a.eval(match) {
				return false
			}
		}
		return true
	default:
		for _, a := range n.args {
			if a.eval(match) {
				return true
			}
		}
		return false
	}
}

// Required returns the indexes, ascending, of the phrases every matching
// document must contain. A search engine can narrow its candidates to the
// documents holding these phrases before it calls Eval.
func (e *Expr) Required() []int { return e.root.required() }

func (n *node) required() []int {
	switch n.kind {
	case kindPhrase:
		return []int{n.phrase}
	case kindNot:
		return nil
	case kindAnd:
		var out []int
		for _, a := range n.args {
			out = append(out, a.required()...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	default:
		out := n.args[0].required()
		for _, a := range n.args[1:] {
			if len(out) == 0 {
				break
			}
			other := a.required()
			out = slices.DeleteFunc(out, func(i int) bool { _, found := slices.BinarySearch(other, i); return !found })
		}
		return out
	}
}

// String returns the expression in a canonical form: each phrase as its
// normalised words (the form it matches by, so phrases that match alike
// print alike), lower-case operators, single spaces, and parentheses only
// where precedence needs them. The spaces it puts around operators can make
// it longer than the input, even past Rules.MaxLength.
func (e *Expr) String() string {
	var b strings.Builder
	e.root.write(&b, e.phrases, kindOr)
	return b.String()
}

// write prints n; parent is the operator n is an operand of.
func (n *node) write(b *strings.Builder, phrases []Phrase, parent kind) {
	switch n.kind {
	case kindPhrase:
		b.WriteString("'")
		for i, term := range phrases[n.phrase].Terms {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(term)
		}
		b.WriteString("'")
	case kindNot:
		b.WriteString("not ")
		n.args[0].write(b, phrases, kindNot)
	default:
		op := " and "
		if n.kind == kindOr {
			op = " or "
		}
		paren := parent == kindNot || parent == kindAnd && n.kind == kindOr
		if paren {
			b.WriteString("(")
		}
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(op)
			}
			a.write(b, phrases, n.kind)
		}
		if paren {
			b.WriteString(")")
		}
	}
}
