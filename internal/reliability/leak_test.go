package reliability

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
	"go.uber.org/goleak"
)

// The tests of this file are not parallel: each checks with goleak that
// no goroutine is left once its calls have returned. They use servers
// without a socket, whose Transport serves a request on the caller's
// goroutine, so any goroutine left is the client's; the last one closes a
// socket server with requests in flight.

// noSocket starts a socket-less server at the fixed clock.
func noSocket(t *testing.T, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	return newServer(t, append([]mockserver.Option{mockserver.WithoutListener()}, opts...)...)
}

// cancelAfter returns poll options that cancel ctx after n polls.
func cancelAfter(n int, cancel context.CancelFunc) *newssearch.PollOptions {
	return &newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, MaxWait: time.Minute,
		OnPoll: func(e newssearch.PollEvent) {
			if e.Attempt >= n {
				cancel()
			}
		}}
}

// drainUntil ranges over seq and stops after n items, or at an error.
func drainUntil[T any](seq iter.Seq2[T, error], n int) (int, error) {
	got := 0
	for _, err := range seq {
		if err != nil {
			return got, err
		}
		if got++; got == n {
			break
		}
	}
	return got, nil
}

// TestNoGoroutineLeftByCancelledPolls cancels Poll and Results (with and
// without a loop that stops early) while they wait for a job that never
// finishes, and lets one poll time out.
func TestNoGoroutineLeftByCancelledPolls(t *testing.T) {
	long(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	srv := noSocket(t, mockserver.WithFaults(mockserver.FaultRule{
		Endpoint: mockserver.EndpointQueryAsync, Fault: mockserver.Fault{Job: mockserver.JobStuck}}))
	c := srv.Client()
	params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election"}}
	job, err := c.SubmitQuery(testContext(t), params)
	if err != nil {
		t.Fatal(err)
	}
	for name, run := range map[string]func(ctx context.Context, cancel context.CancelFunc) error{
		"Poll": func(ctx context.Context, cancel context.CancelFunc) error {
			_, err := c.Poll(ctx, job.QueryID, cancelAfter(3, cancel))
			return err
		},
		"Poll after 2": func(ctx context.Context, cancel context.CancelFunc) error {
			_, err := c.Poll(ctx, job.QueryID, cancelAfter(2, cancel))
			return err
		},
		"Results": func(ctx context.Context, cancel context.CancelFunc) error {
			_, err := collect(c.Results(ctx, job.QueryID, &newssearch.PageOptions{Prefetch: 8}, cancelAfter(2, cancel)))
			return err
		},
		"Results until 100": func(ctx context.Context, cancel context.CancelFunc) error {
			_, err := drainUntil(c.Results(ctx, job.QueryID, &newssearch.PageOptions{Prefetch: 8}, cancelAfter(4, cancel)), 100)
			return err
		},
	} {
		ctx, cancel := context.WithCancel(testContext(t))
		err := run(ctx, cancel)
		cancel()
		if !errors.Is(err, context.Canceled) || !strings.Contains(fmt.Sprint(err), job.QueryID) {
			t.Errorf("%s: error %v, want context.Canceled, wrapped in a message naming the job", name, err)
		}
	}
	_, err = c.Poll(testContext(t), job.QueryID, &newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: time.Millisecond, MaxWait: 20 * time.Millisecond})
	if !errors.Is(err, newssearch.ErrPollTimeout) {
		t.Errorf("Poll with MaxWait: error %v, want ErrPollTimeout", err)
	}
}

