package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/mockserver/internal/snapshot"
)

// cacheChildEnv, when set, makes the test binary a child process for the
// tests of the corpus cache file (see cacheChild): each needs a process of
// its own, since the default corpus is loaded once per process.
const cacheChildEnv = "NEWSSEARCH_MOCK_CACHE_TEST_CHILD"

// cacheReport is what a cache child prints, as JSON, on standard output.
type cacheReport struct {
	Origin string
	// Search is the status of a search for "earthquake"; Total its
	// totalResults.
	Search int
	Total  int
	// With mode "truncate": the search after the file was truncated, its
	// message, and the status of GET /_mock/health after it.
	After        int
	AfterMessage string
	Health       int
}

// cacheChild runs in a child process: New (which maps or builds the
// default corpus, with the NEWSSEARCH_MOCK_CACHE the parent set), a search,
// and with mode "truncate", the cache file truncated in place under the
// running server, then another search and a health check. It prints a
// cacheReport and returns the exit code.
func cacheChild(mode string) int {
	s := New(WithoutListener())
	defer s.Close()
	rep := cacheReport{Origin: s.Corpus().Origin()}
	search := func(query string) (reply, error) {
		return tryCall(s, http.MethodPost, "/api/v2/query", `{"api_key": "k", "query": "`+query+`"}`)
	}
	r, err := search("earthquake")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var res struct {
		Results struct{ TotalResults int } `json:"results"`
	}
	_ = json.Unmarshal(r.Body, &res)
	rep.Search, rep.Total = r.Status, res.Results.TotalResults
	if mode == "truncate" {
		path, ok := strings.CutPrefix(rep.Origin, "mapped from ")
		if !ok {
			fmt.Fprintf(os.Stderr, "the corpus was not mapped: %s\n", rep.Origin)
			return 1
		}
		if err := os.Truncate(path, 1<<16); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		r, err := search("bank")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		var f failure
		_ = json.Unmarshal(r.Body, &f)
		rep.After, rep.AfterMessage = r.Status, f.Message
		if r, err := tryCall(s, http.MethodGet, "/_mock/health", ""); err == nil {
			rep.Health = r.Status
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(rep); err != nil {
		return 1
	}
	return 0
}

// runCacheChild runs cacheChild in a new process with the cache in dir.
func runCacheChild(t *testing.T, dir, mode string) cacheReport {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), cacheChildEnv+"="+mode, snapshot.EnvCache+"="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cache child (%s): %v; stderr:\n%s", mode, err, stderr.String())
	}
	var rep cacheReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("cache child (%s) printed %q: %v; stderr:\n%s", mode, stdout.String(), err, stderr.String())
	}
	return rep
}

// TestCacheFileDamaged damages the corpus cache file in every way a file
// can be damaged (cut short, one byte changed, another file's bytes, empty,
// and truncated in place under a server that maps it) and starts a new
// process each time: New works and serves, builds the corpus and stores a
// good file again, which the next process maps. A server whose file is
// truncated under it answers 500 with a message saying so, instead of dying
// of SIGBUS, and goes on serving what does not need the file.
func TestCacheFileDamaged(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the test binary as child processes, five of which build the corpus; skipped with -short")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, snapshot.FileName())
	first := runCacheChild(t, dir, "serve")
	if first.Origin != "built, then stored in "+path {
		t.Skipf("the first process did not store the cache file: %s", first.Origin)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if first.Search != http.StatusOK || first.Total == 0 {
		t.Fatalf("the first process's search: %+v", first)
	}
	if got := runCacheChild(t, dir, "serve"); got.Origin != "mapped from "+path || got.Search != http.StatusOK || got.Total != first.Total {
		t.Fatalf("the next process: %+v, want the file mapped and the same search", got)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)*2/3] ^= 0x01
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"truncated", good[:len(good)/2]},
		{"one byte changed", flipped},
		{"garbage", bytes.Repeat([]byte("not a corpus\n"), 1000)},
		{"empty", nil},
	} {
		if err := os.WriteFile(path, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		got := runCacheChild(t, dir, "serve")
		if got.Origin != "built, then stored in "+path || got.Search != http.StatusOK || got.Total != first.Total {
			t.Errorf("%s: %+v, want the corpus built and stored, and the same search", tt.name, got)
		}
		if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, good) {
			t.Errorf("%s: the file after the process is not the good one again (%d bytes, error %v)", tt.name, len(now), err)
		}
	}

	got := runCacheChild(t, dir, "truncate")
	want := "the corpus cache file " + path + " was truncated or rewritten in place while this server had it mapped, so part of the corpus is gone; " +
		"restart the server (it rebuilds the file), and replace the file only by renaming a new one over it, or delete it"
	if got.Origin != "mapped from "+path || got.After != http.StatusInternalServerError || !strings.HasSuffix(got.AfterMessage, want) ||
		!strings.HasPrefix(got.AfterMessage, "internal error in the mock server (request req-") || got.Health != http.StatusOK {
		t.Errorf("the file truncated under a running server: %+v\nwant a 500 ending %q, and health 200", got, want)
	}
	if got := runCacheChild(t, dir, "serve"); got.Origin != "built, then stored in "+path || got.Search != http.StatusOK {
		t.Errorf("after the truncation under a server: %+v, want the corpus built and stored", got)
	}
}
