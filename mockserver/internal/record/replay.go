package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/newssearch/newssearch-go/internal/textutil"
)

// LastHeadlines reads a headlines file (one {"recorded_at", "answer"} object
// per line) and returns the answer of its last line and how many lines it
// has. The first bad line is an error naming it.
func LastHeadlines(r io.Reader) (answer []byte, lines int, err error) {
	err = scanLines(r, func(line []byte) error {
		ans, err := headlineAnswer(line)
		if err != nil {
			return err
		}
		answer, lines = bytes.Clone(ans), lines+1
		return nil
	})
	if err == nil && lines == 0 {
		err = fmt.Errorf(`holds no headline answer; record one with newsmock -record, or write lines such as {"recorded_at": "2025-01-19T01:04:00Z", "answer": {"headlines": [], "state": "SUCCESS"}}`)
	}
	return answer, lines, err
}

// ShiftHeadlines returns a headline answer with every article's
// datePublished moved by shift, in the layout it came in; a date in no
// known layout is kept.
func ShiftHeadlines(answer []byte, shift time.Duration) []byte {
	if shift == 0 {
		return bytes.Clone(answer)
	}
	return rewrite(answer, []string{"headlines", "[]", "articles", "[]", "datePublished"}, func(v []byte) []byte {
		return shiftDate(v, shift)
	})
}

// rewrite returns the JSON value v with fn applied to the values at path,
// a member name or "[]" (every element) per level.
func rewrite(v []byte, path []string, fn func(v []byte) []byte) []byte {
	switch {
	case len(path) == 0:
		return fn(v)
	case path[0] == "[]" && textutil.JSONType(v) == "array":
		var b bytes.Buffer
		b.WriteByte('[')
		for i, e := range elements(v) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(rewrite(e, path[1:], fn))
		}
		b.WriteByte(']')
		return b.Bytes()
	case path[0] != "[]" && textutil.JSONType(v) == "object":
		ms := members(v)
		parts := make([][]byte, len(ms))
		for i, m := range ms {
			parts[i] = m.whole
			if m.name == path[0] {
				nameColon := m.whole[:len(m.whole)-len(m.value)]
				parts[i] = append(bytes.Clone(nameColon), rewrite(m.value, path[1:], fn)...)
			}
		}
		return object(parts)
	}
	return v
}

// shiftDate moves a JSON string date by shift, keeping its layout.
func shiftDate(v []byte, shift time.Duration) []byte {
	s, ok := str(v)
	if !ok {
		return v
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			out, _ := json.Marshal(t.Add(shift).Format(l.layout)) // a string always marshals
			return out
		}
	}
	return v
}
