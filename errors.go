package newssearch

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/newssearch/newssearch-go/internal/redact"
	"github.com/newssearch/newssearch-go/internal/textutil"
)

// Sentinel errors classifying failed calls, for errors.Is.
var (
	// ErrBadRequest matches HTTP 400, 413 and 422, and a *ValidationError.
	ErrBadRequest = errors.New("newssearch: bad request")
	// ErrUnauthorized matches HTTP 401 and 403.
	ErrUnauthorized = errors.New("newssearch: unauthorized")
	// ErrNotFound matches HTTP 404, e.g. an unknown query ID.
	ErrNotFound = errors.New("newssearch: not found")
	// ErrRateLimited matches HTTP 429 (after any retries).
	ErrRateLimited = errors.New("newssearch: rate limited")
	// ErrServer matches HTTP 5xx (after any retries).
	ErrServer = errors.New("newssearch: server error")
)

// APIError describes a failure the service answered: a status outside 2xx,
// or a 2xx answer with a failure state or that cannot be decoded. Message,
// RequestID and Body are scrubbed of the API key.
type APIError struct {
	// StatusCode is the HTTP status of the last answer.
	StatusCode int
	// State is the response's "state" field, if it had one.
	State State
	// Message is the service's explanation, or an excerpt of a non-JSON body.
	Message string
	// Endpoint is the path called, e.g. "/api/v2/query".
	Endpoint string
	// RequestID is the X-Request-Id: quote it when reporting a problem.
	RequestID string
	// RetryAfter is the wait Retry-After asked for, or 0.
	RetryAfter time.Duration
	// Body is the start of the response body (at most 64 KiB).
	Body []byte

	// cause is a decoding error behind a malformed 2xx body.
	cause error
}

// Error reports the method, endpoint, status, message and request ID.
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("newssearch: POST ")
	b.WriteString(e.Endpoint)
	b.WriteString(": ")
	switch {
	case e.StatusCode >= 200 && e.StatusCode < 300 && e.cause != nil:
		b.WriteString("malformed response (HTTP " + strconv.Itoa(e.StatusCode) + ")")
	case e.StatusCode >= 200 && e.StatusCode < 300:
		b.WriteString("service reported state " + strconv.Quote(string(e.State)))
	default:
		b.WriteString(strconv.Itoa(e.StatusCode))
		if t := http.StatusText(e.StatusCode); t != "" {
			b.WriteString(" " + t)
		}
	}
	if msg := e.Message; msg != "" {
		b.WriteString(": " + msg)
	} else if hint := e.hint(); hint != "" {
		b.WriteString(": " + hint)
	}
	if e.RequestID != "" {
		b.WriteString(" (request id " + e.RequestID + ")")
	}
	return b.String()
}

// hint suggests a fix when the service gave no message.
func (e *APIError) hint() string {
	switch {
	case e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden:
		return "the API key was refused: check the key passed to WithAPIKey or NEWSSEARCH_API_KEY"
	case e.StatusCode == http.StatusNotFound:
		return "not found: check the base URL, and that the query ID came from SubmitQuery with the same key"
	case e.StatusCode == http.StatusTooManyRequests:
		return "rate limited: slow down and retry later"
	case e.StatusCode >= 500:
		return "the service failed: retry later"
	case e.StatusCode >= 200 && e.StatusCode < 300:
		return "the service gave no reason: check the request and retry"
	}
	return ""
}

// Is makes errors.Is match the sentinel of the error's HTTP status.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrBadRequest:
		return e.StatusCode == 400 || e.StatusCode == 413 || e.StatusCode == 422
	case ErrUnauthorized:
		return e.StatusCode == 401 || e.StatusCode == 403
	case ErrNotFound:
		return e.StatusCode == 404
	case ErrRateLimited:
		return e.StatusCode == 429
	case ErrServer:
		return e.StatusCode >= 500 && e.StatusCode < 600
	}
	return false
}

// Unwrap returns the decoding error behind a malformed response, if any.
func (e *APIError) Unwrap() error { return e.cause }

// ValidationError reports a parameter rejected before any request was sent.
// errors.Is(err, ErrBadRequest) holds for it.
type ValidationError struct {
	// Field names the offending parameter, e.g. "SearchParams.Page".
	Field string
	// Problem says what is wrong with it and how to fix it.
	Problem string
}

// Error names the field and the problem.
func (e *ValidationError) Error() string {
	return "newssearch: invalid " + e.Field + ": " + e.Problem
}

// Is makes errors.Is(err, ErrBadRequest) hold.
func (e *ValidationError) Is(target error) bool { return target == ErrBadRequest }

// Caps on what is kept from a response.
const (
	maxErrorBody  = 64 << 10 // bytes of an error body kept in APIError.Body
	maxMessageLen = 512      // bytes of a message derived from a non-JSON body
	maxPageLen    = 60       // bytes of an HTML page's title quoted in an error
	// errorBodySlack is read beyond maxErrorBody, so that a key straddling
	// the cut, in any of its escaped forms, is redacted before the cut.
	errorBodySlack = 4 << 10
)

