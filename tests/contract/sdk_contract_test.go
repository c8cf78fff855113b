package contract_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// contractNow is the mock clock of every contract test: fixed, so that the
// date shift, the headline window and the answers are the same on every run.
var contractNow = time.Date(2025, time.March, 10, 12, 0, 0, 0, time.UTC)

// newMock starts a socket-less mock server on the fixed clock.
func newMock(t *testing.T, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	base := []mockserver.Option{
		mockserver.WithoutListener(),
		mockserver.WithSeed(7),
		mockserver.WithClock(func() time.Time { return contractNow }),
	}
	srv, err := mockserver.Start(append(base, opts...)...)
	if err != nil {
		t.Fatalf("mockserver.Start: %v", err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// sdkClient returns an SDK client for srv whose traffic goes through chk
// and that never retries, so every answer reaches the caller.
func sdkClient(srv *mockserver.Server, chk *checker) *newssearch.Client {
	return srv.Client(newssearch.WithHTTPClient(&http.Client{Transport: chk}), newssearch.WithMaxRetries(0))
}

// paramFields returns the settable fields of a params struct, with the
// fields of an embedded struct promoted (AsyncSearchParams holds
// SearchParams).
func paramFields(typ reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(typ) {
		if f.IsExported() && !f.Anonymous {
			out = append(out, f)
		}
	}
	return out
}

// paramValues returns, for every field of SearchParams and
// AsyncSearchParams, the values the request table sets it to. sites are
// domains of the corpus. Languages are every Language constant of the SDK
// plus an English name.
func paramValues(t *testing.T, sites []string) map[string][]any {
	week := 7 * 24 * time.Hour
	paris := time.FixedZone("UTC+1", 3600)
	var langs []any
	for _, v := range sdkConstants(t)["Language"] {
		langs = append(langs, newssearch.Language(v))
	}
	langs = append(langs, newssearch.Language("English"))
	return map[string][]any{
		"Query":       {"million", "Takeover Deal"},
		"Page":        {1, 2, 400},
		"Sites":       {sites[:1], sites},
		"StartDate":   {contractNow.Add(-week), contractNow.Add(-week).In(paris).Add(123456789 * time.Nanosecond)},
		"EndDate":     {contractNow, contractNow.In(paris).Add(-time.Nanosecond)},
		"ToggleState": {newssearch.ToggleAllArticles, newssearch.ToggleEncodedArticles},
		"Embeddings":  {true},
		"Language":    langs,
		"TrafficRank": {1, 95, 100},
		"KeyPhrases":  {"('million' or 'deal') and not 'takeover'", "('takeover')"},
		"SortOrder":   {newssearch.SortRelevance, newssearch.SortDatePublished},
	}
}

// paramCase is one call of the request table.
type paramCase struct {
	name   string
	params reflect.Value // a SearchParams or AsyncSearchParams
	// valid is false for parameters the SDK sends but the service rejects
	// (an empty query): the document must reject the request and the mock
	// answer 400.
	valid bool
}

// paramCases builds the table for a params type: the base call (only a
// query), then every field at its zero value, as an empty slice where it
// is a slice, and at each of its values, then every field set at once.
func paramCases(t *testing.T, typ reflect.Type, values map[string][]any) []paramCase {
	t.Helper()
	base := reflect.New(typ).Elem()
	base.FieldByName("Query").SetString("million")
	cases := []paramCase{{name: "base", params: base, valid: true}}
	with := func(name string, f reflect.StructField, v reflect.Value, valid bool) {
		p := reflect.New(typ).Elem()
		p.Set(base)
		p.FieldByIndex(f.Index).Set(v)
		cases = append(cases, paramCase{name: name, params: p, valid: valid})
	}
	all := reflect.New(typ).Elem()
	all.Set(base)
	for _, f := range paramFields(typ) {
		vals, ok := values[f.Name]
		if !ok {
			t.Fatalf("%s.%s has no values in the request table: add values for it to paramValues in tests/contract/sdk_contract_test.go "+
				"and document its wire field in openapi.yaml", typ.Name(), f.Name)
		}
		// A blank Query never leaves the SDK (a *ValidationError before any
		// request, tested in the root package), so it has no wire case.
		if f.Name != "Query" {
			with(f.Name+"=zero", f, reflect.Zero(f.Type), true)
		}
		if f.Type.Kind() == reflect.Slice {
			with(f.Name+"=empty", f, reflect.MakeSlice(f.Type, 0, 0), true)
		}
		for i, v := range vals {
			rv := reflect.ValueOf(v)
			if !rv.Type().AssignableTo(f.Type) {
				t.Fatalf("paramValues[%q][%d] is a %s, not a %s: fix the table", f.Name, i, rv.Type(), f.Type)
			}
			with(fmt.Sprintf("%s=%v", f.Name, v), f, rv, true)
		}
		if f.Name != "Page" {
			all.FieldByIndex(f.Index).Set(reflect.ValueOf(vals[len(vals)-1]))
		}
	}
	return append(cases, paramCase{name: "every field", params: all, valid: true})
}

// corpusSites returns two site domains that have articles matching the
// base query, read from a first search.
func corpusSites(t *testing.T, client *newssearch.Client) []string {
	t.Helper()
	resp, err := client.Search(context.Background(), newssearch.SearchParams{Query: "million"})
	if err != nil {
		t.Fatalf("Search(million): %v", err)
	}
	var sites []string
	for _, a := range resp.Articles {
		if !slices.Contains(sites, a.Site) {
			sites = append(sites, a.Site)
		}
	}
	if len(sites) < 2 {
		t.Fatalf("the base search found %d sites; the table needs 2: pick a broader base query", len(sites))
	}
	return sites[:2]
}

// testSDKRequests sends the request table through the SDK, validating
// every request and every response, and returns the checker.
func testSDKRequests(t *testing.T, c *contract) *checker {
	srv := newMock(t)
	chk := newChecker(t, c, srv.Transport(), true)
	client := sdkClient(srv, chk)
	ctx := context.Background()
	values := paramValues(t, corpusSites(t, client))
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if _, ok := reflect.TypeFor[newssearch.AsyncSearchParams]().FieldByName(name); !ok {
			t.Errorf("paramValues has %q, which AsyncSearchParams does not have: remove it from the table", name)
		}
	}

	// call runs fn, one SDK call, and checks its outcome against valid. The
	// checker fails invalid requests only when the call is meant to be valid.
	call := func(name string, valid bool, fn func() error) {
		t.Helper()
		chk.strictRequests.Store(valid)
		err := fn()
		chk.strictRequests.Store(true)
		x := chk.last(t)
		if valid {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			return
		}
		if x.reqErrs == nil {
			t.Errorf("%s: openapi.yaml accepts the request %s, which the service must reject", name, redact(x.reqBody))
		}
		if !errors.Is(err, newssearch.ErrBadRequest) || x.status != http.StatusBadRequest {
			t.Errorf("%s: got status %d and error %v, want 400 and an error matching ErrBadRequest", name, x.status, err)
		}
	}

	for _, pc := range paramCases(t, reflect.TypeFor[newssearch.SearchParams](), values) {
		p := pc.params.Interface().(newssearch.SearchParams)
		call("Search "+pc.name, pc.valid, func() error { _, err := client.Search(ctx, p); return err })
	}
	var jobs []string
	for _, pc := range paramCases(t, reflect.TypeFor[newssearch.AsyncSearchParams](), values) {
		p := pc.params.Interface().(newssearch.AsyncSearchParams)
		call("SubmitQuery "+pc.name, pc.valid, func() error {
			job, err := client.SubmitQuery(ctx, p)
			if err == nil && (pc.name == "every field" || pc.name == "base") {
				jobs = append(jobs, job.QueryID)
			}
			return err
		})
	}
	for _, id := range jobs {
		for _, page := range []int{0, 1, 2, 400} {
			call(fmt.Sprintf("GetResults %s page %d", id, page), true, func() error {
				for range 5 {
					res, err := client.GetResults(ctx, id, page)
					if err != nil || !res.State.IsPending() {
						return err
					}
				}
				return fmt.Errorf("job %s still pending after 5 polls", id)
			})
		}
	}
	if _, err := client.GetResults(ctx, "0123456789abcdef0123456789abcdef", 1); !errors.Is(err, newssearch.ErrNotFound) {
		t.Errorf("GetResults(unknown id): got %v, want an error matching ErrNotFound", err)
	}
	call("Headlines", true, func() error { _, err := client.Headlines(ctx); return err })

	// The helpers built on the four calls send the same requests; they run
	// here so that their paging, polling and date windows are checked too.
	fast := &newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: time.Millisecond, Jitter: -1}
	base := newssearch.SearchParams{Query: "million"}
	call("SearchAll", true, func() error { return firstN(client.SearchAll(ctx, base, nil), 60) })
	var asyncID string
	call("SubmitQuery then Poll", true, func() error {
		job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: base, SortOrder: newssearch.SortDatePublished})
		if err != nil {
			return err
		}
		asyncID = job.QueryID
		_, err = client.Poll(ctx, asyncID, fast)
		return err
	})
	call("Poll", true, func() error { _, err := client.Poll(ctx, asyncID, fast); return err })
	call("Results", true, func() error { return firstN(client.Results(ctx, asyncID, fast), 30) })
	call("SearchRange", true, func() error {
		p := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
			Query: "million", StartDate: contractNow.Add(-15 * 24 * time.Hour), EndDate: contractNow,
		}}
		_, err := client.SearchRange(ctx, p, &newssearch.RangeOptions{Concurrency: 2}, fast)
		return err
	})
	call("SearchRangeSeq", true, func() error {
		p := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
			Query: "million", StartDate: contractNow.Add(-15 * 24 * time.Hour), EndDate: contractNow,
		}, SortOrder: newssearch.SortDatePublished}
		return firstN(client.SearchRangeSeq(ctx, p, &newssearch.RangeOptions{Concurrency: 2}, fast), 1000)
	})
	checkCallOptions(t, call, client, chk, asyncID, fast)
	checkRequestMembers(t, c, chk)
	return chk
}

