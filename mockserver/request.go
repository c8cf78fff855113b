package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/newssearch/newssearch-go/mockserver/internal/search"
	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"

	"github.com/newssearch/newssearch-go/internal/textutil"
)

// apiError is a failed call: its status and message.
type apiError struct {
	status     int
	msg        string
	retryAfter int // seconds; 0 = no Retry-After header
}

func badRequest(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// fields are the members of a request body, by exact name; for a name
// given twice the last one counts, as with encoding/json.
type fields map[string]json.RawMessage

// answer is the failure's answer; a 429 always carries Retry-After.
func (e *apiError) answer() answer {
	retry := e.retryAfter
	if e.status == http.StatusTooManyRequests && retry == 0 {
		retry = 1
	}
	return answer{status: e.status, body: failureBody(e.msg), retryAfter: retry}
}

// failureBody is the body of every failure.
func failureBody(msg string) []byte {
	return encodeJSON(struct {
		State   string `json:"state"`
		Message string `json:"message"`
	}{"FAILED", msg})
}

// Examples used in messages, per field.
var examples = map[string]string{
	"api_key":      `"api_key": "<your key>"`,
	"query":        `"query": "electric cars"`,
	"page":         `"page": 2`,
	"sites":        `"sites": ["bbc.co.uk"]`,
	"start_date":   `"start_date": "2025-03-01T00:00:00Z"`,
	"end_date":     `"end_date": "2025-03-07"`,
	"toggle_state": `"toggle_state": "Encoded Articles"`,
	"embeddings":   `"embeddings": true`,
	"language":     `"language": "en"`,
	"traffic_rank": `"traffic_rank": 95`,
	"key_phrases":  `"key_phrases": "('elon' or 'musk') and not 'sam altman'"`,
	"sort_order":   `"sort_order": "Date Published"`,
	"query_id":     `"query_id": "<the id /api/v2/query-async returned>"`,
}

// parseBody decodes a request body into its members; example, a minimal
// valid body, is shown when the body is unusable.
func parseBody(body []byte, example string) (fields, *apiError) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, badRequest("the request body is empty: send a JSON object such as %s", example)
	}
	var f fields
	err := json.Unmarshal(body, &f)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		msg, at := se.Error(), se.Offset-1 // the byte the decoder choked on
		// At the end of a body that stops inside a literal ("nul"), the
		// decoder blames a space it made up; the body simply ended.
		endsInLiteral := strings.Contains(msg, "in literal") && se.Offset >= int64(len(body)) && body[len(body)-1] != ' '
		if strings.HasPrefix(msg, "unexpected end") || endsInLiteral {
			msg, at = "unexpected end of JSON input", int64(len(body))
		}
		return nil, badRequest("the request body is not valid JSON: %s %s: send a JSON object such as %s",
			msg, position(body, at), example)
	case err != nil || f == nil: // valid JSON, but not an object (null leaves f nil)
		return nil, badRequest("the request body must be a JSON object, not %s: send a JSON object such as %s", textutil.JSONKind(trimmed), example)
	}
	return f, nil
}

// position says where byte i of body is: line and column from 1, or the end.
func position(body []byte, i int64) string {
	if i < 0 || i >= int64(len(body)) {
		return "at the end of the body"
	}
	before := body[:i]
	line := bytes.Count(before, []byte{'\n'}) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return fmt.Sprintf("at line %d, column %d", line, utf8.RuneCount(before[lineStart:])+1)
}

func typeError(name, want string, raw []byte) *apiError {
	return badRequest("field %q must be %s, not %s: write e.g. %s", name, want, textutil.JSONKind(raw), examples[name])
}

// raw returns a member's value, or nil when it is absent or null.
func (f fields) raw(name string) []byte {
	if r := bytes.TrimSpace(f[name]); len(r) > 0 && string(r) != "null" {
		return r
	}
	return nil
}

func (f fields) has(name string) bool { return f.raw(name) != nil }

// str returns a string member; ok is false when it is absent or null.
func (f fields) str(name string) (s string, ok bool, err *apiError) {
	r := f.raw(name)
	if r == nil {
		return "", false, nil
	}
	if r[0] != '"' || json.Unmarshal(r, &s) != nil {
		return "", false, typeError(name, "a string", r)
	}
	return s, true, nil
}

// boolean returns a boolean member, false when absent or null.
func (f fields) boolean(name string) (bool, *apiError) {
	r := f.raw(name)
	switch string(r) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, typeError(name, "true or false", r)
}

