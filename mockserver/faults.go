package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/internal/textutil"
	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
)

// FaultHeader is the request header that asks for a fault on that request, in
// ParseFault's syntax, e.g. "status=503"; it wins over fault rules.
const FaultHeader = "X-Mock-Fault"

// MaxFaultLatency is the longest latency a fault may ask for.
const MaxFaultLatency = 5 * time.Minute

// JobFault decides the fate of a job that query-async creates.
type JobFault uint8

// Job faults.
const (
	// JobNormal lets the job run.
	JobNormal JobFault = iota
	// JobFail makes the job end FAILED.
	JobFail
	// JobStuck keeps the job PENDING until it expires.
	JobStuck
	// JobRefuse makes query-async answer 200 FAILED, with no job.
	JobRefuse
)

// Fault is what an injected fault does to one request: wait Latency, then
// Drop the connection or answer Status instead of serving it, and Truncate
// the answer halfway; Job and Shape change a successful answer.
type Fault struct {
	Latency    time.Duration // up to MaxFaultLatency
	Status     int           // 400..599
	RetryAfter int           // seconds, with Status
	Drop       bool
	Truncate   bool
	Job        JobFault    // query-async only
	Shape      AnswerShape // instead of the world's
}

// String returns the fault in FaultHeader syntax.
func (f Fault) String() string { return f.action().String() }

func (f Fault) action() fault.Action {
	return fault.Action{
		Latency: f.Latency, Status: f.Status, RetryAfter: f.RetryAfter,
		Drop: f.Drop, Truncate: f.Truncate, Job: fault.Job(f.Job),
		Results: f.Shape.Results, Totals: f.Shape.Totals,
	}
}

func faultOf(a fault.Action) Fault {
	return Fault{
		Latency: a.Latency, Status: a.Status, RetryAfter: a.RetryAfter,
		Drop: a.Drop, Truncate: a.Truncate, Job: JobFault(a.Job),
		Shape: AnswerShape{Results: a.Results, Totals: a.Totals},
	}
}

// ParseFault parses FaultHeader's syntax: ";"-separated items among status=,
// retry-after=, latency=, drop, truncate, job=fail|stuck|refuse, results= and
// totals=.
func ParseFault(s string) (Fault, error) {
	a, err := fault.ParseHeader(s)
	if err != nil {
		return Fault{}, fmt.Errorf("mockserver: fault %s: %w; accepted syntax: %s", quoteShort(s), err, fault.Syntax)
	}
	return faultOf(a), nil
}

// EndpointQuery, EndpointQueryAsync, EndpointGetResults and
// EndpointHeadlines name the endpoints of /api/v2/ in fault rules,
// expectations and journal queries, where their paths work too.
const (
	EndpointQuery      = "query"
	EndpointQueryAsync = "query-async"
	EndpointGetResults = "get-results"
	EndpointHeadlines  = "headlines"
)

// FaultRule injects Fault into matching requests. Every matching rule counts a
// request and the first that fires applies; decisions depend only on the seed
// and the order of requests.
type FaultRule struct {
	// Endpoint is a name such as EndpointQuery, or a path; "" matches all.
	Endpoint string
	// Body keeps the requests whose body has these members, as in
	// JournalQuery and Expectation; nil matches all.
	Body map[string]string
	// Every fires the rule on every Every-th match, Probability with that
	// chance (seeded); with neither it fires on every match.
	Every       int
	Probability float64
	// Times stops the rule after that many faults (0: no limit).
	Times int
	Fault Fault
	// Optional spares the rule Verify's report if it never fires.
	Optional bool
}

