package newssearch_test

import (
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// The property tests of "every article once" (issue 42): seeded random
// ranges, windows, concurrency, prefetch and start and end fractions, run
// against the mock (whose publication times carry milliseconds and show as
// whole seconds) under each of its data fault items, compared with one job
// over the whole range without faults.

// propClock is the mock's fixed clock.
var propClock = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

// propQueries find from a few to a few hundred articles a month.
var propQueries = []string{"percent", "million", "inflation", "police", "election", "storm"}

// propFault is a data fault item as rules; each case draws its values.
type propFault struct {
	name  string
	rules func(r *rand.Rand) []mockserver.FaultRule
}

// rangeFaults are the items that touch a range's jobs and pages. Every
// item runs on top of the sub-second publication times.
var rangeFaults = []propFault{
	{"subsecond", func(*rand.Rand) []mockserver.FaultRule { return nil }},
	{"window=day", func(*rand.Rand) []mockserver.FaultRule {
		return []mockserver.FaultRule{{Endpoint: mockserver.EndpointQueryAsync, Fault: mockserver.Fault{WindowDay: true}}}
	}},
	{"window=<duration>", func(r *rand.Rand) []mockserver.FaultRule {
		d := []time.Duration{time.Second, 1500 * time.Millisecond, time.Minute, 3 * time.Hour}[r.IntN(4)]
		return []mockserver.FaultRule{{Endpoint: mockserver.EndpointQueryAsync, Fault: mockserver.Fault{Window: d}}}
	}},
	{"empty-page=N", func(r *rand.Rand) []mockserver.FaultRule {
		return []mockserver.FaultRule{{Endpoint: mockserver.EndpointGetResults, Probability: 0.5, Fault: mockserver.Fault{EmptyPage: 1 + r.IntN(3)}}}
	}},
	{"overlap=K", func(r *rand.Rand) []mockserver.FaultRule {
		return []mockserver.FaultRule{{Endpoint: mockserver.EndpointGetResults, Fault: mockserver.Fault{Overlap: 1 + r.IntN(newssearch.PageSize)}}}
	}},
	{"all", func(r *rand.Rand) []mockserver.FaultRule {
		return []mockserver.FaultRule{
			{Endpoint: mockserver.EndpointQueryAsync, Probability: 0.5, Fault: mockserver.Fault{WindowDay: true}},
			{Endpoint: mockserver.EndpointQueryAsync, Fault: mockserver.Fault{Window: 2 * time.Second}},
			{Endpoint: mockserver.EndpointGetResults, Probability: 0.3, Fault: mockserver.Fault{EmptyPage: 2}},
			{Endpoint: mockserver.EndpointGetResults, Fault: mockserver.Fault{Overlap: 1 + r.IntN(5)}},
		}
	}},
}

// propServer starts a mock at propClock for a property test.
func propServer(t *testing.T) (*mockserver.Server, *newssearch.Client) {
	t.Helper()
	srv, err := mockserver.Start(mockserver.WithClock(func() time.Time { return propClock }), mockserver.WithSeed(42))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, srv.Client(newssearch.WithMaxRetries(8))
}

// TestRangeEachArticleOnce: for every case, SearchRange, SearchRangeSeq or
// a stopped SearchRangeSeq resumed through RangeOptions.Done (by turns)
// returns the articles of one job over the whole range, each once, under
// the case's fault; a window failed by the fault (an empty page twice) is
// resumed with RangeError.Finished. The only articles allowed to differ
// are those shown in the second of a fractional StartDate or EndDate when
// the service widens bounds: at whole seconds, inside and outside that
// second read the same (docs/ranges.md).
func TestRangeEachArticleOnce(t *testing.T) {
	t.Parallel()
	const seed, cases = 20261129, 96
	srv, c := propServer(t)
	r := rand.New(rand.NewPCG(seed, 1))
	ctx := t.Context()
	articles, resumed, ambiguous := 0, 0, 0
	pool := map[string][]newssearch.Article{} // each query's articles of the last 90 days
	for _, q := range propQueries {
		all, err := collect(c.SearchAll(ctx, newssearch.SearchParams{Query: q, StartDate: propClock.Add(-90 * 24 * time.Hour), EndDate: propClock}))
		if err != nil || len(all) == 0 {
			t.Fatalf("%q: %d articles, %v", q, len(all), err)
		}
		pool[q] = all
	}
	for i := range cases {
		f := rangeFaults[i%len(rangeFaults)]
		rules := f.rules(r)
		// One boundary falls a random fraction into the second an article
		// shows, so that about half the cases hold an article published
		// after a boundary but shown before it.
		query := propQueries[r.IntN(len(propQueries))]
		window := time.Hour + time.Duration(r.Int64N(int64(10*24*time.Hour))) + time.Duration(r.IntN(1000))*time.Millisecond
		windows := 2 + r.IntN(12)
		anchor := pool[query][r.IntN(len(pool[query]))].DatePublished.Time
		start := anchor.Add(time.Duration(1+r.IntN(999))*time.Millisecond - time.Duration(1+r.IntN(windows-1))*window)
		end := start.Add(time.Duration(windows-1)*window + time.Duration(r.Int64N(int64(window))))
		opts := []newssearch.RangeOption{&newssearch.RangeOptions{Window: window, Concurrency: 1 + r.IntN(8)},
			&newssearch.PageOptions{Prefetch: r.IntN(3)}}
		how := i / len(rangeFaults) % 3
		params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: query, StartDate: start, EndDate: end}}
		name := fmt.Sprintf("case %d (%s, %q, %s to %s, window %s, %v, path %d)", i, f.name, params.Query,
			start.Format(time.RFC3339Nano), end.Format(time.RFC3339Nano), window, opts[0], how)

		srv.Reset()
		job, err := c.SubmitQuery(ctx, params)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := collect(c.Results(ctx, job.QueryID))
		if err != nil {
			t.Fatalf("%s: one job: %v", name, err)
		}
		if err := srv.SetFaults(rules...); err != nil {
			t.Fatal(err)
		}
		var got []newssearch.Article
		var done []newssearch.WindowResult
		switch how {
		case 1: // SearchRangeSeq to the end
			for w, err := range c.SearchRangeSeq(ctx, params, opts...) {
				if err == nil {
					got = append(got, w.Articles...)
					done = append(done, w)
				}
			}
		case 2: // stopped after some windows, to resume below
			stopAfter := r.IntN(4)
			for w, err := range c.SearchRangeSeq(ctx, params, opts...) {
				if len(done) == stopAfter {
					break
				}
				if err == nil {
					done = append(done, w)
				}
			}
		}
		if how != 1 || len(done) < len(mustWindows(t, params, opts[0])) {
			got = nil
			for round := 0; ; round++ {
				ro := *opts[0].(*newssearch.RangeOptions)
				ro.Done = done
				got, err = c.SearchRange(ctx, params, &ro, opts[1])
				var re *newssearch.RangeError
				if err == nil || round == 20 || !errors.As(err, &re) || !errors.Is(err, newssearch.ErrInconsistentPages) {
					break
				}
				done, resumed = re.Finished, resumed+1
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		articles += len(got)
		seen := map[string]bool{}
		for _, a := range got {
			if seen[a.ID] {
				t.Errorf("%s: article %s (%s) came back twice", name, a.ID, a.DatePublished)
			}
			seen[a.ID] = true
		}
		inWant := map[string]bool{}
		for _, a := range want {
			inWant[a.ID] = true
			if !seen[a.ID] {
				t.Errorf("%s: article %s (%s) of the one job is missing; %d articles, want %d", name, a.ID, a.DatePublished, len(seen), len(want))
			}
		}
		for _, a := range got {
			if inWant[a.ID] {
				continue
			}
			s := a.DatePublished.Time
			if edge := s.Equal(start.Truncate(time.Second)) || s.Equal(end.Truncate(time.Second)); edge && strings.HasPrefix(f.name, "window") || edge && f.name == "all" {
				ambiguous++
				continue
			}
			t.Errorf("%s: article %s (%s) is not the one job's: outside the range", name, a.ID, a.DatePublished)
		}
	}
	t.Logf("seed %d: %d cases, %d articles, %d resumed rounds, %d in a bound's second", seed, cases, articles, resumed, ambiguous)
}

// collect drains an article iterator.
func collect(seq iter.Seq2[newssearch.Article, error]) ([]newssearch.Article, error) {
	var out []newssearch.Article
	for a, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, a)
	}
	return out, nil
}

