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
	want := regexp.MustCompile(`^Top sites for "earthquake":\n(  \S+: [1-9]\d* articles\n){3}Latest on "earthquake":\n(  .+\n){3}\nThe server got 4 requests\. See how newsdigest is tested: go test -v \./examples/testing/\.\.\.\n$`)
	if !want.MatchString(out.String()) {
		t.Errorf("output does not match %s:\n%s", want, &out)
	}
}
