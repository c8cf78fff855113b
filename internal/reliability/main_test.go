package reliability

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"os"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// longTestsEnv is the switch that runs the long scenarios (load, faults
// over many ranges, heap growth, cancelled polls): minutes under -race on
// two cores, so the default `go test ./...` leaves them out and .ci/run
// turns them on.
const longTestsEnv = "NEWSSEARCH_LONG_TESTS"

// long skips t unless NEWSSEARCH_LONG_TESTS=1 (or a soak size) is set, and
// under -short.
func long(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("long scenario: skipped under -short")
	}
	if os.Getenv(longTestsEnv) != "1" && os.Getenv(soakEnv) == "" {
		t.Skipf("long scenario: set %s=1 to run it (.ci/run does), e.g. %s=1 go test -race ./internal/reliability/", longTestsEnv, longTestsEnv)
	}
}

// clock is the fixed server clock of these tests: dates, and so results,
// are the same on every run.
var clock = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

// safety bounds every test's calls: a safety net against a hang, never an
// assertion.
const safety = 8 * time.Minute

// fastPoll polls jobs with millisecond waits.
var fastPoll = &newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond, MaxWait: time.Minute}

// newServer starts a mock server on a loopback socket at the fixed clock,
// closed when the test ends; opts come last and win.
func newServer(t testing.TB, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	srv, err := mockserver.Start(append([]mockserver.Option{mockserver.WithClock(func() time.Time { return clock })}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// testContext returns the safety-net context of one test.
func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	t.Cleanup(cancel)
	return ctx
}

// collect drains an article iterator, stopping at its error.
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

// duplicateIDs returns the article IDs that occur more than once.
func duplicateIDs(articles []newssearch.Article) []string {
	seen := map[string]int{}
	var dups []string
	for _, a := range articles {
		if seen[a.ID]++; seen[a.ID] == 2 {
			dups = append(dups, a.ID)
		}
	}
	return dups
}

// errorChain returns err and every error it wraps, depth first.
func errorChain(err error) []error {
	if err == nil {
		return nil
	}
	out := []error{err}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		out = append(out, errorChain(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, errorChain(e)...)
		}
	}
	return out
}

// decodeJSON decodes the JSON value r holds into v.
func decodeJSON(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
