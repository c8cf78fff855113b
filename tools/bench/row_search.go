package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// rowSearch times searches served in process by the mock's handler over
// the embedded corpus and over a generated corpus five times larger, the
// same requests interleaved.
func rowSearch(ctx context.Context, e *env) []result {
	r1 := result{order: 10, id: "1", what: "Mock search in process (handler, no socket): 2-3 words + site + one week, page 1, embedded corpus",
		baseline: "-", target: "median under 50 µs"}
	r2 := result{order: 20, id: "2", what: fmt.Sprintf("Search scaling: the same requests over a generated corpus of %d articles", e.p.bigArticles),
		baseline: "the embedded corpus, same requests, interleaved", target: "at most 2.5x the time"}
	small := mockserver.New(mockserver.WithoutListener(), mockserver.WithoutDateShift())
	defer small.Close()
	qs, err := workload.Queries(ctx, small.Client(), e.p.searchQueries)
	if err != nil {
		return failure(err, r1, r2)
	}
	e.logf("search: generating and loading the large corpus")
	begin := time.Now()
	big, err := loadCorpus(ctx, e.p.bigArticles)
	if err != nil {
		return failure(err, r1, r2)
	}
	loaded := time.Since(begin)
	begin = time.Now()
	large := mockserver.New(mockserver.WithoutListener(), mockserver.WithoutDateShift(), mockserver.WithCorpus(big))
	defer large.Close()
	indexed := time.Since(begin)
	e.logf("search: large corpus of %d articles loaded in %v, indexed in %v", big.Len(), loaded, indexed)

	servers := []*mockserver.Server{small, large}
	callers := []*workload.InProcess{workload.NewInProcess(small.Handler(), "/api/v2/query"), workload.NewInProcess(large.Handler(), "/api/v2/query")}
	key := small.APIKey()
	timeOne := func(c *workload.InProcess, body []byte) (time.Duration, error) {
		t := time.Now()
		status, _, err := c.Call(body)
		took := time.Since(t)
		if err == nil && status != 200 {
			err = fmt.Errorf("the mock answered %d to %s", status, body)
		}
		return took, err
	}
	// Cold: every request differs (its start date moves back by one more
	// millisecond), so the mock's result cache never answers it.
	coldRounds := func(qs []workload.Query) (cold [2][]time.Duration, rs []float64, err error) {
		seq := 0
		for round := range e.p.searchRounds {
			var per [2][]time.Duration
			for k := range 2 {
				i := (k + round) % 2
				for n := range e.p.searchCalls {
					j := seq + n
					took, err := timeOne(callers[i], qs[j%len(qs)].Body(key, time.Duration(j+1)*time.Millisecond))
					if err != nil {
						return cold, nil, err
					}
					per[i] = append(per[i], took)
				}
			}
			seq += e.p.searchCalls
			rs = append(rs, float64(median(per[1]))/float64(median(per[0])))
			cold[0], cold[1] = append(cold[0], per[0]...), append(cold[1], per[1]...)
		}
		return cold, rs, nil
	}
	cold, rs, err := coldRounds(qs)
	if err != nil {
		return failure(err, r1, r2)
	}
	// Broad: one of the most frequent title words with the same site and
	// week, so that more postings are read.
	broad, err := broadQueries(ctx, small, qs)
	if err != nil {
		return failure(err, r1, r2)
	}
	broadCold, broadRs, err := coldRounds(broad)
	if err != nil {
		return failure(err, r1, r2)
	}
	broadMatches, err := meanMatches(ctx, servers, broad)
	if err != nil {
		return failure(err, r1, r2)
	}
	// Warm: the queries as they are, again and again: after the first
	// round every answer comes from the result cache.
	var warm []time.Duration
	for range 3 {
		for _, q := range qs {
			took, err := timeOne(callers[0], q.Body(key, 0))
			if err != nil {
				return failure(err, r1, r2)
			}
			warm = append(warm, took)
		}
	}
	warm = warm[len(qs):]
	matches, err := meanMatches(ctx, servers, qs)
	if err != nil {
		return failure(err, r1, r2)
	}
	med := median(cold[0])
	r1.measured = fmt.Sprintf("median %s (p90 %s, p99 %s)", fmtUS(med), fmtUS(quantile(cold[0], 0.9)), fmtUS(quantile(cold[0], 0.99)))
	r1.met = verdict(med < 50*time.Microsecond)
	r1.notes = []string{
		fmt.Sprintf("%d requests, %d distinct queries derived from corpus articles (2 or 3 title words, the article's site, 3 days before to 4 days after it), each request made distinct so that the mock's result cache never answers (cold); mean matches per query %.2f", len(cold[0]), len(qs), matches[0]),
		fmt.Sprintf("the same queries repeated (answered from the mock's result cache): median %s", fmtUS(median(warm))),
		fmt.Sprintf("broader queries, one of the 8 most frequent title words of the queries with the same site and week (mean matches %.2f): median %s", broadMatches[0], fmtUS(median(broadCold[0]))),
		"timed: Handler().ServeHTTP with a discarding writer, including JSON parsing and validation, the journal, the search and encoding the page",
	}
	m := median(rs)
	r2.measured = fmt.Sprintf("%.2fx", m)
	r2.met = verdict(m <= 2.5)
	r2.notes = []string{
		fmt.Sprintf("median per request: embedded %s, large %s; mean matches per query %.2f vs %.2f", fmtUS(median(cold[0])), fmtUS(median(cold[1])), matches[0], matches[1]),
		fmt.Sprintf("ratios per round (median large / median embedded): %s (%s)", ratios(rs), spread(rs)),
		fmt.Sprintf("broader queries (one frequent word + site + week): %.2fx (%s; mean matches %.2f vs %.2f)", median(broadRs), spread(broadRs), broadMatches[0], broadMatches[1]),
		fmt.Sprintf("large corpus: \"go run ./mockserver/internal/corpus/gencorpus -n %d\" (the default seed and 400 days, so 5x the articles per day) streamed into mockserver.LoadCorpus in %s, indexed by New in %s", e.p.bigArticles, fmtMS(loaded), fmtMS(indexed)),
	}
	e.logf("search: median %v, scaling %.2fx", med, m)
	return []result{r1, r2}
}

