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
	want := regexp.MustCompile(`^Pages of "earthquake":\n(  page \d of \d: 25 of \d+ articles, first: .+\n)+  page \d of \d: +\d+ of \d+ articles, first: .+\n\nThe first 5 articles, one at a time:\n(  \d\. .+ \(\S+\)\n){5}  requests made: 1\n\nAll results of an async job for "election", last 6 months: [1-9]\d* articles from [1-9]\d* sites\n$`)
	if !want.MatchString(out.String()) {
		t.Errorf("output does not match %s:\n%s", want, &out)
	}
}
