package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/cmd/internal/buildinfo"
	"github.com/spf13/cobra"
)

func (a *app) searchCommand() *cobra.Command {
	var f searchFlags
	var page int
	var all bool
	var asyncOnly struct{ keyPhrases, sort string }
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Run a synchronous search and print one page of articles (--all: every page)",
		Long: `search runs a synchronous search (POST /api/v2/query) and prints one page of
articles (25), or with --all every page. The synchronous endpoint suits short
ranges (a week or less); use async or range for longer ones.`,
		Example: `  newssearch search "central bank" --since 7d --format csv > out.csv
  newssearch search "central bank" --site reuters.com --site bbc.co.uk --all --limit 100 | jq .title`,
		Args: argsBetween(1, 1<<20, "pass the search text, e.g. newssearch search \"central bank\""),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asyncOnly.keyPhrases != "" || asyncOnly.sort != "" {
				return usagef("--key-phrases and --sort are accepted only by async and range: the synchronous endpoint (search) does not take them")
			}
			p, d, err := f.params(strings.Join(args, " "), a.env.clock())
			if err != nil {
				return err
			}
			if page < 0 {
				return usagef("--page %d is negative: pages are numbered from 1", page)
			}
			if all && cmd.Flags().Changed("page") && page > 1 {
				return usagef("--page and --all conflict: --all starts at page 1")
			}
			c, err := a.client(nil)
			if err != nil {
				return err
			}
			sp := syncParams(p)
			sp.Page = page
			ctx := cmd.Context()
			if !all {
				resp, err := c.Search(ctx, sp)
				if err != nil {
					return err
				}
				if err := a.printArticles(cmd.OutOrStdout(), resp.Articles, f.limit); err != nil {
					return err
				}
				if resp.TotalResults == 0 && len(resp.Articles) == 0 {
					a.nothingMatched(ctx, p, d)
					return nil
				}
				if n, pages := resp.Number, resp.TotalPages(); n < pages {
					a.note("page %d of %d (%d articles in all): --page %d prints the next, --all every page", n, pages, resp.TotalResults, n+1)
				}
				return nil
			}
			out, err := a.newPrinter(cmd.OutOrStdout(), articleKind)
			if err != nil {
				return err
			}
			n := 0
			for art, err := range c.SearchAll(ctx, sp, &newssearch.PageOptions{Prefetch: 2}) {
				if err != nil {
					_ = out.close()
					return err
				}
				if err := out.write(&art); err != nil {
					return err
				}
				if n++; f.limit > 0 && n >= f.limit {
					break
				}
			}
			if n == 0 {
				a.nothingMatched(ctx, p, d)
			}
			return out.close()
		},
	}
	f.add(cmd, false)
	cmd.Flags().IntVar(&page, "page", 1, "page to print, from 1")
	cmd.Flags().BoolVar(&all, "all", false, "print every page (stop early with --limit)")
	cmd.Flags().StringVar(&asyncOnly.keyPhrases, "key-phrases", "", "")
	cmd.Flags().StringVar(&asyncOnly.sort, "sort", "", "")
	_ = cmd.Flags().MarkHidden("key-phrases")
	_ = cmd.Flags().MarkHidden("sort")
	return cmd
}

