package mockserver

import (
	"encoding/json"
	"maps"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// heapInUse returns the bytes of live heap after two collections.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestJobsDoNotPinUploads: a suite that gives each test its own articles
// uploads a few, then submits a job. The job keeps the corpus version it ran
// against, which shares the start-up corpus's articles and index and holds
// only the added articles (with their small index), so memory grows by the
// articles added, not by a whole corpus per job.
//
// Not parallel: it measures the process's heap.
func TestJobsDoNotPinUploads(t *testing.T) {
	s := start(t, WithPendingPolls(0))
	base := s.Corpus().c.Newest().Add(s.DateShift())
	// Warm up: build the start-up corpus's index and one upload's.
	upload := func(i int) {
		t.Helper()
		body := jsonLines(t, newArticle(i, "quokka", "example.org", base.Add(-time.Duration(i)*time.Minute)))
		if r := call(t, s, "POST", "/_mock/articles", body, "Content-Type", "application/json"); r.Status != 200 {
			t.Fatalf("upload %d: %d %s", i, r.Status, r.Body)
		}
	}
	ids := []string{}
	job := func(i int) {
		t.Helper()
		upload(i)
		id := submit(t, s, map[string]any{"query": "quokka"})
		// After ResetArticles, upload i is the i-th since: job i finds i articles.
		if r := results(t, s, id, 1); r.TotalResults != max(i, 1) {
			t.Fatalf("job %d: %d results, want %d", i, r.TotalResults, max(i, 1))
		}
		ids = append(ids, id)
	}
	job(0)
	s.resetArticles()
	before := heapInUse()
	const jobs = 12
	for i := 1; i <= jobs; i++ {
		job(i)
	}
	s.resetArticles() // nothing but the jobs refers to the uploaded versions now
	after := heapInUse()
	perJob := (int64(after) - int64(before)) / jobs
	t.Logf("heap: %d MB before, %d MB after %d jobs each after its own upload: %d KB a job", before>>20, after>>20, jobs, perJob>>10)
	// Every job still answers with the results of the corpus it ran against.
	for i, id := range ids {
		if r := results(t, s, id, 1); r.TotalResults != max(i, 1) || len(r.Articles) != max(i, 1) {
			t.Fatalf("job %d after the reset of the articles: %d results", i, r.TotalResults)
		}
	}
	if perJob > 1<<20 {
		t.Fatalf("each job keeps %d KB alive: it pins the corpus version it ran against", perJob>>10)
	}
	runtime.KeepAlive(s)
}

// TestJobsOfUploadsAnswerAsSearches: a job submitted after AddArticles
// keeps the corpus version it was submitted to; its pages must be exactly
// those a search of that corpus answers (articles, scores, order,
// embeddings), and stay so after the corpus changes again, when the
// version caches no page and searches again for each.
func TestJobsOfUploadsAnswerAsSearches(t *testing.T) {
	t.Parallel()
	s := start(t, WithPendingPolls(0))
	base := s.Corpus().c.Newest().Add(s.DateShift())
	var arts []map[string]any
	for i := range 60 {
		word := []string{"quokka", "wombat", "quokka wombat"}[i%3]
		arts = append(arts, newArticle(1000+i, word, []string{"example.org", "example.net"}[i%2], base.Add(-time.Duration(i)*time.Hour)))
	}
	if r := call(t, s, "POST", "/_mock/articles", jsonLines(t, arts...), "Content-Type", "application/json"); r.Status != 200 {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	searches := []map[string]any{
		{"query": "quokka"},
		{"query": "wombat", "sites": []string{"example.net"}},
		{"query": "report", "embeddings": true},
		{"query": "*", "start_date": base.Add(-30 * time.Hour).Format(time.RFC3339), "end_date": base.Format(time.RFC3339)},
		{"query": "\"quokka wombat\""},
	}
	type page struct {
		total int
		body  string
	}
	var want [][]page
	var jobIDs []string
	for _, q := range searches {
		var pages []page
		for p := 1; p <= 3; p++ {
			q := maps.Clone(q)
			q["page"] = p
			r := post(t, s, "/api/v2/query", q)
			var raw struct {
				Results struct {
					TotalResults int             `json:"totalResults"`
					Articles     json.RawMessage `json:"articles"`
				} `json:"results"`
			}
			if err := json.Unmarshal(r.Body, &raw); err != nil {
				t.Fatal(err)
			}
			pages = append(pages, page{total: raw.Results.TotalResults, body: string(raw.Results.Articles)})
		}
		want = append(want, pages)
		jobIDs = append(jobIDs, submit(t, s, q))
	}
	s.resetArticles() // the jobs keep the corpus they ran against
	for i, id := range jobIDs {
		for p := 1; p <= 3; p++ {
			r := post(t, s, "/api/v2/get-results", map[string]any{"query_id": id, "page": p})
			var raw struct {
				TotalResults int             `json:"totalResults"`
				Articles     json.RawMessage `json:"articles"`
			}
			if err := json.Unmarshal(r.Body, &raw); err != nil {
				t.Fatalf("%s", r.Body)
			}
			got := page{total: raw.TotalResults, body: string(raw.Articles)}
			if diff := cmp.Diff(want[i][p-1], got, cmp.AllowUnexported(page{})); diff != "" {
				t.Errorf("search %v, page %d (-search +job):\n%s", searches[i], p, diff)
			}
		}
	}
	if want[0][0].total != 40 || want[3][0].total == 0 {
		t.Fatalf("the searches found %d and %d articles: the test's data is wrong", want[0][0].total, want[3][0].total)
	}
}

// BenchmarkJobsAfterOwnUpload measures the memory of 150 jobs, each
// submitted right after its own POST /_mock/articles (the way a suite gives
// each test its own data), after the articles are reset: live heap and
// resident size (after returning freed memory to the system), in MB.
// BENCHMARKS.md has the row; when each upload made a whole new corpus and
// index it was about 20 MB a job; each job keeps its corpus version, which
// holds only the added articles.
func BenchmarkJobsAfterOwnUpload(b *testing.B) {
	const jobs = 150
	for b.Loop() {
		s := New(WithPendingPolls(0), WithoutListener())
		newest := s.Corpus().c.Newest().Add(s.DateShift())
		heap0 := heapInUse()
		var keep []string
		for i := range jobs {
			body := jsonLines(b, newArticle(i, "quokka", "example.org", newest.Add(-time.Duration(i)*time.Minute)))
			if r := call(b, s, "POST", "/_mock/articles", body, "Content-Type", "application/json"); r.Status != 200 {
				b.Fatalf("upload %d: %d %s", i, r.Status, r.Body)
			}
			keep = append(keep, submit(b, s, map[string]any{"query": "quokka"}))
		}
		s.resetArticles()
		heap := heapInUse()
		debug.FreeOSMemory()
		b.ReportMetric(float64(int64(heap)-int64(heap0))/(1<<20), "heap-MB")
		b.ReportMetric(float64(int64(heap)-int64(heap0))/jobs/(1<<10), "heap-KB/job")
		b.ReportMetric(float64(residentBytes(b))/(1<<20), "rss-MB")
		if len(keep) != jobs || s.jobs.Len() != jobs {
			b.Fatalf("%d jobs live, want %d", s.jobs.Len(), jobs)
		}
		s.Close()
	}
}

// residentBytes returns the process's resident size (VmRSS), or skips
// where /proc is missing.
func residentBytes(b *testing.B) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc/self/status (%v): the resident size is read on Linux only", err)
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	b.Skip("no VmRSS in /proc/self/status")
	return 0
}
