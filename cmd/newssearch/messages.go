package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	newssearch "github.com/newssearch/newssearch-go"
)

// message returns the error's text as the command prints it: starting
// "newssearch: " once. The SDK's errors start with that prefix, and one that
// wraps another (a poll stopped by a failed request) repeats it inside; the
// repeats are dropped, so a line never reads "newssearch: ...: newssearch:".
func message(err error) string {
	msg := strings.ReplaceAll(err.Error(), ": newssearch: ", ": ")
	if !strings.HasPrefix(msg, "newssearch: ") {
		msg = "newssearch: " + msg
	}
	return msg
}

// attemptLog is the transport under the SDK that counts the attempts of
// each call: the SDK sends a retried request again with the same body, so
// the attempts of a call are the requests to its endpoint with its body
// since that body last got a 2xx answer (a poll repeats its body, one call
// per answer). A failed answer is matched to its call by its request ID,
// since several calls fail at once in a range. Only a digest of each body
// is kept (it holds the API key).
type attemptLog struct {
	next http.RoundTripper

	mu   sync.Mutex
	sent map[[sha256.Size]byte]int // attempts since the body's last 2xx
	// byID is the attempt count of each failed answer, by request ID.
	byID map[string]int
	// last is, per endpoint, the last failed answer, for answers
	// without a request ID.
	last map[string]failedAttempt
}

type failedAttempt struct {
	key      [sha256.Size]byte
	status   int
	attempts int
	// mixed is set once answers to different bodies failed at the
	// endpoint: then the last one does not tell which call an error is.
	mixed bool
}

// RoundTrip counts the request and sends it on.
func (l *attemptLog) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	switch {
	case req.GetBody != nil:
		if rc, err := req.GetBody(); err == nil {
			body, _ = io.ReadAll(rc)
			_ = rc.Close()
		}
	case req.Body != nil && req.Body != http.NoBody:
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	path := endpointPath(req.URL.Path)
	key := sha256.Sum256(append([]byte(path+"\n"), body...))
	l.mu.Lock()
	if l.sent == nil {
		l.sent, l.byID, l.last = map[[sha256.Size]byte]int{}, map[string]int{}, map[string]failedAttempt{}
	}
	l.sent[key]++
	l.mu.Unlock()
	resp, err := l.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		delete(l.sent, key) // the call is over
		return resp, nil
	}
	n := l.sent[key]
	if id := resp.Header.Get("X-Request-Id"); id != "" {
		l.byID[id] = n
	}
	prev, seen := l.last[path]
	l.last[path] = failedAttempt{key: key, status: resp.StatusCode, attempts: n, mixed: seen && (prev.mixed || prev.key != key)}
	return resp, nil
}

// attemptsOf returns how many attempts the call that failed with e made,
// or 0 when it is not known.
func (l *attemptLog) attemptsOf(e *newssearch.APIError) int {
	if l == nil || e == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if n, ok := l.byID[e.RequestID]; ok && e.RequestID != "" {
		return n
	}
	if f, ok := l.last[e.Endpoint]; ok && !f.mixed && f.status == e.StatusCode {
		return f.attempts
	}
	return 0
}

// serverAttempts returns the first 5xx answer in err (the errors of
// several range windows, or one) and the fewest and the most attempts of
// the calls that failed with one (0, 0 when no count is known).
func (l *attemptLog) serverAttempts(err error) (first *newssearch.APIError, lo, hi int) {
	var walk func(error)
	walk = func(err error) {
		switch x := err.(type) {
		case *newssearch.APIError:
			if !errors.Is(x, newssearch.ErrServer) {
				return
			}
			if first == nil {
				first = x
			}
			if n := l.attemptsOf(x); n > 0 {
				if lo == 0 || n < lo {
					lo = n
				}
				hi = max(hi, n)
			}
		case interface{ Unwrap() []error }:
			for _, err := range x.Unwrap() {
				walk(err)
			}
		case interface{ Unwrap() error }:
			walk(x.Unwrap())
		}
	}
	walk(err)
	return first, lo, hi
}

// retriesText says how many times a call (or each of several, lo to hi
// attempts) was retried: "after 2 retries (3 attempts)".
func retriesText(lo, hi int) string {
	switch {
	case lo != hi:
		return fmt.Sprintf("after %d to %d retries (%d to %d attempts)", lo-1, hi-1, lo, hi)
	case hi == 2:
		return "after 1 retry (2 attempts)"
	}
	return "after " + strconv.Itoa(hi-1) + " retries (" + strconv.Itoa(hi) + " attempts)"
}

