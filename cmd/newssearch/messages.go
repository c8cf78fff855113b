package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
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
// each request: the SDK sends a retried request again with the same body,
// so the attempts of one call are the requests to its endpoint with its
// body. Only a digest of the body is kept (it holds the API key).
type attemptLog struct {
	next http.RoundTripper

	mu   sync.Mutex
	sent map[[sha256.Size]byte]int
	// failed is, per endpoint, the last request answered outside 2xx.
	failed map[string]failedAttempt
}

type failedAttempt struct {
	key    [sha256.Size]byte
	status int
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
		l.sent, l.failed = map[[sha256.Size]byte]int{}, map[string]failedAttempt{}
	}
	l.sent[key]++
	l.mu.Unlock()
	resp, err := l.next.RoundTrip(req)
	if err == nil && (resp.StatusCode < 200 || resp.StatusCode > 299) {
		l.mu.Lock()
		l.failed[path] = failedAttempt{key: key, status: resp.StatusCode}
		l.mu.Unlock()
	}
	return resp, err
}

// attemptsOf returns how many attempts the call that failed with e made,
// or 0 when it is not known.
func (l *attemptLog) attemptsOf(e *newssearch.APIError) int {
	if l == nil || e == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	f, ok := l.failed[e.Endpoint]
	if !ok || f.status != e.StatusCode {
		return 0
	}
	return l.sent[f.key]
}

// retriesText says how many times a call was retried: "after 2 retries
// (3 attempts)".
func retriesText(attempts int) string {
	if attempts == 2 {
		return "after 1 retry (2 attempts)"
	}
	return "after " + strconv.Itoa(attempts-1) + " retries (" + strconv.Itoa(attempts) + " attempts)"
}

// serverHint says what to do about a 5xx answer, counting the retries the
// call really made (attempts; 0 when not known).
func (a *app) serverHint(e *newssearch.APIError, attempts int) string {
	const support = "if it keeps failing, send the service's support the message above with its request ID."
	switch {
	case e != nil && e.StatusCode == http.StatusNotImplemented && attempts <= 1:
		return "The service does not implement this request (501 Not Implemented), which a retry cannot change, so it was not retried: check --base-url; " + support
	case attempts == 1 && a.maxRetries == 0:
		return "The service failed and the request was not retried (--max-retries 0): try again later, or allow retries with --max-retries 3; " + support
	case attempts == 1:
		return "The service failed and the request was not retried (the SDK retries a request that creates a job only when the service cannot have received it): try again later; " + support
	case attempts > 1:
		return "The service failed " + retriesText(attempts) + ": try again later (or raise --max-retries); " + support
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
	"max-wait": "10m", "timeout": "30s",
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
