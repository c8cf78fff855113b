package mockserver

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	newssearch "github.com/newssearch/newssearch-go"
)

var queryIDPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

// poll asks get-results once with the given key.
func poll(t *testing.T, s *Server, key, id string) reply {
	t.Helper()
	return post(t, s, "/api/v2/get-results", map[string]any{"api_key": key, "query_id": id})
}

func notFoundMessage(ttl string, jobs int) failure {
	return failure{"FAILED", "query_id is unknown or has expired: ids expire " + ttl + " after their last use (the least recently used go first beyond " +
		itoa(jobs) + " jobs) and are visible only to the api_key that submitted them; submit the query to /api/v2/query-async again"}
}

func TestAsyncLifecycle(t *testing.T) {
	t.Parallel()
	s := start(t)
	word := commonWord(t, s)
	id := submit(t, s, map[string]any{"query": word, "page": 1})
	if !queryIDPattern.MatchString(id) {
		t.Fatalf("query_id %q is not 32 lower-case hex digits", id)
	}
	first := poll(t, s, s.APIKey(), id)
	if diff := cmp.Diff(`{"query_id":"`+id+`","state":"PENDING"}`, string(first.Body)); diff != "" || first.Status != 200 {
		t.Fatalf("first poll: status %d (-want +got):\n%s", first.Status, diff)
	}
	second := decode[resultsReply](t, poll(t, s, s.APIKey(), id))
	sync := query(t, s, map[string]any{"query": word})
	want := resultsReply{QueryID: id, Page: 1, TotalResults: sync.Results.TotalResults, TotalArticles: sync.Results.TotalResults,
		Articles: sync.Results.Articles, State: "SUCCESS"}
	if diff := cmp.Diff(want, second); diff != "" {
		t.Fatalf("second poll (-want +got):\n%s", diff)
	}
	page2 := results(t, s, id, 2)
	sync2 := query(t, s, map[string]any{"query": word, "page": 2})
	if page2.Page != 2 || !cmp.Equal(ids(sync2.Results.Articles), ids(page2.Articles)) {
		t.Fatalf("page 2: page %d, %v vs sync %v", page2.Page, ids(page2.Articles), ids(sync2.Results.Articles))
	}
	past := results(t, s, id, 1000)
	if past.State != "SUCCESS" || len(past.Articles) != 0 || past.TotalResults != want.TotalResults || past.TotalArticles != want.TotalArticles {
		t.Fatalf("page past the end: %+v", past)
	}
}

func TestAsyncEmbeddingsAndKeyPhrases(t *testing.T) {
	t.Parallel()
	s := start(t, WithPendingPolls(0))
	word := commonWord(t, s)
	r := results(t, s, submit(t, s, map[string]any{"query": "*", "embeddings": true, "toggle_state": "Encoded Articles"}), 1)
	for _, a := range r.Articles {
		if len(a.Embeddings) == 0 {
			t.Fatalf("article %s has no embeddings", a.ID)
		}
	}
	all := results(t, s, submit(t, s, map[string]any{"query": "*"}), 1)
	narrowed := results(t, s, submit(t, s, map[string]any{"query": "*", "key_phrases": "'" + word + "'"}), 1)
	excluded := results(t, s, submit(t, s, map[string]any{"query": "*", "key_phrases": "not '" + word + "'"}), 1)
	if narrowed.TotalResults == 0 || narrowed.TotalResults+excluded.TotalResults != all.TotalResults {
		t.Fatalf("key_phrases %q: %d, not: %d, all: %d", word, narrowed.TotalResults, excluded.TotalResults, all.TotalResults)
	}
}

func TestPendingOptions(t *testing.T) {
	t.Parallel()
	clock := newTestClock(t0)
	s := start(t, WithClock(clock.Now), WithPendingPolls(2), WithPendingDuration(30*time.Second))
	id := submit(t, s, map[string]any{"query": "*"})
	var states []string
	for _, step := range []time.Duration{0, 0, 0, 40 * time.Second} {
		clock.Advance(step)
		states = append(states, decode[resultsReply](t, poll(t, s, s.APIKey(), id)).State)
	}
	if diff := cmp.Diff([]string{"PENDING", "PENDING", "PENDING", "SUCCESS"}, states); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	now := start(t, WithPendingPolls(0))
	if got := decode[resultsReply](t, poll(t, now, now.APIKey(), submit(t, now, map[string]any{"query": "*"}))).State; got != "SUCCESS" {
		t.Fatalf("WithPendingPolls(0): first poll %s", got)
	}
}