// redacted replaces the API key wherever it would otherwise be shown.
const redacted = "[REDACTED]"

// minGluedKey is the length from which a key is redacted even glued to
// other text ("rrr" + key + "zz"); a shorter one only where it stands
// alone, so that the key "test" leaves "latest" be.
const minGluedKey = 8

// newAPIError builds the error for a failed response from its status,
// headers and (already capped) body.
func (c *Client) newAPIError(endpoint string, resp *http.Response, body []byte) *APIError {
	e := &APIError{
		StatusCode: resp.StatusCode,
		Endpoint:   endpoint,
		RequestID:  c.cfg.requestID(resp),
	}
	e.RetryAfter, _ = parseRetryAfter(resp.Header.Get("Retry-After"), c.cfg.now())
	// Redacted, then cut: a key the cut would split is gone before it.
	kept, _ := c.cfg.red.Clip(string(body), maxErrorBody)
	e.Body = []byte(kept)
	var env struct {
		State   State  `json:"state"`
		Message string `json:"message"`
		Error   string `json:"error"`
		Detail  string `json:"detail"`
	}
	if json.Unmarshal(e.Body, &env) == nil {
		e.State = env.State
		e.Message = cmp.Or(env.Message, env.Error, env.Detail)
	} else {
		e.Message = excerpt(c.cfg.red, e.Body, maxMessageLen)
	}
	if loc := resp.Header.Get("Location"); e.Message == "" && resp.StatusCode >= 300 && resp.StatusCode < 400 && loc != "" {
		e.Message = "the service redirected the request to " + excerpt(c.cfg.red, []byte(loc), maxMessageLen) + ", on another host: the client " +
			"does not follow it, because the API key travels in the request body; if you trust that address, pass it to WithBaseURL"
	}
	e.Message = c.scrub(e.Message)
	return e
}

// maxRequestID bounds the request ID kept from a response header.
const maxRequestID = 128

// requestID returns the response's X-Request-Id without control
// characters, redacted, then cut to at most maxRequestID bytes, so that a
// hostile header can neither bloat or break an error string or a log line
// nor leave part of the key behind the cut.
func (cfg *config) requestID(resp *http.Response) string {
	id := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(resp.Header.Get("X-Request-Id"), ""))
	id, _ = cfg.red.Clip(id, maxRequestID)
	return id
}

// scrub removes the API key from s in any of the forms text carries it
// (plain, JSON-escaped, URL-encoded), glued to other text or not (a key
// shorter than minGluedKey only where it stands alone): see
// internal/redact.
func (c *Client) scrub(s string) string { return c.cfg.red.String(s) }

// excerpt makes a one-line message from a body that is not JSON: an HTML
// page's title, else the body, on one line, redacted by red and then
// shortened to limit bytes, so that no part of a key is left at the cut.
func excerpt(red *redact.Redactor, body []byte, limit int) string {
	s := string(body)
	// Lower-case ASCII only: strings.ToLower would turn invalid UTF-8 into
	// longer U+FFFD runes, and the indexes would no longer fit s.
	lower := asciiLower(body)
	if i := strings.Index(lower, "<title>"); i >= 0 {
		start := i + len("<title>")
		if j := strings.Index(lower[start:], "</title>"); j >= 0 {
			s = s[start : start+j]
		}
	}
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	s, dropped := red.Clip(s, limit)
	if dropped > 0 {
		s += "..."
	}
	return s
}

// asciiLower returns b as a string with A-Z lower-cased and every other byte
// kept, so byte offsets into it are offsets into b.
func asciiLower(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return string(out)
}

// quoteShort quotes s for an error message, shortened to 60 characters.
func quoteShort(s string) string { return textutil.QuoteShort(s) }

// transportError wraps a failure that produced no usable response: the
// endpoint is named, the cause kept for errors.Is and errors.As.
func transportError(endpoint string, attempts int, err error) error {
	if attempts > 1 {
		return wrapError(fmt.Sprintf("newssearch: POST %s: giving up after %d attempts: ", endpoint, attempts), err, "")
	}
	return wrapError("newssearch: POST "+endpoint+": ", err, "")
}

// wrappedError is an error in the words of a call: prefix, err's message
// without its own "newssearch: " (said once is enough), then suffix.
type wrappedError struct {
	prefix, suffix string
	err            error
}

// wrapError wraps err after prefix and before suffix; see wrappedError.
func wrapError(prefix string, err error, suffix string) error {
	return &wrappedError{prefix: prefix, suffix: suffix, err: err}
}

func (e *wrappedError) Error() string {
	return e.prefix + strings.TrimPrefix(e.err.Error(), "newssearch: ") + e.suffix
}

func (e *wrappedError) Unwrap() error { return e.err }
