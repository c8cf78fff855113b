package keyphrase

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Check reports whether s is a well-formed key_phrases expression: nil, or
// a *SyntaxError for its first mistake of grammar (an unclosed quote or
// parenthesis, a missing phrase or operator, a bare word, an operator not
// in lower case). It sets no limit and takes any text between the quotes,
// even none: how long an expression may be and what a phrase must contain
// are the service's to say.
func Check(s string) error {
	if _, err := parse(s, Rules{}); err != nil {
		return err
	}
	return nil
}

// Parse parses a key_phrases expression under the rules r. Every error is a
// *SyntaxError: one with Rule set breaks r; any other is the one Check
// reports.
func Parse(s string, r Rules) (*Expr, error) {
	e, err := parse(s, r)
	if err != nil {
		return nil, err
	}
	return e, nil
}

func parse(s string, r Rules) (*Expr, *SyntaxError) {
	if n := utf8.RuneCountInString(s); r.MaxLength > 0 && n > r.MaxLength {
		return nil, &SyntaxError{Pos: r.MaxLength + 1, Rule: true, Msg: fmt.Sprintf(
			"the expression is %d characters long, over the limit of %d; shorten it", n, r.MaxLength)}
	}
	if strings.TrimFunc(s, unicode.IsSpace) == "" {
		return nil, &SyntaxError{Pos: 1, Msg: "the expression is empty; write at least one quoted phrase"}
	}
	p := &parser{src: []rune(s), rules: r, seen: map[string]int{}}
	root, err := p.parse()
	if err != nil {
		return nil, err
	}
	return &Expr{root: root, phrases: p.phrases}, nil
}

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
	text  string   // the phrase between the quotes, or the word
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
		return `"("`
	case tokRParen:
		return `")"`
	}
	return strconv.Quote(shorten(t.text))
}

// parser is an operator-precedence parser over a lazily lexed rune slice,
// so the leftmost mistake is the one reported. It keeps pending operators
// on a stack rather than recursing, so no input can exhaust the goroutine
// stack, however deep its parentheses.
type parser struct {
	src     []rune
	i       int // index of the next unread rune
	rules   Rules
	tok     token   // the current token
	prev    token   // the token before it
	ops     []op    // pending operators and open parentheses
	args    []*node // operands not yet joined
	depth   int     // open parentheses and pending 'not's
	phrases []Phrase
	seen    map[string]int // phrase key -> index in phrases
}

// op is a pending and, or or not, or an open parenthesis at pos.
type op struct {
	kind tokKind
	pos  int
}

// parse reads the whole input: alternately an operand (a phrase, or a
// 'not' or '(' that opens one) and a junction (and, or, ')' or the end).
func (p *parser) parse() (*node, *SyntaxError) {
	operand := true
	for {
		if err := p.advance(); err != nil {
			return nil, err
		}
		t := p.tok
		if operand {
			switch t.kind {
			case tokPhrase:
				p.args = append(p.args, &node{kind: kindPhrase, phrase: p.addPhrase(t)})
				p.closeNots()
				operand = false
			case tokNot, tokLParen:
				if p.rules.MaxDepth > 0 && p.depth >= p.rules.MaxDepth {
					e := p.fail(t.pos, "the expression nests parentheses and 'not' more than %d levels deep; simplify it", p.rules.MaxDepth)
					e.Rule = true
					return nil, e
				}
				p.ops = append(p.ops, op{t.kind, t.pos})
				p.depth++
			default:
				return nil, p.operandError()
			}
			continue
		}
		switch t.kind {
		case tokAnd, tokOr:
			p.reduce(t.kind)
			p.ops = append(p.ops, op{kind: t.kind})
			operand = true
		case tokRParen:
			p.reduce(tokOr)
			if len(p.ops) == 0 {
				return nil, p.fail(t.pos, `unmatched ")": there is no "(" before it to close; remove it or add a "("`)
			}
			p.ops = p.ops[:len(p.ops)-1]
			p.depth--
			p.closeNots()
		case tokEOF:
			p.reduce(tokOr)
			if len(p.ops) > 0 {
				return nil, p.fail(p.ops[len(p.ops)-1].pos, `the "(" opened here is never closed; add a ")" to close it`)
			}
			return p.args[0], nil
		default:
			return nil, p.junctionError()
		}
	}
}

