package newssearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// This file holds the tests of what the client judges before any request
// (a blank query, malformed key phrases) and of SearchRange's failure
// reporting.

func TestBlankQueryRejectedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	c := serve(t, f)
	sixty := AsyncSearchParams{SearchParams: SearchParams{Query: " \t", StartDate: rangeStart, EndDate: rangeStart.Add(60 * 24 * time.Hour)}}
	calls := []struct {
		name string
		run  func() error
		want string
	}{
		{"Search", func() error { _, err := c.Search(t.Context(), SearchParams{}); return err },
			`newssearch: invalid SearchParams.Query: the query is blank: the service requires search text; pass e.g. Query: "electric cars"`},
		{"SearchAll", func() error { _, err := collect(c.SearchAll(t.Context(), SearchParams{Query: "  "}, nil)); return err },
			`newssearch: invalid SearchParams.Query: the query is blank: the service requires search text; pass e.g. Query: "electric cars"`},
		{"SubmitQuery", func() error { _, err := c.SubmitQuery(t.Context(), AsyncSearchParams{}); return err },
			`newssearch: invalid AsyncSearchParams.Query: the query is blank: the service requires search text; pass e.g. Query: "electric cars"`},
		{"SearchRange over 60 days", func() error { _, err := c.SearchRange(t.Context(), sixty, nil); return err },
			`newssearch: invalid AsyncSearchParams.Query: the query is blank: the service requires search text; pass e.g. Query: "electric cars"`},
	}
	for _, tt := range calls {
		err := tt.run()
		var ve *ValidationError
		if !errors.As(err, &ve) || !errors.Is(err, ErrBadRequest) {
			t.Errorf("%s error = %v, want a *ValidationError", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("%s error (-want +got):\n%s", tt.name, diff)
		}
	}
	if got := f.requests(); len(got) != 0 {
		t.Errorf("requests sent = %q, want none", got)
	}
}

func TestKeyPhrasesChecked(t *testing.T) {
	t.Parallel()
	const hint = `: write single-quoted phrases joined by lower-case and, or, not and parentheses, e.g. "('elon' or 'musk') and not 'sam altman'"`
	tests := []struct {
		phrases string
		want    string // "" when valid
	}{
		{"", ""},
		{"   ", ""},
		{"('tesla takedown')", ""},
		{"('elon' or 'musk') and not 'sam altman'", ""},
		{"not not 'x'", ""},
		{"'a' and ('b' or ('c' and not 'd'))", ""},
		{"'élan vital' or 'ça va'", ""},
		{"''", ""},                                  // what a phrase must hold is the service's to say
		{"'!!!' or 'a'", ""},                        // likewise
		{"'" + strings.Repeat("x", 5000) + "'", ""}, // and how long an expression may be
		{"'elon", "character 1: the quote that opens this phrase is never closed; end the phrase with another '"},
		{"('elon' or 'musk'", `character 1: the "(" opened here is never closed; add a ")" to close it`},
		{"'elon')", `character 7: unmatched ")": there is no "(" before it to close; remove it or add a "("`},
		{"'elon' 'musk'", `character 8: missing operator before this phrase; join phrases with "and" or "or"`},
		{"'elon' AND 'musk'", `character 8: "AND" must be written in lower case; write "and"`},
		{"NOT 'musk'", `character 1: "NOT" must be written in lower case; write "not"`},
		{"elon", `character 1: unknown word "elon"; put phrases in single quotes, e.g. 'elon'`},
		{`"elon musk"`, "character 1: phrases take plain single quotes ('), not double quotes; write 'elon musk'"},
		{"'elon' and", `character 11: expected a quoted phrase, "(" or "not" after "and", found the end of the input`},
		{"()", `character 2: empty parentheses "()"; put a quoted phrase between them`},
		{"or 'x'", `character 1: expected a quoted phrase, "(" or "not" at the start, found "or"`},
	}
	for _, tt := range tests {
		err := CheckKeyPhrases(tt.phrases)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckKeyPhrases(%q): %v, want nil", tt.phrases, err)
			}
			continue
		}
		want := "newssearch: invalid AsyncSearchParams.KeyPhrases: " + tt.want + hint
		if err == nil || !errors.Is(err, ErrBadRequest) {
			t.Errorf("KeyPhrases %q: error %v, want a *ValidationError", tt.phrases, err)
			continue
		}
		if diff := cmp.Diff(want, err.Error()); diff != "" {
			t.Errorf("KeyPhrases %q: error (-want +got):\n%s", tt.phrases, diff)
		}
	}
}

// windowFailer fails the query-async of chosen windows with a 400, each
// after its own delay, and passes the rest to the fake.
type windowFailer struct {
	next  http.Handler
	fails map[string]time.Duration // start_date -> delay before the 400
}

