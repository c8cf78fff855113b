// Package textutil holds the small text helpers that the SDK's and the
// mock server's error messages share: quoting a value, and naming a JSON
// value's type instead of quoting it.
package textutil

import (
	"reflect"
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

// JSONType names the JSON type of the value raw starts with, judged by its
// first byte (so validate raw first): "string", "object", "array",
// "boolean", "null" or "number"; "" when raw is empty or its first byte
// starts no JSON value. Error messages name the type and never quote the
// value: the value may hold anything, an API key included.
func JSONType(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	switch c := raw[0]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || '0' <= c && c <= '9':
		return "number"
	}
	return ""
}

// JSONKind is JSONType as a message writes it, with an article: "a
// string", "an object", "an array", "a boolean", "a number" or "null";
// "nothing" for an empty raw and "invalid JSON" when raw starts no value.
func JSONKind(raw []byte) string {
	switch t := JSONType(raw); t {
	case "":
		if len(raw) == 0 {
			return "nothing"
		}
		return "invalid JSON"
	case "null":
		return t
	case "object", "array":
		return "an " + t
	default:
		return "a " + t
	}
}

// JSONKindOf names, as JSONKind does, the JSON value that decodes into a
// Go value of kind k (encoding/json's UnmarshalTypeError carries it): "a
// string", "an integer", "a number", "a boolean", "an array", or "an
// object" for anything else.
func JSONKindOf(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}
