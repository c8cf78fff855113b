package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
	// modeStart times the first and later New calls and prints
	// startupFigures; laterEnv says how many later calls.
	modeStart = "startup"
	laterEnv  = "BENCHCMP_LATER_NEWS"
	// modeAnswers serves the answers of answersEnv's file (a JSON list of
	// workload.Answer) with workload.StartBare, prints its URL and stops
	// at stdin's EOF.
	modeAnswers = "serve-answers"
	answersEnv  = "BENCHCMP_ANSWERS"
	// plainLogEnv, with modeAnswers, names a file: the child then serves
	// with workload.StartPlain, logging to that file.
	plainLogEnv = "BENCHCMP_PLAIN_LOG"
	// modeMock serves a default mock, prints its URL and stops at stdin's
	// EOF.
	modeMock = "serve-mock"
)

// runChild runs a child mode and returns the exit status.
func runChild(mode string, stdin io.Reader, stdout, stderr io.Writer) int {
	var err error
	switch mode {
	case modeStart:
		err = childStartup(stdout)
	case modeAnswers, modeMock:
		err = childServe(mode, stdin, stdout)
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
	FirstNew time.Duration   // the first New of the process
	FirstCPU time.Duration   // CPU time of the process during the first New
	HWMKiB   int64           // VmHWM after the first New
	Articles int             // corpus size
	Later    []time.Duration // each later New (loopback socket)
}

// childStartup times the first New of this fresh process and later ones.
func childStartup(stdout io.Writer) error {
	later, err := strconv.Atoi(os.Getenv(laterEnv))
	if err != nil || later < 1 {
		return fmt.Errorf("%s=%q: pass the number of later New calls", laterEnv, os.Getenv(laterEnv))
	}
	cpu, begin := cpuTime(), time.Now()
	s := mockserver.New()
	f := startupFigures{FirstNew: time.Since(begin), FirstCPU: cpuTime() - cpu, Articles: s.Corpus().Len(), HWMKiB: vmHWM()}
	s.Close()
	for range later {
		t := time.Now()
		s := mockserver.New()
		f.Later = append(f.Later, time.Since(t))
		s.Close()
	}
	return json.NewEncoder(stdout).Encode(f)
}

// vmHWM returns VmHWM (peak resident size) in KiB from /proc/self/status,
// or -1.
func vmHWM() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// childServe serves until stdin reaches EOF, after printing its URL.
func childServe(mode string, stdin io.Reader, stdout io.Writer) error {
	var url string
	var stop func()
	if mode == modeMock {
		s := mockserver.New()
		url, stop = s.URL(), s.Close
	} else {
		b, err := os.ReadFile(os.Getenv(answersEnv))
		if err != nil {
			return fmt.Errorf("reading the answers to serve (%s): %w", answersEnv, err)
		}
		var answers []workload.Answer
		if err := json.Unmarshal(b, &answers); err != nil {
			return fmt.Errorf("%s: %w", answersEnv, err)
		}
		bare, err := startBare(answers, os.Getenv(plainLogEnv))
		if err != nil {
			return err
		}
		url, stop = bare.URL, bare.Close
	}
	defer stop()
	if _, err := fmt.Fprintln(stdout, url); err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, stdin) // until the parent closes stdin or exits
	return nil
}

// startBare starts the bare server, or with a log path the plain
// reference logging to that file (closed with the process).
func startBare(answers []workload.Answer, logPath string) (*workload.Bare, error) {
	if logPath == "" {
		return workload.StartBare(answers)
	}
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	return workload.StartPlain(answers, log)
}

// child is a running child process.
type child struct {
	mode  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startChild starts this program again in mode with extra environment,
// through a command prefix such as "taskset -c 1" (none if prefix is
// empty).
func startChild(mode string, prefix []string, env ...string) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to re-execute it: %w", err)
	}
	argv := append(append([]string(nil), prefix...), exe)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), childEnv+"="+mode), env...)
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

// serveAnswers starts a serve-answers child (through prefix) answering
// answers, and returns it with its URL; with a plainLog path, the child is
// the smallest plain mock (workload.StartPlain), logging there.
func serveAnswers(dir string, prefix []string, answers []workload.Answer, plainLog string) (*child, string, error) {
	path := filepath.Join(dir, "answers.json")
	b, err := json.Marshal(answers)
	if err == nil {
		err = os.WriteFile(path, b, 0o600)
	}
	if err != nil {
		return nil, "", err
	}
	env := []string{answersEnv + "=" + path}
	if plainLog != "" {
		env = append(env, plainLogEnv+"="+plainLog)
	}
	return startServing(modeAnswers, prefix, env...)
}

// startServing starts a serving child and reads its URL.
func startServing(mode string, prefix []string, env ...string) (*child, string, error) {
	c, err := startChild(mode, prefix, env...)
	if err != nil {
		return nil, "", err
	}
	url, err := c.line()
	if err != nil {
		_ = c.stop()
		return nil, "", err
	}
	return c, url, nil
}
