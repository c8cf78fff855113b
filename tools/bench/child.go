package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// Child processes. The program (or its test binary, through TestMain)
// re-executes itself with childEnv set to one of these modes.
const (
	childEnv = "BENCHCMP_CHILD"
	// bodyEnv names the file of bytes the serve-bytes child answers.
	bodyEnv    = "BENCHCMP_BODY"
	laterEnv   = "BENCHCMP_LATER_NEWS"
	modeStart  = "startup"               // time the first and later New, print startupFigures
	modeBytes  = "serve-bytes"           // serve bodyEnv's bytes, print the URL, stop at stdin EOF
	modeBytes1 = "serve-bytes-one-write" // the same, each answer in one system call (workload.StartBareOneWrite)
	modeMock   = "serve-mock"            // serve a default mock, print the URL, stop at stdin EOF
	// modeAnswers serves the answers of answersEnv's file (a JSON list of
	// bareAnswer) by path, with net/http alone: row 3w's baseline.
	modeAnswers = "serve-answers"
	answersEnv  = "BENCHCMP_ANSWERS"
)

// runChild runs a child mode and returns the exit status.
func runChild(mode string, stdin io.Reader, stdout, stderr io.Writer) int {
	var err error
	switch mode {
	case modeStart:
		err = childStartup(stdout)
	case modeBytes, modeBytes1, modeMock:
		err = childServe(mode, stdin, stdout)
	case modeAnswers:
		err = childAnswers(stdin, stdout)
	case modeScale:
		err = childScale(stdout)
	default:
		err = fmt.Errorf("unknown %s=%q: this variable is for the harness's own child processes; unset it", childEnv, mode)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bench child %s: %v\n", mode, err)
		return 1
	}
	return 0
}

// startupFigures is what the startup child reports.
type startupFigures struct {
	FirstNew  time.Duration   // the first New of the process
	FirstCPU  time.Duration   // CPU time of the process during the first New
	HWMKiB    int64           // VmHWM after the first New
	RSSKiB    int64           // VmRSS after the first New
	Articles  int             // corpus size
	Later     []time.Duration // each later New (loopback socket)
	LaterMem  []time.Duration // each later New(WithoutListener())
	ProcStart time.Duration   // from process start (kernel) to the first New's return
}

// childStartup times the first New of this fresh process and later ones.
func childStartup(stdout io.Writer) error {
	later, err := strconv.Atoi(os.Getenv(laterEnv))
	if err != nil || later < 1 {
		return fmt.Errorf("%s=%q: pass the number of later New calls", laterEnv, os.Getenv(laterEnv))
	}
	cpu := cpuTime()
	begin := time.Now()
	s := mockserver.New()
	f := startupFigures{FirstNew: time.Since(begin), FirstCPU: cpuTime() - cpu, Articles: s.Corpus().Len()}
	f.ProcStart = sinceProcessStart()
	f.HWMKiB, f.RSSKiB = memStatus()
	s.Close()
	for range later {
		t := time.Now()
		s := mockserver.New()
		f.Later = append(f.Later, time.Since(t))
		s.Close()
		t = time.Now()
		s = mockserver.New(mockserver.WithoutListener())
		f.LaterMem = append(f.LaterMem, time.Since(t))
		s.Close()
	}
	return json.NewEncoder(stdout).Encode(f)
}

// memStatus returns VmHWM and VmRSS in KiB from /proc/self/status, or -1.
func memStatus() (hwm, rss int64) {
	hwm, rss = -1, -1
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return hwm, rss
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch name {
		case "VmHWM":
			hwm = n
		case "VmRSS":
			rss = n
		}
	}
	return hwm, rss
}

