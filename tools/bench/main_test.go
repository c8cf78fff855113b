package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// TestMain lets the test binary serve as the harness's child processes, which
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
	want := []string{"1", "3w", "4a", "4b", "5", "6", "6b", "7a", "7b", "7c", "8a", "8b", "8c"}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-quick"}, &stdout, &stderr); code != 0 {
		t.Fatalf("run -quick exited %d\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	out := stdout.String()
	for _, id := range want {
		if !strings.Contains(out, "\n| "+id+" | ") {
			t.Errorf("the table has no line %s:\n%s", id, out)
		}
	}
	// Every row has its notes, ending with the machine's load.
	for _, id := range want {
		_, section, ok := strings.Cut(out, "\nRow "+id+" (")
		if !ok {
			t.Errorf("the notes have no section for row %s:\n%s", id, out)
			continue
		}
		if next := strings.Index(section, "\nRow "); next >= 0 {
			section = section[:next]
		}
		if !strings.Contains(section, "\n- machine load: load average ") {
			t.Errorf("row %s does not state the machine's load:\n%s", id, section)
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
// the harness's table (row 8c); it asserts nothing about them.
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

func TestSteadyRepeatsWideSpreads(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	e := &env{p: fullParams(), log: &log}
	runs := [][]float64{{0.5, 1, 1.5, 2}, {0.9, 1, 1.0, 1.02, 1.1}}
	calls := 0
	rs, ok, note, err := steady(e, "x", func() ([]float64, error) { calls++; return runs[calls-1], nil })
	if err != nil || !ok || calls != 2 || median(rs) != 1 {
		t.Fatalf("steady: %v %v %d calls, median %v", err, ok, calls, median(rs))
	}
	if !strings.Contains(note, "attempt 1: median 1.250, spread 80%") || !strings.Contains(note, "attempt 2: median 1.000, spread 2%") {
		t.Errorf("note: %s", note)
	}
	calls = 0
	_, ok, note, _ = steady(e, "x", func() ([]float64, error) { calls++; return runs[0], nil })
	if ok || calls != maxAttempts || !strings.Contains(note, "NOT steady") {
		t.Errorf("always wide: ok %v after %d calls: %s", ok, calls, note)
	}
}
