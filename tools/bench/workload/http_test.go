package workload

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlainDoesAPlainMocksWork holds row 3w's reference to its
// description: it answers the fixed bytes only to a body it could decode,
// and logs a line for every request it answered (a reference skipping
// either would flatter the floor it shows).
func TestPlainDoesAPlainMocksWork(t *testing.T) {
	t.Parallel()
	logPath := filepath.Join(t.TempDir(), "plain.log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	answer := []byte(`{"results":{"articles":[]}}`)
	srv, err := StartPlain([]Answer{JSONAnswer("/api/v2/query", answer)}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client := NewHTTPClient(1)
	for _, tc := range []struct {
		body   string
		status int
	}{
		{`{"api_key":"k","query":"floods"}`, http.StatusOK},
		{`{"query":"floods"}`, http.StatusBadRequest},
		{`{"api_key":7}`, http.StatusBadRequest},
		{`{"api_key":"k",`, http.StatusBadRequest},
	} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/api/v2/query", strings.NewReader(tc.body))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.body, resp.StatusCode, tc.status)
		}
		if tc.status == http.StatusOK && !bytes.Equal(got, answer) {
			t.Errorf("%s: answered %q, want %q", tc.body, got, answer)
		}
	}
	srv.Close()
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `msg=request method=POST path=/api/v2/query status=200 duration=`); n != 1 {
		t.Errorf("the log holds %d request lines, want 1 for the one request answered:\n%s", n, b)
	}
}
