package mockserver

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestControlClockRealIsConflict(t *testing.T) {
	t.Parallel()
	s := start(t)
	if got := decode[clockAnswer](t, call(t, s, http.MethodGet, "/_mock/clock", "")); got != (clockAnswer{"SUCCESS", t0, false}) {
		t.Fatalf("GET /_mock/clock: %+v", got)
	}
	r := call(t, s, http.MethodPost, "/_mock/clock", `{"advance": "2h"}`)
	want := "the world's clock is the real one, so it cannot be moved: switch this world to a manual clock first with " +
		"mock.use_manual_clock() (Python), or await mock.useManualClock() (Node), " +
		`or st := srv.Settings(); st.Clock = "manual"; srv.SetSettings(st) (Go, package mockserver), ` +
		`or curl -X PATCH http://mockserver.invalid/_mock/settings -H 'Content-Type: application/json' -d '{"clock": "manual"}'; ` +
		"or start newsmock with -clock manual (-clock manual=2026-01-15T12:00:00Z) for every world"
	if diff := cmp.Diff(failure{"FAILED", want}, decode[failure](t, r)); diff != "" || r.Status != http.StatusConflict {
		t.Fatalf("status %d (-want +got):\n%s", r.Status, diff)
	}
	if _, err := s.advanceClock(time.Hour); !errors.Is(err, ErrRealClock) {
		t.Fatalf("advancing a real clock: %v", err)
	}
	if _, err := s.SetClock(t0); !errors.Is(err, ErrRealClock) {
		t.Fatalf("SetClock on a real clock: %v", err)
	}
}

func TestControlClockManual(t *testing.T) {
	t.Parallel()
	s := start(t, WithManualClock(t0))
	r := call(t, s, http.MethodPost, "/_mock/clock", `{"advance": "2h"}`)
	if got := decode[clockAnswer](t, r); got != (clockAnswer{"SUCCESS", t0.Add(2 * time.Hour), true}) {
		t.Fatalf("advance: %d %+v", r.Status, got)
	}
	later := t0.Add(-24 * time.Hour)
	r = call(t, s, http.MethodPost, "/_mock/clock", `{"set": "`+later.Format(time.RFC3339)+`"}`)
	if got := decode[clockAnswer](t, r); got != (clockAnswer{"SUCCESS", later, true}) {
		t.Fatalf("set: %d %+v", r.Status, got)
	}
	for _, tt := range []struct{ body, want string }{
		{`{}`, `give exactly one of advance and set: send {"advance": "2h"} or {"set": "2026-01-15T12:00:00Z"}`},
		{`{"advance": "1h", "set": "2026-01-15T12:00:00Z"}`, `give exactly one of advance and set: send {"advance": "2h"} or {"set": "2026-01-15T12:00:00Z"}`},
		{`{"advance": "soon"}`, `advance "soon" is not a duration: write e.g. "90s", "2h" or "1h30m"`},
		{`{"advance": "-1h"}`, `advance -1h0m0s is not forward: pass a positive duration such as 2h, or set the clock to go back`},
		{`{"set": "yesterday"}`, `set "yesterday" is not an RFC 3339 time: write e.g. "2026-01-15T12:00:00Z" (the server clock runs from 1970-01-01T00:00:00Z to 9700-01-01T00:00:00Z)`},
		{`{"set": "10000-01-01T00:00:00Z"}`, `set "10000-01-01T00:00:00Z" is not an RFC 3339 time: write e.g. "2026-01-15T12:00:00Z" (the server clock runs from 1970-01-01T00:00:00Z to 9700-01-01T00:00:00Z)`},
		{`{"advance": 7200}`, `advance must be a string, not number: send {"advance": "2h"} or {"set": "2026-01-15T12:00:00Z"}`},
		{`{"adv": "2h"}`, `unknown field "adv": the fields are advance or set; send {"advance": "2h"} or {"set": "2026-01-15T12:00:00Z"}`},
		{``, `the body is empty: send {"advance": "2h"} or {"set": "2026-01-15T12:00:00Z"}`},
	} {
		r := call(t, s, http.MethodPost, "/_mock/clock", tt.body)
		if diff := cmp.Diff(failure{"FAILED", tt.want}, decode[failure](t, r)); diff != "" || r.Status != http.StatusBadRequest {
			t.Errorf("%s: status %d (-want +got):\n%s", tt.body, r.Status, diff)
		}
	}
	if !s.Now().Equal(later) {
		t.Fatalf("bad input moved the clock to %v", s.Now())
	}
	s.Reset()
	if !s.Now().Equal(t0) {
		t.Fatalf("after Reset the clock reads %v, want its start %v", s.Now(), t0)
	}
}

