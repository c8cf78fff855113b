package newssearch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// outageLength is how long the outage tests keep the service away: 10 s
// with NEWSSEARCH_LONG_TESTS=1, else 1.5 s. The tests assert what is
// delivered, never how long it took.
func outageLength() time.Duration {
	if os.Getenv("NEWSSEARCH_LONG_TESTS") == "1" && !testing.Short() {
		return 10 * time.Second
	}
	return 1500 * time.Millisecond
}

// flakyService serves a mock's handler on a real loopback socket that can
// be closed (every connection with it) and opened again on the same
// address.
type flakyService struct {
	t       *testing.T
	handler http.Handler
	addr    string

	mu  sync.Mutex
	srv *http.Server
}

func newFlakyService(t *testing.T, h http.Handler) *flakyService {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &flakyService{t: t, handler: h, addr: ln.Addr().String()}
	f.serve(ln)
	t.Cleanup(f.down)
	return f
}

func (f *flakyService) serve(ln net.Listener) {
	srv := &http.Server{Handler: f.handler}
	f.mu.Lock()
	f.srv = srv
	f.mu.Unlock()
	go srv.Serve(ln)
}

// down closes the socket and every connection: a dial is refused.
func (f *flakyService) down() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.srv != nil {
		f.srv.Close()
		f.srv = nil
	}
}

// up listens on the same address again.
func (f *flakyService) up() {
	var ln net.Listener
	var err error
	for range 100 { // the port may linger for a moment after Close
		if ln, err = net.Listen("tcp", f.addr); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		f.t.Errorf("listening on %s again: %v", f.addr, err)
		return
	}
	f.serve(ln)
}

// outageAfter returns a middleware that, at the n-th request, takes the
// service down for d, then brings it up; done is closed once it is up.
func (f *flakyService) outageAfter(n int64, d time.Duration) (mw func(http.RoundTripper) http.RoundTripper, done <-chan struct{}) {
	var seen atomic.Int64
	ch := make(chan struct{})
	return func(next http.RoundTripper) http.RoundTripper {
		return roundTrip(func(r *http.Request) (*http.Response, error) {
			if seen.Add(1) == n {
				f.down()
				go func() {
					time.Sleep(d)
					f.up()
					close(ch)
				}()
			}
			return next.RoundTrip(r)
		})
	}, ch
}

// outageClient is srv's client, sent over the real socket of f.
func outageClient(srv *mockserver.Server, f *flakyService, opts ...newssearch.Option) *newssearch.Client {
	hc := &http.Client{Transport: &http.Transport{}}
	return srv.Client(append([]newssearch.Option{newssearch.WithBaseURL("http://" + f.addr), newssearch.WithHTTPClient(hc)}, opts...)...)
}

// TestPollRidesOutAnOutage closes the service's socket in the middle of a
// Poll and opens it again later: the Poll waits it out and returns the
// job's page, as a Poll with no outage does.
func TestPollRidesOutAnOutage(t *testing.T) {
	d := outageLength()
	srv := mockserver.New(mockserver.WithoutListener(), mockserver.WithPendingDuration(d/2))
	defer srv.Close()
	f := newFlakyService(t, srv.Handler())
	mw, done := f.outageAfter(3, d) // the submission, a first poll, then down
	client := outageClient(srv, f, newssearch.WithMiddleware(mw))
	ctx := context.Background()
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := client.Poll(ctx, job.QueryID)
	if err != nil {
		t.Fatalf("Poll through an outage of %v: %v", d, err)
	}
	<-done
	want, err := srv.Client().GetResults(ctx, job.QueryID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Articles, got.Articles); diff != "" || len(got.Articles) == 0 {
		t.Errorf("page 1 after the outage differs from the job's (-want +got):\n%s", diff)
	}
}

// TestSearchRangeRidesOutAnOutage closes the service's socket in the
// middle of a 30-day SearchRange and opens it again later: every article
// is delivered exactly once, as by the same range with no outage.
func TestSearchRangeRidesOutAnOutage(t *testing.T) {
	d := outageLength()
	srv := mockserver.New(mockserver.WithoutListener())
	defer srv.Close()
	f := newFlakyService(t, srv.Handler())
	mw, done := f.outageAfter(6, d)
	client := outageClient(srv, f, newssearch.WithMiddleware(mw))
	newest := mockserver.DefaultCorpus().Newest()
	params := newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "election", StartDate: newest.AddDate(0, 0, -30).Add(srv.DateShift()), EndDate: newest.Add(srv.DateShift())},
		SortOrder:    newssearch.SortDatePublished,
	}
	ctx := context.Background()
	got, err := client.SearchRange(ctx, params)
	if err != nil {
		t.Fatalf("SearchRange through an outage of %v: %v", d, err)
	}
	<-done
	want, err := srv.Client().SearchRange(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("the range holds no article: pick another query")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("articles after the outage differ from those with none (-want +got):\n%s", diff)
	}
}

// TestSearchRangeOutageBeyondBudget: an outage longer than MaxWait ends a
// range with the windows it finished and a *RangeError naming the others,
// never with nothing.
func TestSearchRangeOutageBeyondBudget(t *testing.T) {
	srv := mockserver.New(mockserver.WithoutListener())
	defer srv.Close()
	f := newFlakyService(t, srv.Handler())
	var seen atomic.Int64
	down := func(next http.RoundTripper) http.RoundTripper {
		return roundTrip(func(r *http.Request) (*http.Response, error) {
			if seen.Add(1) == 6 { // after the first window, for good
				f.down()
			}
			return next.RoundTrip(r)
		})
	}
	client := outageClient(srv, f, newssearch.WithMiddleware(down))
	newest := mockserver.DefaultCorpus().Newest()
	params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election",
		StartDate: newest.AddDate(0, 0, -30).Add(srv.DateShift()), EndDate: newest.Add(srv.DateShift())}}
	got, err := client.SearchRange(context.Background(), params,
		&newssearch.RangeOptions{Concurrency: 1}, &newssearch.PollOptions{MaxWait: 300 * time.Millisecond})
	var re *newssearch.RangeError
	if !errors.As(err, &re) {
		t.Fatalf("SearchRange with the service gone: %v, want a *RangeError", err)
	}
	if len(re.Finished) == 0 || len(re.Missing) == 0 || len(re.Finished)+len(re.Missing) != re.Windows {
		t.Fatalf("%d windows finished, %d missing of %d; want some of each", len(re.Finished), len(re.Missing), re.Windows)
	}
	n := 0
	for _, w := range re.Finished {
		n += len(w.Articles)
	}
	if n == 0 || len(got) != n {
		t.Errorf("returned %d articles, the finished windows hold %d; want them all, and some", len(got), n)
	}
	var op *net.OpError
	if !errors.As(err, &op) {
		t.Errorf("error %q does not wrap the connection failure", err)
	}
}