// serverHint says what to do about 5xx answers (e the first), counting the
// attempts the calls really made: lo to hi (0 when not known).
func (a *app) serverHint(e *newssearch.APIError, lo, hi int) string {
	const support = "if it keeps failing, send the service's support the message above with its request ID."
	switch {
	case e != nil && e.StatusCode == http.StatusNotImplemented && hi <= 1:
		return "The service does not implement this request (501 Not Implemented), which a retry cannot change, so it was not retried: check --base-url; " + support
	case hi == 1 && a.maxRetries == 0:
		return "The service failed and the request was not retried (--max-retries 0): try again later, or allow retries with --max-retries 3; " + support
	case hi == 1:
		return "The service failed and the request was not retried (the SDK retries a request that creates a job only when the service cannot have received it): try again later; " + support
	case hi > 1:
		return "The service failed " + retriesText(lo, hi) + ": try again later (or raise --max-retries); " + support
	}
	return "The service failed: try again later; " + support
}

// badRequest returns the *newssearch.APIError in err when it answers a bad
// request (400, 413, 422): the request built from the command line was
// refused, so it is a usage error.
func badRequest(err error) (*newssearch.APIError, bool) {
	var apiErr *newssearch.APIError
	if errors.As(err, &apiErr) && errors.Is(apiErr, newssearch.ErrBadRequest) {
		return apiErr, true
	}
	return nil, false
}

// flagExamples are values shown in the messages about a flag given a
// value of the wrong kind or none: each, pasted after its flag, is
// accepted.
var flagExamples = map[string]string{
	"lang": "en", "site": "reuters.com", "from": "2025-01-31", "to": "2025-03-31", "since": "7d",
	"format": "table", "fields": "date,site,title", "base-url": newssearch.DefaultBaseURL, "api-key-file": "key.txt",
	"key-phrases": shellQuote("'elon' or 'musk'"), "sort": "date", "window": "7d", "resume": "run.checkpoint",
	"query": "election", "traffic-rank": "95", "limit": "10", "page": "2", "concurrency": "4", "max-retries": "3",
	"max-wait": "10m", "timeout": "30s", "now": "2026-01-15T12:00:00Z",
}

var (
	invalidFlagValue = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?--([\w-]+)" flag: `)
	missingFlagValue = regexp.MustCompile(`^flag needs an argument: (?:--([\w-]+)|'(\w)' in -\w)$`)
)

// flagError rewrites pflag's errors about a flag's value so that they say
// what kind of value the flag takes, with an example; others are kept.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	lookup := func(name, short string) *pflag.Flag {
		if short != "" {
			return cmd.Flags().ShorthandLookup(short)
		}
		return cmd.Flags().Lookup(name)
	}
	example := func(f *pflag.Flag) string {
		if ex, ok := flagExamples[f.Name]; ok {
			return "--" + f.Name + " " + ex
		}
		return "--" + f.Name + " VALUE (see newssearch " + cmd.Name() + " --help)"
	}
	if m := invalidFlagValue.FindStringSubmatch(msg); m != nil {
		if f := lookup(m[2], ""); f != nil {
			if f.Value.Type() == "bool" {
				return usagef("--%s=%s: a switch takes true or false: pass --%s alone to turn it on, or --%s=false", f.Name, shellQuote(m[1]), f.Name, f.Name)
			}
			kind, how := kindOfValue(f.Value.Type())
			return usagef("--%s %s is not %s: pass %s, e.g. %s", f.Name, shellQuote(m[1]), kind, how, example(f))
		}
	}
	if m := missingFlagValue.FindStringSubmatch(msg); m != nil {
		if f := lookup(m[1], m[2]); f != nil {
			return usagef("--%s needs a value: pass it after the flag, e.g. %s", f.Name, example(f))
		}
	}
	return &usageError{msg: msg}
}

// kindOfValue names the kind of value of a pflag type, and how to write
// one.
func kindOfValue(typ string) (kind, how string) {
	switch typ {
	case "int", "int64", "int32":
		return "a whole number", "one"
	case "duration":
		return "a duration", "a number and a unit (500ms, 30s, 10m, 1h)"
	}
	return "a " + typ, "one"
}