// TestClockRange: the control API and the Go API refuse a time or an
// advance that leaves minClockText to maxClockText, with a message naming the
// range, and leave the clock where it was; the ends themselves are
// accepted, and at maxClockText, with the longest job TTL, every control
// endpoint still encodes its times.
func TestClockRange(t *testing.T) {
	t.Parallel()
	s := start(t, WithManualClock(t0), WithLimits(Limits{JobTTL: math.MaxInt64}), WithPendingPolls(3))
	const rng = "the server clock runs from 1970-01-01T00:00:00Z to 9700-01-01T00:00:00Z"
	refused := func(body, want string) {
		t.Helper()
		before := s.Now()
		r := call(t, s, http.MethodPost, "/_mock/clock", body)
		if diff := cmp.Diff(failure{"FAILED", want}, decode[failure](t, r)); diff != "" || r.Status != http.StatusBadRequest {
			t.Errorf("%s: status %d (-want +got):\n%s", body, r.Status, diff)
		}
		if !s.Now().Equal(before) {
			t.Errorf("%s moved the clock from %v to %v", body, before, s.Now())
		}
	}
	refused(`{"set": "9999-12-31T23:59:59Z"}`, "the clock cannot be set to 9999-12-31T23:59:59Z: "+rng+"; pick a time within it, such as 2026-01-15T12:00:00Z")
	refused(`{"set": "0001-01-01T00:00:00Z"}`, "the clock cannot be set to 0001-01-01T00:00:00Z: "+rng+"; pick a time within it, such as 2026-01-15T12:00:00Z")
	refused(`{"set": "1969-12-31T23:59:59.999Z"}`, "the clock cannot be set to 1969-12-31T23:59:59.999Z: "+rng+"; pick a time within it, such as 2026-01-15T12:00:00Z")
	refused(`{"set": "1970-01-01T00:30:00+01:00"}`, "the clock cannot be set to 1970-01-01T00:30:00+01:00: "+rng+"; pick a time within it, such as 2026-01-15T12:00:00Z")
	refused(`{"set": "9700-01-01T00:00:00.000000001Z"}`, "the clock cannot be set to 9700-01-01T00:00:00.000000001Z: "+rng+"; pick a time within it, such as 2026-01-15T12:00:00Z")

	// The ends are in the range.
	for _, end := range []string{minClockText, maxClockText} {
		r := call(t, s, http.MethodPost, "/_mock/clock", `{"set": "`+end+`"}`)
		if got := decode[clockAnswer](t, r); r.Status != http.StatusOK || got.Now.Format(time.RFC3339) != end {
			t.Fatalf("set %s: %d %s", end, r.Status, r.Body)
		}
	}
	// At maxClockText nothing goes further forward, not even a nanosecond.
	refused(`{"advance": "1ns"}`, "advance 1ns would take the clock from 9700-01-01T00:00:00Z to 9700-01-01T00:00:00.000000001Z, past 9700-01-01T00:00:00Z: "+
		rng+"; advance by at most 0s, or set the clock back first")
	refused(`{"advance": "48h"}`, "advance 48h0m0s would take the clock from 9700-01-01T00:00:00Z to 9700-01-03T00:00:00Z, past 9700-01-01T00:00:00Z: "+
		rng+"; advance by at most 0s, or set the clock back first")

	// A job submitted at maxClockText expires 292 years later, and everything
	// that writes a time still answers.
	id := submit(t, s, map[string]any{"query": "cars"})
	for _, path := range []string{"/_mock/clock", "/_mock/journal", "/_mock/jobs", "/_mock/jobs/" + id, "/_mock/health"} {
		if r := call(t, s, http.MethodGet, path, ""); r.Status != http.StatusOK {
			t.Errorf("GET %s at maxClockText: %d %s", path, r.Status, r.Body)
		}
	}
	if j := s.Jobs(); len(j) != 1 || j[0].Expires.Year() != 9992 {
		t.Errorf("jobs at maxClockText with the longest TTL: %+v, want one expiring in 9992", j)
	}
	if r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": id}); r.Status != http.StatusOK {
		t.Errorf("get-results at maxClockText: %d %s", r.Status, r.Body)
	}

	// An advance that stays in the range goes through.
	if _, err := s.SetClock(maxClock.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if r := call(t, s, http.MethodPost, "/_mock/clock", `{"advance": "1h"}`); r.Status != http.StatusOK {
		t.Fatalf("advance to maxClockText exactly: %d %s", r.Status, r.Body)
	}

	// The Go API: the same refusals, as errors.
	if _, err := s.SetClock(time.Time{}); err == nil ||
		err.Error() != "mockserver: the clock cannot be set to 0001-01-01T00:00:00Z: "+rng+"; pick a time within it, such as 2026-01-15T12:00:00Z" {
		t.Errorf("SetClock(zero time): %v", err)
	}
	if _, err := s.SetClock(maxClock.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.advanceClock(2 * time.Hour); err == nil ||
		err.Error() != "mockserver: advance 2h0m0s would take the clock from 9699-12-31T23:00:00Z to 9700-01-01T01:00:00Z, past 9700-01-01T00:00:00Z: "+
			rng+"; advance by at most 1h0m0s, or set the clock back first" {
		t.Errorf("advancing past maxClockText: %v", err)
	}
	if !s.Now().Equal(maxClock.Add(-time.Hour)) {
		t.Errorf("a refused advance moved the clock to %v", s.Now())
	}
}

// TestClockRangeAtStart: New refuses a manual clock that starts out of the
// range, a WithClock clock that reads out of it, and a start farther from
// the corpus than the date shift reaches (unless the dates are not
// shifted).
func TestClockRangeAtStart(t *testing.T) {
	t.Parallel()
	const rng = "the server clock runs from 1970-01-01T00:00:00Z to 9700-01-01T00:00:00Z"
	far := time.Date(2400, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		opts []Option
		want string
	}{
		{"manual before", []Option{WithManualClock(time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC))},
			"mockserver: WithManualClock(1969-12-31T00:00:00Z): the start is out of range: " + rng + "; pass a time within it, or the zero time for now"},
		{"manual after", []Option{WithManualClock(time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC))},
			"mockserver: WithManualClock(9999-12-31T23:59:59Z): the start is out of range: " + rng + "; pass a time within it, or the zero time for now"},
		{"clock after", []Option{WithClock(func() time.Time { return time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC) })},
			"mockserver: the server clock reads 9999-12-31T00:00:00Z at start, out of range: " + rng + "; give WithClock a clock within it"},
		{"clock after, no shift", []Option{WithoutDateShift(), WithClock(func() time.Time { return time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC) })},
			"mockserver: the server clock reads 9999-12-31T00:00:00Z at start, out of range: " + rng + "; give WithClock a clock within it"},
		{"shift too far", []Option{WithManualClock(far)},
			"mockserver: the server clock reads 2400-01-01T00:00:00Z at start, more than 292 years from the corpus's newest article (" +
				DefaultCorpus().Newest().Format(time.RFC3339) + "), farther than the date shift reaches: start the clock between 1970-01-01T00:00:00Z and " +
				DefaultCorpus().Newest().Add(math.MaxInt64).Format(time.RFC3339) + ", or serve the dates as stored (WithoutDateShift; newsmock -no-date-shift)"},
	} {
		_, err := Start(append([]Option{WithoutListener()}, tt.opts...)...)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: Start error\n%v\nwant\n%s", tt.name, err, tt.want)
		}
	}
	// Without the shift, a start far from the corpus is fine.
	s := start(t, WithoutDateShift(), WithManualClock(far))
	if !s.Now().Equal(far) || s.DateShift() != 0 {
		t.Errorf("now %v, shift %v", s.Now(), s.DateShift())
	}
	// The ends are accepted.
	for _, end := range []time.Time{minClock, maxClock} {
		start(t, WithoutDateShift(), WithManualClock(end))
	}
}

