package newssearch

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file proves "every article once" against a service messier than
// fakeService: one that filters on publication instants with milliseconds
// but shows them in whole seconds, stretches the bounds it is asked for,
// serves empty pages before its total, repeats articles across pages and
// grows its total while a client walks the pages.

// messy is that service: sync search and jobs over a fixed set of
// articles, newest first, in pages of PageSize.
type messy struct {
	at map[string]time.Time // article ID -> publication instant
	// widen stretches the bounds of a search or job.
	widen func(start, end time.Time) (time.Time, time.Time)
	// empty[n] is how many times page n answers no articles (its total
	// unchanged); -1: always.
	empty map[int]int
	// overlap: every page after the first starts with the previous page's
	// last overlap articles.
	overlap int
	// grow is added to the total for each page after the first, and that
	// many articles appear at the top of the list.
	grow int

	mu   sync.Mutex
	jobs []string // the bounds of each job, "start|end"
}

func (m *messy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var q fakeQuery
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
		writeJSON(w, 400, map[string]any{"state": "FAILED", "message": err.Error()})
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, basePath)
	if path == pathQueryAsync {
		m.jobs = append(m.jobs, q.StartDate+"|"+q.EndDate)
		writeJSON(w, 200, map[string]any{"query_id": fmt.Sprint(len(m.jobs) - 1), "state": "SUCCESS"})
		return
	}
	n := max(q.Page, 1)
	if path == pathGetResults {
		var id int
		fmt.Sscan(q.QueryID, &id)
		q.StartDate, q.EndDate, _ = strings.Cut(m.jobs[id], "|")
	}
	start, _ := time.Parse(time.RFC3339, q.StartDate)
	end, err := time.Parse(time.RFC3339, q.EndDate)
	if err != nil {
		end = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if m.widen != nil {
		start, end = m.widen(start, end)
	}
	var ids []string
	for id, t := range m.at {
		if !t.Before(start) && !t.After(end) {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(m.at[b].Compare(m.at[a]), strings.Compare(a, b)) })
	extra := m.grow * (n - 1) // arrivals since page 1, at the top
	for i := range extra {
		ids = slices.Insert(ids, 0, fmt.Sprintf("new-%d", i))
	}
	total := len(ids)
	lo := min(max((n-1)*PageSize-m.overlap*min(n-1, 1), 0), total)
	page := []map[string]any{}
	if m.empty[n] == 0 {
		for _, id := range ids[lo:min(lo+PageSize+m.overlap*min(n-1, 1), total)] {
			t, ok := m.at[id]
			if !ok {
				t = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
			}
			page = append(page, map[string]any{"_id": id, "url": "https://example.com/" + id, "title": id,
				"datePublished": t.UTC().Format(http.TimeFormat)}) // whole seconds, as the service shows
		}
	} else if m.empty[n] > 0 {
		m.empty[n]--
	}
	if path == pathQuery {
		writeJSON(w, 200, map[string]any{"results": map[string]any{"totalResults": total, "articles": page}, "state": "SUCCESS"})
		return
	}
	writeJSON(w, 200, map[string]any{"query_id": q.QueryID, "page": n, "totalResults": total, "articles": page, "state": "SUCCESS"})
}

// idsOf returns the IDs of articles, and the first repeated one.
func idsOf(articles []Article) (ids []string, repeated string) {
	seen := map[string]bool{}
	for _, a := range articles {
		if seen[a.ID] && repeated == "" {
			repeated = a.ID
		}
		seen[a.ID] = true
		ids = append(ids, a.ID)
	}
	slices.Sort(ids)
	return ids, repeated
}

// An article published 300 ms after a window boundary shows as the second
// before it: the newer window must keep it (its bounds are whole seconds),
// the older never had it. Before the fix: 2 articles of 3, nil error.
func TestSearchRangeSubSecondBoundary(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 1, 0, 0, 0, 200e6, time.UTC) // a time.Now()-like fraction
	m := &messy{at: map[string]time.Time{
		"early":    start.Add(48 * time.Hour),
		"boundary": start.Add(7*24*time.Hour + 300*time.Millisecond),
		"late":     start.Add(12 * 24 * time.Hour),
	}}
	c := serve(t, m)
	params := AsyncSearchParams{SearchParams: SearchParams{Query: "cars", StartDate: start, EndDate: start.Add(14 * 24 * time.Hour)}}
	one := oneQuery(t, c, params)
	got, err := c.SearchRange(t.Context(), params, fastPoll)
	ids, rep := idsOf(got)
	if want, _ := idsOf(one); err != nil || rep != "" || !slices.Equal(ids, want) {
		t.Errorf("SearchRange = %v (repeated %q), %v; want one job's %v, nil", ids, rep, err, want)
	}
}