func TestJobsBelongToTheirKey(t *testing.T) {
	t.Parallel()
	s := start(t, WithAPIKeys("alice-key", "bob-key"))
	id := submit(t, s, map[string]any{"api_key": "alice-key", "query": "*"})
	for range 3 {
		r := poll(t, s, "bob-key", id)
		if diff := cmp.Diff(notFoundMessage("1h0m0s", defaultMaxJobs), decode[failure](t, r)); diff != "" || r.Status != http.StatusNotFound {
			t.Fatalf("bob: status %d (-want +got):\n%s", r.Status, diff)
		}
	}
	// Bob's polls did not count: Alice still sees PENDING first.
	if got := decode[resultsReply](t, poll(t, s, "alice-key", id)).State; got != "PENDING" {
		t.Fatalf("alice's first poll: %s", got)
	}
}

func TestBadSubmissionCreatesNoJob(t *testing.T) {
	t.Parallel()
	s := start(t)
	r := post(t, s, "/api/v2/query-async", map[string]any{"query": "*", "key_phrases": "'unclosed"})
	if r.Status != http.StatusBadRequest {
		t.Fatalf("status %d", r.Status)
	}
	if n := s.jobs.Len(); n != 0 {
		t.Fatalf("%d jobs after a rejected submission", n)
	}
	// The next good submission gets the first id, as on a fresh server.
	fresh := start(t)
	if a, b := submit(t, s, map[string]any{"query": "*"}), submit(t, fresh, map[string]any{"query": "*"}); a != b {
		t.Fatalf("ids %s and %s: the rejected submission used up an id", a, b)
	}
}

func TestJobTTL(t *testing.T) {
	t.Parallel()
	clock := newTestClock(t0)
	s := start(t, WithClock(clock.Now), WithLimits(Limits{JobTTL: 10 * time.Minute}))
	kept := submit(t, s, map[string]any{"query": "*"})
	dropped := submit(t, s, map[string]any{"query": "*"})
	clock.Advance(9 * time.Minute)
	if r := poll(t, s, s.APIKey(), kept); r.Status != http.StatusOK {
		t.Fatalf("kept after 9 min: %d %s", r.Status, r.Body)
	}
	clock.Advance(time.Minute) // dropped: 10 min since submission; kept: 1 min since its poll
	r := poll(t, s, s.APIKey(), dropped)
	if diff := cmp.Diff(notFoundMessage("10m0s", defaultMaxJobs), decode[failure](t, r)); diff != "" || r.Status != http.StatusNotFound {
		t.Fatalf("expired job: status %d (-want +got):\n%s", r.Status, diff)
	}
	if r := poll(t, s, s.APIKey(), kept); r.Status != http.StatusOK {
		t.Fatalf("kept, polled a minute ago: %d %s", r.Status, r.Body)
	}
	clock.Advance(10 * time.Minute)
	if r := poll(t, s, s.APIKey(), kept); r.Status != http.StatusNotFound {
		t.Fatalf("kept, 10 min after its last poll: %d %s", r.Status, r.Body)
	}
}

