package newssearch

import (
	"bytes"
	"errors"
)

// A minimal JSON walker used after encoding/json has validated a document:
// it only finds the boundaries of values, which lets the decoder collect an
// article's unknown members in one cheap pass instead of decoding every
// article twice. It is still defensive: malformed input yields errMalformed,
// never a panic.

// errMalformed reports input the walker cannot follow.
var errMalformed = errors.New("malformed JSON")

// structural marks the bytes skipValue must look at inside a container.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(d []byte, i int) int {
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

// unterminated is what the skip functions return for a string or container
// that does not end before the input does.
func unterminated(d []byte) int { return len(d) + 1 }

// skipString returns the index just past the string starting at d[i] == '"'.
func skipString(d []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(d[i:], '"')
		if j < 0 {
			return unterminated(d)
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

// skipValue returns the index just past the value starting at d[i].
func skipValue(d []byte, i int) int {
	if i >= len(d) {
		return i
	}
	switch d[i] {
	case '"':
		return skipString(d, i)
	case '{', '[':
		depth := 0
		for i < len(d) {
			if !structural[d[i]] {
				i++
				continue
			}
			switch d[i] {
			case '"':
				i = skipString(d, i)
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
		return unterminated(d)
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

// eachMember calls fn with the raw key (between the quotes, still escaped)
// and raw value of each member of the object obj, in order.
func eachMember(obj []byte, fn func(key, val []byte) error) error {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errMalformed
	}
	i++
	for {
		i = skipSpace(obj, i)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
		if i >= len(obj) {
			return errMalformed
		}
		if obj[i] == '}' {
			return nil
		}
		if obj[i] != '"' {
			return errMalformed
		}
		ks := i
		i = skipString(obj, i)
		if i > len(obj) || i-ks < 2 {
			return errMalformed
		}
		key := obj[ks+1 : i-1]
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] != ':' {
			return errMalformed
		}
		i = skipSpace(obj, i+1)
		vs := i
		i = skipValue(obj, i)
		if i == vs || i > len(obj) {
			return errMalformed
		}
		if err := fn(key, obj[vs:i]); err != nil {
			return err
		}
	}
}

// eachElement calls fn with the index and raw value of each element of the
// array arr, in order.
func eachElement(arr []byte, fn func(i int, elem []byte) error) error {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return errMalformed
	}
	i++
	for n := 0; ; n++ {
		i = skipSpace(arr, i)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
		if i >= len(arr) {
			return errMalformed
		}
		if arr[i] == ']' {
			return nil
		}
		vs := i
		i = skipValue(arr, i)
		if i == vs || i > len(arr) {
			return errMalformed
		}
		if err := fn(n, arr[vs:i]); err != nil {
			return err
		}
	}
}
