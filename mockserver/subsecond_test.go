package mockserver

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSubSecondTimes: the default corpus's publication times carry
// milliseconds; datePublished shows the whole second, and date filters
// compare the full time, so [S.000, S.000] misses an article published at
// S.123 that [S.000, S.999] finds (same seed, same times: see the corpus
// package's TestGenerateDeterministic).
func TestSubSecondTimes(t *testing.T) {
	t.Parallel()
	s := start(t)
	arts := s.Corpus().c.Articles
	withFraction := 0
	for _, a := range arts {
		if a.Published.Nanosecond()%int(time.Millisecond) != 0 {
			t.Fatalf("article %s published at %v: not whole milliseconds", a.ID, a.Published)
		}
		if a.Published.Nanosecond() != 0 {
			withFraction++
		}
	}
	if withFraction < len(arts)*99/100 {
		t.Fatalf("%d of %d articles have a fraction of a second", withFraction, len(arts))
	}
	r := rand.New(rand.NewPCG(43, 1))
	for range 40 {
		a := arts[r.IntN(len(arts))]
		at := a.Published.Add(s.DateShift()).UTC()
		sec := at.Truncate(time.Second)
		found := func(from, to time.Time) bool {
			res := query(t, s, map[string]any{"query": "*", "start_date": from.Format(time.RFC3339Nano), "end_date": to.Format(time.RFC3339Nano)})
			i := slices.IndexFunc(res.Results.Articles, func(w wireArticle) bool { return w.ID == a.ID })
			if i >= 0 && res.Results.Articles[i].DatePublished != sec.Format(http.TimeFormat) {
				t.Errorf("article %s published at %v is dated %s", a.ID, at, res.Results.Articles[i].DatePublished)
			}
			return i >= 0
		}
		whole := found(sec, sec)
		if whole != at.Equal(sec) || !found(sec, sec.Add(999*time.Millisecond)) || !found(at, at) || found(at.Add(time.Millisecond), sec.Add(time.Second)) {
			t.Errorf("article %s published at %v: [S.000, S.000] finds it: %v; want only [S.000, S.999] and [its time, its time]", a.ID, at.Format(time.RFC3339Nano), whole)
		}
	}
}

// TestUploadedArticlesKeepTheirFraction: an article uploaded at S.250 is
// dated S in answers and found by [S.250, S.250], not by [S.000, S.249].
func TestUploadedArticlesKeepTheirFraction(t *testing.T) {
	t.Parallel()
	s := start(t)
	if _, err := s.AddArticles(strings.NewReader(`{"_id": "0000000000000000000000f1", "title": "Quarterfraction harbour", "url": "https://a.example/f1", "site": "a.example", "datePublished": "2026-01-10T08:00:00.250Z"}`)); err != nil {
		t.Fatal(err)
	}
	ask := func(from, to string) []wireArticle {
		return query(t, s, map[string]any{"query": "quarterfraction", "start_date": from, "end_date": to}).Results.Articles
	}
	if got := ask("2026-01-10T08:00:00.250Z", "2026-01-10T08:00:00.250Z"); len(got) != 1 || got[0].DatePublished != "Sat, 10 Jan 2026 08:00:00 GMT" {
		t.Errorf("[S.250, S.250]: %+v, want the article dated Sat, 10 Jan 2026 08:00:00 GMT", got)
	}
	if got := ask("2026-01-10T08:00:00Z", "2026-01-10T08:00:00.249Z"); len(got) != 0 {
		t.Errorf("[S.000, S.249] finds %d articles, want none", len(got))
	}
}
