package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	newssearch "github.com/newssearch/newssearch-go"
)

// cliCanary is the key of the canary tests: it must appear in nothing the
// command line prints or writes.
const cliCanary = `sk-canary-cli-<"&>\KEY`

// handlerTransport serves requests with a handler, in process.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// keyOf returns the api_key of a request body.
func keyOf(body []byte) string {
	var in struct {
		APIKey string `json:"api_key"`
	}
	_ = json.Unmarshal(body, &in)
	return in.APIKey
}

// echoFailures answers every request with status, echoing the key in the
// message and the X-Request-Id header and the request body in the answer.
func echoFailures(status int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		key := keyOf(raw)
		w.Header().Set("X-Request-Id", "id-"+key)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		msg, _ := json.Marshal("your key " + key + " is wrong")
		fmt.Fprintf(w, `{"state":"FAILED","message":%s,"request":%s}`, msg, raw)
	})
}

// echoSuccesses passes requests to next and echoes the key in the
// X-Request-Id header, in the answer's message and in an undocumented
// member of the answer.
func echoSuccesses(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		key := keyOf(raw)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var m map[string]any
		body := rec.Body.Bytes()
		if json.Unmarshal(body, &m) == nil {
			m["message"] = "served for " + key
			m["echo"] = key
			body, _ = json.Marshal(m)
		}
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.Header().Set("X-Request-Id", "id-"+key)
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

// TestCanaryKeyNeverPrinted runs every command against services that echo
// the key back (in messages, request IDs, undocumented members and copies
// of the request), with --verbose logs and a terminal's progress on, and
// looks for the key in standard output, standard error and the --resume
// checkpoint.
func TestCanaryKeyNeverPrinted(t *testing.T) {
	t.Parallel()
	esc, _ := json.Marshal(cliCanary)
	forms := []string{cliCanary, string(esc[1 : len(esc)-1]), "sk-canary-cli"}
	services := map[string]func() http.Handler{
		"401": func() http.Handler { return echoFailures(http.StatusUnauthorized) },
		"400": func() http.Handler { return echoFailures(http.StatusBadRequest) },
		"503": func() http.Handler { return echoFailures(http.StatusServiceUnavailable) },
		"200": func() http.Handler { return echoFailures(http.StatusOK) },
		"mock": func() http.Handler {
			return echoSuccesses(newMock(t).Handler())
		},
	}
	commands := [][]string{
		{"search", "earthquake", "--since", "60d", "--verbose"},
		{"search", "earthquake", "--since", "60d", "--all", "--limit", "30", "-o", "json"},
		{"async", "earthquake", "--since", "60d", "--limit", "3", "--verbose"},
		{"async", "earthquake", "--since", "60d", "--no-wait", "-o", "table"},
		{"results", "q-unknown", "--verbose"},
		{"range", "earthquake", "--since", "21d", "--verbose", "--resume", "CHECKPOINT", "-o", "csv"},
		{"headlines", "--verbose", "-o", "table"},
		{"check", "-o", "json", "--verbose"},
		{"check", "-o", "table"},
	}
	for name, service := range services {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := newMock(t)
			h := service()
			dir := t.TempDir()
			var mu sync.Mutex
			served := 0
			counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				served++
				mu.Unlock()
				h.ServeHTTP(w, r)
			})
			for i, cmd := range commands {
				args := append([]string{}, cmd...)
				ck := filepath.Join(dir, fmt.Sprintf("ck%d", i))
				for j, a := range args {
					if a == "CHECKPOINT" {
						args[j] = ck
					}
				}
				r := runCLI(t, srv, runOpts{transport: handlerTransport{counted}, stderrTTY: true,
					env: map[string]string{newssearch.EnvAPIKey: cliCanary}}, args...)
				printed := map[string]string{"stdout": r.stdout, "stderr": r.stderr}
				if b, err := os.ReadFile(ck); err == nil {
					printed["checkpoint"] = string(b)
				}
				for where, text := range printed {
					for _, form := range forms {
						if strings.Contains(text, form) {
							t.Errorf("%v: the key (as %q) is in %s:\n%s", args, form, where, text)
						}
					}
				}
				if name != "mock" && r.code != exitError {
					t.Errorf("%v: exit %d, want %d; stderr %q", args, r.code, exitError, r.stderr)
				}
				if name == "mock" && r.code != exitOK && args[0] != "check" && args[0] != "results" {
					t.Errorf("%v: exit %d, want 0; stderr %q", args, r.code, r.stderr)
				}
			}
			if served < len(commands) {
				t.Errorf("the service answered %d requests for %d commands: the echo was not exercised", served, len(commands))
			}
		})
	}
}
