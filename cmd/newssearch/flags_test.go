package main

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFlagsReachTheService runs search, async and range with every search
// flag and compares the request bodies the mock's journal kept with the
// parameters the flags stand for.
func TestFlagsReachTheService(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		path string
		want map[string]any
	}{
		{
			name: "search",
			args: []string{"search", "central", "bank", "--site", "a.com", "--site", "b.com, c.com", "--since", "36h", "--to", "now",
				"--lang", "es", "--traffic-rank", "10", "--encoded", "--embeddings", "--page", "2"},
			path: "/api/v2/query",
			want: map[string]any{"api_key": "[redacted]", "query": "central bank", "page": 2.0, "sites": []any{"a.com", "b.com", "c.com"},
				"start_date": "2025-03-13T00:00:00.000Z", "end_date": "2025-03-14T12:00:00.000Z", "language": "es", "traffic_rank": 10.0,
				"toggle_state": "Encoded Articles", "embeddings": true},
		},
		{
			name: "async",
			args: []string{"async", "central bank", "--site", "a.com", "--from", "2025-01-01", "--to", "2025-01-31", "--lang", "English",
				"--traffic-rank", "50", "--embeddings", "--key-phrases", "('rates' or 'inflation') and not 'crypto'", "--sort", "date", "--no-wait"},
			path: "/api/v2/query-async",
			want: map[string]any{"api_key": "[redacted]", "query": "central bank", "page": 1.0, "sites": []any{"a.com"},
				"start_date": "2025-01-01T00:00:00.000Z", "end_date": "2025-01-31T23:59:59.999Z", "language": "English", "traffic_rank": 50.0,
				"embeddings": true, "key_phrases": "('rates' or 'inflation') and not 'crypto'", "sort_order": "Date Published"},
		},
		{
			name: "range",
			args: []string{"range", "central bank", "--from", "2025-01-01T06:00:00+01:00", "--to", "2025-01-01T17:00:00Z", "--window", "1d",
				"--encoded", "--sort", "relevance", "--key-phrases", "'rates'"},
			path: "/api/v2/query-async",
			want: map[string]any{"api_key": "[redacted]", "query": "central bank", "page": 1.0,
				"start_date": "2025-01-01T05:00:00.000Z", "end_date": "2025-01-01T17:00:00.000Z", "toggle_state": "Encoded Articles",
				"key_phrases": "'rates'", "sort_order": "Relevance"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newMock(t)
			r := runCLI(t, srv, runOpts{}, append(tc.args, "-o", "csv")...)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			var got map[string]any
			for _, e := range srv.Journal() {
				if e.Path == tc.path {
					if err := json.Unmarshal([]byte(e.Body), &got); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("the request body differs (-want +got):\n%s", diff)
			}
		})
	}
}
