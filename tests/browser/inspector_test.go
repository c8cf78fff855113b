// Package browser_test drives the mock server's inspector page
// (/_mock/ui) in headless Chromium through chromedp.
package browser_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// canary is the API key of every test: it must never appear on the page.
const canary = "CANARY-inspector-5e1f-do-not-show"

func newMock(t *testing.T, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	s, err := mockserver.Start(append([]mockserver.Option{mockserver.WithAPIKeys(canary), mockserver.WithClock(steppingClock())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// assertNoKey fails the test if the key is anywhere in the document: its
// markup, its text, or the value of a field other than the key field.
func (p *page) assertNoKey() {
	p.t.Helper()
	found := eval[[]string](p, `(() => {
		const key = `+strconv.Quote(canary)+`, where = [];
		if (document.documentElement.outerHTML.includes(key)) where.push('markup');
		if (document.body.innerText.includes(key)) where.push('text');
		document.querySelectorAll('input, textarea, select').forEach(e => {
			if (e.id !== 'try-key' && String(e.value).includes(key)) where.push('#' + e.id);
		});
		if (document.title.includes(key) || location.href.includes(key)) where.push('title or URL');
		return where;
	})()`)
	if len(found) > 0 {
		p.t.Errorf("the API key appears on the page: %v", found)
	}
}

func TestRequestsAppearLive(t *testing.T) {
	t.Parallel()
	mock := newMock(t)
	p := openPage(t, mock, "requests", 1280, 800)
	p.waitJS(`!document.getElementById('requests-empty').hidden`)
	// A marker in the window: a reload would drop it.
	eval[any](p, `window.inspectorMarker = 'still here'`)

	client := mock.Client()
	if _, err := client.Search(context.Background(), newssearch.SearchParams{Query: "climate"}); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	p.waitJS(`document.querySelector('#requests-body tr[data-seq="1"]')`)
	t.Logf("the request showed on the page %v after the SDK had its answer (the page polls every 500 ms)", time.Since(sent).Round(time.Millisecond))
	if got := eval[string](p, `window.inspectorMarker`); got != "still here" {
		t.Fatal("the page reloaded to show the request")
	}
	got := p.rows()
	want := []string{"1 | 09:30:00.002 | POST | /api/v2/query | 200 |  |  | 1.25 ms"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Requests table (-want +got):\n%s", diff)
	}

	// Newest first, as more arrive.
	if _, err := client.Headlines(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 2`)
	if got := eval[[]string](p, `Array.from(document.querySelectorAll('#requests-body tr'), tr => tr.dataset.seq)`); !slices.Equal(got, []string{"2", "1"}) {
		t.Errorf("rows in order %v, want newest first [2 1]", got)
	}
	if got := eval[string](p, `document.getElementById('requests-badge').textContent`); got != "2" {
		t.Errorf("badge %q, want 2", got)
	}

	// The details of one request: the redacted body and the status.
	p.do(chromedp.Click(`#requests-body tr[data-seq="1"]`))
	p.waitJS(`!document.getElementById('request-detail').hidden`)
	fields := eval[[]string](p, `Array.from(document.querySelectorAll('#detail-fields dt, #detail-fields dd'), e => e.textContent)`)
	wantFields := []string{
		"Request id", mock.Journal()[0].RequestID, "Time", "2026-03-02T09:30:00.0025Z", "Method", "POST",
		"Path", "/api/v2/query", "Status", "200 OK", "Fault", "none", "query_id", "—", "Latency", "1.25 ms",
	}
	if diff := cmp.Diff(wantFields, fields); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
	body := eval[string](p, `document.getElementById('detail-body').textContent`)
	wantBody := "{\n  \"api_key\": \"[redacted]\",\n  \"query\": \"climate\",\n  \"page\": 1\n}"
	if body != wantBody {
		t.Errorf("detail body:\n%s\nwant:\n%s", body, wantBody)
	}
	p.assertNoKey()
}

func TestRequestFilters(t *testing.T) {
	t.Parallel()
	mock := newMock(t)
	p := openPage(t, mock, "requests", 1280, 800)
	ctx := context.Background()
	client := mock.Client(newssearch.WithMaxRetries(0))
	if _, err := client.Search(ctx, newssearch.SearchParams{Query: "climate"}); err != nil { // 1: 200
		t.Fatal(err)
	}
	if _, err := client.Headlines(ctx); err != nil { // 2: 200
		t.Fatal(err)
	}
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election"}}) // 3: 200
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.GetResults(ctx, "0123456789abcdef0123456789abcdef", 1); err == nil { // 4: 404
		t.Fatal("get-results of an unknown id succeeded")
	}
	resp, err := mock.HTTPClient().Post(mock.URL()+"/api/v2/query", "application/json", // 5: 400
		strings.NewReader(`{"api_key": "`+canary+`", "query": "x", "traffic_rank": 101}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("traffic_rank 101: %s, want 400", resp.Status)
	}
	faulty := faultClient(mock, "status=503")
	if _, err := faulty.Headlines(ctx); err == nil { // 6: 503, a fault
		t.Fatal("the 503 fault did not fire")
	}
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 6`)

	seqs := func() []string {
		return eval[[]string](p, `Array.from(document.querySelectorAll('#requests-body tr'), tr => tr.dataset.seq)`)
	}
	for _, tc := range []struct {
		endpoint, status, text string
		want                   []string
		summary                string
	}{
		{want: []string{"6", "5", "4", "3", "2", "1"}, summary: "6 requests, newest first"},
		{endpoint: "/api/v2/headlines", want: []string{"6", "2"}, summary: "showing 2 of 6 requests, newest first"},
		{endpoint: "/api/v2/query", want: []string{"5", "1"}},
		{status: "2xx", want: []string{"3", "2", "1"}},
		{status: "4xx", want: []string{"5", "4"}},
		{status: "5xx", want: []string{"6"}},
		{status: "fault", want: []string{"6"}},
		{status: "none", want: []string{}},
		{endpoint: "/api/v2/headlines", status: "2xx", want: []string{"2"}},
		{endpoint: "other", want: []string{}},
		{text: job.QueryID, want: []string{"3"}},
		{text: "ELECTION", want: []string{"3"}},
	} {
		p.choose("filter-endpoint", tc.endpoint)
		p.choose("filter-status", tc.status)
		p.choose("filter-text", tc.text)
		if got := seqs(); !slices.Equal(got, tc.want) {
			t.Errorf("endpoint %q, status %q, text %q: rows %v, want %v", tc.endpoint, tc.status, tc.text, got, tc.want)
		}
		if tc.summary != "" {
			if got := eval[string](p, `document.getElementById('requests-summary').textContent`); got != tc.summary {
				t.Errorf("endpoint %q, status %q: summary %q, want %q", tc.endpoint, tc.status, got, tc.summary)
			}
		}
	}
	if got := eval[string](p, `document.getElementById('requests-empty').textContent`); got != "No request matches the filters." {
		t.Errorf("empty message %q", got)
	}

	// A filter holds while new requests arrive.
	p.choose("filter-text", "")
	p.choose("filter-status", "5xx")
	if _, err := faulty.Headlines(ctx); err == nil {
		t.Fatal("the 503 fault did not fire")
	}
	if _, err := client.Headlines(ctx); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById('requests-badge').textContent === '8'`)
	if got := seqs(); !slices.Equal(got, []string{"7", "6"}) {
		t.Errorf("5xx rows after two more requests: %v, want [7 6]", got)
	}
	p.assertNoKey()
}

func TestTrySearch(t *testing.T) {
	t.Parallel()
	mock := newMock(t)
	p := openPage(t, mock, "try", 1280, 900)
	p.allowHTTPErrors("/api/v2/")
	ctx := context.Background()
	client := mock.Client()

	// Without a key the page sends a placeholder, which this server refuses:
	// the message says what to do.
	p.do(chromedp.SendKeys(`#try-query`, "climate"), chromedp.Click(`#try-search`))
	p.waitJS(`document.getElementById('try-status').classList.contains('error')`)
	wantErr := "POST /api/v2/query failed: 401 Unauthorized, state FAILED" +
		"api_key is not accepted by this mock server: use one of the keys it was started with" +
		" (newsmock -keys on the command line; mockserver.WithAPIKeys in Go, where Server.Client and Server.APIKey provide one)" +
		" — enter an accepted key in the API key field."
	if got := eval[string](p, `document.getElementById('try-status').textContent`); got != wantErr {
		t.Errorf("status without a key:\n%s\nwant:\n%s", got, wantErr)
	}

	// The synchronous search shows the same articles as the SDK gets.
	p.do(chromedp.SendKeys(`#try-key`, canary), chromedp.Click(`#try-search`))
	p.waitJS(`document.querySelectorAll('#try-results li').length > 0`)
	want, err := client.Search(ctx, newssearch.SearchParams{Query: "climate"})
	if err != nil {
		t.Fatal(err)
	}
	titles := func() []string {
		return eval[[]string](p, `Array.from(document.querySelectorAll('#try-results li .title'), e => e.textContent)`)
	}
	var wantTitles []string
	for _, a := range want.Articles {
		wantTitles = append(wantTitles, a.Title)
	}
	if diff := cmp.Diff(wantTitles, titles()); diff != "" {
		t.Errorf("titles on page 1 (-want +got):\n%s", diff)
	}
	pages := (want.TotalResults + newssearch.PageSize - 1) / newssearch.PageSize
	wantStatus := strconv.Itoa(want.TotalResults) + " results · page 1 of " + strconv.Itoa(pages) + " · /api/v2/query"
	if got := eval[string](p, `document.getElementById('try-status').textContent`); got != wantStatus {
		t.Errorf("status %q, want %q", got, wantStatus)
	}

	// Next page.
	p.do(chromedp.Click(`#try-next`))
	p.waitJS(`document.getElementById('try-pageinfo').textContent.startsWith('page 2 ')`)
	p.waitJS(`document.querySelectorAll('#try-results li').length > 0`)
	page2, err := client.Search(ctx, newssearch.SearchParams{Query: "climate", Page: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := titles(); len(got) != len(page2.Articles) || got[0] != page2.Articles[0].Title {
		t.Errorf("page 2 starts with %q (%d articles), want %q (%d)", got[:min(1, len(got))], len(got), page2.Articles[0].Title, len(page2.Articles))
	}

	// The asynchronous search with a sort order and key phrases, through
	// query-async and get-results.
	p.do(chromedp.Click(`input[name=mode][value="query-async"]`))
	p.choose("try-sort", "Date Published")
	p.choose("try-phrases", "'climate'")
	p.choose("try-page", "1")
	p.do(chromedp.Click(`#try-search`))
	p.waitJS(`document.getElementById('try-status').textContent.includes('/api/v2/get-results')`)
	asyncJob, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{Query: "climate"}, SortOrder: newssearch.SortDatePublished, KeyPhrases: "'climate'"})
	if err != nil {
		t.Fatal(err)
	}
	asyncWant, err := client.Poll(ctx, asyncJob.QueryID)
	if err != nil {
		t.Fatal(err)
	}
	var asyncTitles []string
	for _, a := range asyncWant.Articles {
		asyncTitles = append(asyncTitles, a.Title)
	}
	if diff := cmp.Diff(asyncTitles, titles()); diff != "" {
		t.Errorf("async titles (-want +got):\n%s", diff)
	}
	status := eval[string](p, `document.getElementById('try-status').textContent`)
	if !strings.Contains(status, "query_id ") || !strings.Contains(status, "(2 polls)") {
		t.Errorf("async status %q: want the query_id and 2 polls (the mock answers PENDING once)", status)
	}
	var journaled []string
	for _, e := range mock.Journal() {
		journaled = append(journaled, e.Path)
	}
	wantPaths := []string{"/api/v2/query", "/api/v2/query", "/api/v2/query", "/api/v2/query", "/api/v2/query",
		"/api/v2/query-async", "/api/v2/get-results", "/api/v2/get-results",
		"/api/v2/query-async", "/api/v2/get-results", "/api/v2/get-results"}
	if diff := cmp.Diff(wantPaths, journaled); diff != "" {
		t.Errorf("requests the form and the SDK made (-want +got):\n%s", diff)
	}

	// Headlines, as clusters.
	p.do(chromedp.Click(`#try-headlines`))
	p.waitJS(`document.querySelectorAll('#try-clusters .cluster').length > 0`)
	h, err := client.Headlines(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var wantClusters []string
	for _, c := range h.Headlines {
		wantClusters = append(wantClusters, c.Topic+" / "+strconv.Itoa(len(c.Articles)))
	}
	gotClusters := eval[[]string](p, `Array.from(document.querySelectorAll('#try-clusters .cluster'),
		c => c.querySelector('h3').textContent + ' / ' + c.querySelectorAll('li').length)`)
	if diff := cmp.Diff(wantClusters, gotClusters); diff != "" {
		t.Errorf("clusters (-want +got):\n%s", diff)
	}
	if n := eval[int](p, `document.querySelectorAll('#try-results li').length`); n != 0 {
		t.Errorf("%d search results still shown beside the headlines", n)
	}
	p.assertNoKey()
}

// TestNarrowWindow checks that nothing is wider than a phone's screen.
func TestNarrowWindow(t *testing.T) {
	t.Parallel()
	mock := newMock(t)
	client := faultClient(mock, "latency=1ms")
	if _, err := client.Search(context.Background(), newssearch.SearchParams{Query: "climate"}); err != nil {
		t.Fatal(err)
	}
	job, err := mock.Client().SubmitQuery(context.Background(), newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "climate"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := mock.AddFault(mockserver.FaultRule{Endpoint: mockserver.EndpointHeadlines, Every: 1000, Times: 3,
		Fault: mockserver.Fault{Status: 503, RetryAfter: 2}}); err != nil {
		t.Fatal(err)
	}
	p := openPage(t, mock, "requests", 360, 740)
	p.allowHTTPErrors("/_mock/faults")
	p.waitJS(`document.querySelector('#requests-body tr[data-seq="1"]')`)
	p.do(chromedp.Click(`#requests-body tr[data-seq="1"]`))
	for _, tab := range []string{"requests", "jobs", "faults", "try"} {
		p.do(chromedp.Click(`#tab-` + tab))
		p.waitJS(`!document.getElementById('panel-` + tab + `').hidden`)
		switch tab {
		case "jobs":
			p.waitJS(`document.querySelector('#jobs-body tr[data-id="` + job.QueryID + `"]')`)
			p.do(chromedp.Click(`#jobs-body tr[data-id="` + job.QueryID + `"]`))
			p.waitJS(`!document.getElementById('job-detail').hidden`)
		case "faults":
			p.waitJS(`document.querySelectorAll('#faults-body tr').length === 1`)
			p.fillFault(map[string]string{"fault-latency": "soon"})
			p.do(chromedp.Click(`#fault-add`))
			p.waitJS(`!document.getElementById('err-latency').hidden`)
		case "try":
			p.do(chromedp.SendKeys(`#try-key`, canary), chromedp.Click(`#try-headlines`))
			p.waitJS(`document.querySelectorAll('#try-clusters .cluster').length > 0`)
		}
		if w := eval[[]int](p, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
			wide := eval[[]string](p, `Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)`)
			t.Errorf("tab %s in a 360 px window is %d px wide; too wide: %v", tab, w[0], wide)
		}
	}
	p.assertNoKey()
}

// faultClient is an SDK client on mock whose every request asks for a fault
// with the X-Mock-Fault header, and that does not retry.
func faultClient(mock *mockserver.Server, fault string) *newssearch.Client {
	hc := &http.Client{Transport: faultTransport{base: mock.HTTPClient().Transport, fault: fault}}
	return mock.Client(newssearch.WithMaxRetries(0), newssearch.WithHTTPClient(hc))
}

type faultTransport struct {
	base  http.RoundTripper
	fault string
}

func (f faultTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(mockserver.FaultHeader, f.fault)
	return f.base.RoundTrip(r)
}

// TestWorldPicker: the picker lists the worlds (the default one first, then
// by id); picking one shows its journal and its fault rules, and every
// control call the page makes names it with X-Newsmock-World (none for the
// default world, nor for the calls about the whole server). When the picked
// world is dropped, the page goes back to the default world.
func TestWorldPicker(t *testing.T) {
	t.Parallel()
	keyA, keyB := canary+"-world-a", canary+"-world-b"
	mock := newMock(t, mockserver.WithAPIKeys(canary, keyA, keyB))
	a, b := mock.World(keyA), mock.World(keyB)
	ctx := context.Background()
	// The default world (canary has no world of its own): one search.
	if _, err := mock.Client().Search(ctx, newssearch.SearchParams{Query: "climate"}); err != nil {
		t.Fatal(err)
	}
	// World A: headlines, then a search; and a fault rule that never fires.
	if _, err := a.Client().Headlines(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Client().Search(ctx, newssearch.SearchParams{Query: "bank"}); err != nil {
		t.Fatal(err)
	}
	if err := a.AddFault(mockserver.FaultRule{Endpoint: mockserver.EndpointHeadlines, Every: 1000, Fault: mockserver.Fault{Status: 503}}); err != nil {
		t.Fatal(err)
	}
	// World B: three headlines.
	for range 3 {
		if _, err := b.Client().Headlines(ctx); err != nil {
			t.Fatal(err)
		}
	}
	idA, idB := mockserver.KeyFingerprint(keyA), mockserver.KeyFingerprint(keyB)
	ids := []string{idA, idB}
	slices.Sort(ids)

	p := openPage(t, mock, "requests", 1280, 800)
	// Record the X-Newsmock-World header of every call the page makes.
	eval[any](p, `(() => { window.sent = []; const f = window.fetch;
		window.fetch = (url, init) => { window.sent.push(url + ' ' + ((init && init.headers && init.headers['X-Newsmock-World']) || '-')); return f(url, init); }; })()`)
	p.waitJS(`document.getElementById('world').options.length === 3`)
	if got, want := eval[[]string](p, `Array.from(document.getElementById('world').options, o => o.value)`), append([]string{"default"}, ids...); !slices.Equal(got, want) {
		t.Errorf("picker lists %q, want %q", got, want)
	}
	if got := eval[string](p, `document.getElementById('world').value`); got != "default" {
		t.Errorf("picked at start: %q, want default", got)
	}
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 1`)
	paths := func() []string {
		return eval[[]string](p, `Array.from(document.querySelectorAll('#requests-body tr .c-path'), c => c.textContent)`)
	}
	if diff := cmp.Diff([]string{"/api/v2/query"}, paths()); diff != "" {
		t.Errorf("default world's journal (-want +got):\n%s", diff)
	}

	p.choose("world", idA)
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 2`)
	if diff := cmp.Diff([]string{"/api/v2/query", "/api/v2/headlines"}, paths()); diff != "" {
		t.Errorf("world A's journal, newest first (-want +got):\n%s", diff)
	}
	p.do(chromedp.Click(`#tab-faults`))
	p.waitJS(`document.querySelectorAll('#faults-body tr').length === 1`)
	p.do(chromedp.Click(`#tab-requests`))

	p.choose("world", idB)
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 3`)
	if diff := cmp.Diff([]string{"/api/v2/headlines", "/api/v2/headlines", "/api/v2/headlines"}, paths()); diff != "" {
		t.Errorf("world B's journal (-want +got):\n%s", diff)
	}
	p.do(chromedp.Click(`#tab-faults`))
	p.waitJS(`!document.getElementById('faults-empty').hidden`)
	p.do(chromedp.Click(`#tab-requests`))

	// Back to the default world, then what the page sent.
	p.choose("world", "default")
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 1`)
	eval[any](p, `window.sentAtDefault = window.sent.length`)
	p.waitJS(`window.sent.slice(window.sentAtDefault).some(s => s.startsWith('journal '))`)
	sent := eval[[]string](p, `window.sent`)
	named := map[string]bool{}
	for _, s := range sent {
		url, header, _ := strings.Cut(s, " ")
		switch {
		case url == "health" || url == "worlds":
			if header != "-" {
				t.Errorf("%s was sent with X-Newsmock-World: %s; the calls about the whole server name no world", url, header)
			}
		case strings.HasPrefix(url, "../"):
			t.Errorf("the page called the API (%s) without being asked", url)
		default:
			named[header] = true
		}
	}
	for _, h := range []string{"-", idA, idB} {
		if !named[h] {
			t.Errorf("no control call was sent with X-Newsmock-World %s (sent: %q)", h, sent)
		}
	}
	for _, s := range eval[[]string](p, `window.sent.slice(window.sentAtDefault)`) {
		if url, header, _ := strings.Cut(s, " "); url == "journal" && header != "-" {
			t.Errorf("after picking the default world the journal was read with X-Newsmock-World: %s", header)
		}
	}

	// The picked world is dropped: the page says so and shows the default world.
	p.allowHTTPErrors("/_mock/")
	p.choose("world", idA)
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 2`)
	a.Close()
	p.waitJS(`document.getElementById('world').options.length === 2 && document.getElementById('world').value === 'default'`)
	p.waitJS(`document.querySelectorAll('#requests-body tr').length === 1`)
	p.assertNoKey()
}
