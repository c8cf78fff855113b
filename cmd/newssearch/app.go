package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/cmd/internal/buildinfo"
	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK          = 0
	exitError       = 1 // the service, the network or a file failed
	exitUsage       = 2 // the command line is wrong
	exitInterrupted = 130
)

// env is the world a run sees: tests replace every part of it.
type env struct {
	stdin     io.Reader
	stdout    io.Writer
	stderr    io.Writer
	getenv    func(string) string
	stdoutTTY bool
	stderrTTY bool
	// stdoutWidth returns the width of the terminal standard output is,
	// in columns, or 0 when it is not one or its size is unknown; nil
	// means 0.
	stdoutWidth func() int
	// now is the clock relative dates are computed from; nil means
	// time.Now.
	now func() time.Time
	// transport carries every request; nil means http.DefaultTransport
	// (tests pass an in-process mock's).
	transport http.RoundTripper
	// clientOptions are appended to the options of every client (tests
	// use them to poll fast).
	clientOptions []newssearch.Option
	// afterWindow, when set, is called by range after each window is
	// saved (tests use it to interrupt a run at a known point).
	afterWindow func(done int)
	// cacheDir is where range keeps the windows of a failed run made
	// without --resume; nil means os.UserCacheDir.
	cacheDir func() (string, error)
}

func (e *env) clock() time.Time {
	if e.now != nil {
		return e.now()
	}
	return time.Now()
}

// usageError is a mistake on the command line (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// interruptedError reports a run stopped by Ctrl-C; msg says what was done.
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return e.msg }

// nextStepError is a failure (err) after which the run kept something:
// next says what, and how to go on; it is printed after err's hint.
type nextStepError struct {
	err  error
	next string
}

func (e *nextStepError) Error() string { return e.err.Error() + "\n" + e.next }

func (e *nextStepError) Unwrap() error { return e.err }

// app holds the parsed global flags and the environment of one run.
type app struct {
	env  *env
	args []string // the command line, for the command a message suggests

	baseURL    string
	apiKeyFile string
	apiKeyFlag string // only to refuse it
	format     string
	fields     []string
	quiet      bool
	noProgress bool
	verbose    bool
	maxRetries int
	wide       bool
	timeout    time.Duration

	// attempts counts the attempts of each request, for the messages of
	// failed calls.
	attempts *attemptLog
}

// run executes the command line args and returns the exit code.
func run(ctx context.Context, e *env, args []string) int {
	a := &app{env: e, args: args}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var ue *usageError
	var ie *interruptedError
	var ve *newssearch.ValidationError
	if ns, ok := err.(*nextStepError); ok {
		err = ns.err
		if ns.next != "" {
			defer fmt.Fprintln(e.stderr, ns.next)
		}
	}
	switch {
	case errors.As(err, &ie):
		fmt.Fprintln(e.stderr, "newssearch: interrupted: "+ie.msg)
		return exitInterrupted
	case ctx.Err() != nil:
		fmt.Fprintln(e.stderr, "newssearch: interrupted")
		return exitInterrupted
	case errors.As(err, &ue) || cobraUsage(err):
		fmt.Fprintln(e.stderr, message(err))
		fmt.Fprintln(e.stderr, "Run 'newssearch --help' for usage.")
		return exitUsage
	case errors.As(err, &ve):
		fmt.Fprintln(e.stderr, message(err))
		return exitUsage
	}
	fmt.Fprintln(e.stderr, message(err))
	if apiErr, ok := badRequest(err); ok {
		hint, flagged := badRequestHint(cmd, apiErr)
		fmt.Fprintln(e.stderr, hint)
		if flagged { // the service refused a flag's value: a usage error
			return exitUsage
		}
		return exitError
	}
	if hint := a.hintFor(err); hint != "" {
		fmt.Fprintln(e.stderr, hint)
	}
	return exitError
}

