package mockserver

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFaultRuleBodyMatchesAsJournalAndExpectations: over seeded random
// rules and request bodies, a fault rule with body members fires on
// exactly the requests that a journal query and an expectation with the
// same members select, whether the rule is sent as JSON or in the -fault
// text syntax, which round-trips through FaultRule.String.
func TestFaultRuleBodyMatchesAsJournalAndExpectations(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(45, 3))
	pick := func(vs ...any) any { return vs[rng.IntN(len(vs))] }
	members := []struct {
		name   string
		values []string
	}{
		{"query", []string{"storm", "Storm", "election"}},
		{"page", []string{"1", "2"}},
		{"sources", []string{"cnn.com", "bbc.com"}},
		{"filter.lang", []string{"en", "de"}},
		{"api_key", []string{"[redacted]"}},
	}
	s := start(t)
	for c := range 150 {
		s.Reset()
		want := map[string]string{}
		for range 1 + rng.IntN(2) {
			m := members[rng.IntN(len(members))]
			want[m.name] = m.values[rng.IntN(len(m.values))]
		}
		rule := FaultRule{Endpoint: EndpointQuery, Body: want, Fault: Fault{Status: 503}}
		text := rule.String()
		if back, err := ParseFaultRule(text); err != nil || !cmp.Equal(back, rule) {
			t.Fatalf("case %d: %q parses back as %+v, %v; want %+v", c, text, back, err, rule)
		}
		body, _ := json.Marshal(map[string]any{"endpoint": "query", "body": want, "fault": map[string]any{"status": 503}})
		if c%2 == 0 {
			body = []byte(text)
		}
		if r := call(t, s, http.MethodPost, "/_mock/faults", string(body), ControlHeader, "1"); r.Status != 200 {
			t.Fatalf("case %d: add %s: %d %s", c, body, r.Status, r.Body)
		}
		expect, _ := json.Marshal(map[string]any{"endpoint": "query", "body": want, "min": 0})
		if r := call(t, s, http.MethodPost, "/_mock/expectations", string(expect)); r.Status != 200 {
			t.Fatalf("case %d: expect %s: %d %s", c, expect, r.Status, r.Body)
		}
		for range 12 {
			req := map[string]any{"api_key": s.APIKey()}
			for name, v := range map[string]any{
				"query":   pick("storm", "Storm", "election", nil),
				"page":    pick(1, 2, "2", nil),
				"sources": pick([]string{"bbc.com", "cnn.com"}, []string{"cnn.com"}, "bbc.com", nil),
				"filter":  pick(map[string]string{"lang": "en"}, map[string]string{"lang": "de"}, "en", nil),
			} {
				if v != nil {
					req[name] = v
				}
			}
			b, _ := json.Marshal(req)
			call(t, s, http.MethodPost, "/api/v2/query", string(b))
		}
		var faulted []uint64
		for _, e := range s.Journal() {
			if e.Fault != "" {
				faulted = append(faulted, e.Seq)
			}
		}
		var selected []uint64
		for _, e := range s.Journal(JournalQuery{Path: EndpointQuery, Body: want}) {
			selected = append(selected, e.Seq)
		}
		count := s.expectations()[0].Count
		if !cmp.Equal(faulted, selected) || count != len(selected) || s.Faults()[0].Matched != uint64(len(selected)) {
			t.Fatalf("case %d, rule %q: faulted %v, the journal query selects %v, the expectation counted %d, the rule matched %d",
				c, text, faulted, selected, count, s.Faults()[0].Matched)
		}
	}
}

// TestFaultRuleBodyOnTheWire: GET /_mock/faults shows a rule's body
// members and its text; a body that cannot match is refused with a
// message that shows a good one, and nothing changes.
func TestFaultRuleBodyOnTheWire(t *testing.T) {
	t.Parallel()
	s := start(t)
	r := call(t, s, http.MethodPost, "/_mock/faults", `{"endpoint": "query", "body": {"query": "storm", "page": 2}, "times": 1, "fault": {"status": 503}}`)
	var got struct {
		Rules []struct {
			Text string            `json:"text"`
			Body map[string]string `json:"body"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(r.Body, &got); err != nil || len(got.Rules) != 1 ||
		got.Rules[0].Text != "endpoint=query;body.page=2;body.query=storm;times=1;status=503" ||
		!cmp.Equal(got.Rules[0].Body, map[string]string{"query": "storm", "page": "2"}) {
		t.Fatalf("POST a rule with a body: %d %s", r.Status, r.Body)
	}
	for _, tt := range []struct{ body, want string }{
		{`{"body": {"sources": ["cnn.com"]}, "fault": {"status": 503}}`,
			"fault rule 1: body.sources is an array: give the value one member must hold, a string, number or boolean (a member holding an array matches when one element does)"},
		{`{"body": "query=storm", "fault": {"status": 503}}`,
			`fault rule 1: body must be an object of members such as {"query": "storm", "page": 2}, not a string`},
		{`{"body": {"a..b": "x"}, "fault": {"status": 503}}`,
			`fault rule 1: a Body member's name is empty: name a member such as "query", or a dotted path such as "a.b"`},
		{`"body.=x;status=503"`,
			`fault rule 1: fault rule "body.=x;status=503": a Body member's name is empty: name a member such as "query", or a dotted path such as "a.b"`},
	} {
		r := call(t, s, http.MethodPost, "/_mock/faults", tt.body)
		if got := decode[failure](t, r); r.Status != 400 || got.Message != tt.want {
			t.Errorf("%s: %d %q\nwant 400 %q", tt.body, r.Status, got.Message, tt.want)
		}
	}
	if n := len(s.Faults()); n != 1 {
		t.Fatalf("refused rules were added: %d rules", n)
	}
	// The rule fires on its request only, and once.
	for i, q := range []string{`"query":"storm","page":1`, `"query":"storm","page":"2"`, `"query":"storm","page":2`} {
		r := call(t, s, http.MethodPost, "/api/v2/query", fmt.Sprintf(`{"api_key":%q,%s}`, s.APIKey(), q))
		if want := []int{200, 503, 200}[i]; r.Status != want {
			t.Fatalf("%s: %d, want %d", q, r.Status, want)
		}
	}
}