// sinceProcessStart returns the time since the kernel started this process
// (from /proc/self/stat and /proc/uptime, 10 ms resolution), or -1.
func sinceProcessStart() time.Duration {
	stat, err1 := os.ReadFile("/proc/self/stat")
	up, err2 := os.ReadFile("/proc/uptime")
	if err1 != nil || err2 != nil {
		return -1
	}
	// Field 22 (starttime, in clock ticks) counts from after the
	// parenthesised command name, which may hold spaces.
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	uf := strings.Fields(string(up))
	if len(fields) < 20 || len(uf) < 1 {
		return -1
	}
	ticks, err1 := strconv.ParseFloat(fields[19], 64)
	uptime, err2 := strconv.ParseFloat(uf[0], 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	const clockTicks = 100 // USER_HZ on Linux
	return time.Duration((uptime - ticks/clockTicks) * float64(time.Second))
}

// childServe serves until stdin reaches EOF, after printing its URL.
func childServe(mode string, stdin io.Reader, stdout io.Writer) error {
	var url string
	var stop func()
	if mode == modeMock {
		s := mockserver.New()
		url, stop = s.URL(), s.Close
	} else {
		body, err := os.ReadFile(os.Getenv(bodyEnv))
		if err != nil {
			return fmt.Errorf("reading the body to serve (%s): %w", bodyEnv, err)
		}
		start := workload.StartBare
		if mode == modeBytes1 {
			start = workload.StartBareOneWrite
		}
		b, err := start([][]byte{body})
		if err != nil {
			return err
		}
		url, stop = b.URL, b.Close
	}
	defer stop()
	if _, err := fmt.Fprintln(stdout, url); err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, stdin) // until the parent closes stdin or exits
	return nil
}

// child is a running child process.
type child struct {
	mode  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startChild starts this program again in mode with extra environment.
func startChild(mode string, extraEnv ...string) (*child, error) {
	return startChildWith(mode, nil, extraEnv...)
}

// startChildWith is startChild running the program through a command
// prefix such as "taskset -c 1" (none if prefix is empty).
func startChildWith(mode string, prefix []string, extraEnv ...string) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to re-execute it: %w", err)
	}
	argv := append(append([]string(nil), prefix...), exe)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), childEnv+"="+mode), extraEnv...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting child %s: %w", mode, err)
	}
	return &child{mode: mode, cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}, nil
}

// line reads the child's next line of output.
func (c *child) line() (string, error) {
	s, err := c.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("child %s: reading its output: %w", c.mode, err)
	}
	return strings.TrimSpace(s), nil
}

// stop closes the child's stdin and waits for it to exit.
func (c *child) stop() error {
	_ = c.stdin.Close()
	_, _ = io.Copy(io.Discard, c.out)
	err := c.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("child %s exited with status %d", c.mode, exit.ExitCode())
	}
	return err
}

// bareAnswer is an answer the serve-answers child sends to every POST to
// Path: Body, with the headers the mock sends (Content-Type,
// Content-Length and an X-Request-Id as long as RequestID; net/http adds
// Date).
type bareAnswer struct {
	Path      string `json:"path"`
	Body      []byte `json:"body"`
	RequestID string `json:"request_id"`
}

// childAnswers serves answersEnv's answers with a bare net/http handler
// until stdin reaches EOF, after printing its URL.
func childAnswers(stdin io.Reader, stdout io.Writer) error {
	b, err := os.ReadFile(os.Getenv(answersEnv))
	if err != nil {
		return fmt.Errorf("reading the answers to serve (%s): %w", answersEnv, err)
	}
	var answers []bareAnswer
	if err := json.Unmarshal(b, &answers); err != nil {
		return fmt.Errorf("%s: %w", answersEnv, err)
	}
	type answer struct {
		body             []byte
		length, id, kind []string
	}
	byPath := map[string]answer{}
	for _, a := range answers {
		byPath[a.Path] = answer{body: a.Body, length: []string{strconv.Itoa(len(a.Body))}, id: []string{a.RequestID}, kind: []string{"application/json"}}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		a, ok := byPath[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h["Content-Type"], h["Content-Length"], h["X-Request-Id"] = a.kind, a.length, a.id
		_, _ = w.Write(a.body)
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	if _, err := fmt.Fprintln(stdout, "http://"+ln.Addr().String()); err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, stdin) // until the parent closes stdin or exits
	return nil
}
