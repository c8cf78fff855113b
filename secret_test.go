package newssearch

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
	"sync"
	"testing"
	"time"
)

// echoServer answers every request with status, echoing the API key it
// received in the message, in X-Request-Id, and the raw request body in
// the response body.
func echoServer(t *testing.T, status int) string {
	t.Helper()
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var in struct {
			APIKey string `json:"api_key"`
		}
		json.Unmarshal(raw, &in)
		w.Header().Set("X-Request-Id", "id-"+in.APIKey)
		w.WriteHeader(status)
		msg, _ := json.Marshal("your key " + in.APIKey + " is wrong")
		fmt.Fprintf(w, `{"state":"FAILED","message":%s,"request":%s}`, msg, raw)
	}))
	return srv.URL + sdkPrefix
}

func TestSecretNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, key := range []string{sdkCanary, `CANARY<"&>\KEY`} {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			var printed []string
			add := func(v any) {
				for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
					printed = append(printed, fmt.Sprintf(verb, v))
				}
			}
			var logs bytes.Buffer
			newClient := func(base string) *Client {
				c, err := NewClient(WithAPIKey(key), WithoutEnvironment(), WithBaseURL(base), WithMaxRetries(1),
					WithRetryWait(0, 0), WithLogger(newTestLogger(&logs)))
				if err != nil {
					t.Fatal(err)
				}
				return c
			}
			ctx := context.Background()

			c := newClient(echoServer(t, http.StatusUnauthorized))
			add(c)
			add(*c)
			add(struct{ C *Client }{c})
			add(struct{ c Client }{*c})
			_, err := c.Search(ctx, SearchParams{Query: "q"})
			add(err)
			if apiErr := apiErrorOf(t, err); len(apiErr.Body) == 0 {
				t.Error("APIError.Body is empty; the scrubbing was not exercised")
			} else {
				printed = append(printed, string(apiErr.Body), apiErr.Message, apiErr.RequestID)
			}
			_, err = c.SubmitQuery(ctx, asyncQuery)
			add(err)
			_, err = c.GetResults(ctx, "q", 1)
			add(err)
			_, err = c.Headlines(ctx)
			add(err)

			// Retried server errors, a failed state and a malformed answer.
			_, err = newClient(echoServer(t, http.StatusServiceUnavailable)).Search(ctx, SearchParams{Query: "q"})
			add(err)
			_, err = newClient(echoServer(t, http.StatusOK)).GetResults(ctx, "q", 1)
			add(err)
			srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw, _ := io.ReadAll(r.Body)
				w.Write(raw[:len(raw)-1]) // the request echoed, truncated: not JSON
			}))
			_, err = newClient(srv.URL + sdkPrefix).Headlines(ctx)
			add(err)

			// Transport failures, cancellation and validation.
			_, err = newClient(refusedURL(t)).Search(ctx, SearchParams{Query: "q"})
			add(err)
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			_, err = c.Search(cancelled, SearchParams{Query: "q"})
			add(err)
			_, err = c.Search(ctx, SearchParams{Query: "q", Page: -1})
			add(err)
			add(SearchParams{Query: "q"})
			printed = append(printed, logs.String())

			if logs.Len() == 0 {
				t.Error("nothing was logged; the log check was not exercised")
			}
			esc, _ := json.Marshal(key)
			forms := []string{key, string(esc[1 : len(esc)-1])}
			for _, p := range printed {
				for _, form := range forms {
					if strings.Contains(p, form) {
						t.Errorf("the API key appears in %q", p)
					}
				}
			}
		})
	}
}