// as returns first, then opts, as the options of a method taking O.
func as[O newssearch.Option](opts []newssearch.CallOption, first ...O) []O {
	for _, o := range opts {
		first = append(first, any(o).(O))
	}
	return first
}

// checkCallOptions makes every method's requests with per-call options: the
// requests still validate, carry the extra header, and WithResponseInto
// reports the validated answer's status, request id and attempts.
func checkCallOptions(t *testing.T, call func(string, bool, func() error), client *newssearch.Client, chk *checker,
	asyncID string, fast *newssearch.PollOptions) {
	t.Helper()
	ctx := context.Background()
	base := newssearch.SearchParams{Query: "million"}
	async := newssearch.AsyncSearchParams{SearchParams: base}
	span := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
		Query: "million", StartDate: contractNow.Add(-10 * 24 * time.Hour), EndDate: contractNow,
	}}
	methods := []struct {
		name string
		fn   func(opts ...newssearch.CallOption) error
	}{
		{"Search", func(o ...newssearch.CallOption) error { _, err := client.Search(ctx, base, o...); return err }},
		{"SubmitQuery", func(o ...newssearch.CallOption) error { _, err := client.SubmitQuery(ctx, async, o...); return err }},
		{"GetResults", func(o ...newssearch.CallOption) error { _, err := client.GetResults(ctx, asyncID, 1, o...); return err }},
		{"Headlines", func(o ...newssearch.CallOption) error { _, err := client.Headlines(ctx, o...); return err }},
		{"Poll", func(o ...newssearch.CallOption) error {
			_, err := client.Poll(ctx, asyncID, as(o, newssearch.PollOption(fast))...)
			return err
		}},
		{"SearchAll", func(o ...newssearch.CallOption) error {
			return firstN(client.SearchAll(ctx, base, as[newssearch.PageOption](o)...), 30)
		}},
		{"Results", func(o ...newssearch.CallOption) error {
			return firstN(client.Results(ctx, asyncID, as(o, newssearch.ResultsOption(fast))...), 30)
		}},
		{"SearchRange", func(o ...newssearch.CallOption) error {
			_, err := client.SearchRange(ctx, span, as(o, newssearch.RangeOption(fast))...)
			return err
		}},
		{"SearchRangeSeq", func(o ...newssearch.CallOption) error {
			return firstN(client.SearchRangeSeq(ctx, span, as(o, newssearch.RangeOption(fast))...), 1000)
		}},
	}
	for _, m := range methods {
		var resp newssearch.Response
		call(m.name+" with call options", true, func() error {
			return m.fn(newssearch.WithHeader("X-Contract-Case", m.name), newssearch.WithMaxRetries(0),
				newssearch.WithAttemptTimeout(time.Minute), newssearch.WithResponseInto(&resp))
		})
		x := chk.last(t)
		if got := x.reqHeader.Get("X-Contract-Case"); got != m.name {
			t.Errorf("%s: X-Contract-Case header = %q, want %q", m.name, got, m.name)
		}
		if resp.StatusCode != x.status || resp.StatusCode != http.StatusOK || resp.Attempts != 1 || resp.RequestID == "" ||
			resp.Header.Get("Content-Type") == "" {
			t.Errorf("%s: WithResponseInto = %+v, want the last answer's 200, its request id and headers, 1 attempt", m.name, resp)
		}
	}
}

