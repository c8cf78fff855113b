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
	want := regexp.MustCompile(`^SearchRange "earthquake" from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d:\n(  windows +\d+/1[34] done, +\d+ articles so far\n){13,14}[1-9]\d* articles; the most relevant:\n(  +\d+\.\d{3}  \d{4}-\d\d-\d\d  .+ \(\S+\)\n){5}$`)
	if !want.MatchString(out.String()) {
		t.Errorf("output does not match %s:\n%s", want, &out)
	}
}
