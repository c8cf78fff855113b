package newssearch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// DefaultPrefetch is a good PageOptions.Prefetch for draining many pages.
const DefaultPrefetch = 4

// maxPrefetch is the largest PageOptions.Prefetch accepted.
const maxPrefetch = 32

// maxPagesWithoutTotal stops a walk whose pages never report a total.
const maxPagesWithoutTotal = 10000

// ErrInconsistentPages matches the error of a page walk whose pages
// contradict each other (a repeated page, a page empty twice before the
// total, a total growing past twice the first); docs/ranges.md#pages.
var ErrInconsistentPages = errors.New("newssearch: inconsistent pages")

// PageOptions configure how SearchAll, Results and the range windows walk
// pages. A zero field means the default.
type PageOptions struct {
	// Prefetch is the number of pages, 0 to 32, fetched ahead of the loop
	// (0: one at a time); pages still come in order. It halves on a burst of
	// 429 answers and grows back. An HTTP client of your own needs
	// MaxIdleConnsPerHost above it.
	Prefetch int
	// OnPage, when set, is called with each page, on the loop's goroutine,
	// before its articles are yielded.
	OnPage func(*Page)
}

// pagesFor returns the number of pages total articles fill.
func pagesFor(total int) int {
	if total <= 0 {
		return 0
	}
	return (total-1)/PageSize + 1
}

// pageSource describes a walk over pages: how to get the first page and
// any later one. Both the synchronous and the asynchronous iterators, and
// SearchRange, walk pages through walkPages.
type pageSource struct {
	// first fetches the first page of the walk.
	first func(ctx context.Context) (*Page, error)
	// next fetches page n, after the first. It may run on several
	// goroutines at once.
	next func(ctx context.Context, n int) (*Page, error)
	// prefetch is the number of pages fetched ahead.
	prefetch int
}

func (*PageOptions) pageOption()    {}
func (*PageOptions) resultsOption() {}
func (*PageOptions) rangeOption()   {}

// apply makes o a CallOption: it replaces the page settings given before.
func (o *PageOptions) apply(s *settings) {
	if o == nil {
		return
	}
	m := *o
	s.page = &m
}

// check validates o (nil: the defaults).
func (o *PageOptions) check() error {
	if o != nil && (o.Prefetch < 0 || o.Prefetch > maxPrefetch) {
		return &ValidationError{Field: "PageOptions.Prefetch", Problem: strconv.Itoa(o.Prefetch) + " is outside 0.." + strconv.Itoa(maxPrefetch) +
			": pass 0 to fetch one page at a time, or e.g. newssearch.DefaultPrefetch"}
	}
	return nil
}

// onPage returns the page callback (o may be nil).
func (o *PageOptions) onPage() func(*Page) {
	if o == nil {
		return nil
	}
	return o.OnPage
}

// prefetch returns the pages to fetch ahead (o may be nil).
func (o *PageOptions) prefetch() int {
	if o == nil {
		return 0
	}
	return o.Prefetch
}

