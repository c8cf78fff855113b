package record

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/newssearch/newssearch-go/internal/jsonscan"
)

// member is one member of a JSON object: its decoded name, the raw text of
// the whole member ("name": value) and of its value.
type member struct {
	name  string
	whole []byte
	value []byte
}

// members splits the valid JSON object obj into its members, in order. A
// value that is not an object gives none.
func members(obj []byte) []member {
	i := jsonscan.SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil
	}
	var out []member
	i++
	for {
		i = jsonscan.SkipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return out
		}
		if obj[i] == ',' {
			i = jsonscan.SkipSpace(obj, i+1)
		}
		start := i
		nameEnd := jsonscan.SkipString(obj, i)
		if nameEnd > len(obj) {
			return out
		}
		var name string
		if json.Unmarshal(obj[i:nameEnd], &name) != nil {
			return out
		}
		i = jsonscan.SkipSpace(obj, nameEnd)
		i = jsonscan.SkipSpace(obj, i+1) // past ':'
		end := jsonscan.SkipValue(obj, i)
		if end > len(obj) {
			return out
		}
		out = append(out, member{name: name, whole: obj[start:end], value: obj[i:end]})
		i = end
	}
}

// elements returns the values of the valid JSON array arr; a value that is
// not an array gives none.
func elements(arr []byte) [][]byte {
	i := jsonscan.SkipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil
	}
	var out [][]byte
	i++
	for {
		i = jsonscan.SkipSpace(arr, i)
		if i >= len(arr) || arr[i] == ']' {
			return out
		}
		if arr[i] == ',' {
			i = jsonscan.SkipSpace(arr, i+1)
		}
		end := jsonscan.SkipValue(arr, i)
		if end > len(arr) {
			return out
		}
		out = append(out, arr[i:end])
		i = end
	}
}

// get returns the value of the last member named name, or nil.
func get(ms []member, name string) []byte {
	var v []byte
	for _, m := range ms {
		if m.name == name {
			v = m.value
		}
	}
	return v
}

// str decodes a JSON string value; ok is false for anything else.
func str(v []byte) (s string, ok bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	return s, json.Unmarshal(v, &s) == nil
}

// object joins members into a JSON object.
func object(ms [][]byte) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// compact removes insignificant space from valid JSON, so that every
// recorded value is one line.
func compact(v []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

// APIKey returns the string value of the request body's top-level api_key
// member (matched in any case, as the mock and encoding/json match it), or
// "" when there is none.
func APIKey(body []byte) string {
	if !json.Valid(body) {
		return ""
	}
	key := ""
	for _, m := range members(body) {
		if strings.EqualFold(m.name, "api_key") {
			if s, ok := str(m.value); ok {
				key = s
			}
		}
	}
	return key
}

// QueryID returns the top-level query_id string of a JSON object, or ""
// when there is none or it is longer than limit.
func QueryID(body []byte, limit int) string {
	if !json.Valid(body) {
		return ""
	}
	id, _ := str(get(members(body), "query_id"))
	if len(id) > limit {
		return ""
	}
	return id
}
