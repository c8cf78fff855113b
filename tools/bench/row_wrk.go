package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// wrkConns is the number of connections wrk holds open in row 3w.
const wrkConns = 32

// newsmockPackage is the command rows 3w and 7c build and measure, unless
// newsmockEnv names a newsmock binary to measure instead (to compare two
// versions).
const (
	newsmockPackage = "github.com/newssearch/newssearch-go/cmd/newsmock"
	newsmockEnv     = "BENCHCMP_NEWSMOCK"
)

// rowWrk measures, from outside, the CPU time the newsmock binary spends per
// request against a bare net/http handler writing the same answers (its
// floor: at least 0.5 of the bare handler's efficiency): two wrk
// pinned to CPU 0 drive both servers, pinned to CPU 1, at once. newsmock
// runs as a user runs it in CI: default flags, default log level (one line
// per request on stderr, which goes to a file). The CPU time is the
// server's own (the sum over its threads of /proc/<pid>/task/*/schedstat,
// in nanoseconds), divided by the requests wrk completed, so the ratio does
// not depend on how much CPU the machine's other work leaves the server.
// The row is skipped, with an install hint, when wrk is missing.
func rowWrk(ctx context.Context, e *env) []result {
	r := result{order: 34, id: "3w", what: fmt.Sprintf("newsmock binary (default flags and log level, stderr to a file), CPU time per request measured from outside with wrk -t1 -c%d: sync query (25-article page) and get-results page 1 of a finished job; both servers driven at once, each by its own wrk, the wrk pinned to CPU 0, the servers to CPU 1", wrkConns),
		baseline: "bare net/http handler (child process, same pinning) writing the same answer bytes with the same headers",
		target:   "bare CPU per request / newsmock's at least 0.5 for both"}
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		r.measured, r.met = "skipped: wrk is not installed (Debian/Ubuntu: sudo apt-get install wrk; then tools/bench/wrk-cpu)", "-"
		return []result{r}
	}
	taskset, err := exec.LookPath("taskset")
	pin := func(cpu string, argv ...string) []string { return append([]string{taskset, "-c", cpu}, argv...) }
	if err != nil || e.p.quick {
		pin = func(_ string, argv ...string) []string { return argv }
		r.notes = append(r.notes, "not pinned: taskset is missing (util-linux) or this is a -quick run")
	} else {
		r.notes = append(r.notes, "pinned with taskset: wrk to CPU 0, newsmock and the bare child to CPU 1 (Go sizes GOMAXPROCS to the one CPU it may use)")
	}
	dir, err := os.MkdirTemp("", "bench-wrk-")
	if err != nil {
		return failure(err, r)
	}
	defer os.RemoveAll(dir)

	// newsmock, built from this checkout, its log in a file.
	exe, err := e.newsmock()
	if err != nil {
		return failure(err, r)
	}
	logPath := filepath.Join(dir, "newsmock.log")
	nm, err := startNewsmock(pin("1", exe, "-addr", "127.0.0.1:0"), logPath)
	if err != nil {
		return failure(err, r)
	}
	defer nm.kill()

	// The answers: a full page of the sync query, and page 1 of a finished
	// job of the match-all search.
	client := workload.NewHTTPClient(1)
	q, _, err := workload.FullPageQuery(ctx)
	if err != nil {
		return failure(err, r)
	}
	key := mockserver.DefaultAPIKey
	targets := []*wrkTarget{{name: "query", path: "/api/v2/query", body: q.Body(key, 0)}, {name: "get-results", path: "/api/v2/get-results"}}
	setup := 0 // requests sent to newsmock besides wrk's, for the log check
	sub, _, err := workload.Post(ctx, client, nm.url+"/api/v2/query-async", []byte(`{"api_key":`+quote(key)+`,"query":"*"}`))
	setup++
	if err != nil {
		return failure(err, r)
	}
	var job struct {
		QueryID string `json:"query_id"`
	}
	if err := json.Unmarshal(sub, &job); err != nil || job.QueryID == "" {
		return failure(fmt.Errorf("query-async answered %.200s (%v)", sub, err), r)
	}
	targets[1].body = []byte(`{"api_key":` + quote(key) + `,"query_id":` + quote(job.QueryID) + `,"page":1}`)
	for poll := 0; ; poll++ {
		a, _, err := workload.Post(ctx, client, nm.url+"/api/v2/get-results", targets[1].body)
		setup++
		if err != nil {
			return failure(err, r)
		}
		if strings.Contains(string(a), `"state":"SUCCESS"`) {
			break
		}
		if poll == 50 {
			return failure(fmt.Errorf("the job is not finished after 50 polls: %.200s", a), r)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var answers []workload.Answer
	for _, t := range targets {
		a, h, err := workload.Post(ctx, client, nm.url+t.path, t.body)
		setup++
		if err != nil {
			return failure(err, r)
		}
		if n := strings.Count(string(a), `"_id":`); n != 25 {
			return failure(fmt.Errorf("newsmock's %s answer holds %d articles, not a full page of 25: %.200s", t.name, n, a), r)
		}
		t.answer = len(a)
		h.Del("Date") // net/http adds its own
		answers = append(answers, workload.Answer{Path: t.path, Body: a, Header: h})
	}
	bare, bareURL, err := serveAnswers(dir, pin("1"), answers, "")
	if err != nil {
		return failure(err, r)
	}
	defer bare.stop()
	// The reference: the smallest plain mock, logging to a file too.
	plain, plainURL, err := serveAnswers(dir, pin("1"), answers, filepath.Join(dir, "plain.log"))
	if err != nil {
		return failure(err, r)
	}
	defer plain.stop()
	for _, t := range targets {
		t.script = filepath.Join(dir, t.name+".lua")
		lua := "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = [==[" + string(t.body) + "]==]\n"
		if err := os.WriteFile(t.script, []byte(lua), 0o600); err != nil {
			return failure(err, r)
		}
	}

	// wrkRun is one wrk process's part of a round: its command, what it
	// printed, and its server's CPU time before it started.
	type wrkRun struct {
		cmd    *exec.Cmd
		out    strings.Builder
		argv   []string
		before time.Duration
	}
	// both drives the bare server and another (newsmock, or the plain
	// reference) at once, each with its own wrk (both pinned to CPU 0; both
	// servers are pinned to CPU 1), and returns each server's CPU time per
	// request, bare first. At the same moment the two servers see the same machine:
	// run one after the other, their CPU per request moved by 30-60% from
	// one run to the next with the machine's other load, more than the
	// difference the row measures.
	const toMock, toPlain = 1, 2
	sent := 0
	urls, pids := [3]string{bareURL, nm.url, plainURL}, [3]int{bare.cmd.Process.Pid, nm.pid, plain.cmd.Process.Pid}
	both := func(t *wrkTarget, d time.Duration, other int) (perReq [2]time.Duration, err error) {
		var runs [2]*wrkRun
		servers := [2]int{0, other}
		for k, server := range servers {
			w := &wrkRun{argv: pin("0", wrk, "-t1", "-c"+strconv.Itoa(wrkConns), "-d"+d.String(), "-s", t.script, urls[server]+t.path)}
			w.cmd = exec.CommandContext(ctx, w.argv[0], w.argv[1:]...)
			w.cmd.Stdout, w.cmd.Stderr = &w.out, &w.out
			if w.before, err = processCPU(pids[server]); err != nil {
				return perReq, err
			}
			runs[k] = w
		}
		for k, w := range runs {
			if err := w.cmd.Start(); err != nil {
				if k == 1 {
					_ = runs[0].cmd.Process.Kill()
					_ = runs[0].cmd.Wait()
				}
				return perReq, fmt.Errorf("%s: %w", strings.Join(w.argv, " "), err)
			}
		}
		var errs []error
		for _, w := range runs {
			if err := w.cmd.Wait(); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w: %s", strings.Join(w.argv, " "), err, w.out.String()))
			}
		}
		if err := errors.Join(errs...); err != nil {
			return perReq, err
		}
		for k, w := range runs {
			after, err := processCPU(pids[servers[k]])
			if err != nil {
				return perReq, err
			}
			out := w.out.String()
			if strings.Contains(out, "Non-2xx") || strings.Contains(out, "Socket errors") {
				return perReq, fmt.Errorf("wrk saw failed requests: %s", out)
			}
			n := wrkCount.FindStringSubmatch(out)
			if n == nil {
				return perReq, fmt.Errorf("no request count in wrk's output: %s", out)
			}
			count, _ := strconv.Atoi(n[1])
			if count == 0 {
				return perReq, fmt.Errorf("wrk completed no request: %s", out)
			}
			if k == 1 && other == toMock {
				sent += count
			}
			perReq[k] = (after - w.before) / time.Duration(count)
		}
		return perReq, nil
	}
	var parts []string
	worst, allSteady := 0.0, true
	for _, t := range targets {
		for _, other := range []int{toMock, toPlain} {
			if _, err := both(t, time.Second, other); err != nil { // warm-up
				return failure(err, r)
			}
		}
		var bareCPU, mockCPU, plainCPU []time.Duration
		var plainRs []float64
		rs, ok, note, err := steady(e, "wrk "+t.name, func() ([]float64, error) {
			var rs []float64
			bareCPU, mockCPU, plainCPU, plainRs = nil, nil, nil, nil
			for range e.p.wrkRounds {
				cpu, err := both(t, e.p.wrkDuration, toMock)
				if err != nil {
					return nil, err
				}
				rs = append(rs, float64(cpu[0])/float64(cpu[1]))
				bareCPU, mockCPU = append(bareCPU, cpu[0]), append(mockCPU, cpu[1])
				if cpu, err = both(t, e.p.wrkDuration, toPlain); err != nil {
					return nil, err
				}
				plainRs, plainCPU = append(plainRs, float64(cpu[0])/float64(cpu[1])), append(plainCPU, cpu[1])
			}
			return rs, nil
		})
		if err != nil {
			return failure(err, r)
		}
		m := median(rs)
		if worst == 0 || m < worst {
			worst = m
		}
		allSteady = allSteady && ok
		parts = append(parts, fmt.Sprintf("%s %.2f (plain reference %.2f)", t.name, m, median(plainRs)))
		r.notes = append(r.notes, fmt.Sprintf("%s (answer %d bytes): median CPU per request newsmock %s, bare %s; ratio %.3f (%s); "+
			"the plain reference %s, ratio %.3f (%s)",
			t.name, t.answer, fmtUS(median(mockCPU)), fmtUS(median(bareCPU)), m, spread(rs), fmtUS(median(plainCPU)), median(plainRs), spread(plainRs)), note)
	}
	r.measured = strings.Join(parts, ", ")
	r.met = judged(worst >= 0.5, allSteady)

	// Every request must be in newsmock's log once it has stopped.
	lines, size, err := nm.stop()
	if err != nil {
		return failure(err, r)
	}
	if lines < sent+setup {
		return failure(fmt.Errorf("newsmock logged %d requests, but wrk completed %d (and the setup sent %d): log lines were lost", lines, sent, setup), r)
	}
	r.notes = append(r.notes,
		fmt.Sprintf("wrk -t1 -c%d -d%v per server and round; each round drives the bare child and newsmock at once, each with its own wrk, so that both see the same moment of the machine (the two servers share CPU 1, the two wrk CPU 0); %d rounds per endpoint after a 1 s warm-up", wrkConns, e.p.wrkDuration, e.p.wrkRounds),
		"the plain reference (workload.StartPlain; rounds alternate newsmock and it, each beside the bare child) is the bare handler plus what any mock written with the standard library does: it reads the body, decodes it with encoding/json (its members, then api_key) and logs one slog text line per request to a file, unbuffered; it is not judged, it shows what a plain mock can reach on this machine",
		"ratio = bare CPU time per request / newsmock's; CPU time = the server process's run time over the wrk run (sum of /proc/<pid>/task/*/schedstat), requests = those wrk completed",
		fmt.Sprintf("newsmock stopped by SIGTERM and exited 0; its log holds %d request lines (%d bytes) for the %d requests wrk completed and %d of setup", lines, size, sent, setup),
	)
	return []result{r}
}