// integer returns a whole-number member within [lo, hi], which rangeHint
// explains; ok is false when it is absent or null.
func (f fields) integer(name string, lo, hi int64, rangeHint string) (n int64, ok bool, err *apiError) {
	r := f.raw(name)
	if r == nil {
		return 0, false, nil
	}
	if textutil.JSONType(r) != "number" {
		return 0, false, typeError(name, "a whole number", r)
	}
	n, perr := strconv.ParseInt(string(r), 10, 64)
	var ne *strconv.NumError
	switch {
	case errors.As(perr, &ne) && errors.Is(ne.Err, strconv.ErrRange):
		return 0, false, badRequest("%s %s is out of range: %s", name, r, rangeHint)
	case perr != nil:
		return 0, false, badRequest("field %q must be a whole number, not %s: write e.g. %s", name, r, examples[name])
	case n < lo || n > hi:
		return 0, false, badRequest("%s %d is out of range: %s", name, n, rangeHint)
	}
	return n, true, nil
}

// Page limits.
const (
	maxPage   = 1_000_000_000
	pageRange = "pages start at 1 and go up to 1000000000; omit page for the first page"
)

// page returns the page member: absent means 1.
func (f fields) page() (int, *apiError) {
	n, ok, err := f.integer("page", 1, maxPage, pageRange)
	if err != nil || !ok {
		return 1, err
	}
	return int(n), nil
}

// quoteShort quotes a caller's value for a message, cutting long ones.
func quoteShort(s string) string { return textutil.QuoteShort(s) }

// Allowed values of the enumerated fields.
const (
	toggleAll     = "All Articles"
	toggleEncoded = "Encoded Articles"
	sortRelevance = "Relevance"
	sortDate      = "Date Published"
)

// enum returns which of the allowed values the member holds; "" when
// absent. The values are exact, as the service's: a value off only in case
// or spaces is refused with the right spelling, so that a test does not pass
// against the mock and fail in production.
func (f fields) enum(name string, allowed ...string) (string, *apiError) {
	s, ok, err := f.str(name)
	if err != nil || !ok {
		return "", err
	}
	for _, a := range allowed {
		if s == a {
			return a, nil
		}
	}
	for _, a := range allowed {
		if strings.EqualFold(strings.TrimSpace(s), a) {
			return "", badRequest("%s %s is not allowed: the values are exact, write %s", name, quoteShort(s), strconv.Quote(a))
		}
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = strconv.Quote(a)
	}
	return "", badRequest("%s %s is not allowed: use %s", name, quoteShort(s), strings.Join(quoted, " or "))
}

// date parses a start_date or end_date member: RFC 3339 (any case), or
// YYYY-MM-DD, UTC, which as an end date covers the whole day.
func (f fields) date(name string, end bool) (time.Time, string, *apiError) {
	s, ok, err := f.str(name)
	if err != nil || !ok {
		return time.Time{}, "", err
	}
	v := strings.ToUpper(strings.TrimSpace(s)) // RFC 3339 allows a lower-case t and z
	if t, perr := time.Parse(time.RFC3339Nano, v); perr == nil {
		return t, s, nil
	}
	if t, perr := time.Parse(time.DateOnly, v); perr == nil {
		if end {
			t = t.Add(24*time.Hour - time.Nanosecond)
		}
		return t, s, nil
	}
	return time.Time{}, "", badRequest(
		`%s %s is not a date: use RFC 3339 such as "2025-03-01T15:04:05Z" or "2025-03-01T15:04:05.123+01:00", or a plain date such as "2025-03-01"`,
		name, quoteShort(s))
}

// matchAll, alone but for spaces, is the query that matches every article;
// any other query without a letter or digit ("!!!") gets a 400.
const matchAll = "*"

// searchParams is a validated search request.
type searchParams struct {
	corpus     *Corpus      // the corpus searched, read once per request
	query      search.Query // dates in corpus time
	page       int
	embeddings bool
}

