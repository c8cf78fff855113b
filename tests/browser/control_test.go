package browser_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// faultRows returns the Faults table as the page shows it: one string per
// rule, "index | text | endpoint | fires | matched | fired | remaining".
func (p *page) faultRows() []string {
	p.t.Helper()
	return eval[[]string](p, `Array.from(document.querySelectorAll('#faults-body tr'), tr =>
		Array.from(tr.cells).slice(0, 7).map(c => c.textContent).join(' | '))`)
}

// addFaultAPI posts body to /_mock/faults as any client would and returns
// the status and the message of the answer.
func addFaultAPI(t *testing.T, mock *mockserver.Server, body string) (int, string) {
	t.Helper()
	resp, err := mock.HTTPClient().Post(mock.URL()+"/_mock/faults", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Message string }
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("POST /_mock/faults answered %s", b)
	}
	return resp.StatusCode, m.Message
}

// fillFault fills the add-rule form: ids of fields and their values; a
// checkbox is checked by the value "on".
func (p *page) fillFault(fields map[string]string) {
	p.t.Helper()
	p.do(chromedp.Click(`#fault-reset`))
	for _, id := range slices.Sorted(maps.Keys(fields)) {
		if v := fields[id]; v == "on" {
			eval[any](p, `document.getElementById(`+strconv.Quote(id)+`).checked = true`)
		} else {
			p.choose(id, v)
		}
	}
}

