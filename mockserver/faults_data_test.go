package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// pageOf posts a query for page of q with headers and returns the reply.
func pageOf(t *testing.T, s *Server, q map[string]any, page int, headers ...string) reply {
	t.Helper()
	v := map[string]any{"page": page}
	for k, x := range q {
		v[k] = x
	}
	r := post(t, s, "/api/v2/query", v, headers...)
	if r.Status != http.StatusOK {
		t.Fatalf("query %v page %d: %d %s", q, page, r.Status, r.Body)
	}
	return r
}

func TestFaultWindow(t *testing.T) {
	t.Parallel()
	s := start(t)
	day := time.Date(2025, 12, 20, 0, 0, 0, 0, time.UTC)
	from, to := day.Add(13*time.Hour), day.Add(13*time.Hour+20*time.Minute)
	q := map[string]any{"query": "*", "start_date": from.Format(time.RFC3339), "end_date": to.Format(time.RFC3339)}
	dates := func(r reply) (total int, out []time.Time) {
		res := decode[queryReply](t, r)
		for _, a := range res.Results.Articles {
			d, err := time.Parse(http.TimeFormat, a.DatePublished)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, d)
		}
		return res.Results.TotalResults, out
	}
	plain, _ := dates(pageOf(t, s, q, 1))
	for _, tc := range []struct {
		item     string
		lo, hi   time.Time
		outsides bool // some articles lie outside [from, to]
	}{
		{"window=day", day, day.Add(24 * time.Hour), true},
		{"window=90m", from.Add(-90 * time.Minute), to.Add(90 * time.Minute), true},
	} {
		total, got := dates(pageOf(t, s, q, 1, FaultHeader, tc.item))
		if total <= plain {
			t.Errorf("%s: %d results, not more than the %d within the bounds", tc.item, total, plain)
		}
		outside := 0
		for _, d := range got {
			if d.Before(tc.lo) || !d.Before(tc.hi) {
				t.Errorf("%s: article of %v outside [%v, %v)", tc.item, d, tc.lo, tc.hi)
			}
			if d.Before(from) || d.After(to) {
				outside++
			}
		}
		if outside == 0 {
			t.Errorf("%s: no article outside the bounds asked for", tc.item)
		}
	}
	// On query-async, the job's search is widened.
	id := submit(t, s, q, FaultHeader, "window=day")
	if res := results(t, s, id, 1); res.TotalResults <= plain {
		t.Errorf("query-async with window=day: %d results, not more than %d", res.TotalResults, plain)
	}
	// A rule for query-async changes the job, not get-results.
	if err := s.SetFaults(FaultRule{Endpoint: EndpointQueryAsync, Fault: Fault{WindowDay: true}}); err != nil {
		t.Fatal(err)
	}
	id = submit(t, s, q)
	if res := results(t, s, id, 1); res.TotalResults <= plain {
		t.Errorf("rule window=day: %d results, not more than %d", res.TotalResults, plain)
	}
	if got := s.Faults()[0]; got.Matched != 1 || got.Fired != 1 {
		t.Errorf("the rule matched %d and fired %d times, want 1 and 1 (get-results is not a search)", got.Matched, got.Fired)
	}
}