func (a *app) asyncCommand() *cobra.Command {
	var f searchFlags
	var noWait bool
	var maxWait time.Duration
	cmd := &cobra.Command{
		Use:   "async QUERY...",
		Short: "Submit an asynchronous query, wait for it and print its articles",
		Long: `async submits an asynchronous query (POST /api/v2/query-async), waits for it
with a spinner showing the job's state, and prints every article of it (or
--limit of them). With --no-wait it prints the job's query ID alone, at
once (with --format or --fields, the query ID and the job's state as a
record); fetch the articles later with 'newssearch results QUERY_ID'.`,
		Example: `  newssearch async "central bank" --from 2025-01-01 --to 2025-03-31 --sort date
  newssearch results $(newssearch async "central bank" --since 30d --no-wait)`,
		Args: argsBetween(1, 1<<20, "pass the search text, e.g. newssearch async \"central bank\""),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, d, err := f.params(strings.Join(args, " "), a.env.clock())
			if err != nil {
				return err
			}
			if maxWait < 0 {
				return usagef("--max-wait %s is negative: pass how long to wait for the job, e.g. 10m", maxWait)
			}
			c, err := a.client(nil)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			j, err := c.SubmitQuery(ctx, p)
			if err != nil {
				return err
			}
			if noWait {
				if a.format == "" && len(a.fields) == 0 {
					// The ID alone, so that
					// newssearch results $(newssearch async --no-wait ...)
					// works.
					a.note("query %s submitted: print its articles with 'newssearch results %s'", j.QueryID, j.QueryID)
					_, err := fmt.Fprintln(cmd.OutOrStdout(), j.QueryID)
					return err
				}
				out, err := a.newPrinter(cmd.OutOrStdout(), jobKind)
				if err != nil {
					return err
				}
				if err := out.write(&job{QueryID: j.QueryID, State: string(j.State)}); err != nil {
					return err
				}
				return out.close()
			}
			a.note("query %s submitted", j.QueryID)
			return a.printJob(cmd, c, j.QueryID, maxWait, f.limit, func() { a.nothingMatched(ctx, p, d) })
		},
	}
	f.add(cmd, true)
	cmd.Flags().BoolVar(&noWait, "no-wait", false, "print the query ID alone and return without waiting")
	cmd.Flags().DurationVar(&maxWait, "max-wait", 0, "give up waiting for the job after this long (default 10m)")
	return cmd
}

func (a *app) resultsCommand() *cobra.Command {
	var page, limit int
	var maxWait time.Duration
	cmd := &cobra.Command{
		Use:   "results QUERY_ID",
		Short: "Print the articles of a submitted asynchronous query",
		Long: `results prints the articles of the asynchronous query QUERY_ID (from
'newssearch async --no-wait'), waiting while it is pending. --page prints one
page without waiting.`,
		Args: argsBetween(1, 1, "pass one query ID, as 'newssearch async --no-wait' printed it"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if page < 0 || limit < 0 {
				return usagef("--page and --limit must not be negative")
			}
			c, err := a.client(nil)
			if err != nil {
				return err
			}
			noneMatched := func() { a.noteAlways("no articles matched: query %s", args[0]) }
			if page == 0 {
				return a.printJob(cmd, c, args[0], maxWait, limit, noneMatched)
			}
			rp, err := c.GetResults(cmd.Context(), args[0], page)
			if err != nil {
				return err
			}
			if rp.State.IsPending() {
				return fmt.Errorf("query %s is still %s: run the command again later, or leave out --page to wait for it", args[0], rp.State)
			}
			if len(rp.Articles) == 0 && rp.TotalResults == 0 {
				noneMatched()
			}
			return a.printArticles(cmd.OutOrStdout(), rp.Articles, limit)
		},
	}
	cmd.Flags().IntVar(&page, "page", 0, "print only this page (from 1), without waiting")
	cmd.Flags().IntVar(&limit, "limit", 0, "print at most this many articles (0: no limit)")
	cmd.Flags().DurationVar(&maxWait, "max-wait", 0, "give up waiting for the job after this long (default 10m)")
	return cmd
}

// printJob waits for the job with a spinner and prints its articles;
// noneMatched says that nothing matched.
func (a *app) printJob(cmd *cobra.Command, c *newssearch.Client, queryID string, maxWait time.Duration, limit int, noneMatched func()) error {
	sp := a.newSpinner("query " + queryID + ": waiting")
	defer sp.stop()
	poll := &newssearch.PollOptions{MaxWait: maxWait, OnPoll: func(ev newssearch.PollEvent) {
		sp.describe(fmt.Sprintf("query %s: %s (poll %d, %s)", ev.QueryID, ev.State, ev.Attempt, ev.Elapsed.Round(100*time.Millisecond)))
	}}
	out, err := a.newPrinter(cmd.OutOrStdout(), articleKind)
	if err != nil {
		return err
	}
	pages := &newssearch.PageOptions{Prefetch: 2, OnPage: func(p *newssearch.Page) {
		sp.describe(fmt.Sprintf("query %s: page %d of %d", queryID, p.Number, p.TotalPages()))
	}}
	n := 0
	for art, err := range c.Results(cmd.Context(), queryID, poll, pages) {
		if err != nil {
			sp.stop()
			_ = out.close()
			if cmd.Context().Err() != nil {
				return &interruptedError{msg: fmt.Sprintf("the query is still on the service: print its articles with 'newssearch results %s'", queryID)}
			}
			return err
		}
		if err := out.write(&art); err != nil {
			return err
		}
		if n++; limit > 0 && n >= limit {
			break
		}
	}
	sp.stop()
	if n == 0 {
		noneMatched()
	}
	return out.close()
}

