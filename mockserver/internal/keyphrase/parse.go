package keyphrase

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokPhrase
	tokLParen
	tokRParen
	tokAnd
	tokOr
	tokNot
	tokWord
)

// token is one lexical element; pos is its 1-based character position.
type token struct {
	kind  tokKind
	pos   int
	text  string   // the phrase between the quotes, or the bare word
	terms []string // the phrase's terms
}

// describe names the token for an error message.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "the end of the input"
	case tokPhrase:
		return "a phrase"
	case tokLParen:
		return "'('"
	case tokRParen:
		return "')'"
	default:
		return "'" + shorten(t.text) + "'"
	}
}

// parser is a recursive-descent parser over a lazily lexed rune slice, so
// the leftmost mistake is the one reported.
type parser struct {
	src     []rune
	i       int   // index of the next unread rune
	tok     token // the current token
	prev    token // the token before it
	phrases []Phrase
	seen    map[string]int // phrase key -> index in phrases
}

// Parse parses a key_phrases expression. Every error is a *SyntaxError.
func Parse(s string) (*Expr, error) {
	if n := utf8.RuneCountInString(s); n > MaxLength {
		return nil, &SyntaxError{Pos: MaxLength + 1, Msg: fmt.Sprintf(
			"the expression is %d characters long, over the limit of %d; shorten it", n, MaxLength)}
	}
	if strings.TrimFunc(s, unicode.IsSpace) == "" {
		return nil, &SyntaxError{Pos: 1, Msg: "the expression is empty; write at least one quoted phrase"}
	}
	p := &parser{src: []rune(s), seen: map[string]int{}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	root, err := p.parseOr(0)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		if p.tok.kind == tokRParen {
			return nil, p.errorf(p.tok.pos, "unmatched ')': there is no '(' before it to close; remove it or add a '('")
		}
		return nil, p.junctionError()
	}
	return &Expr{root: root, phrases: p.phrases}, nil
}

