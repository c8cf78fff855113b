package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/internal/redact"
	"github.com/newssearch/newssearch-go/internal/textutil"
	"github.com/newssearch/newssearch-go/mockserver/internal/journal"
)

// Bounds of what a refused exchange keeps: the request and answer bodies
// (a longer one is kept as text, cut) and each header value. Every bound
// applies to text already scrubbed of the keys, so no key is ever cut in
// two.
const (
	maxRefusedBody   = 64 << 10
	maxRefusedHeader = 1 << 10
)

// Refusal is an exchange the upstream refused: an answer with a status of
// 400 or more, or a 2xx answer whose state is FAILED (see Failed).
type Refusal struct {
	Endpoint     string // "query", …, or the path of any other
	Method, Path string
	Status       int
	Header       http.Header // the answer's
	Request      []byte      // the request body
	Answer       []byte      // the answer body
}

// Failed reports whether a JSON answer says "state": "FAILED" (in any
// letter case), as the service does for a job that failed.
func Failed(answer []byte) bool {
	if !json.Valid(answer) {
		return false
	}
	s, _ := str(get(members(answer), "state"))
	return strings.EqualFold(s, "FAILED")
}

// notKeptHeaders are the answer headers a refused exchange leaves out: those
// of one connection, and cookies, which are the user's own secrets.
var notKeptHeaders = []string{"Connection", "Keep-Alive", "Proxy-Authenticate", "Te", "Trailer", "Transfer-Encoding",
	"Upgrade", "Set-Cookie", "Set-Cookie2"}

// Refused appends a refused exchange to the refused file (Config.RefusedPath)
// as one JSON object:
//
//	{"recorded_at": "<RFC 3339>", "endpoint": "query", "method": "POST",
//	 "path": "/api/v2/query", "status": 429, "headers": {"Retry-After": ["3"], …},
//	 "request": {…}, "answer": {…}}
//
// A body that is not JSON, or is longer than 64 KiB, is kept as a string
// under "request_text" or "answer_text" instead, cut to 64 KiB. Everything
// is scrubbed of red's keys, and api_key members are redacted, before it is
// cut. The error is the file system's.
func (r *Recorder) Refused(x Refusal, red *redact.Redactor) error {
	stamp, _ := json.Marshal(r.cfg.Clock().UTC().Format(time.RFC3339Nano))
	var b bytes.Buffer
	b.WriteString(`{"recorded_at":`)
	b.Write(stamp)
	for _, m := range [][2]string{{"endpoint", x.Endpoint}, {"method", x.Method}, {"path", x.Path}} {
		fmt.Fprintf(&b, `,%q:%s`, m[0], jsonString(red.String(m[1])))
	}
	fmt.Fprintf(&b, `,"status":%d,"headers":{`, x.Status)
	first := true
	for _, name := range slices.Sorted(maps.Keys(x.Header)) {
		if slices.ContainsFunc(notKeptHeaders, func(h string) bool { return strings.EqualFold(h, name) }) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(jsonString(red.String(name)))
		b.WriteString(":[")
		for i, v := range x.Header[name] {
			if i > 0 {
				b.WriteByte(',')
			}
			v, _ = red.Clip(v, maxRefusedHeader)
			b.Write(jsonString(v))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	bodyMember(&b, "request", x.Request, red)
	bodyMember(&b, "answer", x.Answer, red)
	b.WriteString("}\n")

	r.mu.Lock()
	defer r.mu.Unlock()
	if err := appendLines(r.cfg.RefusedPath, b.Bytes(), r.testMidWrite); err != nil {
		return err
	}
	r.refusedLines++
	r.st.RefusedRecorded++
	return nil
}

// bodyMember writes `,"name":<body>` for a JSON body of at most
// maxRefusedBody bytes once scrubbed, else `,"name_text":"<the body, cut>"`;
// an empty body writes nothing.
func bodyMember(b *bytes.Buffer, name string, body []byte, red *redact.Redactor) {
	if len(bytes.TrimSpace(body)) == 0 {
		return
	}
	if json.Valid(body) {
		v := compact(scrub(body, red))
		if json.Valid(v) && len(v) <= maxRefusedBody {
			fmt.Fprintf(b, `,%q:`, name)
			b.Write(v)
			return
		}
	}
	text := string(body)
	if json.Valid(body) {
		text = journal.Redact(body, math.MaxInt)
	}
	kept, dropped := red.Clip(text, maxRefusedBody)
	if dropped > 0 {
		kept += fmt.Sprintf("…[%d more bytes not recorded]", dropped)
	}
	fmt.Fprintf(b, `,%q:`, name+"_text")
	b.Write(jsonString(kept))
}

// jsonString encodes s as a JSON string, without HTML escapes.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// refusedLine checks a line of the refused file: a JSON object with a
// numeric "status".
func refusedLine(line []byte) error {
	if !json.Valid(line) || textutil.JSONType(line) != "object" || textutil.JSONType(get(members(line), "status")) != "number" {
		return fmt.Errorf(`is not a refused exchange; each line is a JSON object such as {"recorded_at": "2025-01-19T01:04:00Z", "status": 429, …}`)
	}
	return nil
}

// RefusedPathFor returns where a recording into corpusPath keeps the
// exchanges the upstream refused by default: "news.jsonl" gives
// "news.refused.jsonl".
func RefusedPathFor(corpusPath string) string {
	return strings.TrimSuffix(corpusPath, ".jsonl") + ".refused.jsonl"
}
