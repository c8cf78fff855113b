// Package jsonscan finds the boundaries of JSON values without decoding
// them. The SDK uses it to collect an article's unknown members in one
// forward pass; the mock's recorder splits the answers it records with
// Members and Elements. It is meant for input already checked, but stays
// defensive: on malformed input it returns an index past the end (see
// Unterminated), never panics.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// structural marks the bytes SkipValue must look at inside a container.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// SkipSpace returns the index of the first non-space byte of d at or after
// i, or len(d).
func SkipSpace(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Unterminated is what SkipString and SkipValue return for a string or
// container that does not end before the input does: len(d)+1, an index
// past any valid end.
func Unterminated(d []byte) int { return len(d) + 1 }

// SkipString returns the index just past the string starting at
// d[i] == '"', or Unterminated(d).
func SkipString(d []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(d[i:], '"')
		if j < 0 {
			return Unterminated(d)
		}
		i += j
		k := i
		for d[k-1] == '\\' {
			k--
		}
		i++
		if (i-1-k)%2 == 0 { // an even run of backslashes escapes nothing
			return i
		}
	}
}

// SkipValue returns the index just past the value starting at d[i]: a
// string, an object or array (with everything inside it), or a literal
// (number, true, false, null), which ends at the next delimiter or space.
// An unterminated string or container gives Unterminated(d).
func SkipValue(d []byte, i int) int {
	if i >= len(d) {
		return i
	}
	switch d[i] {
	case '"':
		return SkipString(d, i)
	case '{', '[':
		depth := 0
		for i < len(d) {
			if !structural[d[i]] {
				i++
				continue
			}
			switch d[i] {
			case '"':
				i = SkipString(d, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return Unterminated(d)
	}
	for i < len(d) {
		switch d[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// Member is one member of a JSON object, located in the object's text: its
// decoded Name, the index NameStart of the name's opening quote, and the
// range [Start, End) of its value. The whole member is [NameStart, End).
type Member struct {
	Name       string
	NameStart  int
	Start, End int
}

// Members splits the object that starts at the first non-space byte of obj
// into its members, in order (a repeated name stays repeated), without
// decoding the values. It is meant for valid JSON (see json.Valid) and
// tolerant of anything else: a value that is not an object gives none, and
// the walk stops at the first member it cannot follow (an unterminated
// string or container, a name that is not a string, a missing colon or
// value), keeping the members before it. Names decode as encoding/json
// decodes them (escapes resolved, invalid UTF-8 replaced by U+FFFD).
func Members(obj []byte) []Member { return AppendMembers(nil, obj, nil) }

// AppendMembers is Members appending to out. A name found in known (name to
// itself) is taken from there rather than copied out of obj, so that a
// caller that expects certain names splits an object of them without an
// allocation per name.
func AppendMembers(out []Member, obj []byte, known map[string]string) []Member {
	i := SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return out
	}
	i++
	for {
		i = SkipSpace(obj, i)
		if i < len(obj) && obj[i] == ',' {
			i = SkipSpace(obj, i+1)
		}
		if i >= len(obj) || obj[i] != '"' {
			return out // the end ('}'), or a member that cannot be followed
		}
		start := i
		nameEnd := SkipString(obj, i)
		if nameEnd > len(obj) {
			return out
		}
		name, ok := known[string(obj[start+1:nameEnd-1])]
		if !ok {
			if name, ok = decodeName(obj[start:nameEnd]); !ok {
				return out
			}
		}
		i = SkipSpace(obj, nameEnd)
		if i >= len(obj) || obj[i] != ':' {
			return out
		}
		v := SkipSpace(obj, i+1)
		end := SkipValue(obj, v)
		if end <= v || end > len(obj) {
			return out
		}
		out = append(out, Member{Name: name, NameStart: start, Start: v, End: end})
		i = end
	}
}

// decodeName decodes a quoted member name; only a name with escapes or
// invalid UTF-8 needs the full decoder.
func decodeName(quoted []byte) (string, bool) {
	raw := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw), true
	}
	var s string
	return s, json.Unmarshal(quoted, &s) == nil
}

// Elements returns the ranges [start, end) of the values of the array that
// starts at the first non-space byte of arr, in order. Like Members it is
// tolerant: a value that is not an array gives none, and the walk stops at
// the first value it cannot follow, keeping the ones before it.
func Elements(arr []byte) [][2]int {
	i := SkipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil
	}
	var out [][2]int
	i++
	for {
		i = SkipSpace(arr, i)
		if i < len(arr) && arr[i] == ',' {
			i = SkipSpace(arr, i+1)
		}
		if i >= len(arr) || arr[i] == ']' {
			return out
		}
		end := SkipValue(arr, i)
		if end <= i || end > len(arr) {
			return out
		}
		out = append(out, [2]int{i, end})
		i = end
	}
}
