package mockserver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Expectation says how many requests a world must get to Endpoint (a name or
// path; "" for any) whose body has the members of Body, as in JournalQuery:
// from Min to Max, or Min and more with Max -1.
type Expectation struct {
	Endpoint string            `json:"endpoint,omitempty"`
	Body     map[string]string `json:"body,omitempty"`
	Min      int               `json:"min"`
	Max      int               `json:"max"`
}

// String describes the expectation, e.g. `query with {"query":"election"}
// exactly once`.
func (e Expectation) String() string {
	what := cmp.Or(e.Endpoint, "any endpoint")
	if len(e.Body) > 0 {
		b, _ := json.Marshal(e.Body)
		what += " with " + string(b)
	}
	switch {
	case e.Max == 0:
		return what + " never"
	case e.Min == 1 && e.Max == 1:
		return what + " exactly once"
	case e.Min == e.Max:
		return fmt.Sprintf("%s exactly %d times", what, e.Min)
	case e.Max < 0:
		return fmt.Sprintf("%s at least %d times", what, e.Min)
	}
	return fmt.Sprintf("%s %d to %d times", what, e.Min, e.Max)
}

func (e Expectation) check() error {
	if _, ok := endpointName(e.Endpoint); !ok {
		return fmt.Errorf("mockserver: expectation: endpoint %s is unknown: use %q, %q, %q, %q or \"\" for any",
			quoteShort(e.Endpoint), EndpointQuery, EndpointQueryAsync, EndpointGetResults, EndpointHeadlines)
	}
	if e.Min < 0 || e.Max < -1 || e.Max >= 0 && e.Max < e.Min {
		return fmt.Errorf("mockserver: expectation: min %d and max %d: pass 0 <= min <= max, or max -1 for no upper bound", e.Min, e.Max)
	}
	return nil
}

func (e Expectation) matches(entry *JournalEntry, body json.RawMessage) bool {
	q := JournalQuery{Path: e.Endpoint, Body: e.Body}
	entry.Body = body
	return q.selects(*entry)
}

// TestingT is what Expect needs of a test, such as *testing.T.
type TestingT interface {
	Helper()
	Cleanup(func())
	Errorf(format string, args ...any)
}

// Expect adds expectations of the world's requests from now on and has Verify
// fail t when t ends. Reset drops them.
func (s *Server) Expect(t TestingT, es ...Expectation) {
	t.Helper()
	for _, e := range es {
		if err := e.check(); err != nil {
			t.Errorf("%v", err)
			return
		}
	}
	x := &s.expect
	x.mu.Lock()
	for _, e := range es {
		x.list = append(x.list, expected{Expectation: e})
	}
	registered := slices.Contains(x.tests, t)
	if !registered {
		x.tests = append(x.tests, t)
	}
	x.mu.Unlock()
	if !registered {
		t.Cleanup(func() {
			if err := s.Verify(); err != nil {
				t.Errorf("%v", err)
			}
		})
	}
}

// addExpectation adds an expectation without a test to fail (POST
// /_mock/expectations).
func (s *Server) addExpectation(e Expectation) error {
	if err := e.check(); err != nil {
		return err
	}
	s.expect.mu.Lock()
	defer s.expect.mu.Unlock()
	s.expect.list = append(s.expect.list, expected{Expectation: e})
	return nil
}

// ExpectationStatus is an expectation with its count of matching requests.
type ExpectationStatus struct {
	Expectation
	Count int `json:"count"`
	// Closest lists, when it is unmet, the requests to its endpoint
	// nearest to its Body.
	Closest []JournalEntry `json:"closest,omitempty"`
}

// met reports whether the count is within the expectation's bounds.
func (e ExpectationStatus) met() bool { return e.Count >= e.Min && (e.Max < 0 || e.Count <= e.Max) }

// expectations returns the world's expectations with their counts.
func (s *Server) expectations() []ExpectationStatus {
	s.expect.mu.Lock()
	defer s.expect.mu.Unlock()
	out := make([]ExpectationStatus, len(s.expect.list))
	for i, e := range s.expect.list {
		out[i] = ExpectationStatus{Expectation: e.Expectation, Count: e.count}
	}
	return out
}

// VerifyError is Verify's error: the unmet expectations, the fault rules that
// never fired and the requests no expectation matched.
type VerifyError struct {
	Unmet         []ExpectationStatus
	UnfiredFaults []FaultRuleStatus
	// Unexpected lists the first of those requests; UnexpectedCount counts
	// them all. They fail Verify only when Strict (Settings.Strict).
	Unexpected      []JournalEntry
	UnexpectedCount int
	Strict          bool
}

// Error lists each problem on a line of its own.
func (e *VerifyError) Error() string {
	var b strings.Builder
	b.WriteString("mockserver: the requests were not as expected:")
	for _, u := range e.Unmet {
		fmt.Fprintf(&b, "\n- expected %s, got %d", u.Expectation, u.Count)
		for i, c := range u.Closest {
			if i == 0 {
				b.WriteString("; closest:")
			}
			fmt.Fprintf(&b, "\n    #%d %s %s", c.Seq, c.Path, c.Body)
		}
	}
	for _, f := range e.UnfiredFaults {
		fmt.Fprintf(&b, "\n- fault rule %d %q never fired (it matched %d requests); mark it optional if it may not fire", f.Index, f.FaultRule.String(), f.Matched)
	}
	for _, u := range e.Unexpected { // a cause if Strict, else what came instead
		fmt.Fprintf(&b, "\n- unexpected request #%d %s %s", u.Seq, u.Path, u.Body)
	}
	if n := e.UnexpectedCount - len(e.Unexpected); n > 0 {
		fmt.Fprintf(&b, "\n- and %d more unexpected requests", n)
	}
	return b.String()
}

// Verify returns a *VerifyError if an expectation is unmet, a fault rule that
// is not Optional never fired, or, in a strict world (Settings.Strict), a
// request no expectation matched; else nil.
func (s *Server) Verify() error {
	if v := s.verdict(); v.failed() {
		return v
	}
	return nil
}

// failed reports whether the verdict fails Verify.
func (e *VerifyError) failed() bool {
	return len(e.Unmet) > 0 || len(e.UnfiredFaults) > 0 || e.Strict && e.UnexpectedCount > 0
}

// verdict is what Verify checks, met or not.
func (s *Server) verdict() *VerifyError {
	v := VerifyError{Strict: s.settings().Strict}
	journal := s.Journal()
	for _, e := range s.expectations() {
		if e.met() {
			continue
		}
		e.Closest = closest(journal, e.Expectation)
		v.Unmet = append(v.Unmet, e)
	}
	for _, f := range s.Faults() {
		if f.Fired == 0 && !f.Optional {
			v.UnfiredFaults = append(v.UnfiredFaults, f)
		}
	}
	s.expect.mu.Lock()
	v.Unexpected, v.UnexpectedCount = slices.Clone(s.expect.unexpected), s.expect.unexpectedCount
	s.expect.mu.Unlock()
	return &v
}

// closest returns up to three requests to e's endpoint that have the most
// of e's body members right, newest first.
func closest(journal []JournalEntry, e Expectation) []JournalEntry {
	type scored struct {
		entry JournalEntry
		right int
	}
	var all []scored
	for _, entry := range slices.Backward(journal) {
		if !(JournalQuery{Path: e.Endpoint}).selects(entry) {
			continue
		}
		right := 0
		for name, want := range e.Body {
			if memberIs(entry.Body, strings.Split(name, "."), want) {
				right++
			}
		}
		all = append(all, scored{entry, right})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(b.right, a.right) })
	out := make([]JournalEntry, 0, 3)
	for _, sc := range all[:min(len(all), 3)] {
		out = append(out, sc.entry)
	}
	return out
}

