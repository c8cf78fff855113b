package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	newssearch "github.com/newssearch/newssearch-go"
)

// maxWindows bounds the windows of one range, as the SDK does.
const maxWindows = 10000

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
fixed by the first run: resuming searches the same dates.`,
		Example: `  newssearch range "central bank" --since 365d --resume cb.checkpoint --format jsonl > cb.jsonl
  newssearch range "central bank" --from 2024-01-01 --to 2024-12-31 --window 1d --concurrency 4`,
		Args: argsBetween(1, 1<<20, "pass the search text, e.g. newssearch range \"central bank\" --since 90d"),
		RunE: func(cmd *cobra.Command, args []string) error {
			now := a.env.clock()
			p, d, err := f.params(strings.Join(args, " "), now)
			if err != nil {
				return err
			}
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
			if err != nil || window < time.Millisecond {
				return usagef("--window %q: %s", windowFlag, cmpOr(errText(err), "pass a span of at least 1ms, such as 7d or 24h"))
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
			if r.windows, err = splitWindows(r.params.StartDate, r.params.EndDate, window); err != nil {
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
			articles, err := r.run(cmd.Context(), c)
			if err != nil {
				return err
			}
			return a.printArticles(cmd.OutOrStdout(), articles, f.limit)
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&windowFlag, "window", "7d", "span of each window, e.g. 7d, 1d, 12h")
	cmd.Flags().IntVar(&concurrency, "concurrency", newssearch.DefaultRangeConcurrency, "windows searched at once")
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

// window is one slice of the range; adjacent windows share their bounds.
type window struct{ start, end time.Time }

// splitWindows cuts [start, end] into windows of span w as the SDK's
// SearchRange does: adjacent windows share their boundary instant, since
// the service's bounds are inclusive.
func splitWindows(start, end time.Time, w time.Duration) ([]window, error) {
	var out []window
	for s := start; ; s = s.Add(w) {
		e := s.Add(w)
		if !e.Before(end) {
			return append(out, window{s, end}), nil
		}
		out = append(out, window{s, e})
		if len(out) >= maxWindows {
			return nil, usagef("--window %s cuts the range into more than %d windows: pass a larger window", w, maxWindows)
		}
	}
}

// rangeRun is one run of the range command.
type rangeRun struct {
	a           *app
	params      newssearch.AsyncSearchParams
	window      time.Duration
	concurrency int
	maxWait     time.Duration
	windows     []window
	ck          *checkpoint

	mu    sync.Mutex
	found [][]newssearch.Article // per window; nil while not done
	done  int
	seen  map[string]struct{}
}

// run searches every window not yet in the checkpoint and returns the
// merged articles.
func (r *rangeRun) run(parent context.Context, c *newssearch.Client) ([]newssearch.Article, error) {
	r.found = make([][]newssearch.Article, len(r.windows))
	r.seen = map[string]struct{}{}
	var todo []int
	for i := range r.windows {
		if arts, ok := r.ck.finished(i); ok {
			r.found[i] = arts
			r.done++
			r.count(arts)
			continue
		}
		todo = append(todo, i)
	}
	if r.done > 0 {
		r.a.note("resuming from %s: %d of %d windows already done", r.ck.path, r.done, len(r.windows))
	}
	bar := r.a.newRangeBar(len(r.windows), r.done, len(r.seen))
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	jobs := make(chan int)
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for range min(r.concurrency, len(todo)) {
		wg.Go(func() {
			for i := range jobs {
				arts, err := r.search(ctx, c, r.windows[i])
				if err == nil {
					err = r.finish(i, arts, bar)
				}
				if err != nil {
					if ctx.Err() == nil || parent.Err() == nil {
						errOnce.Do(func() { firstErr = err })
					}
					cancel()
				}
			}
		})
	}
feed:
	for _, i := range todo {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	bar.stop()
	if parent.Err() != nil {
		return nil, &interruptedError{msg: r.stoppedText()}
	}
	if firstErr != nil {
		if r.ck != nil {
			return nil, fmt.Errorf("%w\n%s", firstErr, r.stoppedText())
		}
		return nil, firstErr
	}
	if r.ck != nil {
		r.a.note("all %d windows done; %s may be deleted", len(r.windows), r.ck.path)
	}
	return mergeArticles(r.found, r.params.SortOrder), nil
}

// stoppedText says what was done and how to go on.
func (r *rangeRun) stoppedText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ck == nil {
		return fmt.Sprintf("%d of %d windows were done (%s), and none was kept: run the command again with --resume FILE to keep finished windows in FILE",
			r.done, len(r.windows), articlesText(len(r.seen)))
	}
	return fmt.Sprintf("%d of %d windows are done (%s) and saved in %s: run the same command again (with --resume %s) to search only the %d missing",
		r.done, len(r.windows), articlesText(len(r.seen)), r.ck.path, r.ck.path, len(r.windows)-r.done)
}

// search runs one window through the SDK: a SearchRange call whose window
// spans the whole slice, so one job.
func (r *rangeRun) search(ctx context.Context, c *newssearch.Client, w window) ([]newssearch.Article, error) {
	p := r.params
	p.StartDate, p.EndDate = w.start, w.end
	span := max(w.end.Sub(w.start), time.Millisecond)
	return c.SearchRange(ctx, p, &newssearch.RangeOptions{Window: span, Concurrency: 1, Prefetch: 2,
		Poll: &newssearch.PollOptions{MaxWait: r.maxWait}})
}

// finish records a finished window: in the checkpoint first, then in the
// progress.
func (r *rangeRun) finish(i int, arts []newssearch.Article, bar *rangeBar) error {
	if err := r.ck.save(i, r.windows[i], arts); err != nil {
		return err
	}
	r.mu.Lock()
	r.found[i] = arts
	r.done++
	r.count(arts)
	done, n := r.done, len(r.seen)
	r.mu.Unlock()
	bar.update(done, n)
	if r.a.env.afterWindow != nil {
		r.a.env.afterWindow(done)
	}
	return nil
}

// count adds articles to the distinct ones seen (r.mu held or no workers).
func (r *rangeRun) count(arts []newssearch.Article) {
	for i := range arts {
		if k := articleKey(&arts[i]); k != "" {
			r.seen[k] = struct{}{}
		}
	}
}

// articleKey identifies an article as the SDK does: its ID, else its URL.
func articleKey(a *newssearch.Article) string {
	switch {
	case a.ID != "":
		return "id:" + a.ID
	case a.URL != "":
		return "url:" + a.URL
	}
	return ""
}

// mergeArticles merges the windows' articles as SearchRange does: in window
// order, keeping the first copy of each, then sorted by score (or date,
// newest first and undated last), ties by ID and URL.
func mergeArticles(windows [][]newssearch.Article, order newssearch.SortOrder) []newssearch.Article {
	seen := map[string]struct{}{}
	var out []newssearch.Article
	for _, arts := range windows {
		for _, a := range arts {
			if k := articleKey(&a); k != "" {
				if _, dup := seen[k]; dup {
					continue
				}
				seen[k] = struct{}{}
			}
			out = append(out, a)
		}
	}
	byDate := strings.EqualFold(string(order), string(newssearch.SortDatePublished))
	slices.SortStableFunc(out, func(a, b newssearch.Article) int {
		var c int
		if byDate {
			at, bt := a.DatePublished.Time, b.DatePublished.Time
			if at.IsZero() || bt.IsZero() {
				c = cmp.Compare(boolInt(at.IsZero()), boolInt(bt.IsZero()))
			} else {
				c = bt.Compare(at)
			}
		} else {
			c = cmp.Compare(b.Score, a.Score)
		}
		return cmp.Or(c, strings.Compare(a.ID, b.ID), strings.Compare(a.URL, b.URL))
	})
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
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
func (ck *checkpoint) bind(ws []window) error {
	for i, w := range ck.windows {
		if i < 0 || i >= len(ws) || w.Start != ws[i].start.UTC().Format(ckTime) || w.End != ws[i].end.UTC().Format(ckTime) {
			return fmt.Errorf("--resume %s: saved window %d (%s to %s) is not a window of this range: delete the file to start afresh", ck.path, i, w.Start, w.End)
		}
	}
	if ck.existing {
		return nil
	}
	ck.header.Windows = len(ws)
	return ck.append(ck.header)
}

// finished returns the saved articles of window i.
func (ck *checkpoint) finished(i int) ([]newssearch.Article, bool) {
	if ck == nil {
		return nil, false
	}
	w, ok := ck.windows[i]
	return w.Articles, ok
}

// save appends a finished window and syncs the file.
func (ck *checkpoint) save(i int, w window, arts []newssearch.Article) error {
	if ck == nil {
		return nil
	}
	return ck.append(checkpointWindow{Window: i, Start: w.start.UTC().Format(ckTime), End: w.end.UTC().Format(ckTime), Articles: arts})
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