// ParseFaultRule parses a rule in newsmock's -fault syntax: FaultHeader items
// plus endpoint=, body.<member>= (FaultRule.Body), every=, probability=,
// times= and optional, e.g. "endpoint=query;body.page=2;every=3;status=503".
func ParseFaultRule(s string) (FaultRule, error) {
	var r FaultRule
	var rest []string
	fail := func(format string, args ...any) (FaultRule, error) {
		return FaultRule{}, fmt.Errorf("mockserver: fault rule %s: %s", quoteShort(s), fmt.Sprintf(format, args...))
	}
	for item := range strings.SplitSeq(s, ";") {
		rawName, value, _ := strings.Cut(item, "=")
		name, value := strings.ToLower(strings.TrimSpace(rawName)), strings.TrimSpace(value)
		var err error
		switch name {
		case "endpoint":
			r.Endpoint = value
		case "every":
			r.Every, err = strconv.Atoi(value)
		case "probability":
			r.Probability, err = strconv.ParseFloat(value, 64)
		case "times":
			r.Times, err = strconv.Atoi(value)
		case "optional":
			r.Optional = true
		default:
			if strings.HasPrefix(name, "body.") {
				if r.Body == nil {
					r.Body = map[string]string{}
				}
				r.Body[strings.TrimSpace(rawName)[len("body."):]] = value // as written: JSON names are case-sensitive
				continue
			}
			rest = append(rest, item)
			continue
		}
		if err != nil {
			return fail("%s=%s is not a number: write e.g. every=3, probability=0.25, times=2", name, quoteShort(value))
		}
	}
	a, err := fault.ParseHeader(strings.Join(rest, ";"))
	if err != nil {
		return fail("%v; a rule is %s", err, ruleSyntax)
	}
	r.Fault = faultOf(a)
	if _, err := compileRule(r); err != nil {
		return fail("%v", err)
	}
	return r, nil
}

// ruleSyntax describes ParseFaultRule's grammar for messages.
const ruleSyntax = `items separated by ";": endpoint=<query, query-async, get-results or headlines>, ` +
	`body.<member>=<value>, every=<n>, probability=<0..1>, times=<n>, optional, and the fault: ` + fault.Syntax

// endpointName maps a rule's Endpoint to the internal endpoint name.
func endpointName(e string) (string, bool) {
	e = strings.TrimPrefix(strings.TrimSpace(e), "/api/v2/")
	switch e {
	case "", EndpointQuery, EndpointQueryAsync, EndpointGetResults, EndpointHeadlines:
		return e, true
	}
	return "", false
}

// compileRules validates public rules and converts them.
func compileRules(rules []FaultRule) ([]fault.Rule, error) {
	out := make([]fault.Rule, len(rules))
	for i, r := range rules {
		var err error
		if out[i], err = compileRule(r); err != nil {
			return nil, fmt.Errorf("mockserver: fault rule %d: %w", i, err)
		}
	}
	return out, nil
}

// compileRule validates and converts a rule.
func compileRule(r FaultRule) (fault.Rule, error) {
	name, ok := endpointName(r.Endpoint)
	if !ok {
		//lint:ignore ST1005 the message begins with the name of the field at fault, FaultRule.Endpoint
		return fault.Rule{}, fmt.Errorf("Endpoint %s is unknown: use %q, %q, %q, %q or \"\" for all",
			quoteShort(r.Endpoint), EndpointQuery, EndpointQueryAsync, EndpointGetResults, EndpointHeadlines)
	}
	if r.Fault.Job != JobNormal && name != "" && name != EndpointQueryAsync {
		return fault.Rule{}, fmt.Errorf("a job fault applies only to %q: set Endpoint to it or leave it empty", EndpointQueryAsync)
	}
	out := fault.Rule{Endpoint: name, Body: maps.Clone(r.Body), Every: r.Every, Probability: r.Probability, Times: r.Times, Action: r.Fault.action(), Optional: r.Optional}
	return out, out.Validate()
}

// SetFaults replaces the world's fault rules and restarts their counters; on
// error nothing changes.
func (s *Server) SetFaults(rules ...FaultRule) error {
	compiled, err := compileRules(rules)
	if err != nil {
		return err
	}
	return s.faults.Set(compiled)
}

// bodyTarget is t for a request with body: rules match its members as
// expectations do, on the body the journal shows.
func bodyTarget(t fault.Target, body []byte) fault.Target {
	var shown json.RawMessage
	t.HasBody = func(members map[string]string) bool {
		if shown == nil {
			shown = redactBody(body)
		}
		return bodyHas(shown, members)
	}
	return t
}

// decideFault returns the fault of a request, from its FaultHeader or else
// the first rule that fires, and its source for the journal.
func (s *Server) decideFault(header []string, ep *endpoint, body []byte) (a fault.Action, source string, err *apiError) {
	if h := strings.TrimSpace(strings.Join(header, ";")); h != "" {
		a, perr := fault.ParseHeader(h)
		if perr != nil {
			return a, "", badRequest("%s header: %s; accepted syntax: %s", FaultHeader, perr.Error(), fault.Syntax)
		}
		if a.Job != fault.JobNormal && !ep.faults.Jobs {
			return a, "", badRequest("%s header: job=fail, job=stuck and job=refuse apply only to /api/v2/query-async: remove them from requests to %s",
				FaultHeader, ep.path)
		}
		return a, "header", nil
	}
	a, rule := s.faults.Decide(bodyTarget(ep.faults, body))
	if rule < 0 {
		return a, "", nil
	}
	return a, "rule " + strconv.Itoa(rule), nil
}

