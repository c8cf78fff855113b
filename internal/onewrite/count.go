package onewrite

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// WriteCalls returns the number of write system calls (write, writev and
// the like) the process has made, from /proc/self/io, so that a test can
// see the writes an answer takes. It fails where /proc/self/io is missing
// (any system but Linux) or lacks the count.
func WriteCalls() (int, error) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			return strconv.Atoi(v)
		}
	}
	return 0, errors.New("/proc/self/io has no syscw line")
}

// CountWrites is for tests: it sends the raw HTTP/1.1 request req n times
// over one new connection to addr, reading each answer whole, and returns
// the last answer's status and body with the write system calls the whole
// process made meanwhile (WriteCalls): one for each request, plus the
// server's, if the server is in the same process.
func CountWrites(addr string, req []byte, n int) (status int, body []byte, writes int, err error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, nil, 0, err
	}
	defer conn.Close()
	br := bufio.NewReaderSize(conn, 64<<10)
	before, err := WriteCalls()
	if err != nil {
		return 0, nil, 0, err
	}
	for i := range n {
		if _, err := conn.Write(req); err != nil {
			return 0, nil, 0, err
		}
		if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
			return 0, nil, 0, err
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return 0, nil, 0, fmt.Errorf("answer %d: %w", i+1, err)
		}
		body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, nil, 0, fmt.Errorf("answer %d: %w", i+1, err)
		}
		status = resp.StatusCode
	}
	after, err := WriteCalls()
	return status, body, after - before, err
}
