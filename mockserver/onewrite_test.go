package mockserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/internal/onewrite"
)

// TestSocketAnswersInOneWrite checks that the mock's socket sends a long
// answer with one write system call (internal/onewrite: net/http alone
// makes two), and that what it sends is byte for byte what its handler
// answers in process. It is not parallel: other tests' writes would count.
func TestSocketAnswersInOneWrite(t *testing.T) {
	if _, err := onewrite.WriteCalls(); err != nil {
		t.Skipf("cannot count write system calls: %v", err)
	}
	s, err := Start(WithClock(func() time.Time { return t0 }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	body := `{"api_key":"` + DefaultAPIKey + `","query":"kestrava","page":1}`
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v2/query", strings.NewReader(body)))
	want := rec.Body.Bytes()
	if rec.Code != http.StatusOK || len(want) <= onewrite.MinBody {
		t.Fatalf("in process: %d with %d bytes; want 200 with more than %d bytes", rec.Code, len(want), onewrite.MinBody)
	}
	const answers = 100
	req := "POST /api/v2/query HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
	status, got, n, err := onewrite.CountWrites(strings.TrimPrefix(s.URL(), "http://"), []byte(req), answers)
	if err != nil || status != http.StatusOK || !bytes.Equal(got, want) {
		t.Fatalf("over the socket: %d with %d bytes (%v); want 200 with the %d bytes answered in process", status, len(got), err, len(want))
	}
	// One write for each request (the client's) and one for each answer;
	// the runtime may add a few of its own.
	if n > answers*2+answers/10 {
		t.Errorf("%d write system calls for %d requests and answers of %d bytes; want about %d (one each)", n, answers, len(want), 2*answers)
	}
}
