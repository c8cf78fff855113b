// Package jsonscan finds the boundaries of JSON values without decoding
// them. The SDK uses it to collect an article's unknown members in one
// forward pass, and the mock server to split request bodies into members
// for its journal.
//
// It is meant for input encoding/json has already validated, but stays
// defensive: on malformed input it returns an index past the end (see
// Unterminated), never panics.
package jsonscan

import "bytes"

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
