package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
	"github.com/newssearch/newssearch-go/tools/bench/workload"
)

// Scaling: the mock over generated corpora of 1, 5 and 10 times the
// embedded corpus's articles (the same seed and days, so more articles per
// day), each measured in a fresh child process.
const (
	modeScale = "scale"            // load corpusEnv's corpus, print scaleFigures
	corpusEnv = "BENCHCMP_CORPUS"  // the JSON Lines corpus of the scale child
	windowEnv = "BENCHCMP_WINDOWS" // how many 48-hour windows it clusters
)

// scaleFigures is what the scale child reports.
type scaleFigures struct {
	Articles     int
	Load, New    time.Duration // LoadCorpusFile; the first New (builds the index)
	HWMKiB       int64         // VmHWM after New and the measurements
	RSSKiB       int64         // VmRSS after New
	SearchP50    time.Duration // row 1's queries, each request distinct
	Searches     int
	HeadlineP50  time.Duration // /api/v2/headlines for a window not seen before
	HeadlineMax  time.Duration
	WindowDocs   float64 // mean articles per 48-hour window
	Windows      int
	HeadlineWarm time.Duration // the same window again (cached)
}

// childScale measures the corpus named by corpusEnv.
func childScale(stdout io.Writer) error {
	windows, err := strconv.Atoi(os.Getenv(windowEnv))
	if err != nil || windows < 1 {
		return fmt.Errorf("%s=%q: pass the number of windows", windowEnv, os.Getenv(windowEnv))
	}
	var f scaleFigures
	t := time.Now()
	c, err := mockserver.LoadCorpusFile(os.Getenv(corpusEnv))
	if err != nil {
		return err
	}
	f.Load, f.Articles = time.Since(t), c.Len()
	t = time.Now()
	s := mockserver.New(mockserver.WithoutListener(), mockserver.WithoutDateShift(), mockserver.WithCorpus(c))
	f.New = time.Since(t)
	defer s.Close()
	_, f.RSSKiB = memStatus()
	ctx := context.Background()
	qs, err := workload.Queries(ctx, s.Client(), 64)
	if err != nil {
		return err
	}
	call := workload.NewInProcess(s.Handler(), "/api/v2/query")
	var took []time.Duration
	for j := range 3 * len(qs) {
		body := qs[j%len(qs)].Body(s.APIKey(), time.Duration(j+1)*time.Millisecond)
		t := time.Now()
		status, _, err := call.Call(body)
		took = append(took, time.Since(t))
		if err != nil || status != 200 {
			return fmt.Errorf("search answered %d (%v)", status, err)
		}
	}
	f.SearchP50, f.Searches = median(took), len(took)
	// Headlines: each window ends 48 hours before the previous one, so
	// every request clusters a window no server has seen.
	var heads []time.Duration
	docs := 0
	headBody := []byte(`{"api_key":` + quote(s.APIKey()) + `}`)
	for k := range windows {
		now := c.Newest().Add(-time.Duration(k) * mockserver.HeadlineWindow)
		hs := mockserver.New(mockserver.WithoutListener(), mockserver.WithoutDateShift(), mockserver.WithCorpus(c),
			mockserver.WithClock(func() time.Time { return now }))
		hc := workload.NewInProcess(hs.Handler(), "/api/v2/headlines")
		t := time.Now()
		status, _, err := hc.Call(headBody)
		heads = append(heads, time.Since(t))
		if err == nil && status != 200 {
			err = fmt.Errorf("headlines answered %d", status)
		}
		if k == 0 && err == nil {
			t = time.Now()
			_, _, err = hc.Call(headBody)
			f.HeadlineWarm = time.Since(t)
		}
		hs.Close()
		if err != nil {
			return err
		}
		n, err := s.Client().Search(ctx, newssearch.SearchParams{Query: "*", StartDate: now.Add(-mockserver.HeadlineWindow), EndDate: now})
		if err != nil {
			return err
		}
		docs += n.TotalResults
	}
	f.HeadlineP50, f.HeadlineMax, f.Windows = median(heads), slices.Max(heads), windows
	f.WindowDocs = float64(docs) / float64(windows)
	f.HWMKiB, _ = memStatus()
	return json.NewEncoder(stdout).Encode(f)
}

