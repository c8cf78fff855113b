package newssearch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
)

// Fuzz targets of the SDK's response decoding. Their seed corpora live in
// testdata/fuzz/<target>/ and run with every go test; see RELIABILITY.md
// for the commands that fuzz them for longer.

// FuzzParseTimestamp checks that ParseTimestamp never panics, always keeps
// the raw string, gives a UTC time or a zero time with an error naming the
// accepted forms, and that the JSON forms of a Timestamp agree with it and
// round-trip.
func FuzzParseTimestamp(f *testing.F) {
	for _, s := range []string{
		"Wed, 13 Nov 2024 01:44:17 GMT", "2025-01-19 01:04:00", "2025-03-01T15:13:52.466Z",
		"2025-03-01T15:13:52+01:00", "2025-03-01", "2025-03-01T15:13:52", "Wed, 13 Nov 2024 01:44:17 +0100",
		"", ",", "0000-00-00", "9999-12-31T23:59:59.999999999-23:59",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := newssearch.ParseTimestamp(s)
		if ts.Raw() != s {
			t.Fatalf("ParseTimestamp(%q).Raw() = %q", s, ts.Raw())
		}
		if err != nil {
			if !ts.Time.IsZero() {
				t.Fatalf("ParseTimestamp(%q) failed but set Time %v", s, ts.Time)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "newssearch: cannot parse date ") || !strings.Contains(msg, "RFC 3339") {
				t.Fatalf("ParseTimestamp(%q) error %q does not name the accepted forms", s, msg)
			}
		} else if ts.Time.Location() != time.UTC {
			t.Fatalf("ParseTimestamp(%q).Time is in %v, want UTC", s, ts.Time.Location())
		}
		if !utf8.ValidString(s) {
			return // JSON cannot carry the string unchanged
		}
		raw, _ := json.Marshal(s)
		var fromJSON newssearch.Timestamp
		if err := json.Unmarshal(raw, &fromJSON); err != nil {
			t.Fatalf("Unmarshal(%s): %v", raw, err)
		}
		if fromJSON.Raw() != s || !fromJSON.Equal(ts) {
			t.Fatalf("Unmarshal(%s) = %+v, ParseTimestamp gave %+v", raw, fromJSON, ts)
		}
		again, err := json.Marshal(fromJSON)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", fromJSON, err)
		}
		var back newssearch.Timestamp
		if err := json.Unmarshal(again, &back); err != nil {
			t.Fatalf("Unmarshal(Marshal) of %s: %v", again, err)
		}
		if !back.Equal(fromJSON) {
			t.Fatalf("round trip of %q: %+v became %+v", s, fromJSON, back)
		}
	})
}

// FuzzImageList checks that every JSON value decodes into an ImageList or
// fails cleanly, also when UnmarshalJSON is called on bytes encoding/json
// never validated, and that a decoded list round-trips.
func FuzzImageList(f *testing.F) {
	for _, s := range []string{`"https://a/b.jpg"`, `null`, `[]`, `["a","b"]`, `""`, `[""]`, `[1]`, `{"a":1}`, `"\u00e9"`, `"`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var direct newssearch.ImageList
		_ = direct.UnmarshalJSON(b) // must not panic on any bytes
		var l newssearch.ImageList
		if err := json.Unmarshal(b, &l); err != nil {
			return
		}
		out, err := json.Marshal(l)
		if err != nil {
			t.Fatalf("Marshal(%q): %v", l, err)
		}
		var back newssearch.ImageList
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", out, err)
		}
		if diff := cmp.Diff(l, back); diff != "" {
			t.Fatalf("round trip of %s via %s (-first +second):\n%s", b, out, diff)
		}
	})
}