func (a *app) headlinesCommand() *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "headlines",
		Short: "Print the current headline clusters (BETA endpoint)",
		Long: `headlines prints the current headline clusters (POST /api/v2/headlines, a
BETA endpoint of the service). Tables and CSV print one row per article with
its cluster's topic and count; json and jsonl print whole clusters unless
--fields is given. --limit N prints the first N clusters.`,
		Args: argsBetween(0, 0, "headlines takes no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 0 {
				return usagef("--limit %d is negative: pass the most clusters to print, or 0 for all", limit)
			}
			c, err := a.client(nil)
			if err != nil {
				return err
			}
			resp, err := c.Headlines(cmd.Context())
			if err != nil {
				return err
			}
			if limit > 0 && limit < len(resp.Headlines) {
				resp.Headlines = resp.Headlines[:limit]
			}
			format := a.outputFormat()
			if len(a.fields) == 0 && (format == "json" || format == "jsonl") {
				out, err := a.newPrinter(cmd.OutOrStdout(), clusterKind)
				if err != nil {
					return err
				}
				for i := range resp.Headlines {
					if err := out.write(&resp.Headlines[i]); err != nil {
						return err
					}
				}
				return out.close()
			}
			out, err := a.newPrinter(cmd.OutOrStdout(), headlineKind)
			if err != nil {
				return err
			}
			for i := range resp.Headlines {
				cl := &resp.Headlines[i]
				for j := range cl.Articles {
					if err := out.write(headlineRow{cluster: cl, article: &cl.Articles[j]}); err != nil {
						return err
					}
				}
			}
			return out.close()
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, "print at most this many clusters (0: no limit)")
	return cmd
}

// version is the release version, stamped by tools/dist/build with
// -ldflags "-X main.version=...". Empty in a plain go build or go install.
var version string

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of newssearch and of the SDK",
		Args:  argsBetween(0, 0, "version takes no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "newssearch %s\nSDK newssearch-go %s\n%s %s/%s\n",
				buildinfo.Version(version), newssearch.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}

func (a *app) completionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "Print a shell completion script",
		Long: `completion prints a script that completes newssearch's commands, flags and
flag values in your shell.

  bash: source <(newssearch completion bash)
        (or save it in /etc/bash_completion.d/newssearch; needs bash-completion)
  zsh:  newssearch completion zsh > "${fpath[1]}/_newssearch"
  fish: newssearch completion fish > ~/.config/fish/completions/newssearch.fish`,
		ValidArgs: []string{"bash", "zsh", "fish"},
		Args:      argsBetween(1, 1, "name the shell: bash, zsh or fish"),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, w := cmd.Root(), cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(w, true)
			case "zsh":
				return root.GenZshCompletion(w)
			case "fish":
				return root.GenFishCompletion(w, true)
			}
			return usagef("completion: %q is not a supported shell: use bash, zsh or fish", args[0])
		},
	}
}

// nothingMatched says on standard error, unless --quiet, that a search
// found no articles (standard output then has nothing but "[]" for --format
// json), and what could find some: a longer range only when one exists,
// fewer filters only when some were given, and --now when relative dates
// counted from another clock than the service's.
func (a *app) nothingMatched(ctx context.Context, p newssearch.AsyncSearchParams, d dates) {
	try := []string{"other words"}
	if r := longerRange(p, d); r != "" {
		try = append(try, "a longer range (e.g. "+r+")")
	}
	if len(p.Sites) > 0 || (p.Language != "" && !strings.EqualFold(string(p.Language), "all")) || p.TrafficRank > 0 || p.ToggleState != "" || p.KeyPhrases != "" {
		try = append(try, "fewer filters")
	}
	list := try[len(try)-1]
	if len(try) > 1 {
		list = strings.Join(try[:len(try)-1], ", ") + " or " + list
	}
	a.noteAlways("no articles matched: %s: try %s", describeSearch(p), list)
	if hint := a.clockHint(ctx, d); hint != "" {
		a.noteAlways("%s", hint)
	}
}

