package fault

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/newssearch/newssearch-go/internal/splitmix"
)

// Rule injects Action into the requests to Endpoint ("" for all) whose body
// has the members of Body (see Target.HasBody) and that, for a Job
// outcome, create jobs.
type Rule struct {
	Endpoint string
	Body     map[string]string
	// Every fires the rule on every Every-th match, Probability with that
	// (seeded) chance; with neither it fires on every match.
	Every       int
	Probability float64
	// Times stops the rule after it has applied this many times; 0 = never.
	Times  int
	Action Action
	// Optional marks a rule that may never fire without that being a
	// failure of the test (see the mock's Verify).
	Optional bool
}

// Validate reports a rule that cannot work.
func (r Rule) Validate() error {
	switch {
	case r.Every < 0:
		return fmt.Errorf("field Every is %d: use a positive count, or 0 with Probability", r.Every)
	case r.Probability < 0 || r.Probability > 1:
		return fmt.Errorf("field Probability is %v: use a chance from 0 to 1", r.Probability)
	case r.Every > 0 && r.Probability > 0:
		return errors.New("fields Every and Probability are both set: set one of them")
	case r.Times < 0:
		return fmt.Errorf("field Times is %d: use a positive limit, or 0 for no limit", r.Times)
	case slices.ContainsFunc(slices.Collect(maps.Keys(r.Body)), func(name string) bool { return slices.Contains(strings.Split(name, "."), "") }):
		return errors.New(`a Body member's name is empty: name a member such as "query", or a dotted path such as "a.b"`)
	case r.Action.IsZero():
		return errors.New("the rule has no action: set a latency, status, drop, truncate, job outcome or answer shape (results, totals)")
	}
	return r.Action.Validate()
}

// Injector applies a list of rules. It is safe for concurrent use.
type Injector struct {
	mu      sync.Mutex
	seed    uint64
	rules   []Rule
	matched []uint64 // per rule: matching requests seen
	applied []int    // per rule: times applied
	// draws keys each rule's probability draws by its place when it was
	// added, so that removing a rule does not change when others fire.
	draws []uint64
	next  uint64
}

// NewInjector returns an injector for the rules, drawing probabilities from
// seed. It reports the first invalid rule.
func NewInjector(seed uint64, rules []Rule) (*Injector, error) {
	in := &Injector{seed: seed}
	if err := in.Set(rules); err != nil {
		return nil, err
	}
	return in, nil
}

// Set replaces the rules and restarts every counter. On error the previous
// rules stay in force.
func (in *Injector) Set(rules []Rule) error {
	for i, r := range rules {
		if err := r.Validate(); err != nil {
			return fmt.Errorf("fault rule %d: %w", i, err)
		}
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.rules = append([]Rule(nil), rules...)
	in.matched = make([]uint64, len(rules))
	in.applied = make([]int, len(rules))
	in.draws = make([]uint64, len(rules))
	for i := range in.draws {
		in.draws[i] = uint64(i)
	}
	in.next = uint64(len(rules))
	return nil
}

// Target is where a request goes: its endpoint, and what that endpoint's
// answers have that an action can change.
type Target struct {
	Endpoint string
	Jobs     bool // it creates jobs: a Job outcome applies
	Results  bool // it answers results, nested or at the top level: Results applies
	Totals   bool // it answers counts: Totals applies
	// HasBody reports whether the request's body has the members of a
	// rule's Body; nil for none.
	HasBody func(members map[string]string) bool
}

// appliesTo reports whether a can change a request to t. A job outcome
// needs an endpoint that creates jobs; an action that only reshapes answers
// needs an answer of that shape. A rule is not counted, and does not use up
// its Times, where it could change nothing.
func (a Action) appliesTo(t Target) bool {
	switch {
	case a.Job != JobNormal:
		return t.Jobs
	case a.Latency != 0 || a.Status != 0 || a.Drop || a.Truncate:
		return true
	}
	return a.Results != "" && t.Results || a.Totals != "" && t.Totals
}

// Decide counts the request against every rule it matches and returns the
// action of the first rule that fires, with that rule's index. It returns
// the zero Action and -1 when no rule fires.
func (in *Injector) Decide(t Target) (Action, int) {
	in.mu.Lock()
	defer in.mu.Unlock()
	chosen := -1
	for i, r := range in.rules {
		if r.Endpoint != "" && r.Endpoint != t.Endpoint || !r.Action.appliesTo(t) ||
			len(r.Body) > 0 && (t.HasBody == nil || !t.HasBody(r.Body)) {
			continue
		}
		in.matched[i]++
		if chosen >= 0 || r.Times > 0 && in.applied[i] >= r.Times || !in.fires(i, r) {
			continue
		}
		chosen = i
		in.applied[i]++
	}
	if chosen < 0 {
		return Action{}, -1
	}
	return in.rules[chosen].Action, chosen
}

func (in *Injector) fires(i int, r Rule) bool {
	n := in.matched[i]
	switch {
	case r.Every > 0:
		return n%uint64(r.Every) == 0
	case r.Probability > 0:
		return unitFloat(in.seed, in.draws[i], n) < r.Probability
	}
	return true
}

// unitFloat returns a number in [0, 1) that depends only on its arguments.
func unitFloat(seed, rule, n uint64) float64 {
	x := mix(seed ^ mix(rule+0x632be59bd9b4e019) ^ mix(n))
	return float64(x>>11) / (1 << 53)
}

// mix is one SplitMix64 step: a bijection with good avalanche.
func mix(x uint64) uint64 { return splitmix.Next(x) }

// Append adds a rule after the others, keeping their counters; the new
// rule's counters start at zero. On error nothing changes.
func (in *Injector) Append(r Rule) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if err := r.Validate(); err != nil {
		return fmt.Errorf("fault rule %d: %w", len(in.rules), err)
	}
	in.rules = append(in.rules, r)
	in.matched = append(in.matched, 0)
	in.applied = append(in.applied, 0)
	in.draws = append(in.draws, in.next)
	in.next++
	return nil
}

// Remove deletes rule i if accept, when not nil, accepts it under the lock;
// the others keep their counters and draws. It returns how many rules
// there were, whether i was one and whether it was removed.
func (in *Injector) Remove(i int, accept func(Rule) bool) (n int, found, removed bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	n = len(in.rules)
	if i < 0 || i >= n {
		return n, false, false
	}
	if accept != nil && !accept(in.rules[i]) {
		return n, true, false
	}
	in.rules = slices.Delete(in.rules, i, i+1)
	in.matched = slices.Delete(in.matched, i, i+1)
	in.applied = slices.Delete(in.applied, i, i+1)
	in.draws = slices.Delete(in.draws, i, i+1)
	return n, true, true
}

// RuleStatus is a rule with its counters.
type RuleStatus struct {
	Rule    Rule
	Matched uint64 // matching requests seen
	Applied int    // times the rule applied
}

// Status returns the rules in order with their counters.
func (in *Injector) Status() []RuleStatus {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make([]RuleStatus, len(in.rules))
	for i, r := range in.rules {
		out[i] = RuleStatus{Rule: r, Matched: in.matched[i], Applied: in.applied[i]}
	}
	return out
}
