package browser_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// updateScreenshots is the switch that makes TestScreenshots rewrite the
// pictures under docs/; without it they go to a temporary directory, so
// that an ordinary run changes no file.
const updateScreenshots = "NEWSSEARCH_UPDATE_SCREENSHOTS"

// frozenDate makes the page's clock (the "updated" time of the live
// indicator) read a fixed instant, so that the pictures do not change with
// the hour they are taken at. Timers still run.
const frozenDate = `(() => {
	const Real = Date, fixed = Real.parse('2026-03-02T09:31:00Z');
	function FrozenDate(...args) {
		if (!new.target) return new Real(fixed).toString();
		return args.length ? new Real(...args) : new Real(fixed);
	}
	FrozenDate.prototype = Real.prototype;
	FrozenDate.now = () => fixed;
	FrozenDate.parse = Real.parse;
	FrozenDate.UTC = Real.UTC;
	window.Date = FrozenDate;
})();`

func freezeDate(ctx context.Context) error {
	_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: frozenDate})
	return err
}

// TestScreenshots takes a picture of each tab, as the README shows them.
// Run NEWSSEARCH_UPDATE_SCREENSHOTS=1 go test -run TestScreenshots
// ./browser/ in tests/ to refresh docs/inspector-*.png. The content is
// the same on every run: a fixed server clock, fixed requests, a frozen
// page clock.
func TestScreenshots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if os.Getenv(updateScreenshots) == "1" {
		dir = filepath.Join("..", "..", "docs")
	}
	mock := newMock(t, mockserver.WithFaults(
		mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Every: 1000, Fault: mockserver.Fault{Job: mockserver.JobStuck}},
		mockserver.FaultRule{Endpoint: mockserver.EndpointHeadlines, Times: 1, Fault: mockserver.Fault{Status: 503, RetryAfter: 2}},
	))
	ctx := context.Background()
	client := mock.Client(newssearch.WithMaxRetries(0))
	if _, err := client.Search(ctx, newssearch.SearchParams{Query: "climate"}); err != nil {
		t.Fatal(err)
	}
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "election"},
		SortOrder:    newssearch.SortDatePublished})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Poll(ctx, job.QueryID); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Headlines(ctx); err == nil {
		t.Fatal("the 503 rule did not fire")
	}
	// Its Retry-After: 2 pauses client; a new Client goes on at once.
	client = mock.Client(newssearch.WithMaxRetries(0))
	if _, err := client.Headlines(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "electric cars"}}); err != nil {
		t.Fatal(err)
	}
	failed, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "interest rates"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mock.ForceJob(failed.QueryID, mockserver.JobFailed, "upstream timeout"); err != nil {
		t.Fatal(err)
	}

	shoot := func(p *page, name string) {
		t.Helper()
		// The Requests badge counts every request so far.
		p.waitJS(`document.getElementById('requests-badge').textContent === '` + strconv.Itoa(len(mock.Journal())) + `'`)
		// Nothing focused, and two frames drawn since the last change.
		eval[any](p, `document.activeElement && document.activeElement.blur()`)
		eval[any](p, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`)
		ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
		defer cancel()
		b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Fatalf("%s: not a PNG: %v", name, err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", path, len(b))
	}

	p := openPage(t, mock, "requests", 1400, 800, freezeDate)
	p.allowHTTPErrors("/_mock/faults")
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 8`)
	p.do(chromedp.Click(`#requests-body tr[data-seq="5"]`))
	p.waitJS(`!document.getElementById('request-detail').hidden`)
	shoot(p, "inspector-requests.png")

	p.do(chromedp.Click(`#tab-jobs`))
	p.waitJS(`document.querySelectorAll('#jobs-body tr').length === 3`)
	p.do(chromedp.Click(`#jobs-body tr[data-id="` + failed.QueryID + `"]`))
	p.waitJS(`!document.getElementById('job-detail').hidden`)
	p.choose("job-state", "FAILED")
	p.choose("job-message", "upstream timeout")
	shoot(p, "inspector-jobs.png")

	p.do(chromedp.Click(`#tab-faults`))
	p.waitJS(`document.querySelectorAll('#faults-body tr').length === 2`)
	p.fillFault(map[string]string{"fault-endpoint": "get-results", "fault-every": "3", "fault-status": "200"})
	p.do(chromedp.Click(`#fault-add`))
	p.waitJS(`!document.getElementById('err-status').hidden`)
	shoot(p, "inspector-faults.png")

	p.do(chromedp.Click(`#tab-try`), chromedp.SendKeys(`#try-query`, "climate"), chromedp.SendKeys(`#try-key`, canary),
		chromedp.Click(`#try-search`))
	p.waitJS(`document.querySelectorAll('#try-results li').length > 0`)
	shoot(p, "inspector-try.png")
	p.do(chromedp.Click(`#try-headlines`))
	p.waitJS(`document.querySelectorAll('#try-clusters .cluster').length > 0`)
	shoot(p, "inspector-headlines.png")

	narrow := openPage(t, mock, "requests", 390, 780, freezeDate)
	narrow.waitJS(`document.querySelectorAll('#requests-body tr').length > 0`)
	shoot(narrow, "inspector-narrow.png")
}
