package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	newssearch "github.com/newssearch/newssearch-go"
)

func (a *app) rangeCommand() *cobra.Command {
	var f searchFlags
	var windowFlag, resume string
	var concurrency int
	var maxWait time.Duration
	cmd := &cobra.Command{
		Use:   "range QUERY...",
		Short: "Search a long date range, one asynchronous job per window, with a progress bar",
		Long: `range searches a long date range with one asynchronous job per window (7 days
by default), several windows at once, and prints the merged articles without
duplicates, ordered by relevance (or by date with --sort date).

A progress bar on a terminal shows the windows done, the articles found, the
rate and the time left. Ctrl-C stops the run; with --resume FILE every
finished window is kept in FILE as it finishes, and the same command run
again redoes only the missing windows. A relative range (--since 365d) is
fixed by the first run: resuming searches the same dates.

A window that fails does not stop the others: the run prints the articles
of the windows it finished, exits 1, and names the command that searches
only the missing windows (without --resume, the finished windows are kept
in a checkpoint file in the user's cache directory for it).`,
		Example: `  newssearch range "central bank" --since 365d --resume cb.checkpoint --format jsonl > cb.jsonl
  newssearch range "central bank" --from 2024-01-01 --to 2024-12-31 --window 1d --concurrency 4`,
		Args: argsBetween(1, 1<<20, "pass the search text, e.g. newssearch range \"central bank\" --since 90d"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, d, err := f.params(strings.Join(args, " "), a.env.clock())
			if err != nil {
				return err
			}
			now := d.now
			if p.StartDate.IsZero() {
				return usagef("range needs a start: pass --from DATE or --since SPAN (e.g. --since 90d)")
			}
			if p.EndDate.IsZero() {
				p.EndDate, d.to = now.UTC(), dateSpec{t: now.UTC(), relative: true}
			}
			if !p.EndDate.After(p.StartDate) && !p.EndDate.Equal(p.StartDate) {
				return usagef("the range ends before it starts: --to must not be before --from")
			}
			window, err := parseSpan(windowFlag)
			if err != nil || window < time.Second {
				return usagef("--window %q: %s", windowFlag, cmpOr(errText(err), "pass a span of at least 1s, such as 7d or 24h"))
			}
			if concurrency < 1 {
				return usagef("--concurrency %d: pass the number of windows to search at once, at least 1", concurrency)
			}
			if maxWait < 0 {
				return usagef("--max-wait %s is negative: pass how long to wait for each window's job, e.g. 10m", maxWait)
			}
			r := &rangeRun{a: a, params: p, window: window, concurrency: concurrency, maxWait: maxWait}
			if resume != "" {
				if err := r.openCheckpoint(resume, d); err != nil {
					return err
				}
				defer r.closeCheckpoint()
			}
			// The SDK's windows, so that the checkpoint's windows are the
			// ones SearchRangeSeq yields and takes back as done.
			if r.windows, err = newssearch.RangeWindows(r.params, &newssearch.RangeOptions{Window: window}); err != nil {
				var ve *newssearch.ValidationError
				if errors.As(err, &ve) && ve.Field == "RangeOptions.Window" {
					return usagef("--window %s: %s", windowFlag, ve.Problem)
				}
				return err
			}
			if r.ck != nil {
				if err := r.ck.bind(r.windows); err != nil {
					return err
				}
			}
			c, err := a.client(nil)
			if err != nil {
				return err
			}
			// A failed window does not discard the others: their
			// articles are printed, then the failure says how to resume.
			articles, err := r.run(cmd.Context(), c)
			var failed *nextStepError
			if err != nil && !errors.As(err, &failed) {
				return err
			}
			if len(articles) == 0 && failed == nil {
				a.nothingMatched(cmd.Context(), r.params, d)
			}
			if perr := a.printArticles(cmd.OutOrStdout(), articles, f.limit); perr != nil {
				return perr
			}
			return err
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&windowFlag, "window", "7d", "span of each window, e.g. 7d, 1d, 12h")
	cmd.Flags().IntVar(&concurrency, "concurrency", 8, "windows searched at once")
	cmd.Flags().StringVar(&resume, "resume", "", "keep finished windows in this checkpoint file and skip those already in it")
	cmd.Flags().DurationVar(&maxWait, "max-wait", 0, "give up waiting for a window's job after this long (default 10m)")
	return cmd
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// rangeRun is one run of the range command.
type rangeRun struct {
	a           *app
	params      newssearch.AsyncSearchParams
	window      time.Duration
	concurrency int
	maxWait     time.Duration
	windows     []newssearch.RangeWindow
	ck          *checkpoint

	done     int // windows finished, those of the checkpoint included
	articles int // their articles
}

// run searches every window not yet in the checkpoint with the SDK's range
// engine (SearchRangeSeq), saving each in the checkpoint as it arrives, and
// returns the articles of the whole range, merged by the SDK.
func (r *rangeRun) run(parent context.Context, c *newssearch.Client) ([]newssearch.Article, error) {
	saved := r.ck.finishedWindows()
	r.done = len(saved)
	for _, w := range saved {
		r.articles += len(w.Articles)
	}
	if r.done > 0 {
		r.a.note("resuming from %s: %d of %d windows already done", r.ck.path, r.done, len(r.windows))
	}
	bar := r.a.newRangeBar(len(r.windows), r.done, r.articles)
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	opts := []newssearch.RangeOption{
		&newssearch.RangeOptions{Window: r.window, Concurrency: r.concurrency, Done: saved},
		&newssearch.PageOptions{Prefetch: 2},
		&newssearch.PollOptions{MaxWait: r.maxWait},
	}
	finished := slices.Clone(saved)
	var failed []*newssearch.RangeError
	var saveErr error
	for w, err := range c.SearchRangeSeq(ctx, r.params, opts...) {
		var re *newssearch.RangeError
		switch {
		case err != nil && parent.Err() == nil && saveErr == nil && errors.As(err, &re) && len(re.Missing) == 1:
			failed = append(failed, re) // a failed window: the others go on
			continue
		case err != nil:
			if saveErr == nil && parent.Err() == nil {
				return nil, err
			}
			continue // stopped: the loop ends
		case r.ck.has(r.index(w.RangeWindow)):
			continue // from the checkpoint, counted already
		}
		if err := r.ck.save(r.index(w.RangeWindow), w); err != nil {
			saveErr = err
			cancel()
			continue
		}
		finished = append(finished, w)
		r.done++
		r.articles += len(w.Articles)
		bar.update(r.done, r.articles)
		if r.a.env.afterWindow != nil {
			r.a.env.afterWindow(r.done)
		}
	}
	bar.stop()
	switch {
	case saveErr != nil:
		return nil, saveErr
	case parent.Err() != nil:
		return nil, &interruptedError{msg: r.stoppedText()}
	case r.ck != nil && len(failed) == 0:
		r.a.note("all %d windows done; %s may be deleted", len(r.windows), r.ck.path)
	}
	// Every window is done or failed (as done with no articles), so
	// SearchRange makes no request: it merges the finished ones as it
	// merges its own (each article once, in the sort order).
	done := finished
	for _, re := range failed {
		done = append(done, newssearch.WindowResult{RangeWindow: re.Missing[0]})
	}
	articles, err := c.SearchRange(parent, r.params, &newssearch.RangeOptions{Window: r.window, Done: done})
	if err != nil || len(failed) == 0 {
		return articles, err
	}
	return articles, r.failure(failed, finished)
}

// maxFailedShown is the most failed windows a run names one by one.
const maxFailedShown = 5

// failure reports the failed windows, earliest first, and what was kept:
// without --resume, the finished windows are saved in a new checkpoint
// that the command it names resumes.
func (r *rangeRun) failure(failed []*newssearch.RangeError, finished []newssearch.WindowResult) error {
	slices.SortFunc(failed, func(a, b *newssearch.RangeError) int { return a.Missing[0].Start.Compare(b.Missing[0].Start) })
	errs := make([]error, 0, maxFailedShown+1)
	for i, re := range failed {
		if i == maxFailedShown {
			errs = append(errs, fmt.Errorf("newssearch: and %d more windows failed", len(failed)-i))
			break
		}
		errs = append(errs, re)
	}
	err := &nextStepError{err: errors.Join(errs...)}
	missing := len(r.windows) - r.done
	switch {
	case r.ck != nil:
		err.next = r.stoppedText()
	case r.done == 0: // nothing to keep: the hint says what to do
	default:
		path, kerr := r.keep(finished)
		if kerr != nil {
			err.next = fmt.Sprintf("%d of %d windows are done (%s, printed), but they could not be kept for --resume (%v): run the command again with --resume FILE to keep finished windows in FILE",
				r.done, len(r.windows), articlesText(r.articles), kerr)
			break
		}
		err.next = fmt.Sprintf("%d of %d windows are done (%s, printed) and saved in %s: run this to search only the %d missing and print the whole range:\n  %s",
			r.done, len(r.windows), articlesText(r.articles), path, missing, r.resumeCommand(path))
	}
	return err
}

// keep writes the finished windows to a new checkpoint in the user's cache
// directory and returns its path.
func (r *rangeRun) keep(finished []newssearch.WindowResult) (string, error) {
	cacheDir := r.a.env.cacheDir
	if cacheDir == nil {
		cacheDir = os.UserCacheDir
	}
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	dir = filepath.Join(dir, "newssearch")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "range-*.checkpoint")
	if err != nil {
		return "", err
	}
	defer f.Close()
	ck := &checkpoint{path: f.Name(), file: f, header: headerOf(r.params, r.window), windows: map[int]checkpointWindow{}}
	err = ck.bind(r.windows)
	for _, w := range finished {
		if err == nil {
			err = ck.save(r.index(w.RangeWindow), w)
		}
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// resumeCommand is this run's command line with --resume path added
// (before a "--", which would make it an argument).
func (r *rangeRun) resumeCommand(path string) string {
	args := slices.Clone(r.a.args)
	i := slices.Index(args, "--")
	if i < 0 {
		i = len(args)
	}
	args = slices.Insert(args, i, "--resume", path)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return "newssearch " + strings.Join(args, " ")
}

// index returns the index of window w in the range.
func (r *rangeRun) index(w newssearch.RangeWindow) int {
	i, _ := slices.BinarySearchFunc(r.windows, w.Start, func(x newssearch.RangeWindow, t time.Time) int { return x.Start.Compare(t) })
	return i
}

// stoppedText says what was done and how to go on.
func (r *rangeRun) stoppedText() string {
	if r.ck == nil {
		return fmt.Sprintf("%d of %d windows were done (%s), and none was kept: run the command again with --resume FILE to keep finished windows in FILE",
			r.done, len(r.windows), articlesText(r.articles))
	}
	return fmt.Sprintf("%d of %d windows are done (%s) and saved in %s: run the same command again (with --resume %s) to search only the %d missing",
		r.done, len(r.windows), articlesText(r.articles), r.ck.path, r.ck.path, len(r.windows)-r.done)
}

// checkpoint is the --resume file: JSON Lines, a header describing the
// search (never the API key), then one line per finished window with its
// articles, appended and synced as each window finishes.
type checkpoint struct {
	path     string
	file     *os.File
	header   checkpointHeader
	windows  map[int]checkpointWindow
	mu       sync.Mutex
	existing bool
	// cut is set when the file's last line was cut short (the run was
	// killed while writing it): it is dropped before anything is appended.
	cut bool
}

// checkpointVersion is the format version written in the header.
const checkpointVersion = 1

type checkpointHeader struct {
	Version     int      `json:"newssearch_range_checkpoint"`
	Query       string   `json:"query"`
	Sites       []string `json:"sites,omitempty"`
	From        string   `json:"from"`
	To          string   `json:"to"`
	Window      string   `json:"window_span"`
	Language    string   `json:"language,omitempty"`
	TrafficRank int      `json:"traffic_rank,omitempty"`
	Encoded     bool     `json:"encoded,omitempty"`
	Embeddings  bool     `json:"embeddings,omitempty"`
	KeyPhrases  string   `json:"key_phrases,omitempty"`
	Sort        string   `json:"sort,omitempty"`
	Windows     int      `json:"windows,omitempty"`
}

type checkpointWindow struct {
	Window   int                  `json:"window"`
	Start    string               `json:"start"`
	End      string               `json:"end"`
	Articles []newssearch.Article `json:"articles"`
	// span is the window's bounds, set by bind.
	span newssearch.RangeWindow
}

const ckTime = time.RFC3339Nano

func headerOf(p newssearch.AsyncSearchParams, w time.Duration) checkpointHeader {
	return checkpointHeader{Version: checkpointVersion, Query: p.Query, Sites: p.Sites,
		From: p.StartDate.UTC().Format(ckTime), To: p.EndDate.UTC().Format(ckTime), Window: w.String(),
		Language: string(p.Language), TrafficRank: p.TrafficRank, Encoded: p.ToggleState != "",
		Embeddings: p.Embeddings, KeyPhrases: p.KeyPhrases, Sort: string(p.SortOrder)}
}

// openCheckpoint reads the checkpoint at path, if any, and checks that it
// was made for this search; a relative range takes the checkpoint's dates.
func (r *rangeRun) openCheckpoint(path string, d dates) error {
	ck := &checkpoint{path: path, windows: map[int]checkpointWindow{}}
	want := headerOf(r.params, r.window)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("--resume %s: %v", path, err)
	case len(bytes.TrimSpace(b)) > 0:
		ck.existing = true
		if err := ck.parse(b); err != nil {
			return err
		}
		got := ck.header
		if d.from.relative {
			want.From = got.From
		}
		if d.to.relative {
			want.To = got.To
		}
		want.Windows = got.Windows
		if diff := headerDiff(got, want); diff != "" {
			return usagef("--resume %s was made for a different search (%s): pass the same query and flags as the first run, or another file to start afresh", path, diff)
		}
		from, _ := time.Parse(ckTime, got.From)
		to, _ := time.Parse(ckTime, got.To)
		r.params.StartDate, r.params.EndDate = from, to
	}
	ck.header = want
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return fmt.Errorf("--resume %s: %v: name a file in a writable directory", path, err)
	}
	ck.file = f
	r.ck = ck
	if ck.existing && !bytes.HasSuffix(b, []byte("\n")) {
		if err := ck.repair(b); err != nil {
			return err
		}
	}
	return nil
}

// repair ends a file whose last line has no newline, so that the next
// window appended starts a line of its own: a line cut short is dropped (its
// window is searched again), a whole one gets its newline.
func (ck *checkpoint) repair(b []byte) error {
	var err error
	if ck.cut {
		err = ck.file.Truncate(int64(bytes.LastIndexByte(b, '\n') + 1))
	} else {
		_, err = ck.file.Write([]byte("\n"))
	}
	if err != nil {
		return fmt.Errorf("--resume %s: repairing its last line: %v", ck.path, err)
	}
	return nil
}

// parse reads the header and the finished windows. A last line cut short
// (the run was killed while writing it) is ignored: that window is redone.
func (ck *checkpoint) parse(b []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	var lines [][]byte
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
			lines = append(lines, slices.Clone(l))
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("--resume %s: %v", ck.path, err)
	}
	if err := json.Unmarshal(lines[0], &ck.header); err != nil || ck.header.Version == 0 {
		return usagef("--resume %s is not a newssearch range checkpoint: name another file (this one is left alone)", ck.path)
	}
	if ck.header.Version != checkpointVersion {
		return usagef("--resume %s has checkpoint version %d, which this newssearch does not read: use a new file", ck.path, ck.header.Version)
	}
	for n, l := range lines[1:] {
		var w checkpointWindow
		if err := json.Unmarshal(l, &w); err != nil {
			if n == len(lines)-2 && !bytes.HasSuffix(b, []byte("\n")) {
				ck.cut = true // cut short while being written
				break
			}
			return fmt.Errorf("--resume %s: line %d is damaged (%v): delete the file to start afresh", ck.path, n+2, err)
		}
		ck.windows[w.Window] = w
	}
	return nil
}