// FaultRuleStatus is a fault rule with its counters.
type FaultRuleStatus struct {
	FaultRule
	// Index is the rule's place; Matched and Fired count the requests it
	// matched and faulted; Remaining is what Times leaves, -1 for no
	// limit.
	Index     int
	Matched   uint64
	Fired     int
	Remaining int
}

// Faults returns the fault rules in force, in order, with their counters.
func (s *Server) Faults() []FaultRuleStatus {
	st := s.faults.Status()
	out := make([]FaultRuleStatus, len(st))
	for i, r := range st {
		out[i] = FaultRuleStatus{
			FaultRule: faultRuleOf(r.Rule), Index: i,
			Matched: r.Matched, Fired: r.Applied, Remaining: -1,
		}
		if r.Rule.Times > 0 {
			out[i].Remaining = max(0, r.Rule.Times-r.Applied)
		}
	}
	return out
}

// AddFault appends a fault rule after those in force; on error nothing
// changes.
func (s *Server) AddFault(rule FaultRule) error {
	compiled, err := compileRule(rule)
	if err != nil {
		return fmt.Errorf("mockserver: fault rule %d: %w", len(s.faults.Status()), err)
	}
	if err := s.faults.Append(compiled); err != nil {
		return fmt.Errorf("mockserver: %w", err)
	}
	return nil
}

// ErrNoFaultRule is the error RemoveFault returns for an index that holds no
// rule.
var ErrNoFaultRule = errors.New("mockserver: no fault rule has this index: Faults (GET /_mock/faults) lists the rules in force")

// noFaultRuleError is an ErrNoFaultRule naming the index asked for (in
// decimal: it may not fit an int) and the rules there are.
type noFaultRuleError struct {
	index string
	n     int
}

func (e noFaultRuleError) Error() string {
	var held string
	switch e.n {
	case 0:
		held = "no fault rule is in force"
	case 1:
		held = "the only rule in force is rule 0"
	default:
		held = fmt.Sprintf("the rules in force are 0 to %d", e.n-1)
	}
	return fmt.Sprintf("mockserver: there is no fault rule %s: %s; Faults (GET /_mock/faults) lists them", e.index, held)
}

func (e noFaultRuleError) Is(target error) bool { return target == ErrNoFaultRule }

// RemoveFault removes the rule at index (its place in Faults) and returns it;
// the other rules keep their counters.
func (s *Server) RemoveFault(index int) (FaultRule, error) {
	r, _, err := s.removeFault(index, nil)
	return r, err
}

// removeFault removes rule index if accept, when not nil, accepts it under
// the rules' lock. It returns the rule at index and whether it was removed.
func (s *Server) removeFault(index int, accept func(FaultRule) bool) (FaultRule, bool, error) {
	var seen FaultRule
	n, found, removed := s.faults.Remove(index, func(r fault.Rule) bool {
		seen = faultRuleOf(r)
		return accept == nil || accept(seen)
	})
	if !found {
		return FaultRule{}, false, noFaultRuleError{strconv.Itoa(index), n}
	}
	return seen, removed, nil
}

// faultRuleOf is the FaultRule of a compiled rule.
func faultRuleOf(r fault.Rule) FaultRule {
	return FaultRule{Endpoint: r.Endpoint, Body: maps.Clone(r.Body), Every: r.Every, Probability: r.Probability, Times: r.Times, Fault: faultOf(r.Action), Optional: r.Optional}
}