func TestFaultEmptyPage(t *testing.T) {
	t.Parallel()
	s := start(t)
	q := map[string]any{"query": "*"}
	page1, page2 := pageOf(t, s, q, 1), pageOf(t, s, q, 2)
	if got := pageOf(t, s, q, 1, FaultHeader, "empty-page=2"); !bytes.Equal(got.Body, page1.Body) {
		t.Error("empty-page=2 changed page 1")
	}
	empty := decode[queryReply](t, pageOf(t, s, q, 2, FaultHeader, "empty-page=2"))
	if want := decode[queryReply](t, page2).Results.TotalResults; len(empty.Results.Articles) != 0 || empty.Results.TotalResults != want {
		t.Errorf("empty-page=2: %d articles of %d, want 0 of %d", len(empty.Results.Articles), empty.Results.TotalResults, want)
	}
	// As a rule: page 1 does not count, page 2 is emptied once.
	if err := s.SetFaults(FaultRule{Endpoint: EndpointQuery, Times: 1, Fault: Fault{EmptyPage: 2}}); err != nil {
		t.Fatal(err)
	}
	pageOf(t, s, q, 1)
	if n := len(decode[queryReply](t, pageOf(t, s, q, 2)).Results.Articles); n != 0 {
		t.Errorf("rule empty-page=2: page 2 has %d articles", n)
	}
	if got := pageOf(t, s, q, 2); !bytes.Equal(got.Body, page2.Body) {
		t.Error("rule empty-page=2 with times=1 emptied page 2 twice")
	}
	if got := s.Faults()[0]; got.Matched != 2 || got.Fired != 1 {
		t.Errorf("the rule matched %d and fired %d times, want 2 and 1", got.Matched, got.Fired)
	}
	// get-results too.
	id := submit(t, s, q)
	if res := results(t, s, id, 3); len(res.Articles) == 0 {
		t.Fatal("page 3 of * is empty")
	}
	r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": id, "page": 3}, FaultHeader, "empty-page=3")
	if res := decode[resultsReply](t, r); len(res.Articles) != 0 || res.TotalResults == 0 {
		t.Errorf("get-results empty-page=3: %d articles of %d", len(res.Articles), res.TotalResults)
	}
}

func TestFaultOverlap(t *testing.T) {
	t.Parallel()
	s := start(t)
	q := map[string]any{"query": "election"}
	var plain [][]string
	for p := 1; p <= 3; p++ {
		plain = append(plain, ids(decode[queryReply](t, pageOf(t, s, q, p)).Results.Articles))
	}
	for _, k := range []int{1, 3, 25} {
		item := fmt.Sprintf("overlap=%d", k)
		if got := ids(decode[queryReply](t, pageOf(t, s, q, 1, FaultHeader, item)).Results.Articles); !slices.Equal(got, plain[0]) {
			t.Errorf("%s changed page 1", item)
		}
		for p := 2; p <= 3; p++ {
			got := ids(decode[queryReply](t, pageOf(t, s, q, p, FaultHeader, item)).Results.Articles)
			want := append(slices.Clone(plain[p-2][len(plain[p-2])-k:]), plain[p-1]...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s page %d (-want +got):\n%s", item, p, diff)
			}
		}
	}
	id := submit(t, s, q)
	results(t, s, id, 1)
	r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": id, "page": 2}, FaultHeader, "overlap=2")
	if got := ids(decode[resultsReply](t, r).Articles); !slices.Equal(got[:2], plain[0][23:]) || !slices.Equal(got[2:], plain[1]) {
		t.Errorf("get-results overlap=2: %v", got)
	}
}

func TestFaultArrivals(t *testing.T) {
	t.Parallel()
	run := func() (bodies [][]byte, s *Server) {
		s = start(t, WithSeed(7))
		q := map[string]any{"query": "storm warning", "language": "en"}
		bodies = append(bodies, pageOf(t, s, q, 1).Body)
		bodies = append(bodies, pageOf(t, s, q, 1, FaultHeader, "arrivals=3").Body)
		bodies = append(bodies, pageOf(t, s, q, 1).Body)
		return bodies, s
	}
	a, s := run()
	b, _ := run()
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
	before, during, after := decode[queryReply](t, reply{Body: a[0]}), decode[queryReply](t, reply{Body: a[1]}), decode[queryReply](t, reply{Body: a[2]})
	if during.Results.TotalResults != before.Results.TotalResults+3 || after.Results.TotalResults != during.Results.TotalResults {
		t.Errorf("totals %d, %d with arrivals=3, %d after: want +3 and kept", before.Results.TotalResults, during.Results.TotalResults, after.Results.TotalResults)
	}
	arrived := 0
	for _, art := range during.Results.Articles {
		if strings.Contains(art.URL, "/arrivals/") {
			arrived++
			if art.DatePublished != t0.Format(http.TimeFormat) || art.Language != "en" {
				t.Errorf("arrival %+v: want dated %v, in English", art, t0)
			}
		}
	}
	if arrived != 3 {
		t.Errorf("%d arrivals on page 1 of the newest first, want 3", arrived)
	}
	s.Reset()
	if got := decode[queryReply](t, pageOf(t, s, map[string]any{"query": "storm warning", "language": "en"}, 1)); got.Results.TotalResults != before.Results.TotalResults {
		t.Errorf("after Reset: %d results, want %d", got.Results.TotalResults, before.Results.TotalResults)
	}
	// A rule adds them on query only; a world holds at most maxArrived.
	if err := s.SetFaults(FaultRule{Fault: Fault{Arrivals: 100}}); err != nil {
		t.Fatal(err)
	}
	post(t, s, "/api/v2/query-async", map[string]any{"query": "storm"})
	for range maxArrived/100 + 1 {
		pageOf(t, s, map[string]any{"query": "storm"}, 1)
	}
	if c := s.counts(); c.Added != maxArrived {
		t.Errorf("%d articles added, want the most, %d", c.Added, maxArrived)
	}
	j := s.Journal()
	if last := j[len(j)-1].Fault; !strings.Contains(last, "no arrivals: the world holds the most, 1000") {
		t.Errorf("journal: %q", last)
	}
	if got := s.Faults()[0].Matched; got != maxArrived/100+1 {
		t.Errorf("the rule matched %d requests, want only the queries", got)
	}
}