// TestManualClockDrivesTheServer: pending durations, TTL expiry, rate-limit
// buckets, the headline window and journal times follow the manual clock.
func TestManualClockDrivesTheServer(t *testing.T) {
	t.Parallel()
	s := start(t, WithManualClock(t0), WithPendingPolls(0), WithPendingDuration(10*time.Minute), WithRateLimit(1, 1))
	advance := func(d time.Duration) {
		t.Helper()
		if r := call(t, s, http.MethodPost, "/_mock/clock", fmt.Sprintf(`{"advance": %q}`, d.String())); r.Status != http.StatusOK {
			t.Fatalf("advance %v: %d %s", d, r.Status, r.Body)
		}
	}
	id := submit(t, s, map[string]any{"query": "cars"})
	if r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": id}); r.Status != http.StatusTooManyRequests {
		t.Fatalf("second request within the same second: %d, want 429", r.Status)
	}
	advance(time.Second)
	if res := decode[resultsReply](t, post(t, s, "/api/v2/get-results", map[string]any{"query_id": id})); res.State != "PENDING" {
		t.Fatalf("after 1 s: %+v", res.State)
	}
	advance(10 * time.Minute)
	if res := decode[resultsReply](t, post(t, s, "/api/v2/get-results", map[string]any{"query_id": id})); res.State != "SUCCESS" {
		t.Fatalf("after the pending duration: %+v", res.State)
	}
	advance(2 * time.Hour) // past the TTL
	if r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": id}); r.Status != http.StatusNotFound {
		t.Fatalf("after the TTL: %d %s", r.Status, r.Body)
	}
	type headlines struct {
		Headlines []headlineCluster `json:"headlines"`
	}
	advance(time.Second)
	if got := decode[headlines](t, post(t, s, "/api/v2/headlines", nil)); len(got.Headlines) == 0 {
		t.Fatal("no headlines 2 hours after start")
	}
	advance(HeadlineWindow + time.Hour) // the newest article left the window
	if got := decode[headlines](t, post(t, s, "/api/v2/headlines", nil)); len(got.Headlines) != 0 {
		t.Fatalf("%d headline clusters once the window holds no article", len(got.Headlines))
	}
	j := s.Journal()
	if last := j[len(j)-1]; !last.Time.Equal(t0.Add(time.Second + 10*time.Minute + 2*time.Hour + time.Second + HeadlineWindow + time.Hour)) {
		t.Fatalf("journal time %v does not follow the clock", last.Time)
	}
}