// parseSearch validates the search members of a query body (query-async's
// with async) and maps them to a query in corpus time.
func (s *Server) parseSearch(f fields, async bool) (searchParams, *apiError) {
	p := searchParams{corpus: s.Corpus()}
	q := &p.query
	text, ok, err := f.str("query")
	switch {
	case err != nil:
		return p, err
	case !ok:
		return p, badRequest("query is missing: say what to search for, e.g. %s", examples["query"])
	case strings.TrimSpace(text) == "":
		return p, badRequest("query is blank: say what to search for, e.g. %s", examples["query"])
	case !analysis.HasTerm(text) && strings.TrimSpace(text) != matchAll:
		return p, badRequest("query %s has no word to search for (no letter or digit): say what to search for, e.g. %s, "+
			"or send \"query\": \"*\" for every article", quoteShort(text), examples["query"])
	}
	q.Text = text
	if p.page, err = f.page(); err != nil {
		return p, err
	}
	if q.Sites, err = f.sites(); err != nil {
		return p, err
	}
	if err := s.parseDates(f, q); err != nil {
		return p, err
	}
	toggle, err := f.enum("toggle_state", toggleAll, toggleEncoded)
	if err != nil {
		return p, err
	}
	q.EncodedOnly = toggle == toggleEncoded
	if p.embeddings, err = f.boolean("embeddings"); err != nil {
		return p, err
	}
	if q.Language, err = parseLanguage(p.corpus, f); err != nil {
		return p, err
	}
	rank, _, err := f.integer("traffic_rank", 0, 100, "use a whole number from 0 to 100 (95 keeps the top 5% of sites)")
	if err != nil {
		return p, err
	}
	q.TrafficRank = int(rank)
	if !async {
		for _, name := range []string{"key_phrases", "sort_order"} {
			if f.has(name) {
				return p, badRequest("%s is accepted only by /api/v2/query-async: submit this search there, or remove %s", name, name)
			}
		}
		return p, nil
	}
	phrases, _, err := f.str("key_phrases")
	if err != nil {
		return p, err
	}
	if strings.TrimSpace(phrases) != "" {
		if _, perr := search.ParseKeyPhrases(phrases); perr != nil {
			return p, badRequest("%s", perr.Error())
		}
		q.KeyPhrases = phrases
	}
	order, err := f.enum("sort_order", sortRelevance, sortDate)
	if err != nil {
		return p, err
	}
	if order == sortDate {
		q.Order = search.ByDate
	}
	return p, nil
}

// sites returns the sites member: an array of non-blank strings.
func (f fields) sites() ([]string, *apiError) {
	r := f.raw("sites")
	if r == nil {
		return nil, nil
	}
	if r[0] != '[' {
		return nil, typeError("sites", "an array of strings", r)
	}
	var items []json.RawMessage
	if json.Unmarshal(r, &items) != nil { // unreachable for valid JSON
		return nil, typeError("sites", "an array of strings", r)
	}
	sites := make([]string, 0, len(items))
	for i, it := range items {
		var site string
		if it[0] != '"' || json.Unmarshal(it, &site) != nil {
			return nil, badRequest("sites[%d] must be a string, not %s: write e.g. %s", i, textutil.JSONKind(it), examples["sites"])
		}
		if strings.TrimSpace(site) == "" {
			return nil, badRequest("sites[%d] is blank: give site domains, e.g. %s", i, examples["sites"])
		}
		sites = append(sites, site)
	}
	return sites, nil
}

// parseDates sets the query's bounds, converted to corpus time.
func (s *Server) parseDates(f fields, q *search.Query) *apiError {
	from, fromRaw, err := f.date("start_date", false)
	if err != nil {
		return err
	}
	to, toRaw, err := f.date("end_date", true)
	if err != nil {
		return err
	}
	if !from.IsZero() && !to.IsZero() && from.After(to) {
		return badRequest("start_date %s is after end_date %s: swap them, or widen the range", quoteShort(fromRaw), quoteShort(toRaw))
	}
	if !from.IsZero() {
		q.From = from.Add(-s.shift)
	}
	if !to.IsZero() {
		q.To = to.Add(-s.shift)
	}
	return nil
}

// parseLanguage returns the ISO code asked for, or "" for all languages.
func parseLanguage(c *Corpus, f fields) (string, *apiError) {
	lang, ok, err := f.str("language")
	if err != nil || !ok {
		return "", err
	}
	if v := strings.TrimSpace(lang); v == "" || strings.EqualFold(v, "all") {
		return "", nil
	}
	code, ok := c.language(lang)
	if !ok {
		return "", badRequest("language %s is not supported: use all, or one of %s (code or English name, any case)",
			quoteShort(lang), c.langList)
	}
	return code, nil
}
