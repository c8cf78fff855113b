package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/mockserver"
)

// TestHelpListsEndpointsAndFaults: -h names every route the server answers
// (so /_mock/ endpoints added later show up by themselves), /openapi.yaml,
// and the X-Mock-Fault syntax, with examples that really parse.
func TestHelpListsEndpointsAndFaults(t *testing.T) {
	t.Parallel()
	code, stdout, _ := runCmd(t, "-h")
	if code != exitOK {
		t.Fatalf("-h: exit code %d", code)
	}
	for _, r := range mockserver.Routes() {
		if !regexp.MustCompile(`\n  ` + r.Method + ` +` + regexp.QuoteMeta(r.Path) + `\n`).MatchString(stdout) {
			t.Errorf("-h does not list %s:\n%s", r, stdout)
		}
	}
	for _, want := range []string{"/openapi.yaml", "/_mock/", mockserver.FaultHeader + ": ", "docs/mockserver.md"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-h does not mention %q:\n%s", want, stdout)
		}
	}
	header := regexp.MustCompile(`e\.g\. ` + mockserver.FaultHeader + `: (\S+)`).FindStringSubmatch(stdout)
	if header == nil {
		t.Fatalf("-h shows no example %s header:\n%s", mockserver.FaultHeader, stdout)
	}
	if _, err := mockserver.ParseFault(header[1]); err != nil {
		t.Errorf("the example header %q does not parse: %v", header[1], err)
	}
	rule := regexp.MustCompile(`-fault '([^']+)'`).FindStringSubmatch(stdout)
	if rule == nil {
		t.Fatalf("-h shows no example -fault rule:\n%s", stdout)
	}
	if _, err := mockserver.ParseFaultRule(rule[1]); err != nil {
		t.Errorf("the example rule %q does not parse: %v", rule[1], err)
	}
	for _, item := range []string{"status=", "retry-after=", "latency=", "drop", "truncate", "job=fail", "job=stuck",
		"endpoint=", "every=", "probability=", "times="} {
		if !strings.Contains(stdout, item) {
			t.Errorf("-h does not name the fault item %q", item)
		}
	}
}