// reduce joins the operands of the pending operators that bind at least as
// tightly as k: and binds tighter than or.
func (p *parser) reduce(k tokKind) {
	for len(p.ops) > 0 {
		top := p.ops[len(p.ops)-1].kind
		if top != tokAnd && (top != tokOr || k != tokOr) {
			return
		}
		p.ops = p.ops[:len(p.ops)-1]
		kind := kindAnd
		if top == tokOr {
			kind = kindOr
		}
		n := len(p.args)
		left, right := p.args[n-2], p.args[n-1]
		if left.kind != kind {
			left = &node{kind: kind, args: []*node{left}}
		}
		left.add(right)
		p.args = append(p.args[:n-2], left)
	}
}

// closeNots applies the pending 'not's to the operand just completed.
func (p *parser) closeNots() {
	for len(p.ops) > 0 && p.ops[len(p.ops)-1].kind == tokNot {
		p.ops = p.ops[:len(p.ops)-1]
		p.depth--
		last := len(p.args) - 1
		p.args[last] = &node{kind: kindNot, args: []*node{p.args[last]}}
	}
}

// add appends an operand, merging it when it is the same operator.
func (n *node) add(a *node) {
	if a.kind == n.kind {
		n.args = append(n.args, a.args...)
		return
	}
	n.args = append(n.args, a)
}

