package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/internal/redact"
	"github.com/newssearch/newssearch-go/internal/textutil"
	"github.com/newssearch/newssearch-go/mockserver/internal/journal"
)

// Bounds of a refused exchange's bodies (a longer one is kept as text, cut)
// and header values, applied after scrubbing, so no key is cut in two.
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

// Refused appends a refused exchange to the refused file as one refusedJSON
// line, scrubbed of red's keys and api_key members. A body that is not
// JSON, or longer than maxRefusedBody, is kept as a string under
// "request_text" or "answer_text", cut. The error is the file system's.
func (r *Recorder) Refused(x Refusal, red *redact.Redactor) error {
	line := refusedJSON{
		RecordedAt: r.cfg.Clock().UTC().Format(time.RFC3339Nano),
		Endpoint:   red.String(x.Endpoint),
		Method:     red.String(x.Method),
		Path:       red.String(x.Path),
		Status:     x.Status,
		Headers:    map[string][]string{},
	}
	for name, values := range x.Header {
		if slices.ContainsFunc(notKeptHeaders, func(h string) bool { return strings.EqualFold(h, name) }) {
			continue
		}
		kept := make([]string, len(values))
		for i, v := range values {
			kept[i], _ = red.Clip(v, maxRefusedHeader)
		}
		line.Headers[red.String(name)] = kept
	}
	line.Request, line.RequestText = refusedBody(x.Request, red)
	line.Answer, line.AnswerText = refusedBody(x.Answer, red)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(line); err != nil {
		return err
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if err := appendLines(r.cfg.RefusedPath, b.Bytes(), r.testMidWrite); err != nil {
		return err
	}
	r.refusedLines++
	r.st.RefusedRecorded++
	return nil
}

// refusedJSON is a line of the refused file.
type refusedJSON struct {
	RecordedAt  string              `json:"recorded_at"`
	Endpoint    string              `json:"endpoint"`
	Method      string              `json:"method"`
	Path        string              `json:"path"`
	Status      int                 `json:"status"`
	Headers     map[string][]string `json:"headers"`
	Request     json.RawMessage     `json:"request,omitempty"`
	RequestText string              `json:"request_text,omitempty"`
	Answer      json.RawMessage     `json:"answer,omitempty"`
	AnswerText  string              `json:"answer_text,omitempty"`
}

// refusedBody returns a body as the refused file keeps it: scrubbed JSON,
// or scrubbed text, cut.
func refusedBody(body []byte, red *redact.Redactor) (json.RawMessage, string) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, ""
	}
	text := string(body)
	if json.Valid(body) {
		if v := compact(scrub(body, red)); json.Valid(v) && len(v) <= maxRefusedBody {
			return v, ""
		}
		text = journal.Redact(body, math.MaxInt)
	}
	kept, dropped := red.Clip(text, maxRefusedBody)
	if dropped > 0 {
		kept += fmt.Sprintf("…[%d more bytes not recorded]", dropped)
	}
	return nil, kept
}

// refusedLine checks a line of the refused file: a JSON object with a
// numeric "status".
func refusedLine(line []byte) error {
	if !json.Valid(line) || textutil.JSONType(line) != "object" || textutil.JSONType(get(members(line), "status")) != "number" {
		return fmt.Errorf(`is not a refused exchange; each line is a JSON object such as {"recorded_at": "2025-01-19T01:04:00Z", "status": 429, …}`)
	}
	return nil
}

// RefusedPathFor returns the default refused file: "news.jsonl" gives
// "news.refused.jsonl".
func RefusedPathFor(corpusPath string) string {
	return strings.TrimSuffix(corpusPath, ".jsonl") + ".refused.jsonl"
}
