package mockserver_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// TestSynctest is the README's example: a server made inside a
// testing/synctest bubble, without a socket, runs on the bubble's fake
// clock, so a job pending for 10 minutes is polled to the end at once.
func TestSynctest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := mockserver.New(mockserver.WithoutListener(), mockserver.WithPendingDuration(10*time.Minute))
		defer srv.Close()
		client := srv.Client()
		ctx := context.Background()

		start := time.Now() // the bubble's clock: 2000-01-01 00:00 UTC
		job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "bank"}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.Poll(ctx, job.QueryID, &newssearch.PollOptions{MaxWait: time.Hour, MinDelay: time.Second, MaxDelay: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(start); waited < 10*time.Minute || res.TotalResults == 0 {
			t.Fatalf("waited %v on the bubble's clock for %d results", waited, res.TotalResults)
		}
		// Dates follow the bubble's clock too: the corpus ends at its now.
		week, err := client.Search(ctx, newssearch.SearchParams{Query: "bank", StartDate: time.Now().AddDate(0, 0, -7), EndDate: time.Now()})
		if err != nil || week.TotalResults == 0 {
			t.Fatalf("last week's articles: %v, %+v", err, week)
		}
	})
}

func TestSynctestListenerFailsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := mockserver.Start()
		if srv != nil || err == nil || !strings.HasPrefix(err.Error(), "mockserver: a server with a socket cannot run inside a testing/synctest bubble") ||
			!strings.Contains(err.Error(), "pass mockserver.WithoutListener()") {
			t.Fatalf("Start inside a bubble: %v, %v", srv, err)
		}
	})
}

func TestSynctestServerFromOutsideFailsAtOnce(t *testing.T) {
	srv := mockserver.New(mockserver.WithoutListener())
	synctest.Test(t, func(t *testing.T) {
		_, err := srv.Client(newssearch.WithMaxRetries(0)).Headlines(context.Background())
		if err == nil || !strings.Contains(err.Error(), "mockserver: this request comes from inside a testing/synctest bubble, but the server was created outside it") {
			t.Fatalf("request from inside the bubble: %v", err)
		}
	})
	srv.Close() // must not kill the test binary
	if _, err := srv.Transport().RoundTrip(newRequest(t)); err == nil || !strings.Contains(err.Error(), "the server is closed") {
		t.Fatalf("after Close: %v", err)
	}
}

func TestSynctestServerUsedAfterItsBubble(t *testing.T) {
	var srv *mockserver.Server
	synctest.Test(t, func(t *testing.T) {
		srv = mockserver.New(mockserver.WithoutListener())
		if _, err := srv.Client().Headlines(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	_, err := srv.Transport().RoundTrip(newRequest(t))
	if err == nil || !strings.HasPrefix(err.Error(), "mockserver: this request comes from outside the testing/synctest bubble the server was created in") {
		t.Fatalf("request from outside: %v", err)
	}
	defer func() {
		p := recover()
		if msg, _ := p.(string); !strings.HasPrefix(msg, "mockserver: Close called outside the testing/synctest bubble") {
			t.Fatalf("Close outside the bubble: panic %v", p)
		}
	}()
	srv.Close()
}

func newRequest(t *testing.T) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://mock.invalid/api/v2/headlines", strings.NewReader(`{"api_key":"k"}`))
	if err != nil {
		t.Fatal(err)
	}
	return req
}
