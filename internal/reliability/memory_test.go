package reliability

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/mockserver"
)

// Memory scenario sizes. See RELIABILITY.md.
const (
	// heapJobs is the number of jobs TestJobsHeapBounded submits (see
	// soakEnv for more).
	heapJobs = 100_000
	// heapJournal is the journal size of the scenario.
	heapJournal = 1_000
	// heapBound is the most the server's live heap may grow while it takes
	// heapJobs more jobs, once its job store and journal are full. The
	// full store and journal themselves must fit in heapFullBound.
	heapBound     = 4 << 20
	heapFullBound = 16 << 20
)

// liveHeap returns the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// jobSubmitter drives a server's handler directly with query-async
// requests, each a distinct search, and now and then polls one job to
// the end so that results are computed and cached too.
type jobSubmitter struct {
	t *testing.T
	h http.Handler
	n int
}

// submit sends the next job.
func (js *jobSubmitter) submit() {
	js.n++
	i := js.n
	body := fmt.Sprintf(`{"api_key":"k","query":"election %d","sites":["site%d.example"],"key_phrases":"'vote' or 'poll %d'","sort_order":"Date Published"}`, i, i%97, i)
	rec := js.do("/api/v2/query-async", body)
	id, ok := strings.CutPrefix(rec.Body.String(), `{"query_id":"`)
	if rec.Code != http.StatusOK || !ok || len(id) < 32 {
		js.t.Fatalf("job %d: HTTP %d %s", i, rec.Code, rec.Body)
	}
	id = id[:32]
	if i%100 == 0 {
		for range 2 { // PENDING, then the results
			if rec := js.do("/api/v2/get-results", `{"api_key":"k","query_id":"`+id+`"}`); rec.Code != http.StatusOK {
				js.t.Fatalf("polling job %d: HTTP %d %s", i, rec.Code, rec.Body)
			}
		}
	}
}

// do posts body to path through the handler.
func (js *jobSubmitter) do(path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewBufferString(body))
	rec := httptest.NewRecorder()
	js.h.ServeHTTP(rec, req)
	return rec
}

// TestJobsHeapBounded submits heapJobs asynchronous jobs (1,000,000 and
// more in the soak, see soakEnv) straight into the handler and checks the
// server's heap stays bounded (the job store forgets the least recently
// used jobs beyond its default cap, defaultMaxJobs) and the journal stays at its size. It
// is not parallel: it measures the heap.
func TestJobsHeapBounded(t *testing.T) {
	long(t)
	n := soakSize(t, heapJobs)
	mockserver.DefaultCorpus() // built once per process: not the server's growth
	base := liveHeap()
	srv, err := mockserver.Start(mockserver.WithoutListener(), mockserver.WithJournalSize(heapJournal))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	js := &jobSubmitter{t: t, h: srv.Handler()}
	for range 2 * defaultMaxJobs { // fill the job store, the journal and the caches
		js.submit()
	}
	full := liveHeap()
	for range n {
		js.submit()
	}
	after := liveHeap()

	growth := int64(after) - int64(full)
	t.Logf("%d jobs submitted after the store filled (%d polled); heap: %.1f MiB for the full server, growth %+.2f MiB (bound %d MiB)",
		n, n/100, float64(int64(full)-int64(base))/(1<<20), float64(growth)/(1<<20), heapBound>>20)
	if growth > heapBound {
		t.Errorf("the heap grew by %d bytes over %d jobs, want at most %d", growth, n, heapBound)
	}
	if used := int64(full) - int64(base); used > heapFullBound {
		t.Errorf("the full server holds %d bytes of heap, want at most %d", used, heapFullBound)
	}
	if got := len(srv.Journal()); got != heapJournal {
		t.Errorf("the journal holds %d entries, want its size %d", got, heapJournal)
	}
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/_mock/health", nil))
	var health struct {
		Jobs int `json:"jobs"`
	}
	if err := decodeJSON(rec.Body, &health); err != nil || health.Jobs != defaultMaxJobs {
		t.Errorf("the server holds %d jobs (%v), want the cap %d", health.Jobs, err, defaultMaxJobs)
	}
}

// defaultMaxJobs is the job cap of a mock started without
// mockserver.Limits.MaxJobs (see Limits).
const defaultMaxJobs = 10_000
