package newssearch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestNewClientErrors(t *testing.T) {
	t.Parallel()
	key := WithAPIKey("k")
	tests := []struct {
		name string
		opts []Option
		want string
	}{
		{"no key", []Option{WithoutEnvironment()},
			"newssearch: no API key: pass newssearch.WithAPIKey(key)"},
		{"blank key", []Option{WithoutEnvironment(), WithAPIKey("  \n")},
			"newssearch: no API key: pass newssearch.WithAPIKey(key)"},
		{"unparsable URL", []Option{key, WithBaseURL("http://[::1")},
			`newssearch: base URL "http://[::1" cannot be parsed: pass an absolute http or https URL such as "https://app.runathena.com"`},
		{"ftp URL", []Option{key, WithBaseURL("ftp://example.com")},
			`newssearch: base URL "ftp://example.com" has scheme "ftp": pass an absolute http or https URL such as "https://app.runathena.com"`},
		{"relative URL", []Option{key, WithBaseURL("app.runathena.com")},
			`newssearch: base URL "app.runathena.com" has scheme "": pass an absolute http or https URL such as "https://app.runathena.com"`},
		{"no host", []Option{key, WithBaseURL("https:///path")},
			`newssearch: base URL "https:///path" has no host: pass an absolute http or https URL such as "https://app.runathena.com"`},
		{"query", []Option{key, WithBaseURL("https://example.com/?a=b")},
			`newssearch: base URL "https://example.com/?a=b" has a query or fragment: pass only scheme, host and an optional path prefix`},
		{"negative retries", []Option{key, WithMaxRetries(-1)},
			"newssearch: invalid WithMaxRetries: -1 is negative: pass 0 to disable retries"},
		{"negative wait", []Option{key, WithRetryWait(-time.Second, time.Second)},
			"newssearch: invalid WithRetryWait: (-1s, 1s): waits must not be negative: pass durations >= 0"},
		{"min above max", []Option{key, WithRetryWait(2*time.Second, time.Second)},
			"newssearch: invalid WithRetryWait: (2s, 1s): min is greater than max: pass min <= max"},
		{"nil HTTP client", []Option{key, WithHTTPClient(nil)},
			"newssearch: invalid WithHTTPClient: the client is nil: pass a non-nil *http.Client or leave the option out"},
		{"two-line user agent", []Option{key, WithHeader("User-Agent", "a\r\nX: y")},
			`newssearch: invalid WithHeader: the value of header User-Agent holds a line break or NUL byte: pass a value on one line`},
		{"invalid poll options", []Option{key, &PollOptions{MinDelay: -time.Second}},
			`newssearch: invalid PollOptions.MinDelay: -1s is negative: pass a positive wait, or 0 for the default 100ms`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := append([]Option{WithoutEnvironment()}, tt.opts...)
			c, err := NewClient(opts...)
			if err == nil {
				t.Fatalf("NewClient succeeded: %v", c)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewClientNoKeyMentionsEnvironment(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	_, err := NewClient()
	want := "newssearch: no API key: pass newssearch.WithAPIKey(key) or set NEWSSEARCH_API_KEY"
	if err == nil || err.Error() != want {
		t.Fatalf("NewClient() error = %v, want %q", err, want)
	}
}

func TestNewClientDefaults(t *testing.T) {
	t.Parallel()
	c, err := NewClient(WithAPIKey(" k "), WithoutEnvironment(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{
		"key": *c.cfg.apiKey, "base": c.cfg.baseURL, "retries": c.cfg.defaults.maxRetries,
		"min": c.cfg.defaults.waitMin, "max": c.cfg.defaults.waitMax, "ua": c.cfg.defaults.header.Get("User-Agent"),
		// DefaultAttemptTimeout bounds each attempt in the Client's
		// transport (so that WithAttemptTimeout can replace it), not as
		// Timeout.
		"timeout": c.cfg.defaults.attemptTimeout, "http.Client.Timeout": c.cfg.httpClient.Timeout,
		"query": c.cfg.endpoints[pathQuery],
	}
	want := map[string]any{
		"key": "k", "base": "https://app.runathena.com", "retries": 3,
		"min": 500 * time.Millisecond, "max": 8 * time.Second, "ua": "newssearch-go/" + Version,
		"timeout": 2 * time.Minute, "http.Client.Timeout": time.Duration(0), "query": "https://app.runathena.com/api/v2/query",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults mismatch (-want +got):\n%s", diff)
	}
}

func TestNewClientBaseURLNormalised(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"https://app.runathena.com":          "https://app.runathena.com/api/v2/headlines",
		"https://app.runathena.com/":         "https://app.runathena.com/api/v2/headlines",
		"https://app.runathena.com/api/v2/":  "https://app.runathena.com/api/v2/headlines",
		"http://127.0.0.1:8080/prefix/":      "http://127.0.0.1:8080/prefix/api/v2/headlines",
		"http://127.0.0.1:8080/a/b/api/v2":   "http://127.0.0.1:8080/a/b/api/v2/headlines",
		"  http://127.0.0.1:8080/prefix//  ": "http://127.0.0.1:8080/prefix/api/v2/headlines",
	}
	for in, want := range tests {
		c, err := NewClient(WithAPIKey("k"), WithoutEnvironment(), WithBaseURL(in))
		if err != nil {
			t.Errorf("WithBaseURL(%q): %v", in, err)
			continue
		}
		if got := c.cfg.endpoints[pathHeadlines]; got != want {
			t.Errorf("WithBaseURL(%q): headlines URL = %q, want %q", in, got, want)
		}
	}
}

func TestNewClientEnvironment(t *testing.T) {
	t.Setenv(EnvAPIKey, " env-key\n")
	t.Setenv(EnvBaseURL, "http://env.example:9/root/")
	tests := []struct {
		name     string
		opts     []Option
		wantKey  string
		wantBase string
	}{
		{"environment", nil, "env-key", "http://env.example:9/root"},
		{"options win", []Option{WithAPIKey("opt-key"), WithBaseURL("https://opt.example")}, "opt-key", "https://opt.example"},
		{"empty options fall back", []Option{WithAPIKey(""), WithBaseURL("")}, "env-key", "http://env.example:9/root"},
		{"without environment", []Option{WithoutEnvironment(), WithAPIKey("opt-key")}, "opt-key", DefaultBaseURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewClient(tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			got := [2]string{*c.cfg.apiKey, c.cfg.baseURL}
			if diff := cmp.Diff([2]string{tt.wantKey, tt.wantBase}, got); diff != "" {
				t.Errorf("key and base mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := NewClient(WithoutEnvironment()); err == nil {
		t.Error("WithoutEnvironment still read NEWSSEARCH_API_KEY")
	}
}

func TestNewClientBadEnvironmentURL(t *testing.T) {
	t.Setenv(EnvAPIKey, "k")
	t.Setenv(EnvBaseURL, "not a url")
	_, err := NewClient()
	want := `newssearch: base URL "not a url" has scheme "": pass an absolute http or https URL such as "https://app.runathena.com"`
	if err == nil || err.Error() != want {
		t.Fatalf("NewClient() error = %v, want %q", err, want)
	}
}

func TestUserAgentAndHeaders(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		opts []Option
		want string
	}{
		{nil, "newssearch-go/" + Version},
		{[]Option{WithHeader("User-Agent", "myapp/2.0")}, "myapp/2.0"},
	} {
		var got http.Header
		srv := newPrefixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r.Header.Clone()
			w.Write([]byte(`{"headlines":[],"state":"SUCCESS"}`))
		}))
		c := clientFor(t, srv, tt.opts...)
		if _, err := c.Headlines(context.Background()); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"User-Agent": tt.want, "Content-Type": "application/json", "Accept": "application/json", "Idempotency-Key": ""}
		gotm := map[string]string{}
		for k := range want {
			gotm[k] = got.Get(k)
		}
		if diff := cmp.Diff(want, gotm); diff != "" {
			t.Errorf("headers mismatch (-want +got):\n%s", diff)
		}
	}
}

func TestClientString(t *testing.T) {
	t.Parallel()
	c, err := NewClient(WithAPIKey(sdkCanary), WithoutEnvironment(), WithBaseURL("http://127.0.0.1:1/p"), WithMaxRetries(2))
	if err != nil {
		t.Fatal(err)
	}
	want := `newssearch.Client{BaseURL: "http://127.0.0.1:1/p", APIKey: [REDACTED], MaxRetries: 2}`
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		if got := fmt.Sprintf(verb, c); got != want {
			t.Errorf("Sprintf(%q, c) = %q, want %q", verb, got, want)
		}
		// Every method has a pointer receiver, so a dereferenced Client
		// prints by reflection: it must still not reach the key.
		if got := fmt.Sprintf(verb, *c); strings.Contains(got, sdkCanary) {
			t.Errorf("Sprintf(%q, *c) = %q shows the API key", verb, got)
		}
	}
	for _, zero := range []*Client{nil, new(Client)} {
		if got := zero.String(); !strings.Contains(got, "use newssearch.NewClient") {
			t.Errorf("String() of %#v = %q, want a hint to use NewClient", zero, got)
		}
	}
}

func TestZeroClientFails(t *testing.T) {
	t.Parallel()
	var c *Client
	_, err := c.Headlines(context.Background())
	want := "newssearch: the Client was not created by NewClient: use newssearch.NewClient"
	if err == nil || err.Error() != want {
		t.Fatalf("nil Client Headlines error = %v, want %q", err, want)
	}
	_, err = new(Client).Search(context.Background(), SearchParams{Query: "q"})
	if err == nil || err.Error() != want {
		t.Fatalf("zero Client Search error = %v, want %q", err, want)
	}
}

func TestNilContext(t *testing.T) {
	t.Parallel()
	c, err := NewClient(WithAPIKey("k"), WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	var ctx context.Context // nil
	_, err = c.Headlines(ctx)
	want := "newssearch: POST /api/v2/headlines: nil context: pass context.Background() or a request context"
	if err == nil || err.Error() != want {
		t.Fatalf("Headlines(nil) error = %v, want %q", err, want)
	}
}

func TestDefaultTransportUsesReplacedDefault(t *testing.T) {
	// Not parallel: it replaces http.DefaultTransport, as httpmock.Activate does.
	saved := http.DefaultTransport
	t.Cleanup(func() { http.DefaultTransport = saved })
	var seen []string
	http.DefaultTransport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = append(seen, r.URL.String())
		return &http.Response{
			StatusCode: http.StatusOK,
			Header:     http.Header{"Content-Type": {"application/json"}},
			Body:       io.NopCloser(strings.NewReader(`{"headlines":[],"state":"SUCCESS"}`)),
			Request:    r,
		}, nil
	})
	// Replaced before NewClient: the default client takes the replacement.
	c, err := NewClient(WithAPIKey(sdkKey), WithBaseURL("http://news.invalid"), WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Headlines(context.Background()); err != nil {
		t.Fatalf("Headlines through the replaced default transport: %v", err)
	}
	// Replaced after NewClient: WithHTTPClient(http.DefaultClient) follows
	// the replacement, as any client without a Transport does.
	http.DefaultTransport = saved
	later, err := NewClient(WithAPIKey(sdkKey), WithBaseURL("http://later.invalid"), WithoutEnvironment(),
		WithHTTPClient(http.DefaultClient), WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	http.DefaultTransport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = append(seen, r.URL.String())
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(`{"headlines":[],"state":"SUCCESS"}`)), Request: r}, nil
	})
	if _, err := later.Headlines(context.Background()); err != nil {
		t.Fatalf("Headlines through the transport replaced after NewClient: %v", err)
	}
	want := []string{"http://news.invalid/api/v2/headlines", "http://later.invalid/api/v2/headlines"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("requests seen by the replaced http.DefaultTransport (-want +got):\n%s", diff)
	}
}

// roundTripFunc adapts a function to http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
