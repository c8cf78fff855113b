package mockserver

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ruleTexts lists the rules' texts and counters as "text matched/fired".
func ruleTexts(rules []faultRuleJSON) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.Text + " " + strconv.FormatUint(r.Matched, 10) + "/" + strconv.Itoa(r.Fired)
	}
	return out
}

func TestControlRemoveFault(t *testing.T) {
	t.Parallel()
	s := start(t)
	r := call(t, s, http.MethodPut, "/_mock/faults",
		`["endpoint=query;times=1;status=503", "endpoint=headlines;status=502", "endpoint=query;every=2;latency=1ms"]`)
	if r.Status != http.StatusOK {
		t.Fatalf("PUT: %d %s", r.Status, r.Body)
	}
	if diff := cmp.Diff([]int{503, 200, 200}, statuses(t, s, "/api/v2/query", 3)); diff != "" {
		t.Fatalf("queries (-want +got):\n%s", diff)
	}
	// Remove the middle rule: the others keep their counters and the third
	// moves up to index 1.
	r = call(t, s, http.MethodDelete, "/_mock/faults/1", "")
	if r.Status != http.StatusOK {
		t.Fatalf("DELETE /_mock/faults/1: %d %s", r.Status, r.Body)
	}
	got := decode[faultsAnswer](t, r)
	want := []string{"endpoint=query;times=1;status=503 3/1", "endpoint=query;every=2;latency=1ms 3/1"}
	if diff := cmp.Diff(want, ruleTexts(got.Rules)); diff != "" || got.State != "SUCCESS" || got.Rules[1].Index != 1 {
		t.Fatalf("rules after removing rule 1 (-want +got):\n%s\n%+v", diff, got)
	}
	if diff := cmp.Diff([]int{200}, statuses(t, s, "/api/v2/headlines", 1)); diff != "" {
		t.Fatalf("headlines after its rule went (-want +got):\n%s", diff)
	}
	// With text, the rule goes only if it is still the one at that index.
	stale := "/_mock/faults/0?text=" + url.QueryEscape("endpoint=headlines;status=502")
	r = call(t, s, http.MethodDelete, stale, "")
	wantMsg := `fault rule 0 is now "endpoint=query;times=1;status=503", not "endpoint=headlines;status=502": ` +
		`the rules changed since you read them; GET /_mock/faults and try again`
	if diff := cmp.Diff(failure{"FAILED", wantMsg}, decode[failure](t, r)); diff != "" || r.Status != http.StatusConflict {
		t.Fatalf("DELETE of a stale text: status %d (-want +got):\n%s", r.Status, diff)
	}
	if n := len(s.Faults()); n != 2 {
		t.Fatalf("a refused DELETE left %d rules, want 2", n)
	}
	r = call(t, s, http.MethodDelete, "/_mock/faults/1?text="+url.QueryEscape("endpoint=query;every=2;latency=1ms"), "")
	if r.Status != http.StatusOK || len(decode[faultsAnswer](t, r).Rules) != 1 {
		t.Fatalf("DELETE with the right text: %d %s", r.Status, r.Body)
	}

	// Go: RemoveFault returns the rule it removed.
	rule, err := s.RemoveFault(0)
	if err != nil || rule.String() != "endpoint=query;times=1;status=503" {
		t.Fatalf("RemoveFault(0) = %v, %v", rule, err)
	}
	if len(s.Faults()) != 0 {
		t.Fatalf("Faults() after removing every rule: %+v", s.Faults())
	}
}