// String returns the rule in ParseFaultRule's syntax.
func (r FaultRule) String() string {
	var items []string
	if r.Endpoint != "" {
		items = append(items, "endpoint="+r.Endpoint)
	}
	for _, name := range slices.Sorted(maps.Keys(r.Body)) {
		items = append(items, "body."+name+"="+r.Body[name])
	}
	if r.Every != 0 {
		items = append(items, "every="+strconv.Itoa(r.Every))
	}
	if r.Probability != 0 {
		items = append(items, "probability="+strconv.FormatFloat(r.Probability, 'g', -1, 64))
	}
	if r.Times != 0 {
		items = append(items, "times="+strconv.Itoa(r.Times))
	}
	if f := r.Fault.String(); f != "" {
		items = append(items, f)
	}
	if r.Optional {
		items = append(items, "optional")
	}
	return strings.Join(items, ";")
}

// faultJSON is a Fault on the wire.
type faultJSON struct {
	Latency    string `json:"latency,omitempty"`
	Status     int    `json:"status,omitempty"`
	RetryAfter int    `json:"retry_after,omitempty"`
	Drop       bool   `json:"drop,omitempty"`
	Truncate   bool   `json:"truncate,omitempty"`
	Job        string `json:"job,omitempty"`
	Results    string `json:"results,omitempty"`
	Totals     string `json:"totals,omitempty"`
}

// faultRuleJSON is a FaultRuleStatus on the wire.
type faultRuleJSON struct {
	Index       int               `json:"index"`
	Text        string            `json:"text"`
	Endpoint    string            `json:"endpoint"`
	Body        map[string]string `json:"body,omitempty"`
	Every       int               `json:"every"`
	Probability float64           `json:"probability"`
	Times       int               `json:"times"`
	Optional    bool              `json:"optional,omitempty"`
	Fault       faultJSON         `json:"fault"`
	Matched     uint64            `json:"matched"`
	Fired       int               `json:"fired"`
	Remaining   *int              `json:"remaining"` // null = no limit
}

func (s *Server) adminFaults(*adminCall) (any, *apiError) {
	rules := []faultRuleJSON{}
	for _, r := range s.Faults() {
		rules = append(rules, ruleJSON(r))
	}
	return struct {
		State string          `json:"state"`
		Rules []faultRuleJSON `json:"rules"`
	}{"SUCCESS", rules}, nil
}

// ruleJSON is a rule with its counters on the wire.
func ruleJSON(r FaultRuleStatus) faultRuleJSON {
	f := r.Fault
	fj := faultJSON{Status: f.Status, RetryAfter: f.RetryAfter, Drop: f.Drop, Truncate: f.Truncate,
		Results: f.Shape.Results, Totals: f.Shape.Totals}
	if f.Latency > 0 {
		fj.Latency = f.Latency.String()
	}
	fj.Job = fault.JobNames[f.Job]
	out := faultRuleJSON{Index: r.Index, Text: r.FaultRule.String(), Endpoint: r.Endpoint, Body: r.Body, Every: r.Every,
		Probability: r.Probability, Times: r.Times, Optional: r.Optional, Fault: fj, Matched: r.Matched, Fired: r.Fired}
	if r.Remaining >= 0 {
		out.Remaining = &r.Remaining
	}
	return out
}

func (s *Server) adminSetFaults(c *adminCall) (any, *apiError) {
	rules, err := parseFaultRules(c.body)
	if err != nil {
		return nil, controlError(err)
	}
	if err := s.SetFaults(rules...); err != nil {
		return nil, controlError(err)
	}
	return s.adminFaults(c)
}

func (s *Server) adminAddFault(c *adminCall) (any, *apiError) {
	n := len(s.faults.Status())
	body := bytes.TrimSpace(c.body)
	if len(body) == 0 {
		return nil, badRequest(`the body is empty: send one rule, e.g. {"endpoint": "query", "times": 2, "fault": {"status": 503}} or endpoint=query;times=2;status=503`)
	}
	rule, err := parseFaultRule(n, body)
	if err != nil {
		return nil, controlError(err)
	}
	if err := s.AddFault(rule); err != nil {
		return nil, controlError(err)
	}
	return s.adminFaults(c)
}

