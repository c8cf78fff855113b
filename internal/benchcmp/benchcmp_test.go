package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/newssearch/newssearch-go/internal/benchcmp/workload"
	"github.com/newssearch/newssearch-go/mockserver"
)

// TestMain lets the test binary serve as benchcmp's child processes, which
// the harness starts by re-executing itself.
func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(runChild(mode, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestQuick runs every row with tiny counts. It checks that each row
// measured something and printed its line; it asserts nothing about the
// figures, which mean nothing at this size.
func TestQuick(t *testing.T) {
	t.Parallel()
	args, want := []string{"-quick"}, []string{"1", "2", "3", "4a", "4b", "5", "6", "6b", "7a", "7b", "8a", "8b", "8c"}
	if _, err := exec.LookPath("go"); err != nil {
		t.Logf("no go command (%v): skipping the search rows, which generate their corpus with go run", err)
		args = append(args, "-rows", "startup,pollsim,overhead,throughput,drain,range,poll")
		want = want[2:]
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("run -quick exited %d\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	out := stdout.String()
	for _, id := range want {
		if !strings.Contains(out, "\n| "+id+" | ") {
			t.Errorf("the table has no line %s:\n%s", id, out)
		}
	}
	t.Log("\n" + stderr.String() + "\n" + out)
}

// TestPollScheduleSimulated runs the SDK's Poll with default options
// against the in-process mock on synctest's fake clock, many times over so
// that the jitter covers its range, for a job pending 300 ms and one
// pending 60 s, and the vendor's fixed 1 s loop once for each. On the fake
// clock the requests take no time, so lateness is exact. It logs the
// figures and, when simOutEnv names a file, writes them there as JSON for
// benchcmp's table; it asserts nothing about them.
func TestPollScheduleSimulated(t *testing.T) {
	t.Parallel()
	mockserver.DefaultCorpus() // build the shared corpus outside the bubbles
	trials := 200
	if testing.Short() {
		trials = 20
	}
	var figures []simFigures
	for _, pending := range []time.Duration{300 * time.Millisecond, 60 * time.Second} {
		f := simFigures{Pending: pending, Trials: trials}
		var lates []time.Duration
		for i := range trials + 1 {
			vendor := i == trials
			synctest.Test(t, func(t *testing.T) {
				s := mockserver.New(mockserver.WithoutListener(), mockserver.WithPendingPolls(0), mockserver.WithPendingDuration(pending))
				defer s.Close()
				c, err := workload.SDKClient(s)
				if err != nil {
					t.Fatal(err)
				}
				o, err := workload.WaitJob(context.Background(), s, c, pending, vendor, time.Second)
				if err != nil {
					t.Fatal(err)
				}
				if vendor {
					f.VendorRequests, f.VendorLate = o.Requests, o.Late
					return
				}
				lates = append(lates, o.Late)
				f.MaxRequests = max(f.MaxRequests, o.Requests)
				f.MinRequests = min(cmp.Or(f.MinRequests, o.Requests), o.Requests)
			})
		}
		f.MedianLate, f.MaxLate = median(lates), slices.Max(lates)
		t.Logf("job pending %v, %d trials: SDK %d to %d requests, late median %v, max %v; vendor %d requests, %v late",
			pending, trials, f.MinRequests, f.MaxRequests, f.MedianLate, f.MaxLate, f.VendorRequests, f.VendorLate)
		figures = append(figures, f)
	}
	if path := os.Getenv(simOutEnv); path != "" {
		b, err := json.Marshal(figures)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