func TestSecretScrubbedForms(t *testing.T) {
	t.Parallel()
	c, err := NewClient(WithAPIKey(`a<b`), WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	got := c.scrub(`{"k":"a\u003cb","raw":"a<b"}`)
	if want := `{"k":"[REDACTED]","raw":"[REDACTED]"}`; got != want {
		t.Errorf("scrub = %s, want %s", got, want)
	}
}

// TestScrubByMeaning: with the key "test", the key is redacted where it
// stands as a token, in every form (plain, JSON string, any JSON escape,
// URL-encoded), and never inside other words.
func TestScrubByMeaning(t *testing.T) {
	t.Parallel()
	c, err := NewClient(WithAPIKey("test"), WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"the latest tests":                       "the latest tests",
		"key test refused":                       "key [REDACTED] refused",
		`{"api_key":"test"}`:                     `{"api_key":"[REDACTED]"}`,
		`{"api_key":"\u0074est"}`:                `{"api_key":"[REDACTED]"}`,
		`{"api_key":"\u0074\u0065\u0073\u0074"}`: `{"api_key":"[REDACTED]"}`,
		"api_key=t%65st&q=1":                     "api_key=[REDACTED]&q=1",
		"contest attested":                       "contest attested",
	} {
		if got := c.scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
	s, err := NewClient(WithAPIKey("a/b-key"), WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.scrub(`{"k":"a\/b-key"}`); got != `{"k":"[REDACTED]"}` {
		t.Errorf("an escaped slash: %q", got)
	}
}

func TestLogRecords(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	c, _ := serveScript(t, failing(pathHeadlines, 1, 502, `{"headlines":[],"state":"SUCCESS"}`),
		WithLogger(newTestLogger(&logs)), WithRetryWait(0, 0))
	if _, err := c.Headlines(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := `{"level":"DEBUG","msg":"newssearch: response","method":"POST","endpoint":"/api/v2/headlines","attempt":1,"status":502}
{"level":"INFO","msg":"newssearch: retrying","method":"POST","endpoint":"/api/v2/headlines","attempt":1,"wait":0,"status":502}
{"level":"DEBUG","msg":"newssearch: response","method":"POST","endpoint":"/api/v2/headlines","attempt":2,"status":200}
`
	if got := logs.String(); got != want {
		t.Errorf("log records:\n%s\nwant:\n%s", got, want)
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	page := []byte(`{"results":{"totalResults":2,"articles":` + wireArticles(2) + `},"state":"SUCCESS"}`)
	var n int64
	var mu = make(chan struct{}, 1)
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu <- struct{}{}
		n++
		fail := n%3 == 0
		<-mu
		if fail {
			w.WriteHeader(503)
			return
		}
		w.Write(page)
	}))
	c := clientFor(t, srv, WithRetryWait(0, time.Millisecond), WithMaxRetries(5))
	errs := make(chan error, 40)
	for range cap(errs) {
		go func() {
			got, err := c.Search(context.Background(), SearchParams{Query: "q"})
			if err == nil && len(got.Articles) != 2 {
				err = fmt.Errorf("got %d articles, want 2", len(got.Articles))
			}
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestSecretNeverPrintedByRanges: the errors of long-range searches (the
// RangeError of SearchRange, with its Finished and Missing windows, and
// those SearchRangeSeq yields per window) and their progress reports never
// show the key, though the service echoes it
// in its failure messages and request ids.
func TestSecretNeverPrintedByRanges(t *testing.T) {
	t.Parallel()
	key := sdkCanary
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	failBefore := start.Add(14 * 24 * time.Hour) // the first two weekly windows fail
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			APIKey    string `json:"api_key"`
			StartDate string `json:"start_date"`
		}
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("X-Request-Id", "id-"+in.APIKey)
		switch {
		case strings.HasSuffix(r.URL.Path, "/query-async"):
			from, _ := time.Parse(time.RFC3339, in.StartDate)
			if from.Before(failBefore) {
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprintf(w, `{"state":"FAILED","message":"window refused for key %s"}`, in.APIKey)
				return
			}
			fmt.Fprint(w, `{"query_id":"q1","state":"SUCCESS"}`)
		default:
			fmt.Fprint(w, `{"query_id":"q1","page":1,"totalResults":0,"totalArticles":0,"articles":[],"state":"SUCCESS"}`)
		}
	}))
	var logs bytes.Buffer
	c, err := NewClient(WithAPIKey(key), WithoutEnvironment(), WithBaseURL(srv.URL+sdkPrefix), WithMaxRetries(0),
		WithLogger(newTestLogger(&logs)))
	if err != nil {
		t.Fatal(err)
	}
	params := AsyncSearchParams{SearchParams: SearchParams{Query: "q", StartDate: start, EndDate: start.Add(42 * 24 * time.Hour)}}
	var printed []string
	add := func(v any) {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
			printed = append(printed, fmt.Sprintf(verb, v))
		}
	}
	var progress []RangeProgress
	poll := &PollOptions{MinDelay: time.Millisecond, MaxDelay: time.Millisecond, MaxWait: time.Minute}
	opts := &RangeOptions{OnProgress: func(p RangeProgress) { progress = append(progress, p) }}
	_, err = c.SearchRange(t.Context(), params, poll, opts)
	var re *RangeError
	if !errors.As(err, &re) || len(re.Finished) == 0 || len(re.Missing) != 2 {
		t.Fatalf("SearchRange ended with %v; want a *RangeError with finished and missing windows", err)
	}
	add(err)
	add(re)
	add(re.Finished)
	add(re.Missing)
	add(errors.Unwrap(err))
	failures := 0
	for w, err := range c.SearchRangeSeq(t.Context(), params, poll, opts) {
		add(w)
		if err != nil {
			failures++
			add(err)
		}
	}
	if failures != 2 {
		t.Errorf("SearchRangeSeq yielded %d errors, want the 2 failed windows'", failures)
	}
	add(progress)
	printed = append(printed, logs.String())
	for _, p := range printed {
		if strings.Contains(p, key) {
			t.Errorf("the API key appears in %q", p)
		}
	}
	if !strings.Contains(strings.Join(printed, "\n"), "window refused for key [REDACTED] (request id id-[REDACTED])") {
		t.Error("no scrubbed failure message was printed; the scrubbing was not exercised")
	}
}

// TestSecretStraddlingCuts: a key the service echoes across the 64 KiB cut
// of APIError.Body, or the 128-byte cut of the request id, plain or in
// JSON escapes, leaves no part of itself in any error surface: it is
// redacted before the cut.
func TestSecretStraddlingCuts(t *testing.T) {
	t.Parallel()
	const key = "sk-straddle-0123456789abcdef"
	escaped := ""
	for _, r := range key {
		escaped += fmt.Sprintf(`\u%04x`, r)
	}
	for name, form := range map[string]string{"plain": key, "escaped": escaped} {
		for _, at := range []int{3, len(form) / 2, len(form) - 2} {
			// The key begins at 64 KiB - at, inside a JSON string.
			pad := maxErrorBody - at - len(`{"message":"`)
			body := `{"message":"` + strings.Repeat("x", pad-1) + " " + form + ` tail"}`
			id := strings.Repeat("r", maxRequestID-min(at, len(key)-2)-1) + " " + key + " more"
			c, _ := serveScript(t, []scripted{{path: pathHeadlines, status: 400, header: http.Header{"X-Request-Id": {id}}, response: body}},
				WithAPIKey(key), WithMaxRetries(0))
			_, err := c.Headlines(context.Background())
			got := apiErrorOf(t, err)
			prefix := key[:min(len(key), 4)]
			for surface, text := range map[string]string{"Error()": err.Error(), "Body": string(got.Body), "RequestID": got.RequestID, "Message": got.Message, "%+v": fmt.Sprintf("%+v", got)} {
				if strings.Contains(text, prefix) || strings.Contains(text, `\u0073\u006b`) {
					t.Errorf("%s key cut %d bytes in: %s holds part of the key: …%.80q", name, at, surface, text[max(0, len(text)-80):])
				}
			}
			if len(got.Body) > maxErrorBody || len(got.RequestID) > maxRequestID {
				t.Errorf("Body %d bytes, RequestID %d bytes: over the caps", len(got.Body), len(got.RequestID))
			}
		}
	}
}

// TestGluedSecretAtEveryCut: a key glued to other characters ("rrr" + key
// + "zz", plain, JSON-escaped or URL-encoded) that the service echoes in
// the request id, an error body, a non-JSON body, an HTML page's title or
// a redirect's Location leaves no part of itself in any error surface,
// wherever the cut of that surface falls inside or beside it (issue 36).
func TestGluedSecretAtEveryCut(t *testing.T) {
	t.Parallel()
	const key = "sk-canary-0123456789abcdef"
	var jsonForm, urlForm strings.Builder
	for _, b := range []byte(key) {
		fmt.Fprintf(&jsonForm, `\u%04x`, b)
		fmt.Fprintf(&urlForm, "%%%02X", b)
	}
	forms := map[string]string{"plain": key, "JSON-escaped": jsonForm.String(), "URL-encoded": urlForm.String()}
	// Each case is an answer; the server sends the one the request names.
	type answer struct {
		status int
		header http.Header
		body   string
	}
	var cases sync.Map
	srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, _ := cases.Load(r.Header.Get("X-Case"))
		for k, vs := range a.(answer).header {
			w.Header()[k] = vs
		}
		w.WriteHeader(a.(answer).status)
		io.WriteString(w, a.(answer).body)
	}))
	c := clientFor(t, srv, WithAPIKey(key), WithMaxRetries(0))
	// around puts form, glued, so that it starts at cut - back; the
	// filler is letters, as the "rrr…zz".
	around := func(cut, back int, form string) string {
		return strings.Repeat("r", cut-back) + form + "zz" + strings.Repeat("z", 40)
	}
	html := http.Header{"Content-Type": {"text/html"}}
	plain := http.Header{"Content-Type": {"text/plain"}}
	surfaces := []struct {
		name  string
		cut   int
		forms []string
		make  func(text string) answer
	}{
		{"request id", maxRequestID, []string{"plain"}, func(s string) answer {
			return answer{400, http.Header{"X-Request-Id": {s}}, `{"message":"no"}`}
		}},
		{"JSON error body", maxErrorBody - len(`{"message":"`), []string{"plain", "JSON-escaped", "URL-encoded"}, func(s string) answer {
			return answer{400, nil, `{"message":"` + s + `"}`}
		}},
		{"text error body", maxMessageLen, []string{"plain", "JSON-escaped", "URL-encoded"}, func(s string) answer {
			return answer{502, plain, s}
		}},
		{"HTML page title", maxPageLen, []string{"plain", "JSON-escaped", "URL-encoded"}, func(s string) answer {
			return answer{200, html, "<html><title>" + s + "</title></html>"}
		}},
		{"redirect Location", maxMessageLen - len("http://elsewhere.example/"), []string{"plain", "URL-encoded"}, func(s string) answer {
			return answer{http.StatusTemporaryRedirect, http.Header{"Location": {"http://elsewhere.example/" + s}}, ""}
		}},
	}
	n := 0
	for _, sf := range surfaces {
		for _, name := range sf.forms {
			form := forms[name]
			// From the cut just before the key to just after it, keeping
			// three letters of glue before the key.
			for back := -1; back <= min(len(form)+2, sf.cut-3); back++ {
				n++
				id := strconv.Itoa(n)
				cases.Store(id, sf.make(around(sf.cut, back, form)))
				_, err := c.Headlines(t.Context(), WithHeader("X-Case", id))
				var got *APIError
				if !errors.As(err, &got) {
					t.Fatalf("%s, %s key cut %d bytes in: %v, want an *APIError", sf.name, name, back, err)
				}
				for surface, text := range map[string]string{"Error()": err.Error(), "Body": string(got.Body),
					"RequestID": got.RequestID, "Message": got.Message, "%+v": fmt.Sprintf("%+v", got)} {
					if part := keyPart(text, key); part != "" {
						t.Errorf("%s, %s key cut %d bytes in: %s holds %q of the key: %q", sf.name, name, back, surface, part, text[max(0, len(text)-200):])
					}
				}
			}
		}
	}
}

// keyPart returns a part of key that text holds, plain or escaped, or "":
// any 4 bytes of it in a row, or 2 of its bytes escaped.
func keyPart(text, key string) string {
	for i := 0; i+4 <= len(key); i++ {
		if strings.Contains(text, key[i:i+4]) {
			return key[i : i+4]
		}
	}
	lower := strings.ToLower(text)
	for i := 0; i+2 <= len(key); i++ {
		for _, part := range []string{fmt.Sprintf(`\u%04x\u%04x`, key[i], key[i+1]), fmt.Sprintf("%%%02x%%%02x", key[i], key[i+1])} {
			if strings.Contains(lower, part) {
				return part
			}
		}
	}
	return ""
}