// mustWindows returns the windows of a range call.
func mustWindows(t *testing.T, params newssearch.AsyncSearchParams, o newssearch.RangeOption) []newssearch.RangeWindow {
	t.Helper()
	w, err := newssearch.RangeWindows(params, o.(*newssearch.RangeOptions))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestPagesEachArticleOnce: SearchAll under the page items (overlap=K,
// empty-page=N once in two, arrivals=N) yields each article once, and
// every article of a run without faults; the only others are the
// arrivals.
func TestPagesEachArticleOnce(t *testing.T) {
	t.Parallel()
	const seed, cases = 20261130, 24
	srv, c := propServer(t)
	r := rand.New(rand.NewPCG(seed, 2))
	ctx := t.Context()
	items := []string{"overlap=K", "empty-page=N", "arrivals=N"}
	pages := 0
	for i := range cases {
		item := items[i%len(items)]
		params := newssearch.SearchParams{Query: propQueries[r.IntN(len(propQueries))],
			StartDate: propClock.Add(-time.Duration(10+r.IntN(50)) * 24 * time.Hour), EndDate: propClock}
		var rule mockserver.FaultRule
		prefetch := r.IntN(4)
		switch item {
		case "overlap=K":
			rule = mockserver.FaultRule{Endpoint: mockserver.EndpointQuery, Fault: mockserver.Fault{Overlap: 1 + r.IntN(newssearch.PageSize)}}
		case "empty-page=N":
			rule = mockserver.FaultRule{Endpoint: mockserver.EndpointQuery, Probability: 0.5, Fault: mockserver.Fault{EmptyPage: 1 + r.IntN(4)}}
		case "arrivals=N":
			rule = mockserver.FaultRule{Endpoint: mockserver.EndpointQuery, Fault: mockserver.Fault{Arrivals: 1 + r.IntN(10)}}
			prefetch = 0 // pages fetched out of order can miss an article that moved down
		}
		name := fmt.Sprintf("case %d (%s, %q from %s, prefetch %d)", i, item, params.Query, params.StartDate.Format(time.DateOnly), prefetch)
		srv.Reset()
		want, err := collect(c.SearchAll(ctx, params))
		if err != nil {
			t.Fatalf("%s: without faults: %v", name, err)
		}
		if err := srv.SetFaults(rule); err != nil {
			t.Fatal(err)
		}
		var got []newssearch.Article
		for range 20 { // an empty page twice ends the walk: again
			got, err = collect(c.SearchAll(ctx, params, &newssearch.PageOptions{Prefetch: prefetch, OnPage: func(*newssearch.Page) { pages++ }}))
			if !errors.Is(err, newssearch.ErrInconsistentPages) {
				break
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		seen := map[string]bool{}
		for _, a := range got {
			if seen[a.ID] {
				t.Errorf("%s: article %s came back twice", name, a.ID)
			}
			seen[a.ID] = true
			if item != "arrivals=N" && !slices.ContainsFunc(want, func(w newssearch.Article) bool { return w.ID == a.ID }) ||
				item == "arrivals=N" && !strings.Contains(a.URL, "/arrivals/") && !slices.ContainsFunc(want, func(w newssearch.Article) bool { return w.ID == a.ID }) {
				t.Errorf("%s: article %s is not the search's", name, a.ID)
			}
		}
		for _, a := range want {
			if !seen[a.ID] {
				t.Errorf("%s: article %s (%s) is missing: %d articles, want %d", name, a.ID, a.DatePublished, len(seen), len(want))
			}
		}
	}
	t.Logf("seed %d: %d cases, %d pages", seed, cases, pages)
}
