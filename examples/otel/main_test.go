package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	// The article count depends on the corpus and the date; the spans do not.
	want := regexp.MustCompile(`^[1-9]\d* articles; last response 200 after 1 attempt\(s\)
span "POST /api/v2/get-results", child of "weekly digest", status 200
span "POST /api/v2/query-async", child of "weekly digest", status 200
$`)
	if !want.Match(out.Bytes()) {
		t.Errorf("output:\n%s\nwant it to match:\n%s", out.String(), want)
	}
}