// TestNoGoroutineLeftByBrokenIterators breaks out of every iterator with
// prefetching on while prefetched requests sit in injected latency, and
// lets a failing page end an iteration.
func TestNoGoroutineLeftByBrokenIterators(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	srv := noSocket(t)
	c := srv.Client()
	ctx := testContext(t)
	params := newssearch.SearchParams{Query: "company"}
	job, err := c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: params})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Poll(ctx, job.QueryID, fastPoll); err != nil {
		t.Fatal(err)
	}
	// From here every second page request waits five minutes, unless
	// cancelled. Setting the rule again restarts its count, so the first
	// request of each iterator gets no latency.
	stall := mockserver.FaultRule{Every: 2, Fault: mockserver.Fault{Latency: 5 * time.Minute}}
	opts := &newssearch.PageOptions{Prefetch: 32} // the most PageOptions.Prefetch accepts
	for name, run := range map[string]func() (int, error){
		"SearchAll": func() (int, error) { return drainUntil(c.SearchAll(ctx, params, opts), 1) },
		"Results":   func() (int, error) { return drainUntil(c.Results(ctx, job.QueryID, opts), 1) },
	} {
		if err := srv.SetFaults(stall); err != nil {
			t.Fatal(err)
		}
		if n, err := run(); n != 1 || err != nil {
			t.Errorf("%s: %d items, error %v; want 1 item", name, n, err)
		}
	}

	// A page that fails for good ends the iteration with its error.
	if err := srv.SetFaults(mockserver.FaultRule{Endpoint: mockserver.EndpointGetResults, Every: 3,
		Fault: mockserver.Fault{Status: http.StatusBadRequest}}); err != nil {
		t.Fatal(err)
	}
	n, err := drainUntil(c.Results(ctx, job.QueryID, &newssearch.PageOptions{Prefetch: 4}), 1_000_000)
	if !errors.Is(err, newssearch.ErrBadRequest) {
		t.Errorf("Results with a failing page: %d articles, error %v; want ErrBadRequest", n, err)
	}
}

// TestNoGoroutineLeftBySearchRangeFailures stops SearchRange by its
// deadline while windows' submissions sit in injected latency and a
// window's job has failed, keeps the results of the windows that did not
// fail, and cancels SearchRange from its progress callback.
func TestNoGoroutineLeftBySearchRangeFailures(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{
		Query: "election", StartDate: clock.Add(-60 * 24 * time.Hour), EndDate: clock}}
	failEvery3 := mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Every: 3, Fault: mockserver.Fault{Job: mockserver.JobFail}}
	stallEvery2 := mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Every: 2, Fault: mockserver.Fault{Latency: 5 * time.Minute}}

	// Submissions 2, 4 and 8 stall; the job of submission 3 fails.
	c := noSocket(t, mockserver.WithFaults(failEvery3, stallEvery2)).Client()
	ctx, cancel := context.WithTimeout(testContext(t), 300*time.Millisecond)
	defer cancel()
	_, err := c.SearchRange(ctx, params, fastPoll, &newssearch.PageOptions{Prefetch: 4})
	var re *newssearch.RangeError
	if !errors.As(err, &re) || !errors.Is(err, context.DeadlineExceeded) || len(re.Missing) == 0 {
		t.Errorf("SearchRange: error %v, want a *RangeError wrapping context.DeadlineExceeded", err)
	}

	c = noSocket(t, mockserver.WithFaults(failEvery3)).Client()
	got, err := c.SearchRange(testContext(t), params, fastPoll)
	if !errors.As(err, &re) || len(re.Missing) != 3 || len(got) == 0 || !errors.Is(err, newssearch.ErrJobFailed) {
		t.Errorf("SearchRange with failed windows: %d articles, error %v; want some articles and 3 failed windows", len(got), err)
	}

	c = noSocket(t).Client()
	ctx, cancel = context.WithCancel(testContext(t))
	defer cancel()
	got, err = c.SearchRange(ctx, params, fastPoll, &newssearch.RangeOptions{Concurrency: 2,
		OnProgress: func(newssearch.RangeProgress) { cancel() }})
	if !errors.Is(err, context.Canceled) || !errors.As(err, &re) || len(re.Finished) != 1 || len(got) != len(re.Finished[0].Articles) {
		t.Errorf("cancelled SearchRange: %d articles, error %v; want the first window's and context.Canceled", len(got), err)
	}
}

// TestNoGoroutineLeftByClose closes a socket server while requests wait
// in injected latency: every call returns, and neither the server nor
// the clients leave a goroutine.
func TestNoGoroutineLeftByClose(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	srv, err := mockserver.Start(mockserver.WithFaults(mockserver.FaultRule{Fault: mockserver.Fault{Latency: 5 * time.Minute}}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var sent atomic.Int64
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	c := srv.Client(newssearch.WithHTTPClient(&http.Client{Transport: countingTransport{transport, &sent}}), newssearch.WithMaxRetries(2))
	const calls = 8
	ctx := testContext(t)
	errs := make(chan error, calls)
	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, err = c.Search(ctx, newssearch.SearchParams{Query: "election"})
			} else {
				_, err = c.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election"}})
			}
			errs <- err
		})
	}
	for sent.Load() < calls { // every call has sent its request
		time.Sleep(time.Millisecond)
	}
	srv.Close()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("a call in flight when the server closed returned %v, want a connection error", err)
		}
	}
}