func (p *parser) errorf(pos int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// parseOr parses or-joined operands; depth counts the enclosing parentheses
// and 'not' operators.
func (p *parser) parseOr(depth int) (*node, error) {
	return p.parseJoined(depth, tokOr, kindOr, p.parseAnd)
}

func (p *parser) parseAnd(depth int) (*node, error) {
	return p.parseJoined(depth, tokAnd, kindAnd, p.parseUnary)
}

// parseJoined parses operands joined by the operator op and flattens nested
// nodes of the same kind into one.
func (p *parser) parseJoined(depth int, op tokKind, k kind, operand func(int) (*node, error)) (*node, error) {
	first, err := operand(depth)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != op {
		return first, nil
	}
	n := &node{kind: k}
	n.add(first)
	for p.tok.kind == op {
		if err := p.advance(); err != nil {
			return nil, err
		}
		next, err := operand(depth)
		if err != nil {
			return nil, err
		}
		n.add(next)
	}
	return n, nil
}

// add appends an operand, merging it when it is the same operator.
func (n *node) add(a *node) {
	if a.kind == n.kind {
		n.args = append(n.args, a.args...)
		return
	}
	n.args = append(n.args, a)
}

// parseUnary parses a phrase, a 'not' operand or a parenthesised expression.
func (p *parser) parseUnary(depth int) (*node, error) {
	switch p.tok.kind {
	case tokPhrase:
		n := &node{kind: kindPhrase, phrase: p.addPhrase(p.tok)}
		return n, p.advance()
	case tokNot, tokLParen:
		if depth >= MaxDepth {
			return nil, p.errorf(p.tok.pos, "the expression nests parentheses and 'not' more than %d levels deep; simplify it", MaxDepth)
		}
		if p.tok.kind == tokNot {
			if err := p.advance(); err != nil {
				return nil, err
			}
			operand, err := p.parseUnary(depth + 1)
			if err != nil {
				return nil, err
			}
			return &node{kind: kindNot, args: []*node{operand}}, nil
		}
		open := p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		inner, err := p.parseOr(depth + 1)
		if err != nil {
			return nil, err
		}
		switch p.tok.kind {
		case tokRParen:
			return inner, p.advance()
		case tokEOF:
			return nil, p.errorf(p.tok.pos, "expected ')' to close the '(' at position %d", open)
		}
		return nil, p.junctionError()
	}
	return nil, p.operandError()
}

// operandError explains a token found where a phrase was expected.
func (p *parser) operandError() *SyntaxError {
	t := p.tok
	switch {
	case t.kind == tokWord:
		return p.wordError(t)
	case t.kind == tokRParen && p.prev.kind == tokLParen:
		return p.errorf(t.pos, "empty parentheses '()'; put a quoted phrase between them")
	case p.prev.kind == tokEOF: // nothing read yet
		return p.errorf(t.pos, "expected a quoted phrase, '(' or 'not' at the start, found %s", t.describe())
	}
	return p.errorf(t.pos, "expected a quoted phrase, '(' or 'not' after %s, found %s", p.prev.describe(), t.describe())
}

// junctionError explains a token found after a complete operand, where only
// 'and', 'or', ')' or the end of the input may follow.
func (p *parser) junctionError() *SyntaxError {
	t := p.tok
	switch t.kind {
	case tokWord:
		return p.wordError(t)
	case tokPhrase:
		return p.errorf(t.pos, "missing operator before this phrase; join phrases with 'and' or 'or'")
	case tokLParen:
		return p.errorf(t.pos, "missing operator before '('; join the parts with 'and' or 'or'")
	case tokNot:
		return p.errorf(t.pos, "'not' cannot join two parts; write 'and not' or 'or not'")
	}
	return p.errorf(t.pos, "expected 'and', 'or' or the end of the input, found %s", t.describe())
}

// wordError explains a bare word, with a hint for common look-alikes.
func (p *parser) wordError(t token) *SyntaxError {
	switch w := t.text; {
	case w == "&" || w == "&&":
		return p.errorf(t.pos, "unknown operator '%s'; write 'and'", w)
	case w == "|" || w == "||":
		return p.errorf(t.pos, "unknown operator '%s'; write 'or'", w)
	case w == "!" || w == "-":
		return p.errorf(t.pos, "unknown operator '%s'; write 'not'", w)
	case strings.ContainsAny(w, "\"‘’“”`"):
		return p.errorf(t.pos, "unexpected %s; quote phrases with plain single quotes ('), e.g. 'sam altman'", t.describe())
	}
	return p.errorf(t.pos, "unknown word %s; put phrases in single quotes, e.g. '%s'", t.describe(), shorten(t.text))
}

// advance reads the next token into p.tok.
func (p *parser) advance() error {
	p.prev = p.tok
	for p.i < len(p.src) && unicode.IsSpace(p.src[p.i]) {
		p.i++
	}
	start := p.i
	pos := start + 1
	if start == len(p.src) {
		p.tok = token{kind: tokEOF, pos: pos}
		return nil
	}
	switch p.src[start] {
	case '(':
		p.i++
		p.tok = token{kind: tokLParen, pos: pos}
		return nil
	case ')':
		p.i++
		p.tok = token{kind: tokRParen, pos: pos}
		return nil
	case '\'':
		return p.lexPhrase()
	}
	for p.i < len(p.src) && !isDelimiter(p.src[p.i]) {
		p.i++
	}
	word := string(p.src[start:p.i])
	k := tokWord
	switch strings.ToLower(word) {
	case "and":
		k = tokAnd
	case "or":
		k = tokOr
	case "not":
		k = tokNot
	}
	p.tok = token{kind: k, pos: pos, text: word}
	return nil
}

func isDelimiter(r rune) bool {
	return r == '(' || r == ')' || r == '\'' || unicode.IsSpace(r)
}

// lexPhrase reads a single-quoted phrase starting at p.i.
func (p *parser) lexPhrase() error {
	open := p.i
	pos := open + 1
	end := open + 1
	for end < len(p.src) && p.src[end] != '\'' {
		end++
	}
	if end == len(p.src) {
		return p.errorf(pos, "the quote that opens this phrase is never closed; end the phrase with another '")
	}
	text := string(p.src[open+1 : end])
	p.i = end + 1
	if text == "" {
		return p.errorf(pos, "empty phrase ''; put at least one word between the quotes")
	}
	terms := analysis.Tokens(text)
	if len(terms) == 0 {
		return p.errorf(pos, "the phrase '%s' has no letters or digits to match; put words between the quotes", shorten(text))
	}
	p.tok = token{kind: tokPhrase, pos: pos, text: text, terms: terms}
	return nil
}

// addPhrase returns the index of the phrase, registering it when new.
func (p *parser) addPhrase(t token) int {
	key := strings.Join(t.terms, " ")
	if i, ok := p.seen[key]; ok {
		return i
	}
	i := len(p.phrases)
	p.seen[key] = i
	p.phrases = append(p.phrases, Phrase{Text: t.text, Terms: t.terms, Pos: t.pos})
	return i
}

// shorten keeps user text in messages readable.
func shorten(s string) string {
	const limit = 40
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	return string([]rune(s)[:limit]) + "…"
}