// broadQueries replaces the words of each query by one of the eight
// title words of qs with the most matches on s.
func broadQueries(ctx context.Context, s *mockserver.Server, qs []workload.Query) ([]workload.Query, error) {
	c := s.Client()
	totals := map[string]int{}
	var words []string
	for _, q := range qs {
		for _, w := range strings.Fields(q.Text) {
			if _, seen := totals[w]; seen {
				continue
			}
			resp, err := c.Search(ctx, newssearch.SearchParams{Query: w})
			if err != nil {
				return nil, err
			}
			totals[w] = resp.TotalResults
			words = append(words, w)
		}
	}
	slices.SortStableFunc(words, func(a, b string) int { return cmp.Compare(totals[b], totals[a]) })
	words = words[:min(8, len(words))]
	out := make([]workload.Query, len(qs))
	for i, q := range qs {
		q.Text = words[i%len(words)]
		out[i] = q
	}
	return out, nil
}

// meanMatches returns the mean total of the queries on each server.
func meanMatches(ctx context.Context, servers []*mockserver.Server, qs []workload.Query) ([]float64, error) {
	out := make([]float64, len(servers))
	for i, s := range servers {
		c := s.Client()
		total := 0
		for _, q := range qs {
			resp, err := c.Search(ctx, q.Params())
			if err != nil {
				return nil, err
			}
			total += resp.TotalResults
		}
		out[i] = float64(total) / float64(len(qs))
	}
	return out, nil
}

// loadCorpus generates a corpus of n articles with the mock's own
// generator (the default seed and span) and loads it.
func loadCorpus(ctx context.Context, n int) (*mockserver.Corpus, error) {
	_, sdk, err := moduleDirs(ctx)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "go", "run", "./mockserver/internal/corpus/gencorpus", "-n", strconv.Itoa(n), "-o", "-")
	cmd.Dir = sdk
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("running gencorpus: %w (the search row needs the go command)", err)
	}
	c, loadErr := mockserver.LoadCorpus(bufio.NewReaderSize(out, 1<<20))
	_, _ = io.Copy(io.Discard, out) // let gencorpus finish if loading stopped early
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("gencorpus: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return c, loadErr
}

// The harness's module and the SDK's module, which its go.mod replaces
// with the checkout at ../..
const (
	benchModule = "github.com/newssearch/newssearch-go/tools/bench"
	sdkModule   = "github.com/newssearch/newssearch-go"
)

// moduleDirs returns the directories of the harness's module (where the
// poll row runs its go test) and of the SDK's module (where the search and
// scaling rows run gencorpus), as the go command sees them from the
// working directory, which must be inside tools/bench.
func moduleDirs(ctx context.Context) (bench, sdk string, err error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Path}}\t{{.Dir}}", benchModule, sdkModule).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(exit.Stderr)))
		}
		return "", "", fmt.Errorf("go list -m: %w (run the harness from its module: cd tools/bench && go run .)", err)
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		path, dir, _ := strings.Cut(line, "\t")
		switch path {
		case benchModule:
			bench = dir
		case sdkModule:
			sdk = dir
		}
	}
	if bench == "" || sdk == "" {
		return "", "", fmt.Errorf("go list -m found no directory for %s or %s in %q (run the harness from its module: cd tools/bench && go run .)", benchModule, sdkModule, out)
	}
	return bench, sdk, nil
}