func TestControlRemoveFaultBadInput(t *testing.T) {
	t.Parallel()
	s := start(t, WithFaults(FaultRule{Endpoint: EndpointHeadlines, Fault: Fault{Status: 500}},
		FaultRule{Endpoint: EndpointQuery, Fault: Fault{Status: 502}}))
	const usage = "DELETE /_mock/faults/{index} takes the index GET /_mock/faults lists, e.g. DELETE /_mock/faults/0"
	for _, tt := range []struct {
		method, path string
		status       int
		want         string
	}{
		{http.MethodDelete, "/_mock/faults/2", http.StatusNotFound,
			"there is no fault rule 2: the rules in force are 0 to 1; Faults (GET /_mock/faults) lists them"},
		{http.MethodDelete, "/_mock/faults/x", http.StatusBadRequest, `fault rule index "x" is not a whole number from 0: ` + usage},
		{http.MethodDelete, "/_mock/faults/-1", http.StatusBadRequest, `fault rule index "-1" is not a whole number from 0: ` + usage},
		{http.MethodDelete, "/_mock/faults/+1", http.StatusBadRequest, `fault rule index "+1" is not a whole number from 0: ` + usage},
		{http.MethodDelete, "/_mock/faults/99999999999999999999", http.StatusNotFound,
			"there is no fault rule 99999999999999999999: the rules in force are 0 to 1; Faults (GET /_mock/faults) lists them"},
		{http.MethodDelete, "/_mock/faults/0000000000000000000000000000002", http.StatusNotFound,
			"there is no fault rule 2: the rules in force are 0 to 1; Faults (GET /_mock/faults) lists them"},
		{http.MethodDelete, "/_mock/faults/" + strings.Repeat("1234567890", 10), http.StatusNotFound,
			"there is no fault rule 12345678901234567890...12345678901234567890: the rules in force are 0 to 1; Faults (GET /_mock/faults) lists them"},
		{http.MethodDelete, "/_mock/faults/1.0", http.StatusBadRequest, `fault rule index "1.0" is not a whole number from 0: ` + usage},
		{http.MethodDelete, "/_mock/faults/1e3", http.StatusBadRequest, `fault rule index "1e3" is not a whole number from 0: ` + usage},
		{http.MethodDelete, "/_mock/faults/0?txt=status%3D500", http.StatusBadRequest,
			`unknown query parameter "txt": the only one is text, the rule's text as GET /_mock/faults lists it ` +
				`(the rule is then removed only if it is still at that index)`},
		{http.MethodGet, "/_mock/faults/0", http.StatusMethodNotAllowed, `/_mock/faults/0 does not accept "GET": use DELETE`},
	} {
		r := call(t, s, tt.method, tt.path, "")
		if diff := cmp.Diff(failure{"FAILED", tt.want}, decode[failure](t, r)); diff != "" || r.Status != tt.status {
			t.Errorf("%s %s: status %d, want %d (-want +got):\n%s", tt.method, tt.path, r.Status, tt.status, diff)
		}
		if got := s.Faults(); len(got) != 2 {
			t.Errorf("%s %s changed the rules: %+v", tt.method, tt.path, got)
		}
	}
	if r := call(t, s, http.MethodGet, "/_mock/faults/0", ""); r.Header.Get("Allow") != "DELETE" {
		t.Errorf("Allow %q, want DELETE", r.Header.Get("Allow"))
	}

	// Go: the same errors, as ErrNoFaultRule.
	for _, tt := range []struct {
		rules []FaultRule
		index int
		want  string
	}{
		{nil, 0, "mockserver: there is no fault rule 0: no fault rule is in force; Faults (GET /_mock/faults) lists them"},
		{[]FaultRule{{Fault: Fault{Drop: true}}}, 1, "mockserver: there is no fault rule 1: the only rule in force is rule 0; Faults (GET /_mock/faults) lists them"},
		{[]FaultRule{{Fault: Fault{Drop: true}}}, -1, "mockserver: there is no fault rule -1: the only rule in force is rule 0; Faults (GET /_mock/faults) lists them"},
	} {
		s := start(t, WithFaults(tt.rules...))
		_, err := s.RemoveFault(tt.index)
		if !errors.Is(err, ErrNoFaultRule) || err.Error() != tt.want {
			t.Errorf("RemoveFault(%d) with %d rules = %v, want ErrNoFaultRule %q", tt.index, len(tt.rules), err, tt.want)
		}
		if len(s.Faults()) != len(tt.rules) {
			t.Errorf("RemoveFault(%d) changed the rules", tt.index)
		}
	}
}