// walkPages yields the pages of src in order until the pages cover the
// total (or, with none, until a page is short). An error is yielded once,
// as (nil, err), and ends the walk. Stopping the loop cancels every request
// still in flight and waits for its goroutine before returning.
//
// A page that answers no articles before the total is reached is fetched
// once more; still empty, the walk ends with ErrInconsistentPages. The
// articles a page repeats from the page before (pages that overlap, or
// shift as articles arrive) are left out. A total that grows is followed
// up to twice the pages the first page's total fills.
//
// With prefetching, the pages fetched ahead adapt to the service's rate
// limit through an aimd (floor 0): a burst of 429 answers to pages
// launched under the same depth halves it once, and each page that arrives
// without a 429 raises it by one, up to src.prefetch.
func walkPages(ctx context.Context, src pageSource) iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		ahead := &prefetcher{ctx: ctx, fetch: src.next}
		if src.prefetch > 0 {
			ahead.depth = newAIMD(src.prefetch, 0)
		}
		defer ahead.wg.Wait() // after cancel: every fetch goroutine ends
		defer cancel()

		r := ahead.observe(src.first)
		var prev *Page
		var prevFirst string                // the ID of prev's first article, as served
		before := map[articleKey]struct{}{} // prev's articles
		total, limit, refetched := 0, 0, false
		for n := 1; ; n++ {
			page, err := r.page, r.err
			if err == nil {
				err = checkPage(page, prev, prevFirst)
			}
			if err == nil {
				total = max(total, page.TotalResults) // the largest seen
			}
			if err == nil && len(page.Articles) == 0 && page.Number <= pagesFor(total) {
				if !refetched { // an empty page before the total: once more
					r, refetched, n = ahead.observe(func(ctx context.Context) (*Page, error) { return src.next(ctx, page.Number) }), true, n-1
					continue
				}
				err = fmt.Errorf("%w: page %d came back empty twice, although the total of %d articles fills %d pages: stopping short; fetch again later",
					ErrInconsistentPages, page.Number, total, pagesFor(total))
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if len(page.Articles) == 0 {
				return
			}
			if n == 1 { // the most pages the walk follows
				limit = cmp.Or(max(2*pagesFor(total)-page.Number+1, 0), maxPagesWithoutTotal)
			}
			last := pagesFor(total) // 0: total unknown
			// Page math.MaxInt is the last page a walk can name.
			more := (page.Number < last || last == 0 && len(page.Articles) >= PageSize) && page.Number < math.MaxInt
			if more && last > 0 {
				ahead.launch(page.Number+1, min(page.Number+ahead.arrived(r.throttled), last))
			}
			prevFirst, refetched = page.Articles[0].ID, false
			page.Articles = slices.DeleteFunc(page.Articles, func(a Article) bool {
				k, ok := keyOf(&a)
				_, dup := before[k]
				return ok && dup
			})
			if !yield(page, nil) || !more {
				return
			}
			if n >= limit {
				yield(nil, fmt.Errorf("%w: stopping after page %d: the total grew to %d articles, past twice the first page's (or there is none); report this to the service",
					ErrInconsistentPages, page.Number, total))
				return
			}
			clear(before)
			for i := range page.Articles {
				if k, ok := keyOf(&page.Articles[i]); ok {
					before[k] = struct{}{}
				}
			}
			prev = page
			r = ahead.get(page.Number + 1)
		}
	}
}

// checkPage guards against a service whose pages contradict each other:
// page against prev, whose first article was first.
func checkPage(page, prev *Page, first string) error {
	if prev == nil {
		return nil
	}
	switch want := prev.Number + 1; {
	case page.Number != want:
		return fmt.Errorf("%w: asked for page %d, the service answered page %d: it may ignore the page number; report this to the service",
			ErrInconsistentPages, want, page.Number)
	case len(page.Articles) > 0 && first != "" && page.Articles[0].ID == first:
		return fmt.Errorf("%w: page %d starts with the same article (%s) as page %d: the service seems to ignore the page number; stopping instead of looping; report this to the service",
			ErrInconsistentPages, page.Number, first, prev.Number)
	}
	return nil
}

// pageResult is the outcome of one page fetch.
type pageResult struct {
	page      *Page
	err       error
	throttled bool // a 429 answered one of its attempts
}

// prefetcher fetches pages ahead of the walk on their own goroutines and
// hands them over in order.
type prefetcher struct {
	ctx      context.Context
	fetch    func(ctx context.Context, n int) (*Page, error)
	depth    *aimd // nil: no prefetching
	wg       sync.WaitGroup
	pending  map[int]chan pageResult // launched, not yet taken
	launched int                     // highest page launched
}

// observe fetches a page with fetch, noting a 429 to it in the depth
// controller under the generation the fetch started in.
func (p *prefetcher) observe(fetch func(ctx context.Context) (*Page, error)) pageResult {
	ctx := p.ctx
	var throttled atomic.Bool
	if p.depth != nil {
		_, gen := p.depth.current()
		ctx = withThrottleObserver(ctx, func() {
			throttled.Store(true)
			p.depth.throttle(gen)
		})
	}
	page, err := fetch(ctx)
	return pageResult{page, err, throttled.Load()}
}

// arrived is called as each page arrives, throttled or not, and returns how
// many pages to have in flight beyond it.
func (p *prefetcher) arrived(throttled bool) int {
	if p.depth == nil {
		return 0
	}
	if !throttled {
		p.depth.raise()
	}
	limit, _ := p.depth.current()
	return limit
}