func (h *windowFailer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var q struct {
		StartDate string `json:"start_date"`
	}
	json.Unmarshal(body, &q)
	if d, ok := h.fails[q.StartDate]; ok && r.URL.Path == basePath+pathQueryAsync {
		time.Sleep(d)
		writeJSON(w, http.StatusBadRequest, map[string]any{"state": "FAILED", "message": "window starting " + q.StartDate + " refused"})
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.next.ServeHTTP(w, r)
}

func TestSearchRangeReportsEarliestFailedWindow(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// Windows 2 and 5 fail; window 5 fails first, window 2 a second
		// later. The error names window 2 all the same.
		day := 24 * time.Hour
		w2 := rangeStart.Add(2 * 7 * day).Format(requestDateLayout)
		w5 := rangeStart.Add(5 * 7 * day).Format(requestDateLayout)
		h := &windowFailer{next: newFake(rangeArticles()), fails: map[string]time.Duration{w2: time.Second, w5: 0}}
		c := newTestClient(t, "http://fake.invalid", &http.Client{Transport: handlerTransport{h}})
		_, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll)
		var re *RangeError
		if !errors.As(err, &re) || len(re.Missing) != 2 {
			t.Fatalf("SearchRange error = %v, want a *RangeError naming 2 windows", err)
		}
		if got, want := re.Missing[0].Start.Format(requestDateLayout), w2; got != want {
			t.Errorf("first missing window starts at %s, want the earliest failed window, %s (error: %v)", got, want, err)
		}
		want := "newssearch: 2 of 13 windows missing (pass RangeError.Finished as RangeOptions.Done to search only those): window " + w2
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error = %q, want it to name the earliest failed window first: %q", err, want)
		}
	})
}

// resetFirstSubmits closes the connection of the first n query-async
// requests after reading them whole, with no answer: the job may or may
// not exist, as after a reset on the way back.
type resetFirstSubmits struct {
	next http.Handler
	mu   sync.Mutex
	n    int
}

func (h *resetFirstSubmits) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	reset := r.URL.Path == basePath+pathQueryAsync && h.n > 0
	if reset {
		h.n--
	}
	h.mu.Unlock()
	if !reset {
		h.next.ServeHTTP(w, r)
		return
	}
	io.Copy(io.Discard, r.Body)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	conn.(interface{ SetLinger(int) error }).SetLinger(0) // RST, not FIN
	conn.Close()
}

func TestSearchRangeSurvivesConnectionReset(t *testing.T) {
	t.Parallel()
	f := newFake(rangeArticles())
	h := &resetFirstSubmits{next: f}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, srv.Client(), WithMaxRetries(3), WithRetryWait(time.Millisecond, time.Millisecond))
	want := oneQuery(t, c, rangeParams(""))
	h.n = 2 // no request in flight
	var last RangeProgress
	got, err := c.SearchRange(t.Context(), rangeParams(""), fastPoll, &RangeOptions{Concurrency: 1,
		OnProgress: func(p RangeProgress) { last = p }})
	if err != nil {
		t.Fatalf("SearchRange with two connection resets: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SearchRange after resets versus one query (-want +got):\n%s", diff)
	}
	if last.Resubmitted != 2 {
		t.Errorf("RangeProgress.Resubmitted = %d, want 2", last.Resubmitted)
	}
	// WithMaxRetries given to the call bounds the resubmissions too: with 1, two resets fail the window.
	h.mu.Lock()
	h.n = 2
	h.mu.Unlock()
	_, err = c.SearchRange(t.Context(), rangeParams(""), fastPoll, &RangeOptions{Concurrency: 1}, WithMaxRetries(1))
	var re *RangeError
	h.mu.Lock()
	left := h.n
	h.n = 0
	h.mu.Unlock()
	if !errors.As(err, &re) || len(re.Missing) != 1 || left != 0 {
		t.Errorf("SearchRange with WithMaxRetries(1) and two resets: error %v, %d resets unused; want one window missing after 1 resubmission (both resets used)", err, left)
	}
	// SubmitQuery alone never resubmits after a reset: the job may exist.
	h.mu.Lock()
	h.n = 1
	h.mu.Unlock()
	before := f.count(pathQueryAsync)
	if _, err := c.SubmitQuery(t.Context(), asyncQuery); err == nil {
		t.Fatal("SubmitQuery through a reset connection succeeded")
	}
	if n := f.count(pathQueryAsync) - before; n != 0 {
		t.Errorf("SubmitQuery reached the service %d times after the reset, want 0 (no resubmission)", n)
	}
}

// TestSubmitQueryIgnoresPage: a job holds every page, so SubmitQuery sends
// page 1 whatever AsyncSearchParams.Page holds; GetResults reads the page
// wanted.
func TestSubmitQueryIgnoresPage(t *testing.T) {
	t.Parallel()
	f := newFake(testArticles(60, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Hour))
	c := serve(t, f)
	id := submit(t, c, AsyncSearchParams{SearchParams: SearchParams{Query: "cars", Page: 2}})
	got, err := c.GetResults(t.Context(), id, 2)
	if err != nil {
		t.Fatal(err)
	}
	_, want := f.page(fakeQuery{}, 2)
	if diff := cmp.Diff(&Page{QueryID: "q1", Number: 2, TotalResults: 60, Articles: want, State: StateSuccess}, got); diff != "" {
		t.Errorf("GetResults page 2 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"query-async  1", "get-results q1 2"}, f.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestPagesStopAtLastRepresentablePage(t *testing.T) {
	t.Parallel()
	// A service that answers every page with a full page of new articles
	// and no total.
	var requests int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		full := testArticles(PageSize*requests, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Hour)[PageSize*(requests-1):]
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"results": map[string]any{"articles": full}, "state": "SUCCESS"})
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, srv.Client())
	var numbers []int
	onPage := func(p *Page) { numbers = append(numbers, p.Number) }
	for _, err := range c.SearchAll(t.Context(), SearchParams{Query: "cars", Page: math.MaxInt - 1}, &PageOptions{OnPage: onPage}) {
		if err != nil {
			t.Fatalf("SearchAll from page MaxInt-1: %v", err)
		}
	}
	if diff := cmp.Diff([]int{math.MaxInt - 1, math.MaxInt}, numbers); diff != "" {
		t.Errorf("pages walked (-want +got):\n%s", diff)
	}
	if requests != 2 {
		t.Errorf("%d requests, want 2", requests)
	}
}