// maxUnexpected bounds the unexpected requests a world keeps.
const maxUnexpected = 20

// expectations are a world's.
type expectations struct {
	mu              sync.Mutex
	list            []expected
	tests           []TestingT // those Expect registered a check for
	unexpected      []JournalEntry
	unexpectedCount int
}

type expected struct {
	Expectation
	count int
}

// observe counts a recorded request against the expectations.
func (x *expectations) observe(e *JournalEntry, body []byte) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.list) == 0 {
		return
	}
	entry, redacted := *e, redactBody(body)
	matched := false
	for i := range x.list {
		if x.list[i].matches(&entry, redacted) {
			x.list[i].count++
			matched = true
		}
	}
	if !matched {
		x.unexpectedCount++
		if len(x.unexpected) < maxUnexpected {
			x.unexpected = append(x.unexpected, entry)
		}
	}
}

func (x *expectations) reset() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.list, x.unexpected, x.unexpectedCount = nil, nil, 0
}

func (s *Server) adminExpectations(*adminCall) (any, *apiError) {
	return struct {
		State        string              `json:"state"`
		Expectations []ExpectationStatus `json:"expectations"`
	}{"SUCCESS", s.expectations()}, nil
}

// adminAddExpectations answers POST /_mock/expectations: one expectation
// or an array of them (no count: at least once). On error none is added.
func (s *Server) adminAddExpectations(c *adminCall) (any, *apiError) {
	const example = `{"endpoint": "query", "body": {"query": "election"}, "times": 1}`
	body := bytes.TrimSpace(c.body)
	var raws []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &raws) != nil {
			return nil, badRequest("the body is not a JSON array of expectations: send e.g. [%s]", example)
		}
	} else {
		raws = []json.RawMessage{body}
	}
	var es []Expectation
	for i, raw := range raws {
		var in struct {
			Endpoint string                     `json:"endpoint"`
			Body     map[string]json.RawMessage `json:"body"`
			Times    *int                       `json:"times"`
			Min      *int                       `json:"min"`
			Max      *int                       `json:"max"`
		}
		if aerr := decodeStrict(raw, &in, example, "endpoint, body, times, min and max"); aerr != nil {
			return nil, &apiError{status: aerr.status, msg: fmt.Sprintf("expectation %d: %s", i, aerr.msg)}
		}
		e := Expectation{Endpoint: in.Endpoint, Min: 1, Max: -1}
		switch {
		case in.Times != nil && (in.Min != nil || in.Max != nil):
			return nil, badRequest("expectation %d gives times with min or max: give times for an exact count, or min and max for bounds", i)
		case in.Times != nil:
			e.Min, e.Max = *in.Times, *in.Times
		case in.Min != nil || in.Max != nil:
			e.Min = 0
			set := func(v *int, to *int) {
				if v != nil {
					*to = *v
				}
			}
			set(in.Min, &e.Min)
			set(in.Max, &e.Max)
		}
		var err error
		if e.Body, err = bodyMembers(in.Body); err != nil {
			return nil, badRequest("expectation %d: %v", i, err)
		}
		if err := e.check(); err != nil {
			return nil, badRequest("expectation %d: %s", i, strings.TrimPrefix(err.Error(), "mockserver: expectation: "))
		}
		es = append(es, e)
	}
	for _, e := range es {
		_ = s.addExpectation(e) // checked above
	}
	return s.adminExpectations(c)
}

// adminVerify answers GET /_mock/verify: Verify as JSON, with its message;
// the unexpected requests are listed, strict or not.
func (s *Server) adminVerify(*adminCall) (any, *apiError) {
	v := s.verdict()
	out := struct {
		State           string              `json:"state"`
		Met             bool                `json:"met"`
		Message         string              `json:"message,omitempty"`
		Strict          bool                `json:"strict"`
		Unmet           []ExpectationStatus `json:"unmet"`
		UnfiredFaults   []faultRuleJSON     `json:"unfired_faults"`
		Unexpected      []JournalEntry      `json:"unexpected"`
		UnexpectedCount int                 `json:"unexpected_count"`
	}{State: "SUCCESS", Met: !v.failed(), Strict: v.Strict, Unmet: append([]ExpectationStatus{}, v.Unmet...),
		UnfiredFaults: []faultRuleJSON{}, Unexpected: append([]JournalEntry{}, v.Unexpected...), UnexpectedCount: v.UnexpectedCount}
	if !out.Met {
		out.Message = v.Error()
	}
	for _, f := range v.UnfiredFaults {
		out.UnfiredFaults = append(out.UnfiredFaults, ruleJSON(f))
	}
	return out, nil
}