// launch starts fetching pages from..to that are not launched yet.
func (p *prefetcher) launch(from, to int) {
	for n := max(from, p.launched+1); n <= to; n++ {
		if p.pending == nil {
			p.pending = make(map[int]chan pageResult)
		}
		ch := make(chan pageResult, 1)
		p.pending[n] = ch
		p.launched = n
		p.wg.Go(func() {
			ch <- p.observe(func(ctx context.Context) (*Page, error) { return p.fetch(ctx, n) })
		})
	}
}

// get returns page n: the prefetched one, or a fetch made now.
func (p *prefetcher) get(n int) pageResult {
	if ch, ok := p.pending[n]; ok {
		delete(p.pending, n)
		return <-ch
	}
	return p.observe(func(ctx context.Context) (*Page, error) { return p.fetch(ctx, n) })
}

// failedArticles is an article iterator that yields err once.
func failedArticles(err error) iter.Seq2[Article, error] {
	return func(yield func(Article, error) bool) { yield(Article{}, err) }
}

// articlesOf flattens a page iterator into its articles, calling onPage
// (if set) before each page's; an error is yielded once, as (Article{}, err).
func articlesOf(pages iter.Seq2[*Page, error], onPage func(*Page)) iter.Seq2[Article, error] {
	return func(yield func(Article, error) bool) {
		for page, err := range pages {
			if err != nil {
				yield(Article{}, err)
				return
			}
			if onPage != nil {
				onPage(page)
			}
			for _, a := range page.Articles {
				if !yield(a, nil) {
					return
				}
			}
		}
	}
}

// SearchAll returns an iterator over the articles of every page of a
// synchronous search, from params.Page on, each article once (see
// docs/ranges.md#pages). An error is yielded once and ends the loop;
// leaving the loop cancels the requests in flight.
func (c *Client) SearchAll(ctx context.Context, params SearchParams, opts ...PageOption) iter.Seq2[Article, error] {
	if err := c.checkCall(ctx, "SearchAll"); err != nil {
		return failedArticles(err)
	}
	ctx, cs, err := begin(c, ctx, opts)
	if err == nil {
		err = params.validate("SearchParams")
	}
	if err != nil {
		return failedArticles(err)
	}
	ctx = withOutageBudget(ctx, pageOutageBudget)
	params.Sites = slices.Clone(params.Sites)
	fetch := func(ctx context.Context, n int) (*Page, error) {
		p := params
		p.Page = n
		return c.Search(ctx, p)
	}
	start := max(params.Page, 1)
	return articlesOf(walkPages(ctx, pageSource{
		first:    func(ctx context.Context) (*Page, error) { return fetch(ctx, start) },
		next:     fetch,
		prefetch: cs.page.prefetch(),
	}), cs.page.onPage())
}

// Results returns an iterator over the articles of the job queryID, from
// page 1 on, waiting as Poll does while the job runs; errors and stopping
// are as in SearchAll.
func (c *Client) Results(ctx context.Context, queryID string, opts ...ResultsOption) iter.Seq2[Article, error] {
	if err := c.checkCall(ctx, "Results"); err != nil {
		return failedArticles(err)
	}
	ctx, cs, err := begin(c, ctx, opts)
	if err != nil {
		return failedArticles(err)
	}
	cfg, _ := cs.poll.resolve() // begin validated it
	ctx = withOutageBudget(ctx, cfg.maxWait)
	return articlesOf(c.jobPages(ctx, queryID, cs.page.prefetch(), func(ctx context.Context) (*Page, error) {
		return c.poll(ctx, queryID, 1, &cfg, false)
	}), cs.page.onPage())
}

// jobPages walks the pages of a finished job whose page 1 first returns.
func (c *Client) jobPages(ctx context.Context, queryID string, prefetch int, first func(context.Context) (*Page, error)) iter.Seq2[*Page, error] {
	return walkPages(ctx, pageSource{
		first: first,
		next: func(ctx context.Context, n int) (*Page, error) {
			p, err := c.GetResults(ctx, queryID, n)
			if err != nil {
				return nil, err
			}
			if !p.State.IsSuccess() {
				return nil, fmt.Errorf("%w: page %d of query job %q is in state %q although page 1 was ready: fetch the results again later",
					ErrInconsistentPages, n, queryID, p.State)
			}
			return p, nil
		},
		prefetch: prefetch,
	})
}
