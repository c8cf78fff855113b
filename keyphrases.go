package newssearch

import (
	"errors"
	"strconv"

	"github.com/newssearch/newssearch-go/internal/keyphrase"
)

// checkKeyPhrases judges the structure of a key_phrases expression with the
// parser the mock server uses (package internal/keyphrase): single-quoted
// phrases joined by lower-case and, or and not, with parentheses. It
// catches what is certainly malformed and leaves the rest (length limits,
// phrases of no searchable word) to the service. It returns "" for a
// well-formed expression, else the problem with its 1-based character
// position.
func checkKeyPhrases(s string) string {
	var se *keyphrase.SyntaxError
	if errors.As(keyphrase.Check(s), &se) {
		return "character " + strconv.Itoa(se.Pos) + ": " + se.Msg
	}
	return ""
}