func TestFaultDataItemsBadValues(t *testing.T) {
	t.Parallel()
	s := start(t)
	for item, want := range map[string]string{
		"window=fortnight":  "window=day or window=5s",
		"window=-1s":        "e.g. window=5s",
		"empty-page=0":      "empty-page=2",
		"empty-page=two":    "empty-page=2",
		"overlap=26":        "overlap=2",
		"arrivals=1000":     "arrivals=2",
		"latency=2s..1s":    "latency=100ms..2s",
		"latency=1s..later": "latency=100ms..2s",
		"dribble=slowly":    "dribble=2s",
		"windows=day":       "window=day|<duration>, empty-page=<page>, overlap=<articles>, arrivals=<articles>",
	} {
		r := post(t, s, "/api/v2/query", map[string]any{"query": "*"}, FaultHeader, item)
		msg := decode[failure](t, r).Message
		if r.Status != http.StatusBadRequest || !strings.Contains(msg, want) {
			t.Errorf("%s: %d %q, want 400 with %q", item, r.Status, msg, want)
		}
		if _, err := ParseFaultRule("endpoint=query;" + item); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("rule %s: %v, want %q", item, err, want)
		}
	}
}

func TestFaultDataItemsRoundTrip(t *testing.T) {
	t.Parallel()
	s := start(t)
	rules := []string{
		"endpoint=query;window=day;empty-page=3;overlap=2;arrivals=4",
		"endpoint=query-async;window=1h30m0s",
		"latency=100ms..2s;dribble=1s",
	}
	body := `{"rules": [{"endpoint": "query", "fault": {"window": "day", "empty_page": 3, "overlap": 2, "arrivals": 4}}, ` +
		`{"endpoint": "query-async", "fault": {"window": "90m"}}, {"fault": {"latency": "100ms..2s", "dribble": "1s"}}]}`
	r := call(t, s, http.MethodPut, "/_mock/faults", body)
	if r.Status != http.StatusOK {
		t.Fatalf("PUT: %d %s", r.Status, r.Body)
	}
	var texts []string
	for i, f := range s.Faults() {
		texts = append(texts, f.FaultRule.String())
		back, err := ParseFaultRule(f.FaultRule.String())
		if err != nil || !cmp.Equal(back, f.FaultRule) {
			t.Errorf("rule %d: %+v back as %+v, %v", i, f.FaultRule, back, err)
		}
	}
	if diff := cmp.Diff(rules, texts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The listing sent back sets the same rules.
	listing := call(t, s, http.MethodGet, "/_mock/faults", "")
	var l struct{ Rules []map[string]any }
	if err := json.Unmarshal(listing.Body, &l); err != nil {
		t.Fatal(err)
	}
	b, _ := jsonMarshal(l.Rules)
	if r := call(t, s, http.MethodPut, "/_mock/faults", string(b)); r.Status != http.StatusOK {
		t.Fatalf("PUT the listing: %d %s", r.Status, r.Body)
	}
	if again := call(t, s, http.MethodGet, "/_mock/faults", ""); !bytes.Equal(again.Body, listing.Body) {
		t.Errorf("listing sent back:\n%s\nwas:\n%s", again.Body, listing.Body)
	}
	if r := call(t, s, http.MethodPut, "/_mock/faults", `[{"fault": {"overlap": "lots"}}]`); r.Status != http.StatusBadRequest ||
		!strings.Contains(string(r.Body), "overlap=2") {
		t.Errorf("bad overlap: %d %s", r.Status, r.Body)
	}
}

func TestFaultLatencyRange(t *testing.T) {
	t.Parallel()
	drawn := func() []string {
		s := start(t, WithSeed(3), WithFaults(FaultRule{Endpoint: EndpointQuery, Fault: Fault{Latency: time.Millisecond, LatencyMax: 9 * time.Millisecond}}))
		for range 6 {
			post(t, s, "/api/v2/query", map[string]any{"query": "*"})
		}
		post(t, s, "/api/v2/headlines", nil, FaultHeader, "latency=1ms..9ms")
		var out []string
		for _, e := range s.Journal() {
			out = append(out, e.Fault)
		}
		return out
	}
	a, b := drawn(), drawn()
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("two runs with the same seed drew differently (-first +second):\n%s", diff)
	}
	seen := map[time.Duration]bool{}
	for i, f := range a {
		prefix := "rule 0: latency=1ms..9ms (latency "
		if i == len(a)-1 {
			prefix = "header: latency=1ms..9ms (latency "
		}
		d, err := time.ParseDuration(strings.TrimSuffix(strings.TrimPrefix(f, prefix), ")"))
		if !strings.HasPrefix(f, prefix) || err != nil || d < time.Millisecond || d > 9*time.Millisecond {
			t.Errorf("request %d: fault %q, want %q and a latency from 1ms to 9ms", i, f, prefix)
		}
		seen[d] = true
	}
	if len(seen) < 2 {
		t.Errorf("every request drew the same latency: %v", a)
	}
}

