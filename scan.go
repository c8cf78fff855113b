package newssearch

import (
	"errors"

	"github.com/newssearch/newssearch-go/internal/jsonscan"
)

// A minimal JSON walker used after encoding/json has validated a document:
// it only finds the boundaries of values, which lets the decoder collect an
// article's unknown members in one cheap forward pass instead of decoding
// every article twice. It is still defensive: malformed input yields errMalformed,
// never a panic.

// errMalformed reports input the walker cannot follow.
var errMalformed = errors.New("malformed JSON")

// valueEnd returns the index just past the value starting at d[i], or
// errMalformed when there is none.
func valueEnd(d []byte, i int) (int, error) {
	end := jsonscan.SkipValue(d, i)
	if end == i || end > len(d) {
		return 0, errMalformed
	}
	return end, nil
}

// walkObject walks the object starting at the first non-space byte at or
// after d[i]: it calls fn with the raw key (between the quotes, still
// escaped) and the index of the value of each member, in order, and fn
// returns the index just past that value, having walked the value itself
// or skipped it (valueEnd). walkObject returns the index just past the
// object. Each byte is read once, however deep the walk goes.
func walkObject(d []byte, i int, fn func(key []byte, v int) (int, error)) (int, error) {
	i = jsonscan.SkipSpace(d, i)
	if i >= len(d) || d[i] != '{' {
		return 0, errMalformed
	}
	i++
	for {
		i = jsonscan.SkipSpace(d, i)
		if i < len(d) && d[i] == ',' {
			i = jsonscan.SkipSpace(d, i+1)
		}
		if i >= len(d) {
			return 0, errMalformed
		}
		if d[i] == '}' {
			return i + 1, nil
		}
		if d[i] != '"' {
			return 0, errMalformed
		}
		ks := i
		i = jsonscan.SkipString(d, i)
		if i > len(d) || i-ks < 2 {
			return 0, errMalformed
		}
		key := d[ks+1 : i-1]
		i = jsonscan.SkipSpace(d, i)
		if i >= len(d) || d[i] != ':' {
			return 0, errMalformed
		}
		v := jsonscan.SkipSpace(d, i+1)
		if v >= len(d) {
			return 0, errMalformed
		}
		end, err := fn(key, v)
		if err != nil {
			return 0, err
		}
		if end <= v || end > len(d) {
			return 0, errMalformed
		}
		i = end
	}
}

// walkArray walks the array starting at the first non-space byte at or
// after d[i] as walkObject walks an object: fn gets the index n of each
// element and the index v where it starts, and returns the index just past
// it.
func walkArray(d []byte, i int, fn func(n, v int) (int, error)) (int, error) {
	i = jsonscan.SkipSpace(d, i)
	if i >= len(d) || d[i] != '[' {
		return 0, errMalformed
	}
	i++
	for n := 0; ; n++ {
		i = jsonscan.SkipSpace(d, i)
		if i < len(d) && d[i] == ',' {
			i = jsonscan.SkipSpace(d, i+1)
		}
		if i >= len(d) {
			return 0, errMalformed
		}
		if d[i] == ']' {
			return i + 1, nil
		}
		end, err := fn(n, i)
		if err != nil {
			return 0, err
		}
		if end <= i || end > len(d) {
			return 0, errMalformed
		}
		i = end
	}
}

// eachMember calls fn with the raw key (between the quotes, still escaped)
// and raw value of each member of the object obj, in order.
func eachMember(obj []byte, fn func(key, val []byte) error) error {
	_, err := walkObject(obj, 0, func(key []byte, v int) (int, error) {
		end, err := valueEnd(obj, v)
		if err != nil {
			return 0, err
		}
		return end, fn(key, obj[v:end])
	})
	return err
}

// eachElement calls fn with the index and raw value of each element of the
// array arr, in order.
func eachElement(arr []byte, fn func(i int, elem []byte) error) error {
	_, err := walkArray(arr, 0, func(n, v int) (int, error) {
		end, err := valueEnd(arr, v)
		if err != nil {
			return 0, err
		}
		return end, fn(n, arr[v:end])
	})
	return err
}
