package main

import (
	"bytes"
	"regexp"
	"testing"
)

// TestRun runs the example as go run does and checks the shape of its
// output (the mock's dates follow the clock, so the details vary by day).
func TestRun(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), &out); err != nil {
		t.Fatalf("run: %v; output so far:\n%s", err, &out)
	}
	want := regexp.MustCompile(`^Search "electric vehicles", last 7 days: [1-9]\d* articles\n(  .+ \(\S+, \d{4}-\d\d-\d\d\)\n){3}\nSubmitQuery and Poll "election", last 3 months, key phrases, newest first:\n  poll 1 after \S+: PENDING\n  poll 2 after \S+: SUCCESS\n  [1-9]\d* articles \(job [0-9a-f]{32}\); the newest:\n(  .+ \(\S+, \d{4}-\d\d-\d\d\)\n){3}\nHeadlines: [1-9]\d* clusters; the largest:\n( +[1-9]\d* articles: .+\n){3}$`)
	if !want.MatchString(out.String()) {
		t.Errorf("output does not match %s:\n%s", want, &out)
	}
}