// longerRange returns a flag that searches a longer range than p's, ending
// where p's does: at least 30 days, and twice p's; "" when p has no start
// (the search already reached back to the service's first article).
func longerRange(p newssearch.AsyncSearchParams, d dates) string {
	if p.StartDate.IsZero() {
		return ""
	}
	end := cmp.Or(p.EndDate, d.now)
	days := max(30, 2*int(math.Ceil(end.Sub(p.StartDate).Hours()/24)))
	if since := d.now.AddDate(0, 0, -days); since.Before(p.StartDate) && since.Before(end) {
		return "--since " + strconv.Itoa(days) + "d"
	}
	return "--from " + end.UTC().AddDate(0, 0, -days).Format(time.DateOnly)
}

// clockHint asks the service for its clock when relative dates were used
// without --now, and says so when it differs from this machine's by a
// minute or more. Only newsmock answers GET /_mock/clock (of its default
// world: the request carries no key), so the real service is not asked;
// any failure means no hint.
func (a *app) clockHint(ctx context.Context, d dates) string {
	base := cmpOr(a.baseURL, a.env.getenv(newssearch.EnvBaseURL))
	if d.nowGiven || !(d.from.relative || d.to.relative) || base == "" || base == newssearch.DefaultBaseURL || a.quiet {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(strings.TrimRight(base, "/"), "/api/v2")+"/_mock/clock", nil)
	if err != nil {
		return ""
	}
	t := a.env.transport
	if t == nil {
		t = http.DefaultTransport
	}
	resp, err := (&http.Client{Transport: t}).Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var clock struct{ Now time.Time }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 4<<10)).Decode(&clock) != nil || clock.Now.IsZero() {
		return ""
	}
	diff, way := clock.Now.Sub(d.now), "ahead of"
	if diff < 0 {
		diff, way = -diff, "behind"
	}
	if diff < time.Minute {
		return ""
	}
	span := fmt.Sprintf("%dh%02dm", int(diff.Hours()), int(diff.Minutes())%60)
	if diff >= 48*time.Hour {
		span = strconv.Itoa(int(diff.Hours()/24)) + " days"
	}
	now := clock.Now.UTC().Format(time.RFC3339)
	return fmt.Sprintf("The service's clock reads %s, %s %s this machine's, and relative dates (--since 7d) count from this machine's: add --now %s to count them from the service's.", now, span, way, now)
}

// describeSearch names a search's text and filters for a message.
func describeSearch(p newssearch.AsyncSearchParams) string {
	parts := []string{strconv.Quote(p.Query)}
	const layout = "2006-01-02 15:04"
	switch {
	case !p.StartDate.IsZero() && !p.EndDate.IsZero():
		parts[0] += " from " + p.StartDate.UTC().Format(layout) + " to " + p.EndDate.UTC().Format(layout) + " UTC"
	case !p.StartDate.IsZero():
		parts[0] += " since " + p.StartDate.UTC().Format(layout) + " UTC"
	case !p.EndDate.IsZero():
		parts[0] += " until " + p.EndDate.UTC().Format(layout) + " UTC"
	}
	if len(p.Sites) > 0 {
		parts = append(parts, "--site "+strings.Join(p.Sites, ","))
	}
	if p.Language != "" {
		parts = append(parts, "--lang "+string(p.Language))
	}
	if p.TrafficRank > 0 {
		parts = append(parts, "--traffic-rank "+strconv.Itoa(p.TrafficRank))
	}
	if p.ToggleState != "" {
		parts = append(parts, "--encoded")
	}
	if p.KeyPhrases != "" {
		parts = append(parts, "--key-phrases "+shellQuote(p.KeyPhrases))
	}
	return strings.Join(parts, ", ")
}

// noteAlways prints an informational line on stderr, unless --quiet.
func (a *app) noteAlways(format string, args ...any) {
	if !a.quiet {
		fmt.Fprintf(a.env.stderr, format+"\n", args...)
	}
}

// note prints an informational line on a terminal stderr (never with
// --quiet, never into a pipe).
func (a *app) note(format string, args ...any) {
	if a.env.stderrTTY && !a.quiet {
		fmt.Fprintf(a.env.stderr, format+"\n", args...)
	}
}