// headerDiff names the first differences between two headers.
func headerDiff(got, want checkpointHeader) string {
	var d []string
	add := func(name, g, w string) {
		if g != w {
			d = append(d, fmt.Sprintf("%s was %q, now %q", name, g, w))
		}
	}
	add("query", got.Query, want.Query)
	add("sites", strings.Join(got.Sites, ","), strings.Join(want.Sites, ","))
	add("from", got.From, want.From)
	add("to", got.To, want.To)
	add("window", got.Window, want.Window)
	add("lang", got.Language, want.Language)
	add("traffic-rank", fmt.Sprint(got.TrafficRank), fmt.Sprint(want.TrafficRank))
	add("encoded", fmt.Sprint(got.Encoded), fmt.Sprint(want.Encoded))
	add("embeddings", fmt.Sprint(got.Embeddings), fmt.Sprint(want.Embeddings))
	add("key-phrases", got.KeyPhrases, want.KeyPhrases)
	add("sort", got.Sort, want.Sort)
	return strings.Join(d, ", ")
}

// bind checks the saved windows against this run's windows and writes the
// header of a new file.
func (ck *checkpoint) bind(ws []newssearch.RangeWindow) error {
	for i, w := range ck.windows {
		if i < 0 || i >= len(ws) || w.Start != ws[i].Start.UTC().Format(ckTime) || w.End != ws[i].End.UTC().Format(ckTime) {
			return fmt.Errorf("--resume %s: saved window %d (%s to %s) is not a window of this range: delete the file to start afresh", ck.path, i, w.Start, w.End)
		}
		ck.windows[i] = checkpointWindow{Window: i, Start: w.Start, End: w.End, Articles: w.Articles, span: ws[i]}
	}
	if ck.existing {
		return nil
	}
	ck.header.Windows = len(ws)
	return ck.append(ck.header)
}