func TestFaultDribble(t *testing.T) {
	t.Parallel()
	s := startSocket(t)
	send := func(header string) (body []byte, headersIn, bodyIn time.Duration) {
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v2/query", strings.NewReader(`{"api_key":"k","query":"*"}`))
		if header != "" {
			req.Header.Set(FaultHeader, header)
		}
		began := time.Now()
		resp, err := s.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		headersIn = time.Since(began)
		body, err = io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d, %v", header, resp.StatusCode, err)
		}
		return body, headersIn, time.Since(began) - headersIn
	}
	plain, _, _ := send("")
	got, _, bodyIn := send("dribble=500ms")
	if !bytes.Equal(got, plain) {
		t.Error("the dribbled body differs from the plain one")
	}
	// The pieces wait 50 ms each after the headers (no upper bound: a
	// slow machine only takes longer).
	if bodyIn < 450*time.Millisecond {
		t.Errorf("the body came %v after the headers, want at least 450ms", bodyIn)
	}
	// With truncate, half the body dribbles, then the connection is cut.
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v2/query", strings.NewReader(`{"api_key":"k","query":"*"}`))
	req.Header.Set(FaultHeader, "dribble=100ms;truncate")
	resp, err := s.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, err := io.ReadAll(resp.Body); err == nil || len(b) != len(plain)/2 {
		t.Errorf("dribble with truncate: %d bytes of %d, %v", len(b), len(plain), err)
	}
}

// TestFaultMessyItemsSameBytes: two servers of the same seed answer every
// data and timing item, in the same order, with the same bytes and journal.
func TestFaultMessyItemsSameBytes(t *testing.T) {
	t.Parallel()
	bounds := map[string]any{"query": "*", "start_date": "2026-01-10T13:00:00Z", "end_date": "2026-01-10T13:20:00Z"}
	run := func() (out []string) {
		s := start(t, WithSeed(11))
		for _, item := range []string{"window=day", "window=90m", "empty-page=2", "overlap=3", "arrivals=2", "latency=1ms..9ms", "dribble=20ms"} {
			for page := 1; page <= 2; page++ {
				out = append(out, string(pageOf(t, s, bounds, page, FaultHeader, item).Body), string(pageOf(t, s, map[string]any{"query": "storm"}, page, FaultHeader, item).Body))
			}
		}
		for _, e := range s.Journal() {
			out = append(out, fmt.Sprint(e.Seq, e.RequestID, e.Status, e.Fault))
		}
		return out
	}
	if diff := cmp.Diff(run(), run()); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
}
