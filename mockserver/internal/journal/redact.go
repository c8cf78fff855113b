package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/newssearch/newssearch-go/internal/jsonscan"
	"github.com/newssearch/newssearch-go/internal/redact"
)

// Redacted replaces the value of every "api_key" member of a stored body.
const Redacted = `"[redacted]"`

// keyField is the member whose value is never stored. Matching ignores case,
// because encoding/json matches struct fields case-insensitively too.
const keyField = "api_key"

type span struct{ start, end int64 }

// Redact returns the body as it may be stored in the journal: every
// "api_key" member's value, at any depth and in any letter case, replaced by
// "[redacted]"; every other occurrence of those keys that stands as a token
// (in a query, in any JSON escape form) replaced by [redacted] too
// (internal/redact); and only then the result cut to at most limit bytes
// (plus a marker saying how much was dropped), so no part of a key is left
// at the cut. A body that is not valid JSON cannot be
// redacted reliably, so only a placeholder giving its length is returned.
// An empty body gives "".
func Redact(body []byte, limit int) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return ""
	}
	if !json.Valid(body) {
		return fmt.Sprintf("[body of %d bytes not stored: not valid JSON]", len(body))
	}
	first := jsonscan.SkipSpace(body, 0)
	spans := keySpans(body, first, jsonscan.SkipValue(body, first), nil)
	var b strings.Builder
	b.Grow(len(body))
	prev := int64(0)
	var keys []string
	for _, s := range spans {
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

// keySpans returns the byte ranges of every api_key member value within
// the valid JSON value at body[start:end], in order.
func keySpans(body []byte, start, end int, spans []span) []span {
	v := body[start:end]
	switch v[0] {
	case '{':
		for _, m := range jsonscan.Members(v) {
			if strings.EqualFold(m.Name, keyField) {
				spans = append(spans, span{int64(start + m.Start), int64(start + m.End)})
			} else {
				spans = keySpans(body, start+m.Start, start+m.End, spans)
			}
		}
	case '[':
		for _, e := range jsonscan.Elements(v) {
			spans = keySpans(body, start+e[0], start+e[1], spans)
		}
	}
	return spans
}