func TestFaultsTab(t *testing.T) {
	t.Parallel()
	mock := newMock(t)
	p := openPage(t, mock, "faults", 1280, 900)
	p.allowHTTPErrors("/_mock/faults")
	p.waitJS(`!document.getElementById('faults-empty').hidden`)
	ctx := context.Background()
	client := mock.Client(newssearch.WithMaxRetries(0))

	// A rule added in the form fires on the next request, and the page's
	// counters follow.
	p.fillFault(map[string]string{"fault-endpoint": "query", "fault-times": "1", "fault-status": "503", "fault-retry": "2"})
	p.do(chromedp.Click(`#fault-add`))
	p.waitJS(`document.querySelectorAll('#faults-body tr').length === 1`)
	if diff := cmp.Diff([]string{"0 | endpoint=query;times=1;status=503;retry-after=2 | query | every match | 0 | 0 | 1"}, p.faultRows()); diff != "" {
		t.Errorf("Faults table after adding (-want +got):\n%s", diff)
	}
	if got := eval[string](p, `document.getElementById('fault-form-status').textContent`); got != "Added rule 0: endpoint=query;times=1;status=503;retry-after=2." {
		t.Errorf("form status %q", got)
	}
	_, err := client.Search(ctx, newssearch.SearchParams{Query: "climate"})
	var apiErr *newssearch.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("the request after adding the rule: %v, want the 503 of the rule", err)
	}
	p.waitJS(`document.querySelector('#faults-body tr .c-fired').textContent === '1'`)
	if diff := cmp.Diff([]string{"0 | endpoint=query;times=1;status=503;retry-after=2 | query | every match | 1 | 1 | 0"}, p.faultRows()); diff != "" {
		t.Errorf("Faults table after the rule fired (-want +got):\n%s", diff)
	}
	// The rule's Retry-After: 2 pauses client for two seconds; a new Client
	// has not seen it and sends at once.
	if _, err := mock.Client(newssearch.WithMaxRetries(0)).Search(ctx, newssearch.SearchParams{Query: "climate"}); err != nil {
		t.Fatalf("the rule fired more than its times=1: %v", err)
	}
	p.waitJS(`document.querySelector('#faults-body tr .c-matched').textContent === '2'`)

	// A bad rule: the server's message, word for word, beside the field it
	// names, and no rule added.
	for _, tc := range []struct {
		fields   map[string]string
		api      string // the same rule sent to the API directly
		errField string
		want     string
	}{
		{map[string]string{"fault-status": "five hundred"}, `{"fault": {"status": "five hundred"}}`, "err-status",
			"fault rule 1: fault.status must be a whole number such as 503, not a string"},
		{map[string]string{"fault-status": "200"}, `{"fault": {"status": 200}}`, "err-status",
			"fault rule 1: status 200 is out of range: use an HTTP error status from 400 to 599"},
		{map[string]string{"fault-every": "2", "fault-probability": "0.5", "fault-status": "503"},
			`{"every": 2, "probability": 0.5, "fault": {"status": 503}}`, "err-probability",
			"fault rule 1: fields Every and Probability are both set: set one of them"},
		{map[string]string{"fault-times": "-1", "fault-drop": "on"}, `{"times": -1, "fault": {"drop": true}}`, "err-times",
			"fault rule 1: field Times is -1: use a positive limit, or 0 for no limit"},
		{map[string]string{"fault-latency": "soon"}, `{"fault": {"latency": "soon"}}`, "err-latency",
			`fault rule 1: fault.latency is wrong: latency="soon" is not a duration or a range; write e.g. latency=150ms or latency=100ms..2s`},
		{map[string]string{"fault-window": "fortnight"}, `{"fault": {"window": "fortnight"}}`, "err-window",
			`fault rule 1: fault.window is wrong: window="fortnight" is neither day nor a duration; write e.g. window=day or window=5s`},
		{map[string]string{"fault-empty-page": "0"}, `{"fault": {"empty_page": 0}}`, "err-empty_page",
			`fault rule 1: fault.empty_page is wrong: empty-page="0" is not a whole number from 1; write e.g. empty-page=2`},
		{map[string]string{"fault-overlap": "26"}, `{"fault": {"overlap": 26}}`, "err-overlap",
			"fault rule 1: fault.overlap is wrong: overlap 26 is out of range: use a count of articles from 1 to 25, e.g. overlap=2"},
		{map[string]string{"fault-arrivals": "many"}, `{"fault": {"arrivals": "many"}}`, "err-arrivals",
			`fault rule 1: fault.arrivals is wrong: arrivals="many" is not a whole number from 1; write e.g. arrivals=2`},
		{map[string]string{"fault-dribble": "slowly"}, `{"fault": {"dribble": "slowly"}}`, "err-dribble",
			`fault rule 1: fault.dribble is wrong: dribble="slowly" is not a duration; write e.g. dribble=2s`},
		{map[string]string{"fault-retry": "2"}, `{"fault": {"retry_after": 2}}`, "err-retry_after",
			"fault rule 1: retry-after needs a status to go with it, e.g. status=429;retry-after=2"},
		{map[string]string{"fault-endpoint": "headlines", "fault-job": "fail"}, `{"endpoint": "headlines", "fault": {"job": "fail"}}`, "err-job",
			`fault rule 1: a job fault applies only to "query-async": set Endpoint to it or leave it empty`},
		{map[string]string{"fault-drop": "on", "fault-status": "503"}, `{"fault": {"drop": true, "status": 503}}`, "err-drop",
			"fault rule 1: drop sends no response, so it cannot be combined with status, truncate or job"},
		{map[string]string{}, `{"fault": {}}`, "err-fault",
			"fault rule 1: the rule has no action: set a latency, status, drop, truncate, dribble, job outcome, answer shape (results, totals) or data fault (window, empty-page, overlap, arrivals)"},
	} {
		status, apiMsg := addFaultAPI(t, mock, tc.api)
		if status != http.StatusBadRequest || apiMsg != tc.want {
			t.Errorf("POST /_mock/faults %s: %d %q, want 400 %q", tc.api, status, apiMsg, tc.want)
		}
		p.fillFault(tc.fields)
		p.do(chromedp.Click(`#fault-add`))
		p.waitJS(`document.getElementById('fault-form-status').classList.contains('error')`)
		shown := eval[[]string](p, `Array.from(document.querySelectorAll('#fault-form .field-error'))
			.filter(e => !e.hidden).map(e => e.id + ': ' + e.textContent)`)
		if diff := cmp.Diff([]string{tc.errField + ": " + apiMsg}, shown); diff != "" {
			t.Errorf("form %v: messages shown (-want +got):\n%s", tc.fields, diff)
		}
		if got := eval[string](p, `document.getElementById('fault-form-status').textContent`); got != "The server refused the rule (400 Bad Request); nothing was added." {
			t.Errorf("form %v: status %q", tc.fields, got)
		}
		if n := len(mock.Faults()); n != 1 {
			t.Fatalf("form %v: %d rules in force after a refused rule, want 1", tc.fields, n)
		}
	}
	if n := eval[int](p, `document.querySelectorAll('#faults-body tr').length`); n != 1 {
		t.Errorf("%d rules on the page after refused rules, want 1", n)
	}

	// The timing and data items, through the form.
	p.fillFault(map[string]string{"fault-endpoint": "query", "fault-latency": "10ms..20ms", "fault-dribble": "1s", "fault-window": "day",
		"fault-empty-page": "3", "fault-overlap": "2", "fault-arrivals": "4"})
	p.do(chromedp.Click(`#fault-add`))
	p.waitJS(`document.querySelectorAll('#faults-body tr').length === 2`)
	const items = "endpoint=query;latency=10ms..20ms;window=day;empty-page=3;overlap=2;arrivals=4;dribble=1s"
	if got := mock.Faults(); len(got) != 2 || got[1].String() != items {
		t.Errorf("rules after adding the data items in the form: %+v, want the second %s", got, items)
	}
	if _, err := mock.RemoveFault(1); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelectorAll('#faults-body tr').length === 1`)

	// Remove one rule: the others keep their counters.
	if err := mock.AddFault(mockserver.FaultRule{Endpoint: mockserver.EndpointHeadlines, Every: 1000, Fault: mockserver.Fault{Status: 502}}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Headlines(ctx); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelectorAll('#faults-body tr').length === 2 && document.querySelectorAll('#faults-body tr')[1].querySelector('.c-matched').textContent === '1'`)
	p.do(chromedp.Click(`#faults-body button[data-index="0"]`))
	p.waitJS(`document.querySelectorAll('#faults-body tr').length === 1`)
	if diff := cmp.Diff([]string{"0 | endpoint=headlines;every=1000;status=502 | headlines | every 1000th match | 1 | 0 | ∞"}, p.faultRows()); diff != "" {
		t.Errorf("Faults table after removing rule 0 (-want +got):\n%s", diff)
	}
	if got := eval[string](p, `document.getElementById('faults-status').textContent`); got != "Removed rule 0: endpoint=query;times=1;status=503;retry-after=2." {
		t.Errorf("status after removing %q", got)
	}
	if got := mock.Faults(); len(got) != 1 || got[0].String() != "endpoint=headlines;every=1000;status=502" || got[0].Matched != 1 {
		t.Errorf("rules in force after removing rule 0: %+v", got)
	}

	// Clear all.
	if err := mock.AddFault(mockserver.FaultRule{Fault: mockserver.Fault{Latency: 1}}); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelectorAll('#faults-body tr').length === 2`)
	p.do(chromedp.Click(`#faults-clear`))
	p.waitJS(`!document.getElementById('faults-empty').hidden`)
	if n := len(mock.Faults()); n != 0 {
		t.Errorf("%d rules in force after Clear all", n)
	}
	if got := eval[string](p, `document.getElementById('faults-summary').textContent`); got != "No rules in force." {
		t.Errorf("summary after Clear all %q", got)
	}
	p.assertNoKey()
}

