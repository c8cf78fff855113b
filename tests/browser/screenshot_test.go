package browser_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	newssearch "github.com/newssearch/newssearch-go"
)

// updateScreenshots is the switch that makes TestScreenshots rewrite the
// pictures under docs/; without it they go to a temporary directory, so
// that an ordinary run changes no file.
const updateScreenshots = "NEWSSEARCH_UPDATE_SCREENSHOTS"

// TestScreenshots takes a picture of each tab, as the README shows them.
// Run NEWSSEARCH_UPDATE_SCREENSHOTS=1 go test -run TestScreenshots
// ./browser/ in tests/ to refresh docs/inspector-*.png.
func TestScreenshots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if os.Getenv(updateScreenshots) == "1" {
		dir = filepath.Join("..", "..", "docs")
	}
	mock := newMock(t)
	ctx := context.Background()
	client := mock.Client()
	if _, err := client.Search(ctx, newssearch.SearchParams{Query: "climate"}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.SearchAsync(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "election"},
		SortOrder:    newssearch.SortDatePublished}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := faultClient(mock, "status=503").Headlines(ctx); err == nil {
		t.Fatal("the 503 fault did not fire")
	}
	if _, err := client.Headlines(ctx); err != nil {
		t.Fatal(err)
	}

	shoot := func(p *page, name string) {
		t.Helper()
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

	p := openPage(t, mock, "requests", 1200, 720)
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 6`)
	p.do(chromedp.Click(`#requests-body tr[data-seq="2"]`))
	p.waitJS(`!document.getElementById('request-detail').hidden`)
	shoot(p, "inspector-requests.png")

	p.do(chromedp.Click(`#tab-try`), chromedp.SendKeys(`#try-query`, "climate"), chromedp.SendKeys(`#try-key`, canary),
		chromedp.Click(`#try-search`))
	p.waitJS(`document.querySelectorAll('#try-results li').length > 0`)
	shoot(p, "inspector-try.png")
	p.do(chromedp.Click(`#try-headlines`))
	p.waitJS(`document.querySelectorAll('#try-clusters .cluster').length > 0`)
	shoot(p, "inspector-headlines.png")

	narrow := openPage(t, mock, "requests", 390, 780)
	narrow.waitJS(`document.querySelectorAll('#requests-body tr').length > 0`)
	shoot(narrow, "inspector-narrow.png")
}