func TestWithManualClockZeroStartsNow(t *testing.T) {
	t.Parallel()
	before := time.Now()
	s := New(WithoutListener(), WithManualClock(time.Time{}))
	defer s.Close()
	if now := s.Now(); now.Before(before) || now.After(time.Now()) || !(s.manual() != nil) {
		t.Fatalf("Now() = %v, want the time New ran", now)
	}
	time.Sleep(2 * time.Millisecond)
	if now2 := s.Now(); !now2.Equal(s.Now()) {
		t.Fatal("a manual clock moved by itself")
	}
}

// journalAnswer is the body of GET /_mock/journal.
type journalAnswer struct {
	State   string         `json:"state"`
	Entries []JournalEntry `json:"entries"`
}

func TestControlJournalQueries(t *testing.T) {
	t.Parallel()
	s := start(t)
	id := submit(t, s, map[string]any{"query": "cars"})                                  // 1
	post(t, s, "/api/v2/get-results", map[string]any{"query_id": id})                    // 2
	post(t, s, "/api/v2/query", map[string]any{"query": "x"}, FaultHeader, "status=503") // 3
	post(t, s, "/api/v2/get-results", map[string]any{"query_id": id})                    // 4
	submit(t, s, map[string]any{"query": "bank"})                                        // 5
	seqs := func(q string) []uint64 {
		t.Helper()
		r := call(t, s, http.MethodGet, "/_mock/journal"+q, "")
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", q, r.Status, r.Body)
		}
		var out []uint64
		for _, e := range decode[journalAnswer](t, r).Entries {
			out = append(out, e.Seq)
		}
		return out
	}
	for _, tt := range []struct {
		q    string
		want []uint64
	}{
		{"", []uint64{1, 2, 3, 4, 5}},
		{"?path=query-async", []uint64{1, 5}},
		{"?path=/api/v2/get-results", []uint64{2, 4}},
		{"?status=503", []uint64{3}},
		{"?since=2", []uint64{3, 4, 5}},
		{"?since=2&limit=2", []uint64{3, 4}},
		{"?path=get-results&since=2", []uint64{4}},
		{"?since=5", nil},
		{"?limit=0", []uint64{1, 2, 3, 4, 5}},
		// A whole number too large for 64 bits is above every seq, status
		// and count, not an error.
		{"?since=99999999999999999999", nil},
		{"?limit=99999999999999999999", []uint64{1, 2, 3, 4, 5}},
		{"?status=99999999999999999999", nil},
	} {
		if diff := cmp.Diff(tt.want, seqs(tt.q)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.q, diff)
		}
	}
	for _, tt := range []struct {
		q    string
		want int
	}{{"?count", 5}, {"?count=true&path=query-async", 2}, {"?count=1&status=200&since=1", 3}, {"?count=false&since=4", -1}} {
		r := call(t, s, http.MethodGet, "/_mock/journal"+tt.q, "")
		if tt.want < 0 {
			if got := decode[journalAnswer](t, r); len(got.Entries) != 1 {
				t.Errorf("%s: %s", tt.q, r.Body)
			}
			continue
		}
		if string(r.Body) != fmt.Sprintf(`{"state":"SUCCESS","count":%d,"dropped":0}`, tt.want) {
			t.Errorf("%s: %d %s, want count %d", tt.q, r.Status, r.Body, tt.want)
		}
	}
	if got := s.Journal(JournalQuery{Path: EndpointQueryAsync, Since: 1}); len(got) != 1 || got[0].Seq != 5 {
		t.Fatalf("Journal(q): %+v", got)
	}
	for _, tt := range []struct{ q, want string }{
		{"?status=abc", `status="abc" is not a whole number from 0: write e.g. status=2`},
		{"?since=-1", `since="-1" is not a whole number from 0: write e.g. since=2`},
		{"?since=-99999999999999999999", `since="-99999999999999999999" is not a whole number from 0: write e.g. since=2`},
		{"?limit=1.5", `limit="1.5" is not a whole number from 0: write e.g. limit=2`},
		{"?limit=x", `limit="x" is not a whole number from 0: write e.g. limit=2`},
		{"?count=maybe", `count="maybe" is not a boolean: write count=true, or leave it out for the entries`},
		{"?path=search", `path="search" is not an endpoint: use a path such as /api/v2/query-async or a name: query, query-async, get-results or headlines`},
		{"?paht=query", `unknown parameter "paht": GET /_mock/journal takes path, status, since, limit, count, body.<member>, wait and min`},
		{"?since=1&since=2", `the parameter "since" is given 2 times: give it once`},
	} {
		r := call(t, s, http.MethodGet, "/_mock/journal"+tt.q, "")
		if diff := cmp.Diff(failure{"FAILED", tt.want}, decode[failure](t, r)); diff != "" || r.Status != http.StatusBadRequest {
			t.Errorf("%s: status %d (-want +got):\n%s", tt.q, r.Status, diff)
		}
	}
}