func TestJobsTab(t *testing.T) {
	t.Parallel()
	mock := newMock(t, mockserver.WithPendingPolls(1000))
	ctx := context.Background()
	client := mock.Client(newssearch.WithMaxRetries(0))
	first, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "election"}})
	if err != nil {
		t.Fatal(err)
	}
	p := openPage(t, mock, "jobs", 1280, 900)
	row := `#jobs-body tr[data-id="` + first.QueryID + `"]`
	p.waitJS(`document.querySelector('` + row + `')`)
	cells := eval[[]string](p, `Array.from(document.querySelector('`+row+`').cells, c => c.textContent)`)
	info := mock.Jobs()[0]
	want := []string{first.QueryID, "PENDING", "election", mockserver.KeyFingerprint(canary),
		info.Created.UTC().Format("15:04:05.000"), info.Expires.UTC().Format("15:04:05.000"), "0"}
	if diff := cmp.Diff(want, cells); diff != "" {
		t.Errorf("job row (-want +got):\n%s", diff)
	}

	// A second job appears without a reload, newest first.
	second, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "climate"}})
	if err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelectorAll('#jobs-body tr').length === 2`)
	if got := eval[[]string](p, `Array.from(document.querySelectorAll('#jobs-body tr'), tr => tr.dataset.id)`); !slices.Equal(got, []string{second.QueryID, first.QueryID}) {
		t.Errorf("job rows %v, want newest first", got)
	}

	// Force the first FAILED with a message: the SDK's Poll reports it.
	p.do(chromedp.Click(row))
	p.waitJS(`!document.getElementById('job-detail').hidden`)
	if !eval[bool](p, `document.getElementById('job-message').disabled`) {
		t.Error("the message field is enabled for SUCCESS; it goes only with FAILED")
	}
	p.choose("job-state", "FAILED")
	p.do(chromedp.SendKeys(`#job-message`, "upstream timeout"), chromedp.Click(`#job-force`))
	p.waitJS(`document.getElementById('jobs-status').textContent.startsWith('Forced')`)
	if got, want := eval[string](p, `document.getElementById('jobs-status').textContent`),
		"Forced "+first.QueryID+" to FAILED: its next get-results answers FAILED with your message."; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	p.waitJS(`document.querySelector('` + row + ` td:nth-child(2)').textContent === 'FAILED'`)
	_, err = client.Poll(ctx, first.QueryID, nil)
	var failed *newssearch.JobFailedError
	if !errors.As(err, &failed) || failed.State != "FAILED" || failed.Message != "upstream timeout" {
		t.Fatalf("Poll of the job forced FAILED: %v, want a JobFailedError with the message", err)
	}
	p.waitJS(`document.querySelector('` + row + ` .c-polls').textContent === '1'`)
	fields := eval[string](p, `document.getElementById('job-fields').innerText`)
	if !strings.Contains(fields, "upstream timeout") || !strings.Contains(fields, mockserver.KeyFingerprint(canary)+" (key fingerprint)") {
		t.Errorf("job details do not show the message and the owner's fingerprint:\n%s", fields)
	}

	// Force the second SUCCESS: its next get-results has results, at once.
	p.do(chromedp.Click(`#jobs-body tr[data-id="` + second.QueryID + `"]`))
	p.waitJS(`document.getElementById('job-title').textContent === 'Job ` + second.QueryID + `'`)
	p.choose("job-state", "SUCCESS")
	p.do(chromedp.Click(`#job-force`))
	p.waitJS(`document.getElementById('jobs-status').textContent.includes('` + second.QueryID + ` to SUCCESS')`)
	res, err := client.GetResults(ctx, second.QueryID, 1)
	if err != nil || res.State != "SUCCESS" || len(res.Articles) == 0 {
		t.Fatalf("get-results of the job forced SUCCESS: %+v, %v", res, err)
	}

	// Expire the first: it leaves the list, and get-results is a 404.
	p.do(chromedp.Click(row))
	p.waitJS(`document.getElementById('job-title').textContent === 'Job ` + first.QueryID + `'`)
	p.do(chromedp.Click(`#job-expire`))
	p.waitJS(`!document.querySelector('` + row + `')`)
	if got, want := eval[string](p, `document.getElementById('jobs-status').textContent`),
		"Expired "+first.QueryID+": its next get-results gets the 404 of an expired query_id."; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	if !eval[bool](p, `document.getElementById('job-detail').hidden`) {
		t.Error("the details of the expired job are still shown")
	}
	if _, err := client.GetResults(ctx, first.QueryID, 1); !errors.Is(err, newssearch.ErrNotFound) {
		t.Fatalf("get-results of the expired job: %v, want ErrNotFound", err)
	}
	if n := len(mock.Jobs()); n != 1 {
		t.Errorf("%d live jobs after expiring one of two", n)
	}
	p.assertNoKey()
}
