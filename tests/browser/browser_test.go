package browser_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/newssearch/newssearch-go/mockserver"
)

// chromiumPath is where Debian's chromium package puts the browser;
// NEWSSEARCH_CHROMIUM overrides it.
const chromiumPath = "/usr/bin/chromium"

// actionTimeout bounds every browser step: a safety limit for a loaded
// machine, never a measure of speed.
const actionTimeout = 30 * time.Second

// browserFlags are the flags the browser starts with: headless, and nothing
// that reaches beyond this machine.
var browserFlags = []chromedp.ExecAllocatorOption{
	chromedp.Headless,
	chromedp.NoSandbox,
	chromedp.DisableGPU,
	chromedp.NoFirstRun,
	chromedp.NoDefaultBrowserCheck,
	chromedp.Flag("disable-background-networking", true),
	chromedp.Flag("disable-component-update", true),
	chromedp.Flag("disable-quic", true),
	chromedp.Flag("disable-sync", true),
	chromedp.Flag("disable-dev-shm-usage", true),
	chromedp.Flag("disable-extensions", true),
	chromedp.Flag("no-proxy-server", true),
	chromedp.Flag("host-resolver-rules", "MAP "+rebound+" 127.0.0.1"), // TestRebindingIsRefused
	chromedp.Flag("force-color-profile", "srgb"),
	chromedp.Flag("force-prefers-color-scheme", "light"),
	chromedp.WindowSize(1280, 800),
}

// The browser is started once, by the first test that needs it, and shared:
// each test gets a tab of its own.
var browser struct {
	once    sync.Once
	ctx     context.Context
	cancel  func()
	err     error
	skip    string
	dataDir string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browser.cancel != nil {
		browser.cancel()
	}
	if browser.dataDir != "" {
		os.RemoveAll(browser.dataDir)
	}
	os.Exit(code)
}

// findChromium returns the browser's path, or why there is none.
func findChromium() (string, string) {
	p := chromiumPath
	if env := os.Getenv("NEWSSEARCH_CHROMIUM"); env != "" {
		p = env
	}
	if _, err := exec.LookPath(p); err != nil {
		return "", fmt.Sprintf("chromium is not installed at %s (%v): install it with `sudo apt-get install -y chromium` "+
			"(Debian's package; .ci/run installs it in CI), or point NEWSSEARCH_CHROMIUM at a Chromium binary", p, err)
	}
	return p, ""
}

func startBrowser() {
	path, why := findChromium()
	if why != "" {
		browser.skip = why
		return
	}
	dir, err := os.MkdirTemp("", "newssearch-chromium-")
	if err != nil {
		browser.err = err
		return
	}
	browser.dataDir = dir
	opts := append([]chromedp.ExecAllocatorOption{chromedp.ExecPath(path), chromedp.UserDataDir(dir)}, browserFlags...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	browser.ctx = ctx
	browser.cancel = func() { cancelCtx(); cancelAlloc() }
	if err := chromedp.Do(ctx); err != nil { // starts the browser and its first tab
		browser.err = fmt.Errorf("starting %s: %w", path, err)
	}
}

// page is one browser tab on the inspector of one mock server.
type page struct {
	t       *testing.T
	ctx     context.Context
	mock    *mockserver.Server
	mu      sync.Mutex
	console []string
	allowed func(*log.Entry) bool
}

// openPage opens a tab on the inspector of mock at the given tab, in a
// window width×height. It fails the test at its end if anything reached
// the console: an error, a warning, an uncaught exception, or a browser
// log entry of those levels (a failed load, a blocked resource, a
// Content-Security-Policy violation), except answers the test provoked
// on purpose (see allowHTTPErrors).
//
// Each setup step runs in the new tab before the page loads.
func openPage(t *testing.T, mock *mockserver.Server, tab string, width, height int64, setup ...func(context.Context) error) *page {
	t.Helper()
	browser.once.Do(startBrowser)
	if browser.skip != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %s", browser.skip)
		}
		t.Skip(browser.skip)
	}
	if browser.err != nil {
		t.Fatal(browser.err)
	}
	p := &page{t: t, mock: mock, allowed: func(*log.Entry) bool { return false }}
	ctx, cancel := chromedp.NewContext(browser.ctx, chromedp.WithListener(p.listen))
	t.Cleanup(func() {
		cancel()
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.console) > 0 {
			t.Errorf("the page wrote to the console:\n%s", strings.Join(p.console, "\n"))
		}
	})
	p.ctx = ctx
	// The first Run opens the tab, which lives as long as that Run's context:
	// ctx itself, not a child with a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	for _, step := range setup {
		if err := step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	p.do(chromedp.EmulateViewport(width, height), chromedp.Navigate(mock.URL()+mockserver.UIPath+"#"+tab))
	p.waitJS(`document.getElementById('live').classList.contains('on')`)
	return p
}

func (p *page) listen(ev any) {
	var msg string
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			msg = fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg = "uncaught exception: " + d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
	case *log.EventEntryAdded:
		en := e.Entry
		if (en.Level == log.EntryLevelError || en.Level == log.EntryLevelWarning) && !p.allowedEntry(en) {
			msg = fmt.Sprintf("browser log (%s, %s): %s %s", en.Level, en.Source, en.Text, en.URL)
		}
	}
	if msg != "" {
		p.mu.Lock()
		p.console = append(p.console, msg)
		p.mu.Unlock()
	}
}

func (p *page) allowedEntry(en *log.Entry) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.allowed(en)
}

// allowHTTPErrors lets the browser log failed answers from paths that
// start with prefix: Chrome logs every 4xx and 5xx a fetch receives, also
// when the page handles it, and a test that provokes one on purpose says
// so.
func (p *page) allowHTTPErrors(prefix string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	prev := p.allowed
	full := p.mock.URL() + prefix
	p.allowed = func(en *log.Entry) bool {
		return prev(en) || (en.Source == log.EntrySourceNetwork && strings.HasPrefix(en.URL, full) &&
			strings.Contains(en.Text, "the server responded with a status of"))
	}
}

// do runs browser steps, failing the test on error.
func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// waitJS waits until the expression is truthy, at most actionTimeout.
func (p *page) waitJS(js string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout+time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[any](js, chromedp.WithPollingTimeout(actionTimeout), chromedp.WithPollingInterval(20*time.Millisecond)))
	if errors.Is(err, chromedp.ErrPollingTimeout) {
		p.t.Fatalf("waited %v for %s; the page shows:\n%s", actionTimeout, js, eval[string](p, `document.querySelector('main').innerText`))
	}
	if err != nil {
		p.t.Fatalf("waiting for %s: %v", js, err)
	}
}

// choose sets a select or input and fires the events a person's change
// would.
func (p *page) choose(id, value string) {
	p.t.Helper()
	eval[any](p, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q;
		e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); })()`, id, value))
}

// rows returns the Requests table as the page shows it: one string per
// row, its cells joined by " | ".
func (p *page) rows() []string {
	p.t.Helper()
	return eval[[]string](p, `Array.from(document.querySelectorAll('#requests-body tr'), tr =>
		Array.from(tr.cells, c => c.textContent).join(' | '))`)
}

// steppingClock is a server clock that moves 1.25 ms each time it is read,
// so that journal times and latencies are deterministic yet distinct.
func steppingClock() func() time.Time {
	var n atomic.Int64
	start := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	return func() time.Time { return start.Add(time.Duration(n.Add(1)) * 1250 * time.Microsecond) }
}