// A service whose bounds cover whole days returns an article to two
// windows, and articles past the range's end: each comes back once, none
// outside. Before the fix: "mid" twice and "after" too, nil error.
func TestSearchRangeWholeDayBounds(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	start := time.Date(2025, 1, 1, 6, 0, 0, 0, time.UTC)
	m := &messy{at: map[string]time.Time{
		"before": start.Add(-time.Hour), // the day before the range's start
		"first":  start.Add(2 * day),
		"mid":    start.Add(7*day + 6*time.Hour), // the day of the boundary, after it
		"edge":   start.Add(7*day - 6*time.Hour), // the day of the boundary, before it
		"last":   start.Add(13 * day),
		"after":  start.Add(14*day + time.Hour), // the day of the range's end, after it
	}, widen: func(s, e time.Time) (time.Time, time.Time) {
		return s.Truncate(day), e.Truncate(day).Add(day - time.Millisecond)
	}}
	c := serve(t, m)
	params := AsyncSearchParams{SearchParams: SearchParams{Query: "cars", StartDate: start, EndDate: start.Add(14 * day)}}
	want := []string{"edge", "first", "last", "mid"}
	got, err := c.SearchRange(t.Context(), params, fastPoll)
	if ids, rep := idsOf(got); err != nil || rep != "" || !slices.Equal(ids, want) {
		t.Errorf("SearchRange = %v (repeated %q), %v; want %v each once, nil", ids, rep, err, want)
	}
	// SearchRangeSeq, then resuming from its newest window, alike.
	var done []WindowResult
	var all []Article
	for w, err := range c.SearchRangeSeq(t.Context(), params, fastPoll) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, w.Articles...)
		if done == nil {
			done = append(done, w)
		}
	}
	if ids, rep := idsOf(all); rep != "" || !slices.Equal(ids, want) {
		t.Errorf("SearchRangeSeq = %v (repeated %q); want %v each once", ids, rep, want)
	}
	got, err = c.SearchRange(t.Context(), params, fastPoll, &RangeOptions{Done: done})
	if ids, rep := idsOf(got); err != nil || rep != "" || !slices.Equal(ids, want) {
		t.Errorf("resumed SearchRange = %v (repeated %q), %v; want %v each once, nil", ids, rep, err, want)
	}
}

// manyAt returns n articles an hour apart from 2025-01-01, named p0...
func manyAt(n int) map[string]time.Time {
	at := map[string]time.Time{}
	for i := range n {
		at[fmt.Sprintf("p%03d", i)] = time.Date(2025, 1, 1, i, 0, 0, 0, time.UTC)
	}
	return at
}

// An empty page before the total is reached is fetched again; one that
// stays empty ends the walk with ErrInconsistentPages after the pages
// before it. Before the fix: 25 articles of 75 and no error.
func TestPagesEmptyBeforeTotal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		times int // fetches of page 2 that answer empty
		want  int
		err   string
	}{
		{"once", 1, 75, ""},
		{"always", -1, 25, "newssearch: inconsistent pages: page 2 came back empty twice, although the total of 75 articles fills 3 pages: stopping short; fetch again later"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := &messy{at: manyAt(75), empty: map[int]int{2: tc.times}}
			c := serve(t, m)
			paged, serr := collect(c.SearchAll(t.Context(), SearchParams{Query: "cars"}))
			m.mu.Lock()
			m.empty[2] = tc.times
			m.mu.Unlock()
			job, jerr := collect(c.Results(t.Context(), submit(t, c, asyncQuery), fastPoll))
			for name, r := range map[string]struct {
				n   int
				err error
			}{"SearchAll": {len(paged), serr}, "Results": {len(job), jerr}} {
				if r.n != tc.want || errText(r.err) != tc.err || (tc.err != "" && !errors.Is(r.err, ErrInconsistentPages)) {
					t.Errorf("%s: %d articles, %v; want %d, %q", name, r.n, r.err, tc.want, tc.err)
				}
			}
		})
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Pages that overlap, or shift as articles arrive and the total grows,
// yield each article once and follow the total.
func TestPagesOverlapAndGrowth(t *testing.T) {
	t.Parallel()
	for _, m := range []*messy{{at: manyAt(75), overlap: 3}, {at: manyAt(75), grow: 2}} {
		c := serve(t, m)
		got, err := collect(c.SearchAll(t.Context(), SearchParams{Query: "cars"}))
		ids, rep := idsOf(got)
		// The arrivals sit above the pages read; the last four of the 75
		// are only on page 4, which the grown total (81) needs.
		want := 75
		if err != nil || rep != "" || len(ids) != want {
			t.Errorf("overlap %d, growth %d: %d articles (repeated %q), %v; want %d each once, nil", m.overlap, m.grow, len(ids), rep, err, want)
		}
	}
}
