package mockserver

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
)

// FaultHeader is the request header that asks for a fault on that one
// request, in the syntax of ParseFault, e.g. "status=503",
// "status=429;retry-after=2", "latency=150ms", "drop", "truncate",
// "job=fail", "job=stuck" or "job=refuse". An unparsable value is answered 400 with the
// accepted syntax. A header fault takes precedence over fault rules.
const FaultHeader = "X-Mock-Fault"

// MaxFaultLatency is the longest latency a fault may ask for. A server in
// front of Handler needs a write timeout above it.
const MaxFaultLatency = fault.MaxLatency

// JobFault forces the fate of a job created by /api/v2/query-async.
type JobFault uint8

// Job faults.
const (
	// JobNormal lets the job run: pending for its pending period, then SUCCESS.
	JobNormal JobFault = iota
	// JobFail makes the job end FAILED after its pending period: get-results
	// answers 200 {"query_id", "state": "FAILED", "message"}.
	JobFail
	// JobStuck keeps the job PENDING until it expires.
	JobStuck
	// JobRefuse makes query-async itself fail the way the vendor's client
	// expects a refused submission: HTTP 200 {"state": "FAILED", "message"},
	// with no query_id and no job created.
	JobRefuse
)

// Fault is what an injected fault does to one request. Latency comes first
// and is cut short if the request is cancelled; then Drop closes the
// connection without a response, or Status answers that status with a
// FAILED body instead of serving the request; Truncate sends the headers
// and half the body of the response (the real one, or the Status one), then
// closes the connection. Job applies to /api/v2/query-async only.
//
// Drop and Truncate end the handler with panic(http.ErrAbortHandler), which
// net/http servers, Transport and Responder turn into a dropped connection.
type Fault struct {
	Latency    time.Duration // up to 5 minutes
	Status     int           // 400..599; 429 gets Retry-After: 1 unless RetryAfter says otherwise
	RetryAfter int           // seconds for the Retry-After header; needs Status
	Drop       bool          // close the connection without a response
	Truncate   bool          // send the headers and half the body, then close
	Job        JobFault      // the fate of the job a query-async request creates
	Shape      AnswerShape   // the shape of a successful answer, instead of the world's
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

// ParseFault parses the FaultHeader syntax: items separated by ";" among
// status=<400-599>, retry-after=<seconds>, latency=<duration>, drop,
// truncate, job=fail, job=stuck and job=refuse. A blank string is the zero Fault.
func ParseFault(s string) (Fault, error) {
	a, err := fault.ParseHeader(s)
	if err != nil {
		return Fault{}, fmt.Errorf("mockserver: fault %s: %w; accepted syntax: %s", quoteShort(s), err, fault.Syntax)
	}
	return faultOf(a), nil
}

// Endpoint names accepted by FaultRule.Endpoint (the paths work too).
const (
	// EndpointQuery names /api/v2/query.
	EndpointQuery = "query"
	// EndpointQueryAsync names /api/v2/query-async.
	EndpointQueryAsync = "query-async"
	// EndpointGetResults names /api/v2/get-results.
	EndpointGetResults = "get-results"
	// EndpointHeadlines names /api/v2/headlines.
	EndpointHeadlines = "headlines"
)

// FaultRule injects Fault into matching requests. Rules are checked in
// order; every matching rule counts the request, and the first that fires
// applies. Decisions depend only on the seed (WithSeed) and the order of
// requests, so a replayed test sees the same faults.
type FaultRule struct {
	// Endpoint limits the rule to one endpoint: EndpointQuery,
	// EndpointQueryAsync, EndpointGetResults, EndpointHeadlines or the path
	// ("/api/v2/query"); "" matches all four. A rule whose Fault has a Job
	// outcome matches only /api/v2/query-async.
	Endpoint string
	// Every fires the rule on every Every-th matching request (1 = all).
	// Probability instead fires it with that chance (0..1) per matching
	// request, drawn from the seed. With neither set the rule fires on every
	// matching request; setting both is an error.
	Every       int
	Probability float64
	// Times stops the rule after it has applied this many times (0 = no
	// limit), e.g. Times: 2 to fail two attempts and let the retry through.
	Times int
	Fault Fault
	// Optional marks a rule that may never fire: Verify does not report it.
	Optional bool
}

// ParseFaultRule parses a rule written as FaultHeader items plus any of
// endpoint=<name or path>, every=<n>, probability=<0..1>, times=<n> and
// optional, e.g. "endpoint=query;every=3;status=503". It is meant for
// command-line flags.
func ParseFaultRule(s string) (FaultRule, error) {
	var r FaultRule
	var rest []string
	fail := func(format string, args ...any) (FaultRule, error) {
		return FaultRule{}, fmt.Errorf("mockserver: fault rule %s: %s", quoteShort(s), fmt.Sprintf(format, args...))
	}
	for item := range strings.SplitSeq(s, ";") {
		name, value, _ := strings.Cut(item, "=")
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
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
	`every=<n>, probability=<0..1>, times=<n>, optional, and the fault: ` + fault.Syntax

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
		return fault.Rule{}, fmt.Errorf("Endpoint %s is unknown: use %q, %q, %q, %q or \"\" for all",
			quoteShort(r.Endpoint), EndpointQuery, EndpointQueryAsync, EndpointGetResults, EndpointHeadlines)
	}
	if r.Fault.Job != JobNormal && name != "" && name != EndpointQueryAsync {
		return fault.Rule{}, fmt.Errorf("a job fault applies only to %q: set Endpoint to it or leave it empty", EndpointQueryAsync)
	}
	out := fault.Rule{Endpoint: name, Every: r.Every, Probability: r.Probability, Times: r.Times, Action: r.Fault.action(), Optional: r.Optional}
	return out, out.Validate()
}

// SetFaults replaces the fault rules at run time and restarts their
// counters. On error the previous rules stay in force. SetFaults() with no
// rules removes them all.
func (s *Server) SetFaults(rules ...FaultRule) error {
	compiled, err := compileRules(rules)
	if err != nil {
		return err
	}
	return s.faults.Set(compiled)
}

// decideFault returns the fault for a request: its FaultHeader if present,
// else the first firing rule. source describes where it came from for the
// journal.
func (s *Server) decideFault(header []string, ep *endpoint) (a fault.Action, source string, err *apiError) {
	if h := strings.TrimSpace(strings.Join(header, ";")); h != "" {
		a, perr := fault.ParseHeader(h)
		if perr != nil {
			return a, "", badRequest("%s header: %s; accepted syntax: %s", FaultHeader, perr.Error(), fault.Syntax)
		}
		if a.Job != fault.JobNormal && !ep.createsJobs {
			return a, "", badRequest("%s header: job=fail, job=stuck and job=refuse apply only to /api/v2/query-async: remove them from requests to %s",
				FaultHeader, ep.path)
		}
		return a, "header", nil
	}
	a, rule := s.faults.Decide(ep.name, ep.createsJobs)
	if rule < 0 {
		return a, "", nil
	}
	return a, "rule " + strconv.Itoa(rule), nil
}