// finishedWindows returns the saved windows, in date order, with their
// articles.
func (ck *checkpoint) finishedWindows() []newssearch.WindowResult {
	if ck == nil {
		return nil
	}
	out := make([]newssearch.WindowResult, 0, len(ck.windows))
	for _, w := range ck.windows {
		out = append(out, newssearch.WindowResult{RangeWindow: w.span, Articles: w.Articles})
	}
	slices.SortFunc(out, func(a, b newssearch.WindowResult) int { return a.Start.Compare(b.Start) })
	return out
}

// has reports whether window i was saved before this run.
func (ck *checkpoint) has(i int) bool {
	if ck == nil {
		return false
	}
	_, ok := ck.windows[i]
	return ok
}

// save appends window i, finished, and syncs the file.
func (ck *checkpoint) save(i int, w newssearch.WindowResult) error {
	if ck == nil {
		return nil
	}
	return ck.append(checkpointWindow{Window: i, Start: w.Start.UTC().Format(ckTime), End: w.End.UTC().Format(ckTime), Articles: w.Articles})
}

func (ck *checkpoint) append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ck.mu.Lock()
	defer ck.mu.Unlock()
	if _, err := ck.file.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("--resume %s: %v", ck.path, err)
	}
	if err := ck.file.Sync(); err != nil {
		return fmt.Errorf("--resume %s: %v", ck.path, err)
	}
	return nil
}

func (r *rangeRun) closeCheckpoint() {
	if r.ck != nil && r.ck.file != nil {
		_ = r.ck.file.Close()
	}
}
