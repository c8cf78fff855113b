package mockserver

import (
	"bufio"
	"bytes"
	"io"
	"net"
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

	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReaderSize(conn, 64<<10)
	req := []byte("POST /api/v2/query HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	const answers = 100
	before, err := onewrite.WriteCalls()
	if err != nil {
		t.Skipf("cannot count write system calls: %v", err)
	}
	for i := range answers {
		if _, err := conn.Write(req); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
			t.Fatalf("answer %d: %d with %d bytes (%v); want 200 with the %d bytes answered in process", i, resp.StatusCode, len(got), err, len(want))
		}
	}
	after, _ := onewrite.WriteCalls()
	// One write for each request (the client's) and one for each answer;
	// the runtime may add a few of its own.
	if n := after - before; n > answers*2+answers/10 {
		t.Errorf("%d write system calls for %d requests and answers of %d bytes; want about %d (one each)", n, answers, len(want), 2*answers)
	}
}
