package journal

import (
	"encoding/json"
	"strings"
)

// Member is one member of a JSON object: its decoded name and the byte range
// [Start, End) of its raw value within the object's text.
type Member struct {
	Name       string
	Start, End int
}

// Members splits a JSON object into its members, in order, without
// decoding the values. obj must be valid JSON (see json.Valid) whose first
// non-space byte is '{'; it is what the server parses request bodies with, so
// the journal redacts exactly the members the server reads.
func Members(obj []byte) []Member {
	var out []Member
	i := skipSpace(obj, 0) + 1 // past '{'
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return out
		}
		if obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
		nameEnd := skipString(obj, i)
		name := decodeName(obj[i:nameEnd])
		i = skipSpace(obj, nameEnd)
		i = skipSpace(obj, i+1) // past ':'
		end := skipValue(obj, i)
		out = append(out, Member{Name: name, Start: i, End: end})
		i = end
	}
}

// decodeName decodes a quoted member name; only names with escapes need the
// full decoder.
func decodeName(quoted []byte) string {
	raw := quoted[1 : len(quoted)-1]
	if strings.IndexByte(string(raw), '\\') < 0 {
		return string(raw)
	}
	var s string
	_ = json.Unmarshal(quoted, &s) // valid by the caller's contract
	return s
}

// elements returns the byte ranges of the values of a valid JSON array.
func elements(arr []byte) [][2]int {
	var out [][2]int
	i := skipSpace(arr, 0) + 1 // past '['
	for {
		i = skipSpace(arr, i)
		if i >= len(arr) || arr[i] == ']' {
			return out
		}
		if arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
		end := skipValue(arr, i)
		out = append(out, [2]int{i, end})
		i = end
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
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
		return i
	}
	for i < len(b) && !strings.ContainsRune(",}] \t\n\r", rune(b[i])) {
		i++
	}
	return i
}
