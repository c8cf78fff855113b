package fault

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Action
	}{
		{"", Action{}},
		{"  ", Action{}},
		{"status=503", Action{Status: 503}},
		{"status=429;retry-after=2", Action{Status: 429, RetryAfter: 2}},
		{" Status = 500 ; Latency=150ms ;", Action{Status: 500, Latency: 150 * time.Millisecond}},
		{"latency=150ms", Action{Latency: 150 * time.Millisecond}},
		{"drop", Action{Drop: true}},
		{"latency=1s;drop", Action{Latency: time.Second, Drop: true}},
		{"truncate", Action{Truncate: true}},
		{"status=502;truncate", Action{Status: 502, Truncate: true}},
		{"job=fail", Action{Job: JobFail}},
		{"job=STUCK;latency=5ms", Action{Job: JobStuck, Latency: 5 * time.Millisecond}},
		{"job=refuse", Action{Job: JobRefuse}},
		{"latency=100ms..2s", Action{Latency: 100 * time.Millisecond, LatencyMax: 2 * time.Second}},
		{"latency= 0s .. 1s ;dribble=3s", Action{LatencyMax: time.Second, Dribble: 3 * time.Second}},
		{"window=Day;empty-page=2", Action{WindowDay: true, EmptyPage: 2}},
		{"window=5s;overlap=3;arrivals=4", Action{Window: 5 * time.Second, Overlap: 3, Arrivals: 4}},
	}
	for _, tt := range tests {
		got, err := ParseHeader(tt.in)
		if err != nil {
			t.Errorf("ParseHeader(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseHeader(%q) (-want +got):\n%s", tt.in, diff)
		}
		again, err := ParseHeader(got.String())
		if err != nil || again != got {
			t.Errorf("round trip of %q through %q gave %+v, %v", tt.in, got.String(), again, err)
		}
	}
}

func TestParseHeaderErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"sttus=503", `unknown item "sttus"`},
		{"status=abc", `status="abc" is not a whole number; write e.g. status=503`},
		{"status=200", "status 200 is out of range: use an HTTP error status from 400 to 599"},
		{"status=503;status=500", `"status" is given twice; give each item once`},
		{"retry-after=2", "retry-after needs a status to go with it, e.g. status=429;retry-after=2"},
		{"status=429;retry-after=soon", `retry-after="soon" is not a whole number of seconds; write e.g. retry-after=2`},
		{"status=429;retry-after=-1", "retry-after -1 is out of range: use whole seconds from 0 to 86400"},
		{"latency=fast", `latency="fast" is not a duration or a range; write e.g. latency=150ms or latency=100ms..2s`},
		{"latency=1s..", `latency="1s.." is not a duration or a range; write e.g. latency=150ms or latency=100ms..2s`},
		{"latency=2s..1s", "latency 2s..1s is not a range from 0 to 5m0s: write MIN..MAX with MIN <= MAX, e.g. latency=100ms..2s"},
		{"latency=1s..6m", "latency 1s..6m0s is not a range from 0 to 5m0s: write MIN..MAX with MIN <= MAX, e.g. latency=100ms..2s"},
		{"window=day;window=1s", `"window" is given twice; give each item once`},
		{"window=0s", `window="0s" is neither day nor a duration; write e.g. window=day or window=5s`},
		{"window=401d", `window="401d" is neither day nor a duration; write e.g. window=day or window=5s`},
		{"window=9700h", "window 9700h0m0s is out of range: use day or a duration from 0 to 9600h0m0s, e.g. window=5s"},
		{"empty-page=-2", `empty-page="-2" is not a whole number from 1; write e.g. empty-page=2`},
		{"empty-page=10001", "empty-page 10001 is out of range: use a page from 1 to 10000, e.g. empty-page=2"},
		{"overlap=26", "overlap 26 is out of range: use a count of articles from 1 to 25, e.g. overlap=2"},
		{"arrivals=101", "arrivals 101 is out of range: use a count of articles from 1 to 100, e.g. arrivals=2"},
		{"arrivals", `arrivals="" is not a whole number from 1; write e.g. arrivals=2`},
		{"dribble=6m", "dribble 6m0s is out of range: use a duration from 0 to 5m0s, e.g. dribble=2s"},
		{"latency=-1s", "latency -1s is out of range: use a duration from 0 to 5m0s"},
		{"latency=6m", "latency 6m0s is out of range: use a duration from 0 to 5m0s"},
		{"drop=yes", `"drop" takes no value; write just "drop"`},
		{"drop;status=503", "drop sends no response, so it cannot be combined with status, truncate or job"},
		{"drop;truncate", "drop sends no response, so it cannot be combined with status, truncate or job"},
		{"job=refuse;drop", "drop sends no response, so it cannot be combined with status, truncate or job"},
		{"job=maybe", `job="maybe" is unknown; write job=fail, job=stuck or job=refuse`},
		{"job=fail;status=500", "job=fail, job=stuck and job=refuse decide how the submission is answered, so they cannot be combined with status or truncate"},
	}
	for _, tt := range tests {
		_, err := ParseHeader(tt.in)
		if err == nil {
			t.Errorf("ParseHeader(%q) succeeded, want error %q", tt.in, tt.want)
			continue
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("ParseHeader(%q) error (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestRuleValidate(t *testing.T) {
	t.Parallel()
	act := Action{Status: 503}
	tests := []struct {
		r    Rule
		want string
	}{
		{Rule{Every: -1, Action: act}, "field Every is -1: use a positive count, or 0 with Probability"},
		{Rule{Probability: 1.5, Action: act}, "field Probability is 1.5: use a chance from 0 to 1"},
		{Rule{Every: 2, Probability: 0.5, Action: act}, "fields Every and Probability are both set: set one of them"},
		{Rule{Times: -2, Action: act}, "field Times is -2: use a positive limit, or 0 for no limit"},
		{Rule{}, "the rule has no action: set a latency, status, drop, truncate, dribble, job outcome, answer shape (results, totals) or data fault (window, empty-page, overlap, arrivals)"},
		{Rule{Action: Action{Status: 302}}, "status 302 is out of range: use an HTTP error status from 400 to 599"},
		{Rule{Action: Action{Job: 9}}, "job outcome 9 is unknown: use fail, stuck or refuse"},
	}
	for _, tt := range tests {
		err := tt.r.Validate()
		if err == nil {
			t.Errorf("%+v: no error, want %q", tt.r, tt.want)
			continue
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tt.r, diff)
		}
	}
	if _, err := NewInjector(1, []Rule{{Action: act}, {}}); err == nil || err.Error() != "fault rule 1: the rule has no action: set a latency, status, drop, truncate, dribble, job outcome, answer shape (results, totals) or data fault (window, empty-page, overlap, arrivals)" {
		t.Errorf("NewInjector with a bad rule: %v", err)
	}
}

// fired returns, for n requests to endpoint, the indices of the rules applied.
func fired(in *Injector, endpoint string, jobs bool, n int) []int {
	out := make([]int, n)
	for i := range out {
		_, out[i] = in.Decide(Target{Endpoint: endpoint, Jobs: jobs})
	}
	return out
}

func TestInjectorEveryNth(t *testing.T) {
	t.Parallel()
	in, err := NewInjector(7, []Rule{{Endpoint: "query", Every: 3, Action: Action{Status: 503}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{-1, -1, 0, -1, -1, 0, -1}
	if diff := cmp.Diff(want, fired(in, "query", false, 7)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{-1, -1, -1}, fired(in, "headlines", false, 3)); diff != "" {
		t.Fatalf("other endpoint (-want +got):\n%s", diff)
	}
	in.Reset()
	if diff := cmp.Diff(want, fired(in, "query", false, 7)); diff != "" {
		t.Fatalf("after Reset (-want +got):\n%s", diff)
	}
}

func TestInjectorOrderTimesAndJobs(t *testing.T) {
	t.Parallel()
	in, err := NewInjector(1, []Rule{
		{Action: Action{Job: JobFail}},                            // only job-creating endpoints
		{Endpoint: "query", Times: 2, Action: Action{Drop: true}}, // the first two queries
		{Every: 2, Action: Action{Status: 500}},                   // every second request anywhere
	})
	if err != nil {
		t.Fatal(err)
	}
	// query: rule 1 wins twice (rule 2 counts 1, 2 meanwhile), then rule 2 on its 4th match.
	if diff := cmp.Diff([]int{1, 1, -1, 2}, fired(in, "query", false, 4)); diff != "" {
		t.Fatalf("query (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, 0}, fired(in, "query-async", true, 2)); diff != "" {
		t.Fatalf("query-async (-want +got):\n%s", diff)
	}
	act, i := in.Decide(Target{Endpoint: "headlines"}) // rule 2's 7th match
	if i != -1 || !act.IsZero() {
		t.Fatalf("headlines: rule %d %+v", i, act)
	}
	if act, i := in.Decide(Target{Endpoint: "headlines"}); i != 2 || act != (Action{Status: 500}) {
		t.Fatalf("headlines: rule %d %+v", i, act)
	}
}

func TestInjectorProbabilityIsSeeded(t *testing.T) {
	t.Parallel()
	rules := []Rule{{Probability: 0.3, Action: Action{Status: 503}}}
	run := func(seed uint64) []int {
		in, err := NewInjector(seed, rules)
		if err != nil {
			t.Fatal(err)
		}
		return fired(in, "query", false, 2000)
	}
	a, b := run(42), run(42)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different faults (-first +second):\n%s", diff)
	}
	if cmp.Equal(a, run(43)) {
		t.Fatal("seeds 42 and 43 gave the same faults")
	}
	n := 0
	for _, i := range a {
		if i == 0 {
			n++
		}
	}
	if n < 500 || n > 700 {
		t.Fatalf("fired %d of 2000 times with probability 0.3", n)
	}
}

func TestSetKeepsOldRulesOnError(t *testing.T) {
	t.Parallel()
	in, err := NewInjector(1, []Rule{{Action: Action{Status: 503}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Set([]Rule{{Every: -1, Action: Action{Drop: true}}}); err == nil {
		t.Fatal("Set accepted a bad rule")
	}
	if act, _ := in.Decide(Target{Endpoint: "query"}); act.Status != 503 {
		t.Fatalf("old rule lost: %+v", act)
	}
	if err := in.Set(nil); err != nil {
		t.Fatal(err)
	}
	if _, i := in.Decide(Target{Endpoint: "query"}); i != -1 {
		t.Fatalf("rule %d fired after clearing", i)
	}
}

func TestWait(t *testing.T) {
	t.Parallel()
	if err := Wait(context.Background(), nil, time.Millisecond); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Wait(ctx, nil, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait on a cancelled context = %v, want context.Canceled", err)
	}
	if err := Wait(ctx, nil, 0); err != nil {
		t.Fatalf("Wait(0) on a cancelled context = %v, want nil: there is nothing to wait for", err)
	}
	stop := make(chan struct{})
	close(stop)
	if err := Wait(context.Background(), stop, time.Hour); err != nil {
		t.Fatalf("Wait with stop closed = %v, want nil: the rest of the delay is skipped", err)
	}
	if err := Wait(ctx, stop, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with stop closed on a cancelled context = %v, want context.Canceled", err)
	}
}

func TestAppendKeepsCountersAndStatusReportsThem(t *testing.T) {
	t.Parallel()
	in, err := NewInjector(1, []Rule{{Endpoint: "query", Times: 1, Action: Action{Status: 503}}})
	if err != nil {
		t.Fatal(err)
	}
	fired(in, "query", false, 2)
	if err := in.Append(Rule{Every: -1, Action: Action{Drop: true}}); err == nil || err.Error() != "fault rule 1: field Every is -1: use a positive count, or 0 with Probability" {
		t.Fatalf("Append of a bad rule: %v", err)
	}
	if err := in.Append(Rule{Action: Action{Status: 500}}); err != nil {
		t.Fatal(err)
	}
	fired(in, "query", false, 1)
	want := []RuleStatus{
		{Rule: Rule{Endpoint: "query", Times: 1, Action: Action{Status: 503}}, Matched: 3, Applied: 1},
		{Rule: Rule{Action: Action{Status: 500}}, Matched: 1, Applied: 1},
	}
	if diff := cmp.Diff(want, in.Status()); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestRemoveKeepsTheOthersCountersAndDraws(t *testing.T) {
	t.Parallel()
	rules := []Rule{
		{Endpoint: "query", Times: 1, Action: Action{Status: 503}},
		{Endpoint: "headlines", Action: Action{Drop: true}},
		{Endpoint: "get-results", Probability: 0.5, Action: Action{Truncate: true}},
	}
	in, err := NewInjector(9, rules)
	if err != nil {
		t.Fatal(err)
	}
	// The firings of the probability rule with nothing removed, as reference.
	ref, err := NewInjector(9, rules)
	if err != nil {
		t.Fatal(err)
	}
	wantDraws := fired(ref, "get-results", false, 40)
	for i := range wantDraws {
		if wantDraws[i] == 2 {
			wantDraws[i] = 1 // its place after the removal below
		}
	}
	fired(in, "query", false, 3)
	fired(in, "headlines", false, 2)

	refused := 0
	if n, found, removed := in.Remove(1, func(r Rule) bool { refused++; return r.Endpoint == "query" }); n != 3 || !found || removed || refused != 1 {
		t.Fatalf("Remove(1) refused by accept = %d, %v, %v (accept ran %d times), want 3, true, false (once)", n, found, removed, refused)
	}
	for _, i := range []int{-1, 3} {
		if n, found, removed := in.Remove(i, func(Rule) bool { t.Fatal("accept ran for an index out of range"); return true }); n != 3 || found || removed {
			t.Fatalf("Remove(%d) = %d, %v, %v, want 3, false, false", i, n, found, removed)
		}
	}
	if n, found, removed := in.Remove(1, nil); n != 3 || !found || !removed {
		t.Fatalf("Remove(1) = %d, %v, %v, want 3, true, true", n, found, removed)
	}
	want := []RuleStatus{
		{Rule: rules[0], Matched: 3, Applied: 1},
		{Rule: rules[2]},
	}
	if diff := cmp.Diff(want, in.Status()); diff != "" {
		t.Fatalf("after removing rule 1 (-want +got):\n%s", diff)
	}
	// The probability rule, now at place 1, fires on the same requests as
	// before the removal.
	if diff := cmp.Diff(wantDraws, fired(in, "get-results", false, 40)); diff != "" {
		t.Errorf("probability firings after a removal (-want +got):\n%s", diff)
	}
	// An appended rule draws by a number of its own, not one of a rule in force.
	if err := in.Append(Rule{Endpoint: "headlines", Probability: 0.5, Action: Action{Drop: true}}); err != nil {
		t.Fatal(err)
	}
	if got := in.draws; !slices.Equal(got, []uint64{0, 2, 3}) {
		t.Errorf("draw numbers %v, want [0 2 3]", got)
	}
}

// Reset restarts every counter, so the rules fire again as they did from the
// start.
func (in *Injector) Reset() {
	in.mu.Lock()
	defer in.mu.Unlock()
	clear(in.matched)
	clear(in.applied)
}

func TestDrawLatency(t *testing.T) {
	t.Parallel()
	a := Action{Latency: 100 * time.Millisecond, LatencyMax: 200 * time.Millisecond}
	var low, high int
	for n := range uint64(2000) {
		d := a.DrawLatency(7, n)
		if d < a.Latency || d > a.LatencyMax {
			t.Fatalf("draw %d: %v outside [%v, %v]", n, d, a.Latency, a.LatencyMax)
		}
		if d != a.DrawLatency(7, n) {
			t.Fatalf("draw %d is not the same twice", n)
		}
		if d < 150*time.Millisecond {
			low++
		} else {
			high++
		}
	}
	if low < 900 || high < 900 { // uniform: about 1000 each
		t.Errorf("%d draws below the middle and %d above: not uniform", low, high)
	}
	if a.DrawLatency(7, 1) == a.DrawLatency(8, 1) && a.DrawLatency(7, 2) == a.DrawLatency(8, 2) {
		t.Error("the seed changes no draw")
	}
	if d := (Action{Latency: time.Second}).DrawLatency(7, 1); d != time.Second {
		t.Errorf("a fixed latency drew %v", d)
	}
}
