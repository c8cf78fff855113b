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
	want := regexp.MustCompile(`^[1-9]\d* headline clusters; the first 4:\n(\n\d\. .+\n   [1-9]\d* articles, [1-9]\d* listed:\n(   - .+ \(\S+, \w{3} \d+ \d\d:\d\d UTC\)\n){1,3}){4}$`)
	if !want.MatchString(out.String()) {
		t.Errorf("output does not match %s:\n%s", want, &out)
	}
}
