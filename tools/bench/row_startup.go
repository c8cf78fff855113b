package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// rowStartup times, in fresh processes that find nothing of an earlier run
// (an empty HOME, XDG_CACHE_HOME and TMPDIR each, none of the SDK's or
// newsmock's environment variables), the first mockserver.New (a child
// process of this program) and the newsmock binary from exec to the first
// 200 of a search; and the later New calls in each child. Each process must
// leave its empty directories empty: nothing written outside the process.
func rowStartup(ctx context.Context, e *env) []result {
	const target = "median at most 400 ms over %d processes, nothing written outside the process"
	first := result{order: 70, id: "7a", what: "Mock start-up: first New() in a fresh process, empty HOME and XDG_CACHE_HOME", baseline: "-",
		target: fmt.Sprintf(target, e.p.startupChildren)}
	later := result{order: 71, id: "7b", what: "Mock start-up: each later New() in the same process", baseline: "-",
		target: "p99 under 1 ms (loopback socket)"}
	exec200 := result{order: 72, id: "7c", what: "newsmock start-up: exec to the first 200 of a search, empty HOME and XDG_CACHE_HOME", baseline: "-",
		target: fmt.Sprintf(target, e.p.startupChildren)}
	all := []result{first, later, exec200}
	dir, err := os.MkdirTemp("", "bench-startup-")
	if err != nil {
		return failure(err, all...)
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		return failure(err, all...)
	}
	exe, err := e.newsmock()
	if err != nil {
		return failure(err, all...)
	}
	var firsts, cpus, laters, execs []time.Duration
	var hwm []int64
	var written []string
	articles := 0
	for i := range 2 * e.p.startupChildren {
		root := filepath.Join(dir, strconv.Itoa(i))
		env, err := emptyHome(root)
		if err != nil {
			return failure(err, all...)
		}
		if i < e.p.startupChildren {
			cmd := exec.CommandContext(ctx, self)
			cmd.Env = append(env, childEnv+"="+modeStart, laterEnv+"="+strconv.Itoa(e.p.laterNews))
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			var f startupFigures
			if err == nil {
				err = json.Unmarshal(out, &f)
			}
			if err != nil {
				return failure(fmt.Errorf("startup child: %w (it printed %q)", err, out), all...)
			}
			e.logf("startup child %d: first New %v, VmHWM %d KiB", i+1, f.FirstNew, f.HWMKiB)
			firsts, cpus, hwm = append(firsts, f.FirstNew), append(cpus, f.FirstCPU), append(hwm, f.HWMKiB)
			laters, articles = append(laters, f.Later...), f.Articles
		} else {
			took, err := newsmockFirst200(ctx, exe, env)
			if err != nil {
				return failure(err, all...)
			}
			e.logf("newsmock %d: first 200 after %v", i+1-e.p.startupChildren, took)
			execs = append(execs, took)
		}
		w, err := writtenUnder(root)
		if err != nil {
			return failure(err, all...)
		}
		written = append(written, w...)
	}
	clean := len(written) == 0
	wrote := "nothing written"
	if !clean {
		wrote = fmt.Sprintf("WROTE %d files or directories (%s)", len(written), strings.Join(written[:min(3, len(written))], ", "))
	}
	first.measured = fmt.Sprintf("median %s (fastest %s, slowest %s), CPU time median %s, VmHWM median %.0f MB; %s",
		fmtMS(median(firsts)), fmtMS(slices.Min(firsts)), fmtMS(slices.Max(firsts)), fmtMS(median(cpus)), float64(median(hwm))/1024, wrote)
	first.met = verdict(median(firsts) <= 400*time.Millisecond && clean)
	first.notes = []string{fmt.Sprintf("first New per process: %v (CPU time %v); %d articles in the corpus", firsts, cpus, articles)}
	later.measured = fmt.Sprintf("median %s, p99 %s", fmtUS(median(laters)), fmtUS(quantile(laters, 0.99)))
	later.met = verdict(quantile(laters, 0.99) < time.Millisecond)
	later.notes = []string{fmt.Sprintf("%d later New calls (New only, Close not timed) in the 7a processes", len(laters))}
	exec200.measured = fmt.Sprintf("median %s (fastest %s, slowest %s); %s", fmtMS(median(execs)), fmtMS(slices.Min(execs)), fmtMS(slices.Max(execs)), wrote)
	exec200.met = verdict(median(execs) <= 400*time.Millisecond && clean)
	exec200.notes = []string{fmt.Sprintf("per process: %v; from exec of newsmock -addr 127.0.0.1:0 (built from this checkout) to the answer of POST /api/v2/query {\"query\":\"election\"} read whole, after its listening line", execs)}
	return []result{first, later, exec200}
}

// emptyHome makes root/home, root/cache and root/tmp and returns this
// process's environment with HOME, XDG_CACHE_HOME and TMPDIR set to them
// and without the other XDG_ variables or any NEWSSEARCH_ or NEWSMOCK_ one.
func emptyHome(root string) ([]string, error) {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "TMPDIR=") ||
			strings.HasPrefix(kv, "XDG_") || strings.HasPrefix(kv, "NEWSSEARCH_") || strings.HasPrefix(kv, "NEWSMOCK_")
	})
	for _, d := range []struct{ name, env string }{{"home", "HOME"}, {"cache", "XDG_CACHE_HOME"}, {"tmp", "TMPDIR"}} {
		path := filepath.Join(root, d.name)
		if err := os.MkdirAll(path, 0o700); err != nil {
			return nil, err
		}
		env = append(env, d.env+"="+path)
	}
	return env, nil
}

// writtenUnder lists what is in root's three directories (see emptyHome).
func writtenUnder(root string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if rel, _ := filepath.Rel(root, path); err == nil && strings.Contains(rel, string(filepath.Separator)) {
			found = append(found, "$"+rel)
		}
		return err
	})
	return found, err
}

// newsmockFirst200 runs the newsmock binary exe with env and returns the
// time from its exec to the first 200 of a search; then it stops it.
func newsmockFirst200(ctx context.Context, exe string, env []string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, exe, "-addr", "127.0.0.1:0")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("starting newsmock: %w", err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "newsmock listening on ")
	if err == nil && ok {
		hc := workload.NewHTTPClient(1)
		_, _, err = workload.Post(ctx, hc, url+"/api/v2/query", []byte(`{"api_key":`+quote(mockserver.DefaultAPIKey)+`,"query":"election"}`))
		hc.CloseIdleConnections()
	} else if err == nil {
		err = fmt.Errorf("its first line is %q, not its listening line", line)
	}
	took := time.Since(begin)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if werr := cmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("stopping it: %w", werr)
	}
	if err != nil {
		return 0, fmt.Errorf("newsmock: %w; its stderr: %.500s", err, stderr.String())
	}
	return took, nil
}
