package main

import (
	"errors"
	"net"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/mockserver"
)

// goldenCase is one command line whose output is kept in testdata/golden.
type goldenCase struct {
	name string
	args []string
	opts runOpts
	// before runs first on the same server (e.g. async --no-wait before
	// results).
	before []string
	// mock are options of the case's mock server.
	mock []mockserver.Option
}

func TestGolden(t *testing.T) {
	t.Parallel()
	week := []string{"--from", "2025-03-07", "--to", "2025-03-14"}
	with := func(base []string, more ...string) []string { return append(append([]string{}, base...), more...) }
	cases := []goldenCase{
		// search: every format, fields, paging.
		{name: "search_default_pipe", args: with([]string{"search", "election"}, week...)},
		{name: "search_tty_table", args: with([]string{"search", "election", "--limit", "8"}, week...), opts: runOpts{stdoutTTY: true}},
		{name: "search_table", args: with([]string{"search", "election", "--format", "table", "--limit", "5"}, week...)},
		{name: "search_json", args: with([]string{"search", "election", "--format", "json", "--limit", "2"}, week...)},
		{name: "search_jsonl", args: with([]string{"search", "election", "--format", "jsonl", "--limit", "2"}, week...)},
		{name: "search_csv", args: with([]string{"search", "election", "--format", "csv"}, week...)},
		{name: "search_fields_json", args: with([]string{"search", "election", "-o", "json", "--fields", "id,date,title,score", "--limit", "3"}, week...)},
		{name: "search_fields_csv", args: with([]string{"search", "election", "-o", "csv", "--fields", "title,topics,image,sentiment"}, week...)},
		{name: "search_page2", args: with([]string{"search", "election", "-o", "csv", "--fields", "_id", "--page", "2"}, week...)},
		{name: "search_all_limit", args: with([]string{"search", "election", "-o", "csv", "--fields", "_id,datePublished", "--all", "--limit", "40"}, week...)},
		{name: "search_filters", args: []string{"search", "election", "--since", "30d", "--lang", "en", "--traffic-rank", "50", "--site", "summitcourier.co.uk,nationalnews.ca", "--site", "oakherald.co.nz", "--encoded", "-o", "table"}},
		// async and results.
		{name: "async_jsonl", args: with([]string{"async", "earthquake", "--fields", "_id,title", "--sort", "date"}, "--since", "60d")},
		{name: "async_table_limit", args: with([]string{"async", "earthquake", "-o", "table", "--limit", "4"}, "--since", "60d")},
		{name: "async_csv", args: with([]string{"async", "earthquake", "-o", "csv", "--key-phrases", "'earthquake'", "--limit", "6"}, "--since", "60d")},
		{name: "async_json", args: []string{"async", "earthquake", "--since", "60d", "-o", "json", "--limit", "2"}},
		{name: "async_no_wait", args: []string{"async", "earthquake", "--since", "60d", "--no-wait", "-o", "table"}},
		{name: "async_no_wait_json", args: []string{"async", "earthquake", "--since", "60d", "--no-wait", "-o", "json"}},
		{name: "results_all", before: []string{"async", "earthquake", "--since", "60d", "--no-wait"},
			args: []string{"results", "q_REPLACED", "-o", "csv", "--fields", "_id,title"}},
		{name: "results_page_pending", before: []string{"async", "earthquake", "--since", "60d", "--no-wait"},
			args: []string{"results", "q_REPLACED", "--page", "2", "-o", "jsonl", "--fields", "_id"}},
		{name: "results_page", mock: []mockserver.Option{mockserver.WithPendingPolls(0)}, before: []string{"async", "earthquake", "--since", "60d", "--no-wait"},
			args: []string{"results", "q_REPLACED", "--page", "2", "-o", "jsonl", "--fields", "_id"}},
		{name: "results_table", before: []string{"async", "earthquake", "--since", "60d", "--no-wait"},
			args: []string{"results", "q_REPLACED", "-o", "table", "--limit", "4"}},
		{name: "results_json", before: []string{"async", "earthquake", "--since", "60d", "--no-wait"},
			args: []string{"results", "q_REPLACED", "-o", "json", "--fields", "_id,datePublished", "--limit", "3"}},
		{name: "results_unknown", args: []string{"results", "no-such-query"}},
		// range.
		{name: "range_csv", args: []string{"range", "earthquake", "--from", "2025-01-01", "--to", "2025-03-01", "--window", "14d", "-o", "csv", "--fields", "_id,datePublished,score", "--limit", "12"}},
		{name: "range_json_date", args: []string{"range", "earthquake", "--since", "21d", "--sort", "date", "-o", "json", "--fields", "_id,datePublished", "--limit", "3"}},
		{name: "range_jsonl", args: []string{"range", "earthquake", "--since", "30d", "--window", "10d", "--fields", "_id,score", "--limit", "3"}},
		{name: "range_table", args: []string{"range", "earthquake", "--since", "90d", "--window", "30d", "--concurrency", "2", "-o", "table", "--limit", "5"}},
		// headlines.
		{name: "headlines_table", args: []string{"headlines", "-o", "table"}},
		{name: "headlines_json", args: []string{"headlines", "-o", "json"}},
		{name: "headlines_jsonl", args: []string{"headlines"}},
		{name: "headlines_csv", args: []string{"headlines", "-o", "csv"}},
		{name: "headlines_fields_jsonl", args: []string{"headlines", "--fields", "topic,count,title"}},
		// check.
		{name: "check_table", args: []string{"check", "-o", "table"}},
		{name: "check_tty_color", args: []string{"check"}, opts: runOpts{stdoutTTY: true}},
		{name: "check_tty_no_color", args: []string{"check"}, opts: runOpts{stdoutTTY: true, env: map[string]string{"NO_COLOR": "1"}}},
		{name: "check_tty_term_dumb", args: []string{"check"}, opts: runOpts{stdoutTTY: true, env: map[string]string{"TERM": "dumb"}}},
		{name: "check_json", args: []string{"check", "-o", "json"}},
		{name: "check_jsonl", args: []string{"check"}},
		// version, completion, help.
		{name: "api_key_file_stdin", args: []string{"headlines", "--api-key-file", "-", "-o", "csv", "--fields", "topic,count"},
			mock: []mockserver.Option{mockserver.WithAPIKeys("key-from-a-file")},
			opts: runOpts{stdin: "key-from-a-file\n", env: map[string]string{"NEWSSEARCH_API_KEY": "sk-canary-ignored"}}},
		{name: "api_key_file", args: []string{"headlines", "--api-key-file", "testdata/keys/one-line.txt", "-o", "csv", "--fields", "topic,count"},
			mock: []mockserver.Option{mockserver.WithAPIKeys("key-from-a-file")}, opts: runOpts{env: map[string]string{"NEWSSEARCH_API_KEY": ""}}},
		{name: "version", args: []string{"version"}},
		{name: "completion_bash", args: []string{"completion", "bash"}},
		{name: "completion_zsh", args: []string{"completion", "zsh"}},
		{name: "completion_fish", args: []string{"completion", "fish"}},
		{name: "complete_commands", args: []string{"__complete", ""}},
		{name: "complete_format", args: []string{"__complete", "search", "--format", ""}},
		{name: "complete_sort", args: []string{"__complete", "range", "x", "--sort", ""}},
		{name: "complete_fields", args: []string{"__complete", "search", "x", "--fields", "title,da"}},
		{name: "complete_headline_fields", args: []string{"__complete", "headlines", "--fields", "topic,"}},
		{name: "help", args: []string{"--help"}},
		{name: "help_range", args: []string{"range", "--help"}},
		{name: "help_fields", args: []string{"help", "fields"}},
		// usage errors (exit 2) and service errors (exit 1).
		{name: "err_no_query", args: []string{"search"}},
		{name: "err_key_flag", args: []string{"search", "x", "--api-key", "sk-canary-0123"}},
		{name: "err_no_key", args: []string{"headlines"}, opts: runOpts{env: map[string]string{"NEWSSEARCH_API_KEY": ""}}},
		{name: "err_bad_format", args: []string{"headlines", "-o", "xml"}},
		{name: "err_bad_field", args: []string{"search", "x", "--fields", "title,nope"}},
		{name: "err_bad_date", args: []string{"search", "x", "--from", "yesterday"}},
		{name: "err_reversed_dates", args: []string{"search", "x", "--from", "2025-03-02", "--to", "2025-03-01"}},
		{name: "err_traffic_rank", args: []string{"search", "x", "--traffic-rank", "120"}},
		{name: "err_sync_key_phrases", args: []string{"search", "x", "--key-phrases", "'x'"}},
		{name: "err_key_phrases_quotes", args: []string{"async", "x", "--since", "1d", "--key-phrases", `"elon musk" or 'tesla'`}},
		{name: "err_key_phrases_upper", args: []string{"range", "x", "--since", "7d", "--key-phrases", "'elon' AND 'musk'"}},
		{name: "err_range_no_start", args: []string{"range", "x"}},
		{name: "err_range_window", args: []string{"range", "x", "--since", "7d", "--window", "fortnight"}},
		{name: "err_unknown_flag", args: []string{"search", "x", "--colour"}},
		{name: "err_unknown_command", args: []string{"serach", "x"}},
		{name: "err_check_csv", args: []string{"check", "-o", "csv"}},
		{name: "err_bad_lang", args: []string{"search", "x", "--lang", "klingon", "--since", "1d"}},
		{name: "err_since_too_long", args: []string{"search", "x", "--since", "100000w"}},
		{name: "err_api_key_file_missing", args: []string{"headlines", "--api-key-file", "testdata/keys/no-such-file"}},
		{name: "err_api_key_file_two_lines", args: []string{"headlines", "--api-key-file", "testdata/keys/two-lines.txt"}},
		{name: "err_api_key_file_empty", args: []string{"headlines", "--api-key-file", "testdata/keys/empty.txt"}},
		{name: "err_server", args: []string{"headlines", "--max-retries", "2"},
			mock: []mockserver.Option{mockserver.WithFaults(mockserver.FaultRule{Endpoint: "headlines", Fault: mockserver.Fault{Status: 503}})}},
		{name: "err_unreachable", args: []string{"headlines", "--max-retries", "1"}, opts: runOpts{transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
		})}},
		{name: "err_timeout", args: []string{"headlines", "--max-retries", "0"}, opts: runOpts{transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
			return nil, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
		})}},
		{name: "err_job_failed", mock: []mockserver.Option{mockserver.WithFaults(mockserver.FaultRule{Endpoint: "query-async", Fault: mockserver.Fault{Job: mockserver.JobFail}})},
			args: []string{"async", "earthquake", "--since", "60d"}},
		{name: "err_unauthorized", args: []string{"headlines"}, opts: runOpts{env: map[string]string{"NEWSSEARCH_API_KEY": "sk-canary-wrong-key"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newMock(t, append(mockKeys(tc.name), tc.mock...)...)
			args := tc.args
			if tc.before != nil {
				r := runCLI(t, srv, runOpts{}, append(tc.before, "-o", "csv", "--fields", "query_id")...)
				if r.code != 0 {
					t.Fatalf("%v: exit %d, stderr %q", tc.before, r.code, r.stderr)
				}
				lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
				id := lines[len(lines)-1]
				args = append([]string{}, args...)
				for i, a := range args {
					if a == "q_REPLACED" {
						args[i] = id
					}
				}
			}
			r := runCLI(t, srv, tc.opts, args...)
			if tc.name == "version" {
				r.stdout = strings.Replace(r.stdout, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH, "GOVERSION GOOS/GOARCH", 1)
			}
			r.stderr = requestIDs.ReplaceAllString(r.stderr, "request ID REQ")
			for _, s := range []string{r.stdout, r.stderr} {
				for _, key := range []string{srv.APIKey(), "sk-canary"} {
					if strings.Contains(s, key) {
						t.Errorf("the output shows the API key %q:\n%s", key, s)
					}
				}
			}
			golden(t, tc.name, args, r)
		})
	}
}

// requestIDs matches the request IDs in error messages (seeded, but they
// would change with every request added before them).
var requestIDs = regexp.MustCompile(`(?i)request id [0-9a-zA-Z_-]+`)

// mockKeys makes the unauthorized case's server accept only its own key.
func mockKeys(name string) []mockserver.Option {
	if name == "err_unauthorized" {
		return []mockserver.Option{mockserver.WithAPIKeys("the-only-valid-key")}
	}
	return nil
}