// rowScale generates the corpora, runs a scale child on each and reports
// every figure with its growth exponent.
func rowScale(ctx context.Context, e *env) []result {
	lines := []result{
		{order: 90, id: "9a", what: "Scaling: mock search p50 (row 1's kind of query, cold) at 1x, 5x, 10x the corpus", baseline: "the 1x corpus", target: "- (growth exponent reported)"},
		{order: 91, id: "9b", what: "Scaling: headlines p50 for a 48-hour window not seen before (clustering it) at 1x, 5x, 10x", baseline: "the 1x corpus", target: "sub-linear in the corpus (exponent under 1), or stated why not"},
		{order: 92, id: "9c", what: "Scaling: start-up (LoadCorpusFile, then New building the index) at 1x, 5x, 10x", baseline: "the 1x corpus", target: "- (growth exponent reported)"},
		{order: 93, id: "9d", what: "Scaling: peak resident size (VmHWM) of a process serving the corpus at 1x, 5x, 10x", baseline: "the 1x corpus", target: "- (growth exponent reported)"},
	}
	_, sdk, err := moduleDirs(ctx)
	if err != nil {
		return failure(err, lines...)
	}
	dir, err := os.MkdirTemp("", "benchcmp-scale")
	if err != nil {
		return failure(err, lines...)
	}
	defer os.RemoveAll(dir)
	base := mockserver.DefaultCorpus().Len()
	if e.p.quick {
		base = 300
	}
	var figs []scaleFigures
	for _, k := range e.p.scales {
		n := base * k
		path := filepath.Join(dir, fmt.Sprintf("corpus-%dx.jsonl", k))
		t := time.Now()
		cmd := exec.CommandContext(ctx, "go", "run", "./mockserver/internal/corpus/gencorpus", "-n", strconv.Itoa(n), "-o", path)
		cmd.Dir = sdk
		if out, err := cmd.CombinedOutput(); err != nil {
			return failure(fmt.Errorf("gencorpus -n %d: %w: %s", n, err, out), lines...)
		}
		e.logf("scale %dx: %d articles generated in %v", k, n, time.Since(t).Round(time.Millisecond))
		c, err := startChild(modeScale, corpusEnv+"="+path, windowEnv+"="+strconv.Itoa(e.p.scaleWindows))
		if err != nil {
			return failure(err, lines...)
		}
		out, err := c.line()
		if stopErr := c.stop(); err == nil {
			err = stopErr
		}
		if err != nil {
			return failure(err, lines...)
		}
		var f scaleFigures
		if err := json.Unmarshal([]byte(out), &f); err != nil {
			return failure(fmt.Errorf("decoding the scale child's figures %q: %w", out, err), lines...)
		}
		e.logf("scale %dx: %+v", k, f)
		figs = append(figs, f)
	}
	xs := make([]float64, len(figs))
	for i, f := range figs {
		xs[i] = float64(f.Articles)
	}
	series := func(get func(scaleFigures) float64, format func(float64) string) (string, float64) {
		ys := make([]float64, len(figs))
		var parts []string
		for i, f := range figs {
			ys[i] = get(f)
			parts = append(parts, fmt.Sprintf("%dx %s", e.p.scales[i], format(ys[i])))
		}
		ex := growthExponent(xs, ys)
		return fmt.Sprintf("%s; exponent %.2f", strings.Join(parts, ", "), ex), ex
	}
	us := func(v float64) string { return fmtUS(time.Duration(v)) }
	ms := func(v float64) string { return fmtMS(time.Duration(v)) }
	mb := func(v float64) string { return fmt.Sprintf("%.0f MB", v/1024) }
	var ex float64
	lines[0].measured, _ = series(func(f scaleFigures) float64 { return float64(f.SearchP50) }, us)
	lines[1].measured, ex = series(func(f scaleFigures) float64 { return float64(f.HeadlineP50) }, ms)
	lines[2].measured, _ = series(func(f scaleFigures) float64 { return float64(f.Load + f.New) }, ms)
	lines[3].measured, _ = series(func(f scaleFigures) float64 { return float64(f.HWMKiB) }, mb)
	lines[0].met, lines[2].met, lines[3].met = "-", "-", "-"
	lines[1].met = verdictWhy(ex < 1, "9b")
	last := figs[len(figs)-1]
	docEx := growthExponent(xs, func() []float64 {
		out := make([]float64, len(figs))
		for i, f := range figs {
			out[i] = f.WindowDocs
		}
		return out
	}())
	for i, f := range figs {
		lines[0].notes = append(lines[0].notes, fmt.Sprintf("%dx (%d articles): search p50 %s over %d requests", e.p.scales[i], f.Articles, fmtUS(f.SearchP50), f.Searches))
		lines[1].notes = append(lines[1].notes, fmt.Sprintf("%dx: headlines p50 %s, max %s over %d windows of %.0f articles on average; the same window again (cached) %s",
			e.p.scales[i], fmtMS(f.HeadlineP50), fmtMS(f.HeadlineMax), f.Windows, f.WindowDocs, fmtUS(f.HeadlineWarm)))
		lines[2].notes = append(lines[2].notes, fmt.Sprintf("%dx: LoadCorpusFile %s, New (index) %s", e.p.scales[i], fmtMS(f.Load), fmtMS(f.New)))
		lines[3].notes = append(lines[3].notes, fmt.Sprintf("%dx: VmHWM %.0f MB, VmRSS after New %.0f MB", e.p.scales[i], float64(f.HWMKiB)/1024, float64(f.RSSKiB)/1024))
	}
	lines[1].notes = append(lines[1].notes, fmt.Sprintf("clustering time per 48-hour window at %dx: %s for %.0f articles (%.1f µs per article); articles per window grow with exponent %.2f, so the clustering time per article grows with exponent %.2f",
		e.p.scales[len(figs)-1], fmtMS(last.HeadlineP50), last.WindowDocs, float64(last.HeadlineP50)/1e3/max(last.WindowDocs, 1), docEx, ex-docEx))
	note := "growth exponent: the slope of log(figure) over log(articles), least squares over the scales; 1 is linear. Corpora from gencorpus with the default seed and days, so a window holds k times the articles at k x; each scale measured in a fresh child process"
	for i := range lines {
		lines[i].notes = append(lines[i].notes, note)
	}
	return lines
}

// growthExponent fits y = a·x^b by least squares on the logarithms and
// returns b.
func growthExponent(xs, ys []float64) float64 {
	var sx, sy, sxx, sxy float64
	n := 0.0
	for i := range xs {
		if xs[i] <= 0 || ys[i] <= 0 {
			continue
		}
		lx, ly := math.Log(xs[i]), math.Log(ys[i])
		sx, sy, sxx, sxy, n = sx+lx, sy+ly, sxx+lx*lx, sxy+lx*ly, n+1
	}
	if n < 2 || n*sxx-sx*sx == 0 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}