// wrkTarget is one endpoint row 3w loads.
type wrkTarget struct {
	name, path string
	body       []byte // the request wrk POSTs
	script     string // wrk's Lua script, POSTing body
	answer     int    // size of the answer
}

// wrkCount finds the completed requests in wrk's summary.
var wrkCount = regexp.MustCompile(`(\d+) requests in `)

// processCPU returns the CPU time process pid has run, summed over its
// threads from /proc/<pid>/task/*/schedstat (nanoseconds).
func processCPU(pid int) (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no /proc/%d/task/*/schedstat: row 3w needs Linux's /proc with schedstat", pid)
	}
	var sum time.Duration
	for _, path := range tasks {
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		if err != nil || len(f) == 0 {
			return 0, fmt.Errorf("reading %s: %v", path, err)
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		sum += time.Duration(ns)
	}
	return sum, nil
}

// newsmockProc is a running newsmock.
type newsmockProc struct {
	cmd     *exec.Cmd
	pid     int
	url     string
	logPath string
	logFile *os.File
	stdout  io.ReadCloser
}

// startNewsmock runs argv (newsmock, possibly behind taskset) with its
// stderr in the file logPath, and waits for its listening line.
func startNewsmock(argv []string, logPath string) (*newsmockProc, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("starting newsmock: %w", err)
	}
	p := &newsmockProc{cmd: cmd, pid: cmd.Process.Pid, logPath: logPath, logFile: logFile, stdout: stdout}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	const prefix = "newsmock listening on "
	if err != nil || !strings.HasPrefix(line, prefix) {
		p.kill()
		log, _ := os.ReadFile(logPath)
		return nil, fmt.Errorf("newsmock did not print its listening line (read %q, %v); its stderr: %.500s", line, err, log)
	}
	p.url = strings.TrimSpace(strings.TrimPrefix(line, prefix))
	return p, nil
}

// stop sends SIGTERM, waits for a clean exit and returns the number of
// request lines in the log and the log's size.
func (p *newsmockProc) stop() (lines, size int, err error) {
	if p.cmd == nil {
		return 0, 0, errors.New("newsmock already stopped")
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	_, _ = io.Copy(io.Discard, p.stdout)
	werr := p.cmd.Wait()
	p.cmd = nil
	p.logFile.Close()
	log, err := os.ReadFile(p.logPath)
	if err != nil {
		return 0, 0, err
	}
	if werr != nil {
		return 0, 0, fmt.Errorf("newsmock did not exit cleanly on SIGTERM: %w; the end of its stderr: %s", werr, tail(log, 500))
	}
	if !strings.Contains(string(log), "newsmock: stopped") {
		return 0, 0, fmt.Errorf("newsmock's log does not end with its stop line: %s", tail(log, 500))
	}
	return strings.Count(string(log), "msg=\"mockserver request\""), len(log), nil
}

// kill stops newsmock at once, if it still runs.
func (p *newsmockProc) kill() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	p.cmd = nil
	p.logFile.Close()
}

// tail returns the last n bytes of b.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// buildNewsmock builds cmd/newsmock from this checkout into dir, or
// returns the binary newsmockEnv names.
func buildNewsmock(ctx context.Context, dir string) (string, error) {
	if given := os.Getenv(newsmockEnv); given != "" {
		return given, nil
	}
	exe := filepath.Join(dir, "newsmock")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", exe, newsmockPackage).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w: %s (needs the go command; run the harness in tools/bench)", newsmockPackage, err, out)
	}
	return exe, nil
}