// FuzzArticleJSON checks that any bytes decode into an Article or fail
// cleanly, and that a decoded Article encodes and decodes back to itself,
// Extra included.
func FuzzArticleJSON(f *testing.F) {
	for _, s := range []string{
		`{"_id":"5f1c0a9e3b2d4c6e8f7a1b2c","title":"t","image":["a"],"datePublished":"2025-01-19 01:04:00","score":1.5,"entities":null,"x":{"y":[1]}}`,
		`{"entities":{"a":1},"x\"y":[1,"]"],"z":"\\"}`,
		`{"score":"high","embeddings":[1e39],"datePublished":17}`,
		`{"Title":"a","TITLE":"b","sentiment":{"title":2}}`,
		`null`, `[]`, `{}`, `{"":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var direct newssearch.Article
		_ = direct.UnmarshalJSON(b) // must not panic on any bytes
		var a newssearch.Article
		if err := json.Unmarshal(b, &a); err != nil {
			return
		}
		out, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("Marshal of the article decoded from %s: %v", b, err)
		}
		var back newssearch.Article
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", out, err)
		}
		if diff := cmp.Diff(a, back, equateCompactJSON); diff != "" {
			t.Fatalf("round trip of %s via %s (-first +second):\n%s", b, out, diff)
		}
	})
}

// equateCompactJSON compares raw JSON values the way encoding/json
// rewrites a MarshalJSON method's output: without insignificant space and
// with <, >, &, U+2028 and U+2029 escaped.
var equateCompactJSON = cmp.Comparer(func(x, y json.RawMessage) bool {
	return bytes.Equal(normalJSON(x), normalJSON(y))
})

// normalJSON compacts and HTML-escapes a raw JSON value; invalid JSON is
// returned as it is.
func normalJSON(raw json.RawMessage) []byte {
	var compact, escaped bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		return raw
	}
	json.HTMLEscape(&escaped, compact.Bytes())
	return escaped.Bytes()
}

// fuzzKey is the API key of FuzzClientResponse. A fuzzed body may carry
// "$KEY", which the fake service replaces with the key it received, as a
// service echoing the request would.
const fuzzKey = "CANARY-fuzz-0b9e51d2"

// fuzzSafety bounds one call of FuzzClientResponse: every response is
// finite and every wait tiny, so a call still running then hangs.
const fuzzSafety = 10 * time.Second

// bodyTransport answers every request with one fuzzed response.
type bodyTransport struct {
	status    int
	header    http.Header
	body      []byte
	length    int64
	requested int
}

// RoundTrip returns the fuzzed response, the key echoed where the body
// says $KEY.
func (bt *bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	bt.requested++
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	body := bytes.ReplaceAll(bt.body, []byte("$KEY"), []byte(fuzzKey))
	return &http.Response{
		StatusCode:    bt.status,
		Status:        strconv.Itoa(bt.status) + " " + http.StatusText(bt.status),
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        bt.header.Clone(),
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: bt.length,
		Request:       r,
	}, nil
}

// fuzzCalls are the client calls FuzzClientResponse drives; each returns
// the value it got (nil when none) and the error.
var fuzzCalls = []struct {
	name string
	call func(ctx context.Context, c *newssearch.Client) (any, error)
}{
	{"Search", func(ctx context.Context, c *newssearch.Client) (any, error) {
		return nilIfNil(c.Search(ctx, newssearch.SearchParams{Query: "q"}))
	}},
	{"SubmitQuery", func(ctx context.Context, c *newssearch.Client) (any, error) {
		return nilIfNil(c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "q"}}))
	}},
	{"GetResults", func(ctx context.Context, c *newssearch.Client) (any, error) {
		return nilIfNil(c.GetResults(ctx, "job-1", 2))
	}},
	{"Headlines", func(ctx context.Context, c *newssearch.Client) (any, error) {
		return nilIfNil(c.Headlines(ctx))
	}},
	{"Poll", func(ctx context.Context, c *newssearch.Client) (any, error) {
		opts := &newssearch.PollOptions{MinDelay: time.Microsecond, MaxDelay: time.Microsecond, Jitter: -1, MaxWait: 100 * time.Microsecond}
		return nilIfNil(c.Poll(ctx, "job-1", opts))
	}},
	{"SearchAll", func(ctx context.Context, c *newssearch.Client) (any, error) {
		var got []newssearch.Article
		for a, err := range c.SearchAll(ctx, newssearch.SearchParams{Query: "q"}, &newssearch.PageOptions{Prefetch: 2}) {
			if err != nil {
				return nil, err
			}
			if got = append(got, a); len(got) >= 3*newssearch.PageSize {
				break
			}
		}
		return got, nil
	}},
	{"Results", func(ctx context.Context, c *newssearch.Client) (any, error) {
		var got []newssearch.Article
		opts := &newssearch.PollOptions{MinDelay: time.Microsecond, MaxDelay: time.Microsecond, Jitter: -1, MaxWait: 100 * time.Microsecond}
		for a, err := range c.Results(ctx, "job-1", opts) {
			if err != nil {
				return nil, err
			}
			if got = append(got, a); len(got) >= 3*newssearch.PageSize {
				break
			}
		}
		return got, nil
	}},
}

// nilIfNil turns a typed nil pointer into a nil interface.
func nilIfNil[T any](v *T, err error) (any, error) {
	if v == nil {
		return nil, err
	}
	return v, err
}

// FuzzClientResponse sends a whole fuzzed response (status, Retry-After,
// X-Request-Id, Content-Length, body) through the client's real HTTP
// stack to every call. Property: no panic; no hang; a value or an error,
// never both and never neither; an error names the SDK, and an *APIError keeps at
// most 64 KiB of body and the status received; the key the fake service
// echoes never reaches an error string.
func FuzzClientResponse(f *testing.F) {
	f.Add(uint8(0), uint16(200), "", "req-1", int64(-1), []byte(`{"results":{"totalResults":1,"articles":[{"_id":"5f1c0a9e3b2d4c6e8f7a1b2c"}]},"state":"SUCCESS"}`))
	f.Add(uint8(1), uint16(200), "", "", int64(-1), []byte(`{"query_id":"abc","state":"SUCCESS"}`))
	f.Add(uint8(4), uint16(200), "", "", int64(-1), []byte(`{"query_id":"abc","state":"PENDING"}`))
	f.Add(uint8(3), uint16(429), "2", "r", int64(-1), []byte(`{"state":"FAILED","message":"$KEY"}`))
	f.Add(uint8(2), uint16(200), "", "", int64(5), []byte(`{"totalResults":"$KEY","state":"SUCCESS"}`))
	f.Fuzz(func(t *testing.T, which uint8, status uint16, retryAfter, requestID string, length int64, body []byte) {
		call := fuzzCalls[int(which)%len(fuzzCalls)]
		bt := &bodyTransport{
			status: 100 + int(status)%500,
			header: http.Header{"Content-Type": {"application/json"}},
			body:   body,
			length: -1,
		}
		if retryAfter != "" {
			bt.header.Set("Retry-After", retryAfter)
		}
		if requestID != "" {
			bt.header.Set("X-Request-Id", requestID)
		}
		if length >= 0 && length <= int64(len(body)) {
			bt.length = length // a short length: net/http's reader stops there
		}
		c, err := newssearch.NewClient(newssearch.WithoutEnvironment(), newssearch.WithAPIKey(fuzzKey),
			newssearch.WithBaseURL("http://service.invalid"), newssearch.WithHTTPClient(&http.Client{Transport: bt}),
			newssearch.WithMaxRetries(1), newssearch.WithRetryWait(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), fuzzSafety)
		defer cancel()
		v, err := call.call(ctx, c)
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s on HTTP %d %q: still running after %v: the call hangs on a finite response", call.name, bt.status, body, fuzzSafety)
		}
		if (v == nil) == (err == nil) {
			t.Fatalf("%s on HTTP %d %q: value %v and error %v: want exactly one", call.name, bt.status, body, v, err)
		}
		if err == nil {
			if bt.status < 200 || bt.status > 299 {
				t.Fatalf("%s on HTTP %d %q: no error", call.name, bt.status, body)
			}
			return
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "newssearch: ") {
			t.Fatalf("%s: error %q does not start with \"newssearch: \"", call.name, msg)
		}
		for _, p := range []string{msg, fmt.Sprintf("%+v", err)} {
			if strings.Contains(p, fuzzKey) {
				t.Fatalf("%s on %q: the echoed key appears in the error %q", call.name, body, p)
			}
		}
		var apiErr *newssearch.APIError
		if errors.As(err, &apiErr) {
			if len(apiErr.Body) > 64<<10 {
				t.Fatalf("%s: APIError.Body holds %d bytes, want at most 65536", call.name, len(apiErr.Body))
			}
			if apiErr.StatusCode != bt.status {
				t.Fatalf("%s: APIError.StatusCode %d, the response had %d", call.name, apiErr.StatusCode, bt.status)
			}
		}
	})
}
