package browser_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver"
)

// rebound is a name the browser resolves to 127.0.0.1 (browserFlags): a
// page at http://rebound.test:PORT stands for an attacker's page whose
// domain was made to resolve to this machine (DNS rebinding).
const rebound = "rebound.test"

// attackPage is a page of another site that tries everything a page can
// send to the mock at MOCK without the user: "simple" requests that need
// no preflight (fetch in no-cors mode with text/plain, a beacon, form
// posts of text/plain and of a form), and requests that need one (a JSON
// POST, a PUT, a DELETE). window.results says how each fetch ended;
// window.done is set once every fetch has settled and every form has
// loaded its answer.
const attackPage = `<!doctype html>
<title>not the mock</title>
<iframe name="f1"></iframe><iframe name="f2"></iframe>
<form id="text" method="post" enctype="text/plain" target="f1" action="MOCK/_mock/faults">
<input name="endpoint=query;status" value="503"></form>
<form id="form" method="post" target="f2" action="MOCK/_mock/reset"><input name="a" value="b"></form>
<script>
const mock = "MOCK", results = {};
function attempt(what, url, init) {
  return fetch(mock + url, init).then(
    r => { results[what] = r.type === 'opaque' ? 'sent, answer unreadable' : 'answered ' + r.status; },
    e => { results[what] = 'blocked: ' + e.name; });
}
const loads = ['f1', 'f2'].map(name => new Promise(ok => document.querySelector('iframe[name=' + name + ']').onload = ok));
const fetches = [
  attempt('text/plain fault rule', '/_mock/faults', {method: 'POST', mode: 'no-cors', body: 'status=503'}),
  attempt('text/plain clock move', '/_mock/clock', {method: 'POST', mode: 'no-cors', body: '{"advance": "2h"}'}),
  attempt('text/plain query-async', '/api/v2/query-async', {method: 'POST', mode: 'no-cors', body: '{"api_key": "k", "query": "cars"}'}),
  attempt('JSON clock move', '/_mock/clock', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"advance": "2h"}'}),
  attempt('JSON query-async', '/api/v2/query-async', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"api_key": "k", "query": "cars"}'}),
  attempt('PUT fault rules', '/_mock/faults', {method: 'PUT', body: '[]'}),
  attempt('DELETE articles', '/_mock/articles', {method: 'DELETE'}),
];
results['beacon'] = navigator.sendBeacon(mock + '/api/v2/query-async', '{"api_key": "k", "query": "beacon"}') ? 'queued' : 'refused by the browser';
document.getElementById('text').submit();
document.getElementById('form').submit();
Promise.all([...fetches, ...loads]).then(() => { window.done = true; });
</script>`

// syncBuffer is a buffer the mock's logger and the test share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// refusals lists the requests the mock's log says it refused, as
// "METHOD path from origin (reason)", sorted.
func refusals(log string) []string {
	var out []string
	re := regexp.MustCompile(`msg="mockserver: refused a request" reason="([^"]+)" method=(\S+) path=(\S+) host=\S+ origin=(\S*)`)
	for _, m := range re.FindAllStringSubmatch(log, -1) {
		out = append(out, fmt.Sprintf("%s %s from %s (%s)", m[2], m[3], m[4], m[1]))
	}
	slices.Sort(out)
	return out
}

// mockState is what a page must not change: fault rules and their
// counters, jobs, the clock, the articles and the journal.
func mockState(m *mockserver.Server) string {
	var b strings.Builder
	for _, f := range m.Faults() {
		fmt.Fprintf(&b, "rule %s matched %d fired %d; ", f.FaultRule, f.Matched, f.Fired)
	}
	fmt.Fprintf(&b, "jobs %d; clock %v; articles %d; journal %d", len(m.Jobs()), m.Now(), m.Corpus().Len(), len(m.Journal()))
	return b.String()
}

