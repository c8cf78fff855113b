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

// ShiftHeadlines returns a headline answer with the datePublished of every
// article of every cluster moved by shift, each written back in the layout
// it came in; a date in no known layout, and every other member, is kept as
// it is.
func ShiftHeadlines(answer []byte, shift time.Duration) []byte {
	if shift == 0 {
		return bytes.Clone(answer)
	}
	return rebuildObject(answer, func(name string, v []byte) []byte {
		if name != "headlines" || textutil.JSONType(v) != "array" {
			return v
		}
		return rebuildArray(v, func(cluster []byte) []byte {
			return rebuildObject(cluster, func(name string, v []byte) []byte {
				if name != "articles" || textutil.JSONType(v) != "array" {
					return v
				}
				return rebuildArray(v, func(art []byte) []byte {
					return rebuildObject(art, func(name string, v []byte) []byte {
						if name != "datePublished" {
							return v
						}
						return shiftDate(v, shift)
					})
				})
			})
		})
	})
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

// rebuildObject rewrites each member value of a JSON object with fn; a
// value that is not an object is returned as it is.
func rebuildObject(obj []byte, fn func(name string, v []byte) []byte) []byte {
	if textutil.JSONType(obj) != "object" {
		return obj
	}
	ms := members(obj)
	parts := make([][]byte, len(ms))
	for i, m := range ms {
		nameColon := m.whole[:len(m.whole)-len(m.value)]
		parts[i] = append(bytes.Clone(nameColon), fn(m.name, m.value)...)
	}
	return object(parts)
}

// rebuildArray rewrites each element of a JSON array with fn.
func rebuildArray(arr []byte, fn func(v []byte) []byte) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range elements(arr) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(fn(e))
	}
	b.WriteByte(']')
	return b.Bytes()
}
