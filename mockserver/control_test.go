package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
)

// faultsAnswer is the body of /_mock/faults.
type faultsAnswer struct {
	State string          `json:"state"`
	Rules []faultRuleJSON `json:"rules"`
}

func intp(n int) *int { return &n }

func TestControlFaultsLifecycle(t *testing.T) {
	t.Parallel()
	s := start(t)
	if got := decode[faultsAnswer](t, call(t, s, http.MethodGet, "/_mock/faults", "")); got.State != "SUCCESS" || len(got.Rules) != 0 {
		t.Fatalf("GET on a fresh server: %+v", got)
	}
	// PUT: an object rule and a text rule.
	r := call(t, s, http.MethodPut, "/_mock/faults",
		`{"rules": [{"endpoint": "query", "times": 2, "fault": {"status": 503, "retry_after": 1}}, "endpoint=headlines;every=2;latency=1ms"]}`)
	if r.Status != http.StatusOK {
		t.Fatalf("PUT: %d %s", r.Status, r.Body)
	}
	if diff := cmp.Diff([]int{503, 503, 200}, statuses(t, s, "/api/v2/query", 3)); diff != "" {
		t.Fatalf("queries (-want +got):\n%s", diff)
	}
	want := []faultRuleJSON{
		{Index: 0, Text: "endpoint=query;times=2;status=503;retry-after=1", Endpoint: "query", Times: 2,
			Fault: faultJSON{Status: 503, RetryAfter: 1}, Matched: 3, Fired: 2, Remaining: intp(0)},
		{Index: 1, Text: "endpoint=headlines;every=2;latency=1ms", Endpoint: "headlines", Every: 2,
			Fault: faultJSON{Latency: "1ms"}},
	}
	got := decode[faultsAnswer](t, call(t, s, http.MethodGet, "/_mock/faults", ""))
	if diff := cmp.Diff(want, got.Rules); diff != "" {
		t.Fatalf("GET after PUT (-want +got):\n%s", diff)
	}
	// Go parity: the same rules through Faults.
	goRules := s.Faults()
	if len(goRules) != 2 || goRules[0].Matched != 3 || goRules[0].Fired != 2 || goRules[0].Remaining != 0 || goRules[1].Remaining != -1 {
		t.Fatalf("Faults() = %+v", goRules)
	}
	// POST appends, keeping the counters of the others.
	r = call(t, s, http.MethodPost, "/_mock/faults", `endpoint=query-async;job=fail`)
	if r.Status != http.StatusOK {
		t.Fatalf("POST: %d %s", r.Status, r.Body)
	}
	got = decode[faultsAnswer](t, r)
	if len(got.Rules) != 3 || got.Rules[0].Matched != 3 || got.Rules[2].Text != "endpoint=query-async;job=fail" || got.Rules[2].Fault.Job != "fail" {
		t.Fatalf("after POST: %+v", got.Rules)
	}
	id := submit(t, s, map[string]any{"query": "cars"})
	if res := results(t, s, id, 1); res.State != "FAILED" {
		t.Fatalf("job with job=fail rule: %+v", res)
	}
	// A listed rule can be sent back as it is.
	listed, err := json.Marshal(map[string]any{"rules": got.Rules[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if r := call(t, s, http.MethodPut, "/_mock/faults", string(listed)); r.Status != http.StatusOK || len(decode[faultsAnswer](t, r).Rules) != 1 {
		t.Fatalf("PUT of a listing: %d %s", r.Status, r.Body)
	}
	if diff := cmp.Diff([]int{503, 503, 200}, statuses(t, s, "/api/v2/query", 3)); diff != "" {
		t.Fatalf("queries after PUT of the listing (-want +got):\n%s", diff)
	}
	// DELETE clears.
	if r := call(t, s, http.MethodDelete, "/_mock/faults", ""); r.Status != http.StatusOK || len(decode[faultsAnswer](t, r).Rules) != 0 {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	if len(s.Faults()) != 0 {
		t.Fatalf("Faults() after DELETE: %+v", s.Faults())
	}
}

func TestControlFaultsBodies(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, method, body, want string }{
		{"bare array", http.MethodPut, `[{"fault": "status=500"}, "endpoint=query;status=502"]`, "status=500|endpoint=query;status=502"},
		{"text lines", http.MethodPut, "# comment\nendpoint=query;status=502\n\nendpoint=headlines;drop\n", "endpoint=query;status=502|endpoint=headlines;drop"},
		{"empty rules", http.MethodPut, `{"rules": []}`, ""},
		{"empty body", http.MethodPut, ``, ""},
		{"JSON string", http.MethodPost, `"endpoint=get-results;probability=0.5;status=500"`, "endpoint=get-results;probability=0.5;status=500"},
		{"object", http.MethodPost, `{"endpoint": "/api/v2/query", "fault": {"truncate": true, "status": 502}}`, "endpoint=query;status=502;truncate"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, WithFaults(FaultRule{Fault: Fault{Status: 599}}))
			if tt.method == http.MethodPut {
				_ = s.SetFaults()
			}
			r := call(t, s, tt.method, "/_mock/faults", tt.body)
			if r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			var texts []string
			for _, rule := range s.Faults() {
				texts = append(texts, rule.String())
			}
			if tt.method == http.MethodPost {
				texts = texts[1:]
			}
			if diff := cmp.Diff(tt.want, strings.Join(texts, "|")); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestControlFaultsBadInputChangesNothing(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ method, body, want string }{
		{http.MethodPut, `{"rules": [{"fault": {"status": 503}}, {"endpoint": "querry", "fault": {"status": 503}}]}`,
			`fault rule 1: Endpoint "querry" is unknown: use "query", "query-async", "get-results", "headlines" or "" for all`},
		{http.MethodPut, `{"rules": [{"every": "3", "fault": {"status": 503}}]}`, `fault rule 0: every must be a whole number such as 3, not a string`},
		{http.MethodPut, `{"rules": [{"fault": {"status": "503"}}]}`, `fault rule 0: fault.status must be a whole number such as 503, not a string`},
		{http.MethodPut, `{"rules": [{"fault": {"latency": "soon"}}]}`, `fault rule 0: fault.latency must be a duration such as "150ms" or "2s", not "soon"`},
		{http.MethodPut, `{"rules": [{"fault": {"job": "maybe"}}]}`, `fault rule 0: fault.job must be "fail", "stuck" or "refuse", not "maybe"`},
		{http.MethodPut, `{"rules": [{"fault": {"statsu": 503}}]}`, `fault rule 0: fault has an unknown field "statsu": a fault has latency, status, retry_after, drop, truncate, job, results and totals`},
		{http.MethodPut, `{"rules": [{"falut": {"status": 503}}]}`, `fault rule 0: unknown field "falut": a rule has endpoint, body, every, probability, times, optional and fault`},
		{http.MethodPut, `{"rules": [{"fault": 503}]}`, `fault rule 0: fault must be an object such as {"status": 503} or a string such as "status=503", not a number`},
		{http.MethodPut, `{"rules": [{"every": 2, "probability": 0.5, "fault": {"status": 503}}]}`, `fault rule 0: fields Every and Probability are both set: set one of them`},
		{http.MethodPut, `{"rules": [{}]}`, `fault rule 0: the rule has no action: set a latency, status, drop, truncate, job outcome or answer shape (results, totals)`},
		{http.MethodPut, `{"rules": [{"fault": {"status": 200}}]}`, `fault rule 0: status 200 is out of range: use an HTTP error status from 400 to 599`},
		{http.MethodPut, `{"rules": [{"endpoint": "headlines", "fault": {"job": "fail"}}]}`, `fault rule 0: a job fault applies only to "query-async": set Endpoint to it or leave it empty`},
		{http.MethodPut, `{"rules": [42]}`, `fault rule 0 is a number: write a rule as an object such as {"endpoint": "query", "fault": {"status": 503}} or a string such as "endpoint=query;status=503"`},
		{http.MethodPut, `{"rulez": []}`, `unknown field "rulez": the body is {"rules": [rule, ...]}`},
		{http.MethodPut, `{"rules": {}}`, `"rules" must be an array of rules: send {"rules": [{"endpoint": "query", "fault": {"status": 503}}]} ({"rules": []} removes them all)`},
		{http.MethodPut, "endpoint=query;sttus=503", `fault rule 0: fault rule "endpoint=query;sttus=503": unknown item "sttus"; a rule is items separated by ";": endpoint=<query, query-async, get-results or headlines>, body.<member>=<value>, every=<n>, probability=<0..1>, times=<n>, optional, and the fault: ` + faultSyntaxForTest},
		{http.MethodPost, ``, `the body is empty: send one rule, e.g. {"endpoint": "query", "times": 2, "fault": {"status": 503}} or endpoint=query;times=2;status=503`},
		{http.MethodPost, `{"times": -1, "fault": {"status": 503}}`, `fault rule 1: field Times is -1: use a positive limit, or 0 for no limit`},
	} {
		s := start(t, WithFaults(FaultRule{Endpoint: EndpointHeadlines, Fault: Fault{Status: 500}}))
		r := call(t, s, tt.method, "/_mock/faults", tt.body)
		if diff := cmp.Diff(failure{"FAILED", tt.want}, decode[failure](t, r)); diff != "" || r.Status != http.StatusBadRequest {
			t.Errorf("%s %s: status %d (-want +got):\n%s", tt.method, tt.body, r.Status, diff)
		}
		if got := s.Faults(); len(got) != 1 || got[0].String() != "endpoint=headlines;status=500" {
			t.Errorf("%s %s changed the rules: %+v", tt.method, tt.body, got)
		}
	}
}

// jobsAnswer is the body of GET /_mock/jobs.
type jobsAnswer struct {
	State string    `json:"state"`
	Jobs  []jobJSON `json:"jobs"`
}

func TestControlJobs(t *testing.T) {
	t.Parallel()
	const key = "CANARY-jobs-3f9a1c"
	s := start(t, WithAPIKeys(key), WithPendingPolls(1000))
	a := submit(t, s, map[string]any{"query": "cars"})
	b := submit(t, s, map[string]any{"query": "bank", "page": 2})
	r := call(t, s, http.MethodGet, "/_mock/jobs", "")
	if strings.Contains(string(r.Body), key) {
		t.Fatalf("GET /_mock/jobs shows the key: %s", r.Body)
	}
	owner := KeyFingerprint(key)
	if !strings.HasPrefix(owner, "sha256:") || len(owner) != len("sha256:")+16 {
		t.Fatalf("KeyFingerprint = %q", owner)
	}
	want := []jobJSON{
		{QueryID: a, Owner: owner, State: JobPending, Query: "cars", Body: `{"api_key":"[redacted]","query":"cars"}`,
			Created: t0, LastUsed: t0, Expires: t0.Add(defaultJobTTL)},
		{QueryID: b, Owner: owner, State: JobPending, Query: "bank", Body: `{"api_key":"[redacted]","page":2,"query":"bank"}`,
			Created: t0, LastUsed: t0, Expires: t0.Add(defaultJobTTL)},
	}
	if diff := cmp.Diff(jobsAnswer{"SUCCESS", want}, decode[jobsAnswer](t, r)); diff != "" {
		t.Fatalf("GET /_mock/jobs (-want +got):\n%s", diff)
	}
	if got := decode[jobAnswer](t, call(t, s, http.MethodGet, "/_mock/jobs/"+b, "")); got.Job.QueryID != b || got.Job.Query != "bank" {
		t.Fatalf("GET /_mock/jobs/{id}: %+v", got)
	}

	// Force a failure with a message.
	r = call(t, s, http.MethodPost, "/_mock/jobs/"+a, `{"state": "failed", "message": "upstream timeout"}`)
	if got := decode[jobAnswer](t, r); r.Status != http.StatusOK || got.Job.State != JobFailed || got.Job.Message != "upstream timeout" {
		t.Fatalf("force FAILED: %d %s", r.Status, r.Body)
	}
	res := decode[resultsReply](t, post(t, s, "/api/v2/get-results", map[string]any{"query_id": a}))
	if diff := cmp.Diff(resultsReply{QueryID: a, State: "FAILED", Message: "upstream timeout"}, res); diff != "" {
		t.Fatalf("get-results of the failed job (-want +got):\n%s", diff)
	}
	// Force success on a job that would stay pending for 1000 polls.
	if _, err := s.ForceJob(b, JobSuccess, ""); err != nil {
		t.Fatal(err)
	}
	if res := decode[resultsReply](t, post(t, s, "/api/v2/get-results", map[string]any{"query_id": b})); res.State != "SUCCESS" || res.TotalResults == 0 {
		t.Fatalf("get-results of the forced job: %+v", res)
	}
	// Back to pending.
	if r := call(t, s, http.MethodPost, "/_mock/jobs/"+b, `{"state": "PENDING"}`); r.Status != http.StatusOK {
		t.Fatalf("force PENDING: %d %s", r.Status, r.Body)
	}
	if res := decode[resultsReply](t, post(t, s, "/api/v2/get-results", map[string]any{"query_id": b})); res.State != "PENDING" {
		t.Fatalf("get-results after PENDING: %+v", res)
	}
	// Expire.
	if r := call(t, s, http.MethodDelete, "/_mock/jobs/"+b, ""); r.Status != http.StatusOK || string(r.Body) != `{"state":"SUCCESS"}` {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	if r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": b}); r.Status != http.StatusNotFound ||
		!strings.HasPrefix(decode[failure](t, r).Message, "query_id is unknown or has expired") {
		t.Fatalf("get-results after DELETE: %d %s", r.Status, r.Body)
	}
	if got := s.Jobs(); len(got) != 1 || got[0].QueryID != a {
		t.Fatalf("Jobs() after DELETE: %+v", got)
	}
}

func TestControlJobsBadInput(t *testing.T) {
	t.Parallel()
	s := start(t)
	id := submit(t, s, map[string]any{"query": "cars"})
	unknown := `no live job has query_id "nope" (never issued, expired or removed): GET /_mock/jobs lists the live ones`
	for _, tt := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{http.MethodPost, "/_mock/jobs/nope", `{"state": "SUCCESS"}`, 404, unknown},
		{http.MethodDelete, "/_mock/jobs/nope", ``, 404, unknown},
		{http.MethodGet, "/_mock/jobs/nope", ``, 404, unknown},
		{http.MethodPost, "/_mock/jobs/" + id, `{"state": "DONE"}`, 400, `job state "DONE" is unknown: use "SUCCESS", "FAILED" or "PENDING"`},
		{http.MethodPost, "/_mock/jobs/" + id, `{"state": "SUCCESS", "message": "x"}`, 400, `a message goes only with state "FAILED": drop it, or force "FAILED"`},
		{http.MethodPost, "/_mock/jobs/" + id, `{}`, 400, `state is missing: send {"state": "FAILED", "message": "upstream timeout"}; state is SUCCESS, FAILED or PENDING`},
		{http.MethodPost, "/_mock/jobs/" + id, `{"state": 1}`, 400, `state must be a string, not number: send {"state": "FAILED", "message": "upstream timeout"}`},
		{http.MethodPost, "/_mock/jobs/" + id, `{"stat": "SUCCESS"}`, 400, `unknown field "stat": the fields are state and message; send {"state": "FAILED", "message": "upstream timeout"}`},
		{http.MethodPost, "/_mock/jobs/" + id, `state=SUCCESS`, 400, `the body is not a JSON object: send {"state": "FAILED", "message": "upstream timeout"}`},
		{http.MethodPut, "/_mock/jobs/" + id, `{}`, 405, `/_mock/jobs/` + id + ` does not accept "PUT": use GET or POST or DELETE`},
		{http.MethodPost, "/_mock/jobs", `{}`, 405, `/_mock/jobs does not accept "POST": use GET`},
	} {
		r := call(t, s, tt.method, tt.path, tt.body)
		if diff := cmp.Diff(failure{"FAILED", tt.want}, decode[failure](t, r)); diff != "" || r.Status != tt.status {
			t.Errorf("%s %s %s: status %d, want %d (-want +got):\n%s", tt.method, tt.path, tt.body, r.Status, tt.status, diff)
		}
	}
	if got := s.Jobs(); len(got) != 1 || got[0].State != JobPending {
		t.Fatalf("bad input changed the job: %+v", got)
	}
}

func TestControlUnknownPathListsEndpoints(t *testing.T) {
	t.Parallel()
	s := start(t)
	r := call(t, s, http.MethodGet, "/_mock/nothing", "")
	want := `there is no endpoint at "/_mock/nothing": the mock's own endpoints are GET /_mock/health, GET /_mock/journal, ` +
		`DELETE /_mock/journal, GET /_mock/record, POST /_mock/reset, GET /_mock/faults, PUT /_mock/faults, POST /_mock/faults, DELETE /_mock/faults, DELETE /_mock/faults/{index}, GET /_mock/jobs, ` +
		`GET /_mock/jobs/{id}, POST /_mock/jobs/{id}, DELETE /_mock/jobs/{id}, GET /_mock/clock, POST /_mock/clock, GET /_mock/articles, POST /_mock/articles, PUT /_mock/articles, DELETE /_mock/articles, GET /_mock/settings, PATCH /_mock/settings, DELETE /_mock/settings, GET /_mock/expectations, POST /_mock/expectations, DELETE /_mock/expectations, GET /_mock/verify, GET /_mock/worlds, POST /_mock/worlds, DELETE /_mock/worlds, DELETE /_mock/worlds/{id}, GET /_mock/ui (the inspector page)`
	if diff := cmp.Diff(failure{"FAILED", want}, decode[failure](t, r)); diff != "" || r.Status != http.StatusNotFound {
		t.Fatalf("status %d (-want +got):\n%s", r.Status, diff)
	}
	if r := call(t, s, http.MethodPatch, "/_mock/faults", ""); r.Header.Get("Allow") != "GET, PUT, POST, DELETE" || r.Status != 405 {
		t.Fatalf("PATCH /_mock/faults: %d Allow %q", r.Status, r.Header.Get("Allow"))
	}
}

var _ = time.Second

const faultSyntaxForTest = fault.Syntax