// newTab opens a browser tab of its own, without the inspector's console
// checks: the pages here fail requests on purpose.
func newTab(t *testing.T) context.Context {
	t.Helper()
	browser.once.Do(startBrowser)
	if browser.skip != "" {
		t.Skip(browser.skip)
	}
	if browser.err != nil {
		t.Fatal(browser.err)
	}
	ctx, cancel := chromedp.NewContext(browser.ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// TestOtherOriginsCannotDriveTheMock serves attackPage from another
// loopback origin (the same address on another port, which is the same
// site, and localhost, which is another site) and lets it try every
// request a page can make to the mock: each one reaches the mock and is
// refused, and faults, clock, jobs, articles and journal are as before.
func TestOtherOriginsCannotDriveTheMock(t *testing.T) {
	t.Parallel()
	logs := new(syncBuffer)
	mock := newMock(t, mockserver.WithManualClock(time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)),
		mockserver.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		// A rule whose counter any accepted query-async would move.
		mockserver.WithFaults(mockserver.FaultRule{Endpoint: mockserver.EndpointQueryAsync, Every: 1000, Fault: mockserver.Fault{Status: 503}}))
	before := mockState(mock)
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/attack" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.ReplaceAll(attackPage, "MOCK", mock.URL()))
	}))
	t.Cleanup(attacker.Close)
	port := attacker.URL[strings.LastIndexByte(attacker.URL, ':')+1:]

	var want []string
	for _, origin := range []string{attacker.URL, "http://localhost:" + port} {
		ctx := newTab(t)
		run := func(actions ...chromedp.Action[chromedp.Void]) {
			t.Helper()
			tctx, cancel := context.WithTimeout(ctx, actionTimeout)
			defer cancel()
			if err := chromedp.Do(tctx, actions...); err != nil {
				t.Fatalf("%s: %v", origin, err)
			}
		}
		run(chromedp.Navigate(origin + "/attack"))
		tctx, cancel := context.WithTimeout(ctx, actionTimeout+time.Second)
		_, err := chromedp.Run(tctx, chromedp.Poll[any](`window.done`, chromedp.WithPollingTimeout(actionTimeout), chromedp.WithPollingInterval(20*time.Millisecond)))
		cancel()
		if err != nil {
			t.Fatalf("%s: the attack page did not finish: %v", origin, err)
		}
		tctx, cancel = context.WithTimeout(ctx, actionTimeout)
		results, err := chromedp.Run(tctx, chromedp.Evaluate[map[string]string](`results`))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		// The simple requests are sent (their answers are unreadable);
		// those that need a preflight never leave the browser.
		wantResults := map[string]string{
			"text/plain fault rule":  "sent, answer unreadable",
			"text/plain clock move":  "sent, answer unreadable",
			"text/plain query-async": "sent, answer unreadable",
			"JSON clock move":        "blocked: TypeError",
			"JSON query-async":       "blocked: TypeError",
			"PUT fault rules":        "blocked: TypeError",
			"DELETE articles":        "blocked: TypeError",
			"beacon":                 "queued",
		}
		if diff := cmp.Diff(wantResults, results); diff != "" {
			t.Errorf("%s: what the page's requests did (-want +got):\n%s", origin, diff)
		}
		reason := "request from another site"
		for _, req := range []string{"POST /_mock/faults", "POST /_mock/faults", "POST /_mock/clock", "POST /_mock/reset",
			"POST /api/v2/query-async", "POST /api/v2/query-async",
			"OPTIONS /_mock/clock", "OPTIONS /_mock/faults", "OPTIONS /_mock/articles", "OPTIONS /api/v2/query-async"} {
			want = append(want, fmt.Sprintf("%s from %s (%s)", req, origin, reason))
		}
	}
	slices.Sort(want)

	// Every request reached the mock and was refused (the beacon may
	// arrive last); nothing changed.
	deadline := time.Now().Add(actionTimeout)
	for !slices.Equal(refusals(logs.String()), want) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if diff := cmp.Diff(want, refusals(logs.String())); diff != "" {
		t.Errorf("requests the mock refused (-want +got):\n%s\nlog:\n%s", diff, logs)
	}
	if after := mockState(mock); after != before {
		t.Errorf("the pages changed the mock:\nbefore %s\nafter  %s", before, after)
	}
}

// TestRebindingIsRefused: a page at http://rebound.test:PORT, a name the
// browser resolves to 127.0.0.1 as a rebound attacker domain would, gets a
// 421 for itself and for every request it makes, same-origin as they are.
func TestRebindingIsRefused(t *testing.T) {
	t.Parallel()
	mock := newMock(t, mockserver.WithManualClock(time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)))
	before := mockState(mock)
	ctx := newTab(t)
	port := mock.URL()[strings.LastIndexByte(mock.URL(), ':')+1:]
	origin := "http://" + rebound + ":" + port
	tctx, cancel := context.WithTimeout(ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(origin+mockserver.UIPath)); err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"state":"FAILED","message":"the Host header \"` + rebound + `:` + port + `\" is not a name this mock answers to: ` +
		`it answers to localhost, *.localhost, IP addresses and the names given to newsmock -allow-host (mockserver.WithAllowedHosts in Go), ` +
		`so that a web page whose domain is made to resolve to this machine (DNS rebinding) cannot reach it; if you reach the mock by this ` +
		`name on purpose, start newsmock with -allow-host ` + rebound + `"}`
	if shown != want {
		t.Errorf("the inspector at %s shows\n%s\nwant\n%s", origin, shown, want)
	}
	statuses, err := chromedp.Run(tctx, chromedp.Evaluate[[]int](`Promise.all([
		fetch('/_mock/faults', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"fault": {"status": 503}}'}),
		fetch('/_mock/clock', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"advance": "2h"}'}),
		fetch('/api/v2/query-async', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"api_key": "k", "query": "cars"}'}),
		fetch('/_mock/jobs'),
	]).then(rs => rs.map(r => r.status))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{421, 421, 421, 421}, statuses); diff != "" {
		t.Errorf("same-origin requests of the rebound page (-want +got):\n%s", diff)
	}
	if after := mockState(mock); after != before {
		t.Errorf("the rebound page changed the mock:\nbefore %s\nafter  %s", before, after)
	}
}