// adminRemoveFault answers DELETE /_mock/faults/{index}[?text=rule]: with
// text, only if the rule at index still has that text, so that a stale list
// cannot remove another rule.
func (s *Server) adminRemoveFault(c *adminCall) (any, *apiError) {
	const usage = "DELETE /_mock/faults/{index} takes the index GET /_mock/faults lists, e.g. DELETE /_mock/faults/0"
	if strings.TrimLeft(c.id, "0123456789") != "" {
		return nil, badRequest("fault rule index %s is not a whole number from 0: %s", quoteShort(c.id), usage)
	}
	index, err := strconv.Atoi(c.id)
	if err != nil { // digits only, too many for an int: past every rule
		digits := strings.TrimLeft(c.id, "0")
		if len(digits) > 40 {
			digits = digits[:20] + "..." + digits[len(digits)-20:]
		}
		err := noFaultRuleError{digits, len(s.faults.Status())}
		return nil, &apiError{status: http.StatusNotFound, msg: strings.TrimPrefix(err.Error(), "mockserver: ")}
	}
	q := c.r.URL.Query()
	for _, name := range slices.Sorted(maps.Keys(q)) {
		if name != "text" {
			return nil, badRequest("unknown query parameter %s: the only one is text, the rule's text as GET /_mock/faults lists it "+
				"(the rule is then removed only if it is still at that index)", quoteShort(name))
		}
	}
	var accept func(FaultRule) bool
	want, guarded := q["text"]
	if guarded {
		accept = func(r FaultRule) bool { return r.String() == want[0] }
	}
	rule, removed, err := s.removeFault(index, accept)
	switch {
	case err != nil:
		return nil, &apiError{status: http.StatusNotFound, msg: strings.TrimPrefix(err.Error(), "mockserver: ")}
	case !removed:
		return nil, &apiError{status: http.StatusConflict, msg: fmt.Sprintf(
			"fault rule %d is now %s, not %s: the rules changed since you read them; GET /_mock/faults and try again",
			index, quoteShort(rule.String()), quoteShort(want[0]))}
	}
	return s.adminFaults(c)
}

// parseFaultRules reads the body of PUT /_mock/faults: {"rules": [...]},
// a JSON array of rules, or rules in -fault syntax one a line.
func parseFaultRules(body []byte) ([]FaultRule, error) {
	body = bytes.TrimSpace(body)
	var raws []json.RawMessage
	switch {
	case len(body) == 0:
		return nil, nil
	case body[0] == '{':
		var wrap map[string]json.RawMessage
		if err := json.Unmarshal(body, &wrap); err != nil {
			return nil, fmt.Errorf("the body is not valid JSON (%v): send {\"rules\": [rule, ...]}", err)
		}
		for name := range wrap {
			if name != "rules" {
				return nil, fmt.Errorf("unknown field %s: the body is {\"rules\": [rule, ...]}", quoteShort(name))
			}
		}
		rules, ok := wrap["rules"]
		if !ok || json.Unmarshal(rules, &raws) != nil {
			return nil, errors.New(`"rules" must be an array of rules: send {"rules": [{"endpoint": "query", "fault": {"status": 503}}]} ({"rules": []} removes them all)`)
		}
	case body[0] == '[':
		if err := json.Unmarshal(body, &raws); err != nil {
			return nil, fmt.Errorf("the body is not valid JSON (%v): send an array of rules", err)
		}
	default:
		var rules []FaultRule
		for line := range strings.Lines(string(body)) {
			if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			r, err := parseFaultRule(len(rules), []byte(line))
			if err != nil {
				return nil, err
			}
			rules = append(rules, r)
		}
		return rules, nil
	}
	rules := make([]FaultRule, len(raws))
	for i, raw := range raws {
		r, err := parseFaultRule(i, bytes.TrimSpace(raw))
		if err != nil {
			return nil, err
		}
		rules[i] = r
	}
	return rules, nil
}

// The fields of a rule and of a fault object, for messages.
const (
	ruleFields  = "endpoint, body, every, probability, times, optional and fault"
	faultFields = "latency, status, retry_after, drop, truncate, job, results and totals"
)

// parseFaultRule reads rule i: a JSON object, or -fault syntax as a JSON
// string or as it is.
func parseFaultRule(i int, raw []byte) (FaultRule, error) {
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return FaultRule{}, fmt.Errorf("fault rule %d is not a valid JSON string (%v)", i, err)
		}
		raw = []byte(text)
	case len(raw) > 0 && raw[0] == '{':
		return parseFaultRuleObject(i, raw)
	case len(raw) > 0 && (raw[0] == '[' || raw[0] == 'n' || raw[0] == 't' || raw[0] == 'f' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
		return FaultRule{}, fmt.Errorf(`fault rule %d is %s: write a rule as an object such as {"endpoint": "query", "fault": {"status": 503}} or a string such as "endpoint=query;status=503"`, i, textutil.JSONKind(raw))
	}
	r, err := ParseFaultRule(string(raw))
	if err != nil {
		return FaultRule{}, fmt.Errorf("fault rule %d: %s", i, strings.TrimPrefix(err.Error(), "mockserver: "))
	}
	return r, nil
}

