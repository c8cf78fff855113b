package record

import (
	"bytes"
	"encoding/json"
	"slices"
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

// members splits the JSON object obj into its members, in order (see
// jsonscan.Members); a value that is not an object gives none.
func members(obj []byte) []member {
	ms := jsonscan.Members(obj)
	out := make([]member, len(ms))
	for i, m := range ms {
		out[i] = member{name: m.Name, whole: obj[m.NameStart:m.End], value: obj[m.Start:m.End]}
	}
	return out
}

// elements returns the values of the JSON array arr (see
// jsonscan.Elements); a value that is not an array gives none.
func elements(arr []byte) [][]byte {
	es := jsonscan.Elements(arr)
	out := make([][]byte, len(es))
	for i, e := range es {
		out[i] = arr[e[0]:e[1]]
	}
	return out
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

// APIKeys returns the string values of the request body's top-level
// api_key members (matched in any case, as the mock and encoding/json match
// them; a body may repeat the member), in order. A body that is not valid
// JSON is read up to the first member that cannot be followed, so that a
// key sent in a malformed body is still known.
func APIKeys(body []byte) []string {
	var keys []string
	for _, m := range members(body) {
		if strings.EqualFold(m.name, "api_key") {
			if s, ok := str(m.value); ok && !slices.Contains(keys, s) {
				keys = append(keys, s)
			}
		}
	}
	return keys
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
