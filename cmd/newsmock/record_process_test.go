//go:build unix

package main

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
)

// TestRecorderKilledMidWrite runs newsmock -record under a stream of
// answers full of new articles, kills it with SIGKILL at several moments
// while it appends, and loads what it left each time: the file must always
// load, with every whole line's article (a last line cut short by the kill
// is skipped); a recorder started on it cuts that line off and goes on.
func TestRecorderKilledMidWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	up := mockserver.New()
	t.Cleanup(up.Close)

	for round := range 4 {
		path := filepath.Join(dir, fmt.Sprintf("round%d.jsonl", round))
		cmd := newsmockCommand(t, "-addr", "127.0.0.1:0", "-record", up.URL(), "-record-to", path, "-log-level", "off")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		m := regexp.MustCompile(`^newsmock listening on (http://\S+)\n$`).FindStringSubmatch(line)
		if m == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("round %d: newsmock printed %q", round, line)
		}
		// Four clients fetch pages of every article with embeddings, so
		// that every answer adds 25 long lines.
		stop := make(chan struct{})
		var wg sync.WaitGroup
		answers := make(chan struct{}, 1024)
		for w := range 4 {
			wg.Go(func() {
				client := &http.Client{Timeout: 10 * time.Second}
				for page := 1 + w; ; page += 4 {
					select {
					case <-stop:
						return
					default:
					}
					body := fmt.Sprintf(`{"api_key":"k","query":"*","embeddings":true,"page":%d}`, page)
					resp, err := client.Post(m[1]+"/api/v2/query", "application/json", strings.NewReader(body))
					if err != nil {
						return // killed
					}
					readAll(resp.Body)
					resp.Body.Close()
					select {
					case answers <- struct{}{}:
					default:
					}
				}
			})
		}
		for range 3 + 4*round { // kill later each round
			<-answers
		}
		time.Sleep(time.Duration(round) * 3 * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		close(stop)
		wg.Wait()

		c, err := mockserver.LoadCorpusFile(path)
		if err != nil {
			t.Fatalf("round %d: the recording left by the killed recorder does not load: %v", round, err)
		}
		b, _ := os.ReadFile(path)
		whole := strings.Count(string(b), "\n")
		torn := len(b) > 0 && b[len(b)-1] != '\n'
		if c.Len() < 25 || c.Len() != whole && !(c.Len() == whole+1 && torn) {
			t.Errorf("round %d: %d articles in %d whole lines (a cut line after them: %v); want one per whole line, at least 25", round, c.Len(), whole, torn)
		}
		t.Logf("round %d: %d articles recorded before the kill; the last line cut short: %v", round, c.Len(), torn)

		// A recorder started on the file goes on from it, after cutting off
		// a line the kill cut short.
		again, err := mockserver.Start(mockserver.WithoutListener(), mockserver.WithRecord(mockserver.RecordOptions{Upstream: up.URL(), CorpusPath: path}))
		if err != nil {
			t.Fatalf("round %d: restarting on the recording: %v", round, err)
		}
		if n := again.RecordSummary().ArticlesInFile; n != c.Len() {
			t.Errorf("round %d: the restarted recorder counts %d articles, want %d", round, n, c.Len())
		}
		again.Close()
		if after, _ := os.ReadFile(path); !strings.HasSuffix(string(after), "\n") || !strings.HasPrefix(string(b), string(after)) {
			t.Errorf("round %d: after a restart the file does not end in a whole line, or lost one", round)
		}
	}
}
