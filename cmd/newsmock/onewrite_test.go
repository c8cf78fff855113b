package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/internal/onewrite"
	"github.com/newssearch/newssearch-go/mockserver"
)

// TestAnswersInOneWrite checks that newsmock's own server, whose writer
// wraps net/http's, still sends a long answer in one write system call
// (internal/onewrite). It is not parallel: other tests' writes would count.
func TestAnswersInOneWrite(t *testing.T) {
	if _, err := onewrite.WriteCalls(); err != nil {
		t.Skipf("cannot count write system calls: %v", err)
	}
	r := start(t, "-addr", "127.0.0.1:0")
	body := `{"api_key":"` + mockserver.DefaultAPIKey + `","query":"earthquake"}`
	req := "POST /api/v2/query HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
	const answers = 100
	status, got, n, err := onewrite.CountWrites(strings.TrimPrefix(r.url, "http://"), []byte(req), answers)
	if err != nil || status != http.StatusOK || len(got) <= onewrite.MinBody {
		t.Fatalf("answers: %d with %d bytes (%v); want 200 with more than %d bytes", status, len(got), err, onewrite.MinBody)
	}
	// One write for each request (the client's) and one for each answer;
	// the runtime may add a few of its own.
	if n > answers*2+answers/10 {
		t.Errorf("%d write system calls for %d requests and answers of %d bytes; want about %d (one each)", n, answers, len(got), 2*answers)
	}
}
