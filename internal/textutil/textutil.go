// Package textutil holds the small text helpers that the SDK's and the
// mock server's error messages share.
package textutil

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// quoteLimit is the most characters of a value QuoteShort shows.
const quoteLimit = 60

// QuoteShort quotes a value for an error message, Go-escaped, showing at
// most 60 characters; a longer value is cut and followed by "…" outside
// the quotes. Invalid UTF-8 is dropped, so the result is always valid.
func QuoteShort(s string) string {
	s = strings.ToValidUTF8(s, "")
	if utf8.RuneCountInString(s) <= quoteLimit {
		return strconv.Quote(s)
	}
	r := []rune(s)
	return strconv.Quote(string(r[:quoteLimit])) + "…"
}
