package journal

import (
	"encoding/json"
	"strings"

	"github.com/newssearch/newssearch-go/internal/jsonscan"
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
	i := jsonscan.SkipSpace(obj, 0) + 1 // past '{'
	for {
		i = jsonscan.SkipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return out
		}
		if obj[i] == ',' {
			i = jsonscan.SkipSpace(obj, i+1)
		}
		nameEnd := jsonscan.SkipString(obj, i)
		name := decodeName(obj[i:nameEnd])
		i = jsonscan.SkipSpace(obj, nameEnd)
		i = jsonscan.SkipSpace(obj, i+1) // past ':'
		end := jsonscan.SkipValue(obj, i)
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
	i := jsonscan.SkipSpace(arr, 0) + 1 // past '['
	for {
		i = jsonscan.SkipSpace(arr, i)
		if i >= len(arr) || arr[i] == ']' {
			return out
		}
		if arr[i] == ',' {
			i = jsonscan.SkipSpace(arr, i+1)
		}
		end := jsonscan.SkipValue(arr, i)
		out = append(out, [2]int{i, end})
		i = end
	}
}
