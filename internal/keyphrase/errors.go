package keyphrase

import "fmt"

// SyntaxError reports a malformed key_phrases expression.
type SyntaxError struct {
	// Pos is the 1-based character (not byte) position of the mistake; it is
	// one past the last character when the input ended too early.
	Pos int
	// Msg says what is wrong at Pos and how to fix it. A phrase it suggests
	// (in single quotes, after "e.g." or "write") is accepted by Check and by
	// any Rules.Terms that finds a term in a letter or a digit.
	Msg string
	// Rule is set when the expression is well formed but breaks one of the
	// Rules passed to Parse (too long, nested too deep, a phrase without
	// terms). Check never reports such an error.
	Rule bool
}

// Error returns the message with its position and a reminder of the syntax.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("key_phrases: syntax error at position %d: %s; "+
		"write quoted phrases joined by lower-case and/or/not, e.g. ('elon' or 'musk') and not 'sam altman'", e.Pos, e.Msg)
}
