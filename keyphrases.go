package newssearch

import (
	"errors"
	"strconv"
	"strings"

	"github.com/newssearch/newssearch-go/internal/keyphrase"
)

// CheckKeyPhrases checks a key_phrases expression against the grammar the
// service documents (single-quoted phrases joined by lower-case and, or and
// not, with parentheses), with the parser the mock uses, and returns a
// *ValidationError naming the first problem and its 1-based character
// position, or nil (also for a blank s: no key phrases). SubmitQuery does not call it, since the service may
// accept more: call it to catch a mistake before sending.
func CheckKeyPhrases(s string) error {
	var se *keyphrase.SyntaxError
	if strings.TrimSpace(s) != "" && errors.As(keyphrase.Check(s), &se) {
		return &ValidationError{Field: "AsyncSearchParams.KeyPhrases", Problem: "character " + strconv.Itoa(se.Pos) + ": " + se.Msg +
			": write single-quoted phrases joined by lower-case and, or, not and parentheses, e.g. \"('elon' or 'musk') and not 'sam altman'\""}
	}
	return nil
}