// badRequestHint says what to change when the service refused a request as
// invalid, and whether its message names a flag given on the command line
// (the service judged the flag's value: the run is a usage error).
func badRequestHint(cmd *cobra.Command, e *newssearch.APIError) (string, bool) {
	msg := strings.ToLower(e.Message)
	for _, f := range []struct{ flag, word, example string }{
		{"lang", "language", "--lang en, or --lang all"},
		{"traffic-rank", "traffic_rank", "--traffic-rank 50"},
		{"key-phrases", "key_phrases", `--key-phrases "('elon' or 'musk') and not 'sam altman'"`},
		{"site", "site", "--site reuters.com"},
	} {
		if cmd == nil {
			break
		}
		fl := cmd.Flags().Lookup(f.flag)
		if fl == nil || !fl.Changed || !strings.Contains(msg, f.word) {
			continue
		}
		value := fl.Value.String()
		if sv, ok := fl.Value.(interface{ GetSlice() []string }); ok {
			value = strings.Join(sv.GetSlice(), ",")
		}
		return fmt.Sprintf("The service refused --%s %s: change it as the message above says, e.g. %s.", f.flag, shellQuote(value), f.example), true
	}
	return "The service refused the request as invalid: change what the message above names and run the command again.", false
}

// cobraUsage reports the command-line errors cobra makes itself.
func cobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command ") || strings.HasPrefix(msg, "unknown flag") ||
		strings.HasPrefix(msg, "unknown shorthand flag") || strings.HasPrefix(msg, "invalid argument")
}

// hintFor suggests what to do about a failed call.
func (a *app) hintFor(err error) string {
	var apiErr *newssearch.APIError
	var netErr net.Error
	switch {
	case errors.Is(err, newssearch.ErrServer):
		return a.serverHint(a.attempts.serverAttempts(err))
	case !errors.As(err, &apiErr) && errors.As(err, &netErr):
		base := cmpOr(a.baseURL, a.env.getenv(newssearch.EnvBaseURL), newssearch.DefaultBaseURL)
		if netErr.Timeout() {
			return fmt.Sprintf("The service at %s did not answer in time: try again later (or raise --timeout), and check --base-url or %s.", base, newssearch.EnvBaseURL)
		}
		return fmt.Sprintf("Could not reach the service at %s: check --base-url or %s, and the network.", base, newssearch.EnvBaseURL)
	case errors.Is(err, newssearch.ErrUnauthorized):
		return "The service refused the API key: set " + newssearch.EnvAPIKey + " (or --api-key-file) to a valid key."
	case errors.Is(err, newssearch.ErrRateLimited):
		return "The service is rate limiting this key: wait a minute, or lower --concurrency."
	case errors.Is(err, newssearch.ErrPollTimeout):
		return "The job is still running: fetch it later with 'newssearch results QUERY_ID', or raise --max-wait."
	}
	return ""
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "newssearch",
		Short: "Search the news search service (the Athena News API) from the command line",
		Long: `newssearch searches the news search service (the Athena News API).

The API key comes from the ` + newssearch.EnvAPIKey + ` environment variable or
from the file named by --api-key-file; there is no flag taking the key itself,
since command lines are visible to other users in ps. The service's address
comes from --base-url or ` + newssearch.EnvBaseURL + ` (default ` + newssearch.DefaultBaseURL + `).

Output is a table on a terminal and JSON Lines otherwise (--format changes it).
Progress bars and logs go to standard error, and only when it is a terminal.

Exit codes: 0 success, 1 the service or the network failed, 2 usage error,
130 interrupted (Ctrl-C).`,
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("api-key") {
				return usagef("--api-key is not accepted: a key on the command line shows in ps and in shell history; set %s or pass --api-key-file FILE", newssearch.EnvAPIKey)
			}
			return a.checkFormat()
		},
	}
	root.SetFlagErrorFunc(flagError)
	pf := root.PersistentFlags()
	pf.StringVar(&a.baseURL, "base-url", "", "base URL of the service (default $"+newssearch.EnvBaseURL+" or "+newssearch.DefaultBaseURL+")")
	pf.StringVar(&a.apiKeyFile, "api-key-file", "", "read the API key from this file (default $"+newssearch.EnvAPIKey+"); - reads standard input")
	pf.StringVar(&a.apiKeyFlag, "api-key", "", "not accepted: use $"+newssearch.EnvAPIKey+" or --api-key-file")
	_ = pf.MarkHidden("api-key")
	pf.StringVarP(&a.format, "format", "o", "", "output format: table, json, jsonl or csv (default table on a terminal, jsonl otherwise)")
	pf.StringSliceVar(&a.fields, "fields", nil, "comma-separated fields to print (see 'newssearch help fields')")
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "print no progress and no logs")
	pf.BoolVar(&a.noProgress, "no-progress", false, "print no progress bar or spinner")
	pf.BoolVarP(&a.verbose, "verbose", "v", false, "log every request to standard error, even when it is not a terminal")
	pf.IntVar(&a.maxRetries, "max-retries", newssearch.DefaultMaxRetries, "retries of a failed request")
	pf.BoolVar(&a.wide, "wide", false, "print tables at full width, even if lines are wider than the terminal")
	pf.DurationVar(&a.timeout, "timeout", newssearch.DefaultAttemptTimeout, "give up on one attempt of a request after this long (it is then retried, as --max-retries allows)")
	_ = root.RegisterFlagCompletionFunc("format", fixedCompletion("table", "json", "jsonl", "csv"))
	_ = root.RegisterFlagCompletionFunc("fields", func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return completeFields(fieldNamesFor(cmd.Name()), toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})

	root.AddCommand(a.searchCommand(), a.asyncCommand(), a.resultsCommand(), a.rangeCommand(),
		a.headlinesCommand(), a.checkCommand(), a.versionCommand(), a.completionCommand(), fieldsHelpTopic())
	return root
}

