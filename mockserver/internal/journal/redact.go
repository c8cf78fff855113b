package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/newssearch/newssearch-go/internal/redact"
)

// Redacted replaces the value of every "api_key" member of a stored body.
const Redacted = `"[redacted]"`

// keyField is the member whose value is never stored. Matching ignores case,
// because encoding/json matches struct fields case-insensitively too.
const keyField = "api_key"

// Redact returns the body as the journal may store it: every "api_key"
// member's value, at any depth and in any case, and every other occurrence
// of those keys as a token (internal/redact), replaced by [redacted]; only
// then cut to limit bytes and a marker, so no part of a key is left at the
// cut. A body that is not valid JSON cannot be redacted reliably: only a
// placeholder with its length is returned.
func Redact(body []byte, limit int) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return ""
	}
	if !json.Valid(body) {
		return fmt.Sprintf("[body of %d bytes not stored: not valid JSON]", len(body))
	}
	var b strings.Builder
	b.Grow(len(body))
	prev := 0
	var keys []string
	for _, s := range keySpans(body) {
		b.Write(body[prev:s.start])
		b.WriteString(Redacted)
		prev = s.end
		var key string
		if json.Unmarshal(body[s.start:s.end], &key) == nil && strings.TrimSpace(key) != "" {
			keys = append(keys, key)
		}
	}
	b.Write(body[prev:])
	out := b.String()
	if len(keys) > 0 {
		out = redact.New(keys...).WithMark("[redacted]").String(out)
	}
	return cut(out, limit)
}

// cut shortens s to at most limit bytes on a rune boundary and says how many
// bytes were dropped.
func cut(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	// Cut as internal/redact cuts: on a rune boundary, never inside a mark.
	kept, dropped := redact.New().WithMark(Redacted).Clip(s, limit)
	return fmt.Sprintf("%s…[%d more bytes not stored]", kept, dropped)
}

type span struct{ start, end int }

// keySpans returns the byte ranges of the values of every api_key member
// (any case) of body, a valid JSON value, in order.
func keySpans(body []byte) []span {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		object, wantKey bool
		keyStart        int // where this container began, if it is an api_key member's value; else -1
	}
	var stack []frame
	var spans []span
	isKey := false // the next value is an api_key member's
	inKey := 0     // open containers that are api_key members' values
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return spans
		}
		n := len(stack)
		if s, ok := tok.(string); ok && n > 0 && stack[n-1].wantKey {
			stack[n-1].wantKey, isKey = false, strings.EqualFold(s, keyField) && inKey == 0
			continue
		}
		start := before + len(body[before:]) - len(bytes.TrimLeft(body[before:], " \t\r\n:,"))
		switch tok {
		case json.Delim('{'), json.Delim('['):
			f := frame{object: tok == json.Delim('{'), wantKey: tok == json.Delim('{'), keyStart: -1}
			if isKey {
				f.keyStart = start
				inKey++
			}
			stack = append(stack, f)
			isKey = false
			continue
		case json.Delim('}'), json.Delim(']'):
			if f := stack[n-1]; f.keyStart >= 0 {
				spans = append(spans, span{f.keyStart, int(dec.InputOffset())})
				inKey--
			}
			stack = stack[:n-1]
		default:
			if isKey {
				spans = append(spans, span{start, int(dec.InputOffset())})
			}
		}
		isKey = false
		if m := len(stack); m > 0 && stack[m-1].object {
			stack[m-1].wantKey = true
		}
	}
}