func parseFaultRuleObject(i int, raw []byte) (FaultRule, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return FaultRule{}, fmt.Errorf("fault rule %d is not valid JSON (%v)", i, err)
	}
	var r FaultRule
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v := m[name]
		var err error
		switch name {
		case "endpoint":
			err = decodeField(v, &r.Endpoint, `a string such as "query"`)
		case "body":
			var members map[string]json.RawMessage
			if err = decodeField(v, &members, `an object of members such as {"query": "storm", "page": 2}`); err == nil {
				if r.Body, err = bodyMembers(members); err != nil {
					return FaultRule{}, fmt.Errorf("fault rule %d: %w", i, err)
				}
			}
		case "every":
			err = decodeField(v, &r.Every, "a whole number such as 3")
		case "probability":
			err = decodeField(v, &r.Probability, "a number from 0 to 1 such as 0.25")
		case "times":
			err = decodeField(v, &r.Times, "a whole number such as 2")
		case "fault":
			r.Fault, err = parseFaultJSON(v)
		case "optional":
			err = decodeField(v, &r.Optional, "true or false")
		case "index", "text", "matched", "fired", "remaining": // as GET lists them, so a listing can be sent back
		default:
			return FaultRule{}, fmt.Errorf("fault rule %d: unknown field %s: a rule has %s", i, quoteShort(name), ruleFields)
		}
		if err != nil {
			return FaultRule{}, fmt.Errorf("fault rule %d: %s%w", i, name, err)
		}
	}
	return r, nil
}

func parseFaultJSON(raw json.RawMessage) (Fault, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return Fault{}, fmt.Errorf(" is not a valid JSON string (%v)", err)
		}
		f, err := ParseFault(text)
		if err != nil {
			return Fault{}, fmt.Errorf(" is wrong: %s", strings.TrimPrefix(err.Error(), "mockserver: "))
		}
		return f, nil
	}
	var m map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return Fault{}, fmt.Errorf(` must be an object such as {"status": 503} or a string such as "status=503", not %s`, textutil.JSONKind(raw))
	}
	var f Fault
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v := m[name]
		var err error
		switch name {
		case "latency":
			var d string
			if err = decodeField(v, &d, `a duration such as "150ms"`); err == nil {
				if f.Latency, err = time.ParseDuration(d); err != nil {
					err = fmt.Errorf(" must be a duration such as \"150ms\" or \"2s\", not %s", quoteShort(d))
				}
			}
		case "status":
			err = decodeField(v, &f.Status, "a whole number such as 503")
		case "retry_after":
			err = decodeField(v, &f.RetryAfter, "a whole number of seconds such as 2")
		case "drop":
			err = decodeField(v, &f.Drop, "true or false")
		case "truncate":
			err = decodeField(v, &f.Truncate, "true or false")
		case "job":
			var j string
			if err = decodeField(v, &j, `"fail", "stuck" or "refuse"`); err == nil {
				n := slices.Index(fault.JobNames[:], strings.ToLower(j))
				switch {
				case n >= 0:
					f.Job = JobFault(n)
				case !strings.EqualFold(j, "normal"):
					err = fmt.Errorf(` must be "fail", "stuck" or "refuse", not %s`, quoteShort(j))
				}
			}
		case "results":
			err = decodeField(v, &f.Shape.Results, `"nested" or "top-level"`)
		case "totals":
			err = decodeField(v, &f.Shape.Totals, `"both", "totalResults" or "totalArticles"`)
		default:
			return Fault{}, fmt.Errorf(" has an unknown field %s: a fault has %s", quoteShort(name), faultFields)
		}
		if err != nil {
			return Fault{}, fmt.Errorf(".%s%w", name, err)
		}
	}
	return f, nil
}

// decodeField decodes a JSON value into p, or says what it must be.
func decodeField[T any](raw json.RawMessage, p *T, want string) error {
	if err := json.Unmarshal(raw, p); err != nil {
		return fmt.Errorf(" must be %s, not %s", want, textutil.JSONKind(bytes.TrimSpace(raw)))
	}
	return nil
}