func (p *parser) fail(pos int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// operandError explains a token found where a phrase, 'not' or '(' was
// expected.
func (p *parser) operandError() *SyntaxError {
	t := p.tok
	switch {
	case t.kind == tokWord:
		if e := p.wordError(t, true); e != nil {
			return e
		}
	case t.kind == tokRParen && p.prev.kind == tokLParen:
		return p.fail(t.pos, `empty parentheses "()"; put a quoted phrase between them`)
	}
	where := "after " + p.prev.describe()
	if p.prev.kind == tokEOF { // nothing read yet
		where = "at the start"
	}
	return p.fail(t.pos, `expected a quoted phrase, "(" or "not" %s, found %s`, where, t.describe())
}

// junctionError explains a token found after a complete operand, where only
// and, or, ')' or the end of the input may follow.
func (p *parser) junctionError() *SyntaxError {
	switch t := p.tok; t.kind {
	case tokPhrase:
		return p.fail(t.pos, `missing operator before this phrase; join phrases with "and" or "or"`)
	case tokLParen:
		return p.fail(t.pos, `missing operator before "("; join the parts with "and" or "or"`)
	case tokNot:
		return p.fail(t.pos, `"not" cannot join two parts; write "and not" or "or not"`)
	default: // tokWord: the others are operands or junctions
		return p.wordError(t, false)
	}
}

// wordError explains a bare word found where an operand is expected
// (operand) or after one. It returns nil for a word that is no mistake of
// its own there (an upper-case AND where a phrase is due), which
// operandError then explains.
func (p *parser) wordError(t token, operand bool) *SyntaxError {
	w, lower := t.text, strings.ToLower(t.text)
	switch {
	case lower == "not" && operand:
		return p.fail(t.pos, `%s must be written in lower case; write "not"`, t.describe())
	case lower == "not":
		return p.fail(t.pos, `%s cannot join two parts; write "and not" or "or not"`, t.describe())
	case lower == "and" || lower == "or":
		if operand {
			return nil
		}
		return p.fail(t.pos, "%s must be written in lower case; write %q", t.describe(), lower)
	case w == "&" || w == "&&" || w == "|" || w == "||":
		if operand {
			return nil
		}
		word := "and"
		if w[0] == '|' {
			word = "or"
		}
		return p.fail(t.pos, "unknown operator %s; write %q", t.describe(), word)
	case w == "!" || w == "-":
		if operand {
			return p.fail(t.pos, `unknown operator %s; write "not"`, t.describe())
		}
		return p.fail(t.pos, `unknown operator %s; write "and not" or "or not"`, t.describe())
	}
	if r, _ := utf8.DecodeRuneInString(w); isQuote(r) {
		return p.quoteError(t, r, operand)
	}
	phrase, _ := suggestion(w)
	isWord := strings.ContainsFunc(w, isLetterOrDigit)
	switch {
	case operand && isWord:
		return p.fail(t.pos, "unknown word %s; put phrases in single quotes, e.g. %s", t.describe(), phrase)
	case operand:
		return p.fail(t.pos, "unexpected %s; write a phrase in single quotes, e.g. %s", t.describe(), phrase)
	case isWord:
		return p.fail(t.pos, `unknown word %s; quote it and join it with "and" or "or", e.g. and %s`, t.describe(), phrase)
	}
	return p.fail(t.pos, `unexpected %s; join phrases with "and" or "or"`, t.describe())
}

// quoteError explains a phrase quoted with something other than plain
// single quotes: the quote r that starts the word t.
func (p *parser) quoteError(t token, r rune, operand bool) *SyntaxError {
	// The text up to the matching quote, which may span several words.
	text := strings.TrimFunc(t.text, isQuote)
	start := t.pos // the rune after the opening quote
	end := start
	for end < len(p.src) && !isQuote(p.src[end]) && p.src[end] != '\'' {
		end++
	}
	if end < len(p.src) && isQuote(p.src[end]) {
		text = strings.TrimFunc(string(p.src[start:end]), unicode.IsSpace)
	}
	name := "typographic quotes"
	switch r {
	case '"':
		name = "double quotes"
	case '`':
		name = "backquotes"
	}
	phrase, ok := suggestion(text)
	verb := "write "
	if !ok {
		verb = "e.g. "
	}
	if operand {
		return p.fail(t.pos, "phrases take plain single quotes ('), not %s; %s%s", name, verb, phrase)
	}
	return p.fail(t.pos, `phrases take plain single quotes ('), not %s, and are joined by "and" or "or"; %sand %s`, name, verb, phrase)
}

// suggestion returns text as a quoted phrase to suggest, and true, when
// every term analysis accepts it: it has a letter or a digit, and it is
// short enough to print whole. Otherwise it returns an example phrase.
func suggestion(text string) (string, bool) {
	text = strings.TrimFunc(text, isQuote)
	if utf8.RuneCountInString(text) > shortLimit || !strings.ContainsFunc(text, isLetterOrDigit) {
		return "'sam altman'", false
	}
	return "'" + text + "'", true
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isQuote reports whether r is a quote mark users put around phrases in
// place of the plain single quote.
func isQuote(r rune) bool { return strings.ContainsRune("\"`‘’‚“”„«»", r) }

// advance reads the next token into p.tok.
func (p *parser) advance() *SyntaxError {
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
	switch word {
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
func (p *parser) lexPhrase() *SyntaxError {
	open := p.i
	pos := open + 1
	end := open + 1
	for end < len(p.src) && p.src[end] != '\'' {
		end++
	}
	if end == len(p.src) {
		return p.fail(pos, "the quote that opens this phrase is never closed; end the phrase with another '")
	}
	text := string(p.src[open+1 : end])
	p.i = end + 1
	terms := []string{text}
	if p.rules.Terms != nil {
		var e *SyntaxError
		if text == "" {
			e = p.fail(pos, "empty phrase ''; put at least one word between the quotes")
		} else if terms = p.rules.Terms(text); len(terms) == 0 {
			e = p.fail(pos, "the phrase '%s' has no letters or digits to match; put words between the quotes", shorten(text))
		}
		if e != nil {
			e.Rule = true
			return e
		}
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

// shortLimit is how many characters of user text a message quotes.
const shortLimit = 40

// shorten keeps user text in messages readable.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= shortLimit {
		return s
	}
	return string([]rune(s)[:shortLimit]) + "…"
}