// firstN ranges over seq until n elements or an error.
func firstN[V any](seq iter.Seq2[V, error], n int) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
		if n--; n == 0 {
			break
		}
	}
	return nil
}

// checkRequestMembers compares, per endpoint, the members the SDK sent over
// the whole table with the properties of the request schema, both ways: a
// member the SDK never sends, or one the document does not declare, is
// drift.
func checkRequestMembers(t *testing.T, c *contract, chk *checker) {
	t.Helper()
	sent := map[string]map[string]bool{}
	for _, x := range chk.all() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(x.reqBody, &m); err != nil {
			t.Errorf("%s: the SDK sent a body that is not a JSON object: %v", x.path, err)
			continue
		}
		if sent[x.path] == nil {
			sent[x.path] = map[string]bool{}
		}
		for k := range m {
			sent[x.path][k] = true
		}
	}
	for _, path := range []string{pathQuery, pathQueryAsync, pathGetResults, pathHeadlines} {
		op := c.operation(t, http.MethodPost, path)
		schema := get(op.RequestBody.Content, "application/json").Schema.Schema()
		var want []string
		for _, name := range propertyNames(schema) {
			// A member only the vendor's SDK sends (x-vendor-sdk-only) is
			// accepted and ignored; our SDK has no reason to send it.
			if p := get(schema.Properties, name); p != nil && p.Schema() != nil && get(p.Schema().Extensions, "x-vendor-sdk-only") != nil {
				continue
			}
			want = append(want, name)
		}
		got := slices.Sorted(maps.Keys(sent[path]))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("POST %s: the members the SDK sends differ from the request schema's properties (-document +SDK):\n%s", path, diff)
		}
	}
}