// TestResetRestoresStartupState: POST /_mock/reset puts back the start-up
// fault rules and the manual clock's start, and forgets jobs.
func TestResetRestoresStartupState(t *testing.T) {
	t.Parallel()
	s := start(t, WithManualClock(t0), WithFaults(FaultRule{Endpoint: EndpointHeadlines, Times: 1, Fault: Fault{Status: 502}}))
	post(t, s, "/api/v2/headlines", nil)
	submit(t, s, map[string]any{"query": "cars"})
	if r := call(t, s, http.MethodPut, "/_mock/faults", `["status=500"]`); r.Status != http.StatusOK {
		t.Fatal(string(r.Body))
	}
	if _, err := s.advanceClock(time.Hour); err != nil {
		t.Fatal(err)
	}
	if r := call(t, s, http.MethodPost, "/_mock/reset", ""); r.Status != http.StatusOK || string(r.Body) != `{"state":"SUCCESS"}` {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	got := s.Faults()
	if len(got) != 1 || got[0].String() != "endpoint=headlines;times=1;status=502" || got[0].Matched != 0 || got[0].Remaining != 1 {
		t.Fatalf("faults after reset: %+v", got)
	}
	if !s.Now().Equal(t0) || len(s.Jobs()) != 0 || len(s.Journal()) != 0 {
		t.Fatalf("after reset: now %v, %d jobs, %d journal entries", s.Now(), len(s.Jobs()), len(s.Journal()))
	}
	if diff := cmp.Diff([]int{502, 200}, statuses(t, s, "/api/v2/headlines", 2)); diff != "" {
		t.Fatalf("start-up rule fires again (-want +got):\n%s", diff)
	}
}

// TestControlDuringLoad: control calls while API requests run lose no
// journal entry and race with nothing (run under -race).
func TestControlDuringLoad(t *testing.T) {
	t.Parallel()
	s := start(t, WithManualClock(t0), WithJournalSize(10_000))
	const workers, perWorker = 4, 50
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range perWorker {
				r, err := tryCall(s, http.MethodPost, "/api/v2/query-async", `{"api_key":"k","query":"cars"}`)
				if err != nil || r.Status == 0 {
					t.Errorf("query-async: %v", err)
				}
			}
		})
	}
	stop := make(chan struct{})
	control := sync.WaitGroup{}
	control.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, c := range []struct{ method, path, body string }{
				{http.MethodPost, "/_mock/faults", `{"endpoint": "query-async", "every": 7, "fault": {"latency": "1ms"}}`},
				{http.MethodGet, "/_mock/faults", ""},
				{http.MethodGet, "/_mock/jobs", ""},
				{http.MethodGet, "/_mock/journal?count", ""},
				{http.MethodPost, "/_mock/clock", `{"advance": "1s"}`},
				{http.MethodDelete, "/_mock/faults", ""},
			} {
				if r, err := tryCall(s, c.method, c.path, c.body); err != nil || r.Status != http.StatusOK {
					t.Errorf("%s %s: %v %d %s", c.method, c.path, err, r.Status, r.Body)
				}
			}
			for _, j := range s.Jobs() {
				_, _ = s.ForceJob(j.QueryID, JobFailed, "load")
			}
		}
	})
	wg.Wait()
	close(stop)
	control.Wait()
	j := s.Journal()
	if len(j) != workers*perWorker {
		t.Fatalf("journal holds %d entries, want %d", len(j), workers*perWorker)
	}
	for i, e := range j {
		if e.Seq != uint64(i+1) {
			t.Fatalf("entry %d has Seq %d: the journal lost or misordered an entry", i, e.Seq)
		}
	}
}