// completeFields completes the last name of a comma-separated --fields
// value: each candidate is the whole value so far with one more field not
// yet named.
func completeFields(names []string, toComplete string) []string {
	i := strings.LastIndexByte(toComplete, ',')
	done, partial := toComplete[:i+1], toComplete[i+1:]
	chosen := strings.Split(done, ",")
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, partial) && !slices.Contains(chosen, n) {
			out = append(out, done+n)
		}
	}
	return out
}

func fixedCompletion(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// checkFormat validates --format.
func (a *app) checkFormat() error {
	switch a.format {
	case "", "table", "json", "jsonl", "csv":
		return nil
	}
	return usagef("--format %q is not a format: use table, json, jsonl or csv", a.format)
}

// outputFormat is --format, or the default for where stdout goes.
func (a *app) outputFormat() string {
	if a.format != "" {
		return a.format
	}
	if a.env.stdoutTTY {
		return "table"
	}
	return "jsonl"
}

// tableWidth is the most columns a table's line may take, 0 for no limit:
// the terminal's width when standard output is one, else COLUMNS when it is
// set to a number (so "COLUMNS=100 newssearch ... | less" fits too);
// --wide lifts the limit.
func (a *app) tableWidth() int {
	if a.wide {
		return 0
	}
	if a.env.stdoutTTY && a.env.stdoutWidth != nil {
		if w := a.env.stdoutWidth(); w > 0 {
			return w
		}
	}
	if n, err := strconv.Atoi(strings.TrimSpace(a.env.getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	return 0
}

// showProgress reports whether progress may be drawn on stderr.
func (a *app) showProgress() bool {
	return a.env.stderrTTY && !a.quiet && !a.noProgress
}

// color reports whether stderr and stdout output may use colour.
func (a *app) color() bool {
	return a.env.getenv("NO_COLOR") == "" && a.env.getenv("TERM") != "dumb"
}

// logger returns the SDK's logger: on a terminal stderr unless --quiet, or
// anywhere with --verbose; nil otherwise.
func (a *app) logger() *slog.Logger {
	w := a.env.stderr
	if a.env.stderrTTY {
		w = lineClearer{w}
	}
	switch {
	case a.verbose:
		return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
	case a.env.stderrTTY && !a.quiet:
		return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return nil
}

// lineClearer writes log lines on a terminal: each starts by erasing the
// line a progress bar or spinner may be drawn on (the bar draws itself
// again on the next line at its next update).
type lineClearer struct{ w io.Writer }

func (l lineClearer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(l.w, "\r\x1b[K"); err != nil {
		return 0, err
	}
	return l.w.Write(p)
}

// apiKey reads the key from --api-key-file or the environment.
func (a *app) apiKey() (string, error) {
	if a.apiKeyFile == "" {
		key := strings.TrimSpace(a.env.getenv(newssearch.EnvAPIKey))
		if key == "" {
			return "", usagef("no API key: set %s, or pass --api-key-file FILE naming a file that holds the key", newssearch.EnvAPIKey)
		}
		return key, nil
	}
	var b []byte
	var err error
	if a.apiKeyFile == "-" {
		b, err = io.ReadAll(io.LimitReader(a.env.stdin, 64<<10))
	} else {
		b, err = os.ReadFile(a.apiKeyFile)
	}
	if err != nil {
		return "", usagef("--api-key-file: %v: name a readable file holding the API key", err)
	}
	key := strings.TrimSpace(string(b))
	if key == "" || strings.ContainsAny(key, "\r\n") {
		return "", usagef("--api-key-file %s: the file must hold the API key alone on one line", a.apiKeyFile)
	}
	return key, nil
}

// client builds the SDK client from the flags and the environment. wrap,
// when not nil, wraps the transport (check records the exchanges with it).
func (a *app) client(wrap func(http.RoundTripper) http.RoundTripper) (*newssearch.Client, error) {
	key, err := a.apiKey()
	if err != nil {
		return nil, err
	}
	if a.maxRetries < 0 {
		return nil, usagef("--max-retries %d is negative: pass 0 to disable retries", a.maxRetries)
	}
	if a.timeout <= 0 {
		return nil, usagef("--timeout %s is not a timeout: pass how long one attempt may take, e.g. --timeout 30s", a.timeout)
	}
	opts := []newssearch.Option{
		newssearch.WithoutEnvironment(),
		newssearch.WithAPIKey(key),
		newssearch.WithBaseURL(cmpOr(a.baseURL, a.env.getenv(newssearch.EnvBaseURL))),
		newssearch.WithHeader("User-Agent", "newssearch-cli/"+buildinfo.Version(version)+" newssearch-go/"+newssearch.Version),
		newssearch.WithMaxRetries(a.maxRetries),
		newssearch.WithLogger(a.logger()),
	}
	t := a.env.transport
	if t == nil {
		t = http.DefaultTransport
	}
	a.attempts = &attemptLog{next: t}
	t = a.attempts
	if wrap != nil {
		t = wrap(t)
	}
	// No http.Client.Timeout: it would bound every attempt whatever a
	// call's WithAttemptTimeout says. The SDK bounds each attempt by
	// --timeout (a call's own WithAttemptTimeout wins) and ends one that
	// stalls (WithStallTimeout, DefaultStallTimeout).
	opts = append(opts, newssearch.WithHTTPClient(&http.Client{Transport: t}), newssearch.WithAttemptTimeout(a.timeout))
	opts = append(opts, a.env.clientOptions...)
	c, err := newssearch.NewClient(opts...)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return c, nil
}

func cmpOr(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// args checks positional arguments as a usage error.
func argsBetween(lo, hi int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usagef("%s: %s", cmd.Name(), what)
		}
		return nil
	}
}