func TestJobCap(t *testing.T) {
	t.Parallel()
	s := start(t, WithLimits(Limits{MaxJobs: 3}))
	var idsSubmitted []string
	for range 5 {
		idsSubmitted = append(idsSubmitted, submit(t, s, map[string]any{"query": "*"}))
	}
	var statuses []int
	for _, id := range idsSubmitted {
		statuses = append(statuses, poll(t, s, s.APIKey(), id).Status)
	}
	if diff := cmp.Diff([]int{404, 404, 200, 200, 200}, statuses); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if n := s.jobs.Len(); n != 3 {
		t.Fatalf("%d jobs held, want 3", n)
	}
	r := poll(t, s, s.APIKey(), idsSubmitted[0])
	if diff := cmp.Diff(notFoundMessage("1h0m0s", 3), decode[failure](t, r)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestJobFaults(t *testing.T) {
	t.Parallel()
	s := start(t)
	failed := submit(t, s, map[string]any{"query": "*"}, FaultHeader, "job=fail")
	stuck := submit(t, s, map[string]any{"query": "*"}, FaultHeader, "job=stuck")
	var got []string
	for range 3 {
		got = append(got, string(poll(t, s, s.APIKey(), failed).Body))
	}
	pending := `{"query_id":"` + failed + `","state":"PENDING"}`
	failedBody := `{"query_id":"` + failed + `","state":"FAILED","message":"the query job failed because a job=fail fault was injected when it was submitted: submit the query again without it"}`
	if diff := cmp.Diff([]string{pending, failedBody, failedBody}, got); diff != "" {
		t.Fatalf("job=fail (-want +got):\n%s", diff)
	}
	for range 20 {
		if st := decode[resultsReply](t, poll(t, s, s.APIKey(), stuck)).State; st != "PENDING" {
			t.Fatalf("job=stuck reported %s", st)
		}
	}
	r := post(t, s, "/api/v2/query", map[string]any{"query": "*"}, FaultHeader, "job=fail")
	want := failure{"FAILED", "X-Mock-Fault header: job=fail, job=stuck and job=refuse apply only to /api/v2/query-async: remove them from requests to /api/v2/query"}
	if diff := cmp.Diff(want, decode[failure](t, r)); diff != "" || r.Status != 400 {
		t.Fatalf("job fault on /query: %d (-want +got):\n%s", r.Status, diff)
	}
}

func TestJobFaultRules(t *testing.T) {
	t.Parallel()
	s := start(t, WithPendingPolls(0), WithFaults(FaultRule{Every: 2, Fault: Fault{Job: JobStuck}}))
	var states []string
	for range 4 {
		id := submit(t, s, map[string]any{"query": "*"})
		states = append(states, decode[resultsReply](t, poll(t, s, s.APIKey(), id)).State)
	}
	// The job rule skips get-results and counts only submissions.
	if diff := cmp.Diff([]string{"SUCCESS", "PENDING", "SUCCESS", "PENDING"}, states); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// TestJobRefuse: a job=refuse fault answers query-async the way the
// vendor's client expects a refused submission (HTTP 200, state FAILED, a
// message, no query_id) and creates no job; the SDK reports it as an error
// carrying the message.
func TestJobRefuse(t *testing.T) {
	t.Parallel()
	s := start(t)
	const message = "the query was refused because a job=refuse fault was injected: " +
		"submit it again without the fault (remove the X-Mock-Fault header or the fault rule)"
	r := post(t, s, "/api/v2/query-async", map[string]any{"query": "*"}, FaultHeader, "job=refuse")
	if diff := cmp.Diff(failure{"FAILED", message}, decode[failure](t, r)); diff != "" || r.Status != http.StatusOK {
		t.Fatalf("job=refuse: status %d, want 200 (-want +got):\n%s", r.Status, diff)
	}
	if strings.Contains(string(r.Body), "query_id") {
		t.Errorf("a refused submission has a query_id: %s", r.Body)
	}
	if n := s.jobs.Len(); n != 0 {
		t.Fatalf("%d jobs after a refused submission, want 0", n)
	}
	if e := s.Journal()[0]; e.Status != http.StatusOK || e.QueryID != "" || !strings.Contains(e.Fault, "job=refuse") {
		t.Errorf("journal entry %+v: want status 200, no query id and the fault named", e)
	}
	// Bad input is still bad input: the fault decides only how a valid
	// submission is answered.
	if r := post(t, s, "/api/v2/query-async", map[string]any{"query": ""}, FaultHeader, "job=refuse"); r.Status != http.StatusBadRequest {
		t.Errorf("a blank query under job=refuse: status %d, want 400", r.Status)
	}
	// As a rule through the control API, once; the SDK sees the message.
	add := call(t, s, http.MethodPost, "/_mock/faults", `{"endpoint": "query-async", "times": 1, "fault": {"job": "refuse"}}`,
		"Content-Type", "application/json")
	if add.Status != http.StatusOK || !strings.Contains(string(add.Body), `"job":"refuse"`) {
		t.Fatalf("adding a job=refuse rule: %d %s", add.Status, add.Body)
	}
	c := s.Client()
	_, err := c.SubmitQuery(t.Context(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "markets"}})
	if err == nil || !strings.Contains(err.Error(), "job=refuse fault was injected") {
		t.Fatalf("SubmitQuery under a job=refuse rule: err %v, want the mock's message", err)
	}
	if job, err := c.SubmitQuery(t.Context(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "markets"}}); err != nil || job.QueryID == "" {
		t.Fatalf("after the rule's one firing: %v %+v", err, job)
	}
}
