package newssearch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// closeCounter is a caller's transport that counts CloseIdleConnections
// calls: the client must never close the caller's pooled connections,
// which the rest of the program shares.
type closeCounter struct {
	rt     http.RoundTripper
	closes atomic.Int32
}

func (c *closeCounter) RoundTrip(r *http.Request) (*http.Response, error) { return c.rt.RoundTrip(r) }

func (c *closeCounter) CloseIdleConnections() { c.closes.Add(1) }

func TestCallerIdleConnectionsNeverClosed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  func(t *testing.T, c *Client, f *fakeService)
	}{
		{"break out of a prefetching SearchAll", func(t *testing.T, c *Client, f *fakeService) {
			// Pages 2 to 5 are prefetched and held by the service; the loop
			// ends once they have all arrived, so they are cancelled in
			// flight.
			arrived := make(chan struct{}, 4)
			f.hold = func(path string, page int) bool {
				if path == pathQuery && page > 1 {
					arrived <- struct{}{}
					return true
				}
				return false
			}
			for _, err := range c.SearchAll(t.Context(), SearchParams{Query: "cars"}, &PageOptions{Prefetch: 4}) {
				if err != nil {
					t.Fatal(err)
				}
				for range 4 {
					<-arrived
				}
				break
			}
		}},
		{"a failing SearchRange window", func(t *testing.T, c *Client, f *fakeService) {
			f.status = map[string]int{pathGetResults: http.StatusNotFound}
			if _, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll, &PageOptions{Prefetch: 2}); err == nil {
				t.Fatal("SearchRange succeeded, want a window error")
			}
		}},
		{"retries exhausted", func(t *testing.T, c *Client, f *fakeService) {
			f.status = map[string]int{pathQuery: http.StatusBadGateway}
			if _, err := c.Search(t.Context(), SearchParams{Query: "cars"}); err == nil {
				t.Fatal("Search succeeded, want a 502 after the retries")
			}
		}},
		{"a cancelled call", func(t *testing.T, c *Client, f *fakeService) {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if _, err := c.Search(ctx, SearchParams{Query: "cars"}); err == nil {
				t.Fatal("Search with a cancelled context succeeded")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(rangeArticles())
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			counter := &closeCounter{rt: srv.Client().Transport}
			c := newTestClient(t, srv.URL, &http.Client{Transport: counter},
				WithMaxRetries(3), WithRetryWait(time.Millisecond, time.Millisecond))
			tt.run(t, c, f)
			if n := counter.closes.Load(); n != 0 {
				t.Errorf("CloseIdleConnections was called %d times on the caller's transport, want 0", n)
			}
		})
	}
}
