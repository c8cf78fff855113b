package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	valerrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/spf13/cobra"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/api"
	"github.com/newssearch/newssearch-go/internal/redact"
)

// The endpoints check calls, in the order it calls them.
const (
	pathQuery      = "/api/v2/query"
	pathQueryAsync = "/api/v2/query-async"
	pathGetResults = "/api/v2/get-results"
	pathHeadlines  = "/api/v2/headlines"
)

func (a *app) checkCommand() *cobra.Command {
	var query, since, nowFlag string
	var maxWait time.Duration
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Call each endpoint once and compare the answers with api/openapi.yaml and the SDK's model",
		Long: `check calls each endpoint of the service once, with small requests (a search of
the last --since for --query, an asynchronous job of the same search, its
first page of results, and the headlines), and reports per endpoint:

  OPENAPI  whether each request and answer matches the OpenAPI document this
           newssearch was built with (api/openapi.yaml);
  SDK      what the SDK saw that it does not model: unknown fields (kept in
           Extra), fields missing or of another JSON type, date formats other
           than the documented ones, the name of the count field, and state
           literals other than SUCCESS and PENDING.

Against newsmock every endpoint is green. Against a service that has drifted,
each difference is named: send the output (--format json) to the SDK's
maintainers. The exit code is 0 when everything matches and 1 otherwise.
The API key is never printed.`,
		Args: argsBetween(0, 0, "check takes no arguments; name the service with --base-url"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch a.outputFormat() {
			case "csv":
				return usagef("check prints table, json or jsonl, not csv")
			}
			if len(a.fields) > 0 {
				return usagef("check does not take --fields: it prints its whole report")
			}
			span, err := parseRelative(since)
			if err != nil {
				return usagef("--since %q: %v", since, err)
			}
			now, err := parseNow(nowFlag, a.env.clock())
			if err != nil {
				return err
			}
			key, err := a.apiKey()
			if err != nil {
				return err
			}
			rec := &recorder{}
			c, err := a.client(func(t http.RoundTripper) http.RoundTripper { rec.next = t; return rec })
			if err != nil {
				return err
			}
			v, err := newContractValidator()
			if err != nil {
				return err
			}
			now = now.UTC()
			sp := a.newSpinner("checking the service")
			base := cmpOr(a.baseURL, a.env.getenv(newssearch.EnvBaseURL), newssearch.DefaultBaseURL)
			rep, err := runCheck(cmd.Context(), c, rec, v, checkParams{query: query, from: now.Add(-span), to: now, maxWait: maxWait}, sp.describe)
			sp.stop()
			if cmd.Context().Err() != nil {
				return &interruptedError{msg: "the check did not finish"}
			}
			if err != nil {
				return fmt.Errorf("cannot reach %s: %s: check the URL and that the service is running", base, unreachableReason(err))
			}
			rep.BaseURL = base
			rep.scrub(key)
			if err := a.printReport(cmd.OutOrStdout(), rep); err != nil {
				return err
			}
			if !rep.OK {
				return &silentError{}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&query, "query", "election", "search text of the sample searches")
	cmd.Flags().StringVar(&since, "since", "7d", "span of the sample searches, ending now")
	cmd.Flags().DurationVar(&maxWait, "max-wait", 2*time.Minute, "give up waiting for the sample job after this long")
	addNowFlag(cmd, &nowFlag)
	return cmd
}

// silentError is a failure already reported on stdout: exit 1, print
// nothing more than a short line.
type silentError struct{}

func (*silentError) Error() string {
	return "the service differs from what this newssearch expects (see the report above)"
}

// recorder is the transport check puts under the SDK: it keeps a copy of
// every request and response and hands them on unchanged.
type recorder struct {
	next      http.RoundTripper
	mu        sync.Mutex
	exchanges []*exchange
}

type exchange struct {
	method, path string
	reqHeader    http.Header
	reqBody      []byte
	status       int
	respHeader   http.Header
	respBody     []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	fwd := req.Clone(req.Context())
	fwd.Body = io.NopCloser(bytes.NewReader(body))
	fwd.ContentLength = int64(len(body))
	resp, err := r.next.RoundTrip(fwd)
	if err != nil {
		return nil, err
	}
	rb, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(rb))
	x := &exchange{method: req.Method, path: endpointPath(req.URL.Path), reqHeader: req.Header.Clone(), reqBody: body,
		status: resp.StatusCode, respHeader: resp.Header.Clone(), respBody: rb}
	r.mu.Lock()
	r.exchanges = append(r.exchanges, x)
	r.mu.Unlock()
	return resp, nil
}

// count returns the number of exchanges recorded and not yet taken.
func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.exchanges)
}

// take returns and forgets the exchanges recorded so far.
func (r *recorder) take() []*exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	x := r.exchanges
	r.exchanges = nil
	return x
}

// endpointPath drops whatever prefix the base URL adds before /api/v2/.
func endpointPath(p string) string {
	if i := strings.Index(p, "/api/v2/"); i >= 0 {
		return p[i:]
	}
	return p
}

// contractValidator validates exchanges against api/openapi.yaml. The
// libopenapi model is not safe for concurrent use: check validates on one
// goroutine.
type contractValidator struct {
	v validator.Validator
}

func newContractValidator() (*contractValidator, error) {
	doc, err := libopenapi.NewDocument(api.OpenAPI)
	if err != nil {
		return nil, fmt.Errorf("reading the built-in OpenAPI document: %v (a bug: please report it)", err)
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("building the built-in OpenAPI document: %v (a bug: please report it)", err)
	}
	v := validator.NewValidatorFromV3Model(&m.Model, config.WithFormatAssertions())
	v.SetDocument(doc)
	return &contractValidator{v: v}, nil
}

// validate returns the document's objections to an exchange, request first.
func (cv *contractValidator) validate(x *exchange) (reqProblems, respProblems []string) {
	u := "http://service.invalid" + x.path
	req, err := http.NewRequest(x.method, u, bytes.NewReader(x.reqBody))
	if err != nil {
		return []string{err.Error()}, nil
	}
	req.Header = x.reqHeader.Clone()
	if ok, errs := cv.v.ValidateHttpRequestSync(req); !ok {
		reqProblems = describeValidation(errs)
	}
	req, _ = http.NewRequest(x.method, u, bytes.NewReader(x.reqBody))
	req.Header = x.reqHeader.Clone()
	resp := &http.Response{StatusCode: x.status, Header: x.respHeader.Clone(), Body: io.NopCloser(bytes.NewReader(x.respBody)), Request: req}
	if ok, errs := cv.v.ValidateHttpResponse(req, resp); !ok {
		respProblems = describeValidation(errs)
	}
	return reqProblems, respProblems
}

// arrayIndex matches the index of an array element in a JSON path.
var arrayIndex = regexp.MustCompile(`\[\d+\]`)

// additional matches the validator's list of undeclared members.
var additional = regexp.MustCompile(`additional properties (.+) not allowed`)

// describeValidation turns validation errors into sorted, distinct lines;
// the same problem in several elements of an array is one line with a count.
func describeValidation(errs []*valerrors.ValidationError) []string {
	counts := map[string]int{}
	add := func(s string) {
		s = additional.ReplaceAllStringFunc(s, func(m string) string {
			names := strings.Split(additional.FindStringSubmatch(m)[1], ", ")
			slices.Sort(names) // the validator lists them in map order
			return "additional properties " + strings.Join(names, ", ") + " not allowed"
		})
		counts[arrayIndex.ReplaceAllString(s, "[*]")]++
	}
	for _, e := range errs {
		if len(e.SchemaValidationErrors) == 0 {
			add(strings.TrimSpace(e.Message + ": " + e.Reason))
			continue
		}
		seen := map[string]bool{}
		for _, s := range e.SchemaValidationErrors {
			loc := s.FieldPath
			if loc == "" {
				loc = "/" + strings.Join(s.InstancePath, "/")
			}
			line := loc + ": " + s.Reason
			if !seen[line] {
				seen[line] = true
				add(line)
			}
		}
	}
	out := make([]string, 0, len(counts))
	for line, n := range counts {
		if n > 1 && strings.Contains(line, "[*]") {
			line += fmt.Sprintf(" (%d elements)", n)
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

// checkParams are the sample searches' parameters.
type checkParams struct {
	query    string
	from, to time.Time
	maxWait  time.Duration
}

// report is check's result.
type report struct {
	BaseURL   string           `json:"base_url"`
	OK        bool             `json:"ok"`
	Endpoints []*endpointCheck `json:"endpoints"`
}

// endpointCheck is the verdict on one endpoint.
type endpointCheck struct {
	Endpoint string `json:"endpoint"`
	// OK is true when the call succeeded and nothing differs.
	OK bool `json:"ok"`
	// Requests counts the calls made (get-results polls).
	Requests int `json:"requests"`
	// HTTPStatus lists the statuses seen.
	HTTPStatus []int `json:"http_status"`
	// Error is the SDK's error, if the call failed.
	Error string `json:"error,omitempty"`
	// OpenAPI lists where requests or answers break api/openapi.yaml.
	OpenAPI []string `json:"openapi"`
	// SDK lists what the SDK saw that it does not model.
	SDK []string `json:"sdk"`
	// Seen lists what was observed (states, count field, date formats).
	Seen []string `json:"seen"`
}

func (e *endpointCheck) add(list *[]string, format string, args ...any) {
	*list = append(*list, fmt.Sprintf(format, args...))
}

// scrub removes the API key from every string of the report.
func (r *report) scrub(key string) {
	if key == "" {
		return
	}
	s := redact.New(key).Glued(8).String // the key in any form, even glued to other text
	for _, e := range r.Endpoints {
		e.Error = s(e.Error)
		for _, l := range [][]string{e.OpenAPI, e.SDK, e.Seen} {
			for i := range l {
				l[i] = s(l[i])
			}
		}
	}
}

// runCheck calls the four endpoints through the SDK and judges what the
// recorder saw. When the first call gets no answer at all (the service
// cannot be reached), it stops and returns that call's error: there is
// nothing to compare.
func runCheck(ctx context.Context, c *newssearch.Client, rec *recorder, cv *contractValidator, p checkParams, progress func(string)) (*report, error) {
	rep := &report{OK: true}
	params := newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: p.query, StartDate: p.from, EndDate: p.to}}

	// judge judges the exchanges of one endpoint; withArticles says whether
	// its answers carry search results.
	judge := func(path string, err error, withArticles bool, articles []newssearch.Article, fn func(*endpointCheck, []*exchange)) {
		e := &endpointCheck{Endpoint: path, OpenAPI: []string{}, SDK: []string{}, Seen: []string{}}
		xs := rec.take()
		e.Requests = len(xs)
		for _, x := range xs {
			if !slices.Contains(e.HTTPStatus, x.status) {
				e.HTTPStatus = append(e.HTTPStatus, x.status)
			}
			reqP, respP := cv.validate(x)
			for _, q := range reqP {
				e.add(&e.OpenAPI, "request: %s", q)
			}
			for _, q := range respP {
				e.add(&e.OpenAPI, "answer: %s", q)
			}
		}
		e.OpenAPI = sortedUnique(e.OpenAPI)
		if err != nil {
			e.Error = err.Error()
		}
		if withArticles && err == nil {
			judgeArticles(e, articles, xs)
		}
		if fn != nil {
			fn(e, xs)
		}
		e.SDK = sortedUnique(e.SDK)
		e.OK = e.Error == "" && len(e.OpenAPI) == 0 && len(e.SDK) == 0
		rep.OK = rep.OK && e.OK
		rep.Endpoints = append(rep.Endpoints, e)
	}

	progress("checking " + pathQuery)
	sr, err := c.Search(ctx, params.SearchParams)
	if err != nil && rec.count() == 0 && ctx.Err() == nil {
		return nil, err
	}
	judge(pathQuery, err, true, articlesOf(sr), func(e *endpointCheck, xs []*exchange) {
		judgeEnvelope(e, xs, []string{"SUCCESS"}, "results.totalResults")
	})

	progress("checking " + pathQueryAsync)
	job, err := c.SubmitQuery(ctx, params)
	judge(pathQueryAsync, err, false, nil, func(e *endpointCheck, xs []*exchange) {
		judgeEnvelope(e, xs, []string{"SUCCESS"}, "")
		if job != nil && job.QueryID == "" {
			e.add(&e.SDK, "the answer has no query_id: the job cannot be fetched")
		}
	})

	if job == nil || job.QueryID == "" {
		rep.Endpoints = append(rep.Endpoints, &endpointCheck{Endpoint: pathGetResults, Error: "not called: query-async gave no query_id",
			OpenAPI: []string{}, SDK: []string{}, Seen: []string{}})
		rep.OK = false
	} else {
		progress("checking " + pathGetResults + " (waiting for the job)")
		var states []string
		rp, err := c.Poll(ctx, job.QueryID, &newssearch.PollOptions{MaxWait: p.maxWait, OnPoll: func(ev newssearch.PollEvent) {
			states = append(states, string(ev.State))
		}})
		var arts []newssearch.Article
		if rp != nil {
			arts = rp.Articles
		}
		judge(pathGetResults, err, true, arts, func(e *endpointCheck, xs []*exchange) {
			judgeEnvelope(e, xs, []string{"SUCCESS", "PENDING"}, "totalResults")
		})
	}

	progress("checking " + pathHeadlines)
	hr, err := c.Headlines(ctx)
	judge(pathHeadlines, err, false, nil, func(e *endpointCheck, xs []*exchange) {
		judgeEnvelope(e, xs, []string{"SUCCESS"}, "")
		if hr != nil {
			judgeHeadlines(e, xs)
		}
	})
	return rep, nil
}

// unreachableReason says in a few words why a request got no answer.
func unreachableReason(err error) string {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dnsErr):
		return "no such host " + dnsErr.Name
	case errors.Is(err, newssearch.ErrAttemptTimeout):
		return "no answer in time"
	case errors.As(err, &opErr) && opErr.Err != nil:
		return opErr.Err.Error()
	}
	return strings.TrimPrefix(message(err), "newssearch: ")
}

func articlesOf(sr *newssearch.Page) []newssearch.Article {
	if sr == nil {
		return nil
	}
	return sr.Articles
}

func sortedUnique(l []string) []string {
	slices.Sort(l)
	return slices.Compact(l)
}

// successBodies decodes the JSON objects of the 2xx answers.
func successBodies(xs []*exchange) []map[string]json.RawMessage {
	var out []map[string]json.RawMessage
	for _, x := range xs {
		if x.status/100 != 2 {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(x.respBody, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// knownEnvelope lists the members the SDK models in each endpoint's answer.
var knownEnvelope = map[string][]string{
	pathQuery:      {"state", "message", "results", "articles", "totalResults", "totalArticles"},
	pathQueryAsync: {"state", "message", "query_id"},
	pathGetResults: {"state", "message", "articles", "totalResults", "totalArticles", "query_id", "page"},
	pathHeadlines:  {"state", "message", "headlines"},
}

// judgeEnvelope checks the state literals, the count field and the members
// of each answer.
func judgeEnvelope(e *endpointCheck, xs []*exchange, states []string, countField string) {
	bodies := successBodies(xs)
	var seenStates []string
	counts := map[string]bool{}
	for _, m := range bodies {
		var st string
		if raw, ok := m["state"]; ok && json.Unmarshal(raw, &st) == nil {
			if !slices.Contains(seenStates, st) {
				seenStates = append(seenStates, st)
			}
			if !slices.Contains(states, st) {
				e.add(&e.SDK, "state %q is not a documented literal (%s)%s", st, strings.Join(states, ", "), stateNote(st))
			}
		} else if !ok {
			e.add(&e.SDK, "the answer has no \"state\" member (the SDK treats that as success)")
		}
		for k := range m {
			if !slices.Contains(knownEnvelope[e.Endpoint], k) {
				e.add(&e.SDK, "answer member %q is not modelled by the SDK (it is dropped)", k)
			}
		}
		if countField == "" {
			continue
		}
		if res, ok := m["results"]; ok {
			var inner map[string]json.RawMessage
			if json.Unmarshal(res, &inner) == nil {
				for _, n := range []string{"totalResults", "totalArticles"} {
					if _, ok := inner[n]; ok {
						counts["results."+n] = true
					}
				}
				for k := range inner {
					if k != "totalResults" && k != "totalArticles" && k != "articles" {
						e.add(&e.SDK, "member \"results.%s\" is not modelled by the SDK (it is dropped)", k)
					}
				}
			}
		}
		for _, n := range []string{"totalResults", "totalArticles"} {
			if _, ok := m[n]; ok {
				counts[n] = true
			}
		}
	}
	if len(seenStates) > 0 {
		e.add(&e.Seen, "state %s", strings.Join(seenStates, ", "))
	}
	if countField == "" || len(bodies) == 0 {
		return
	}
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		e.add(&e.SDK, "no count field (%s, or totalArticles): the SDK reports a total of 0", countField)
		return
	}
	e.add(&e.Seen, "count %s", strings.Join(names, " + "))
	if !counts[countField] {
		e.add(&e.SDK, "the count is in %s, not %s as documented (the SDK reads it anyway)", strings.Join(names, " + "), countField)
	}
}

func stateNote(st string) string {
	s := newssearch.State(st)
	switch {
	case s.IsSuccess():
		return "; the SDK reads it as success"
	case s.IsPending():
		return "; the SDK reads it as pending"
	}
	return "; the SDK reads it as a failure"
}

// articleRequired are the article members every search result is expected
// to carry.
var articleRequired = []string{"_id", "datePublished", "title", "url", "site", "score"}

// articleKnown are the JSON names Article decodes.
var articleKnown = []string{"_id", "title", "description", "bodyText", "url", "site", "image", "favicon", "category",
	"language", "datePublished", "score", "topics", "sentiment", "entities", "entity_relationships", "embeddings"}

// judgeArticles checks what the SDK decoded: unknown members (in Extra),
// members of another type, missing members, date formats.
func judgeArticles(e *endpointCheck, arts []newssearch.Article, xs []*exchange) {
	if len(arts) == 0 {
		e.add(&e.Seen, "no articles (nothing to compare: pass --query with a common word or a longer --since)")
		return
	}
	e.add(&e.Seen, "%d articles", len(arts))
	missing := map[string]int{}
	formats := map[string]int{}
	for i := range arts {
		a := &arts[i]
		for k := range a.Extra {
			if slices.Contains(articleKnown, k) {
				e.add(&e.SDK, "article member %q has an unexpected JSON type (kept in Extra)", k)
			} else {
				e.add(&e.SDK, "article member %q is not modelled by the SDK (kept in Extra)", k)
			}
		}
		formats[dateFormat(a.DatePublished)]++
	}
	raw := rawArticles(xs)
	for _, m := range raw {
		for _, k := range articleRequired {
			if _, ok := m[k]; !ok {
				missing[k]++
			}
		}
	}
	for _, k := range articleRequired {
		if n := missing[k]; n > 0 {
			e.add(&e.SDK, "article member %q is missing from %d of %d articles", k, n, len(raw))
		}
	}
	judgeDates(e, formats, formatRFC1123, len(arts))
}

// rawArticles returns the article objects of the 2xx answers, wherever the
// answer keeps them ("articles" or "results.articles").
func rawArticles(xs []*exchange) []map[string]json.RawMessage {
	var out []map[string]json.RawMessage
	for _, m := range successBodies(xs) {
		list := m["articles"]
		if res, ok := m["results"]; ok {
			var inner map[string]json.RawMessage
			if json.Unmarshal(res, &inner) == nil && inner["articles"] != nil {
				list = inner["articles"]
			}
		}
		var arts []map[string]json.RawMessage
		if json.Unmarshal(list, &arts) == nil {
			out = append(out, arts...)
		}
	}
	return out
}

// Date formats the SDK recognises.
const (
	formatRFC1123  = "RFC 1123 (Wed, 13 Nov 2024 01:44:17 GMT)"
	formatSQL      = "YYYY-MM-DD HH:MM:SS"
	formatRFC3339  = "RFC 3339"
	formatDateOnly = "YYYY-MM-DD"
	formatMissing  = "missing"
)

// dateFormat names the form of a timestamp as sent.
func dateFormat(ts newssearch.Timestamp) string {
	raw := ts.Raw()
	switch {
	case raw == "":
		return formatMissing
	case ts.IsZero():
		return fmt.Sprintf("unparseable (%q)", shorten(raw, 40))
	}
	for _, f := range []struct{ name, layout string }{
		{formatRFC1123, time.RFC1123}, {formatSQL, time.DateTime}, {formatDateOnly, time.DateOnly},
	} {
		if _, err := time.Parse(f.layout, raw); err == nil {
			return f.name
		}
	}
	return formatRFC3339
}

// judgeDates reports formats other than want.
func judgeDates(e *endpointCheck, formats map[string]int, want string, total int) {
	names := make([]string, 0, len(formats))
	for f := range formats {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		n := formats[f]
		switch {
		case f == want:
			e.add(&e.Seen, "datePublished %s", f)
		case f == formatMissing:
			// reported as a missing member
		case strings.HasPrefix(f, "unparseable"):
			e.add(&e.SDK, "datePublished is %s in %d of %d articles: the SDK keeps the text but has no time", f, n, total)
		default:
			e.add(&e.SDK, "datePublished is in %s, not %s, in %d of %d articles (the SDK parses it)", f, want, n, total)
		}
	}
}

var (
	clusterKnown        = []string{"topic", "count", "articles"}
	headlineKnown       = []string{"category", "datePublished", "favicon", "image", "site", "title", "url"}
	headlineRequiredArt = []string{"datePublished", "site", "title", "url"}
)

// judgeHeadlines walks the raw clusters, as HeadlineArticle keeps no Extra.
func judgeHeadlines(e *endpointCheck, xs []*exchange) {
	for _, m := range successBodies(xs) {
		var clusters []map[string]json.RawMessage
		if err := json.Unmarshal(m["headlines"], &clusters); err != nil {
			e.add(&e.SDK, "\"headlines\" is not an array of objects")
			continue
		}
		e.add(&e.Seen, "%d clusters", len(clusters))
		formats := map[string]int{}
		total := 0
		for _, cl := range clusters {
			for k := range cl {
				if !slices.Contains(clusterKnown, k) {
					e.add(&e.SDK, "cluster member %q is not modelled by the SDK (it is dropped)", k)
				}
			}
			for _, k := range clusterKnown {
				if _, ok := cl[k]; !ok {
					e.add(&e.SDK, "cluster member %q is missing", k)
				}
			}
			var arts []map[string]json.RawMessage
			_ = json.Unmarshal(cl["articles"], &arts)
			for _, a := range arts {
				total++
				for k := range a {
					if !slices.Contains(headlineKnown, k) {
						e.add(&e.SDK, "headline article member %q is not modelled by the SDK (it is dropped)", k)
					}
				}
				for _, k := range headlineRequiredArt {
					if _, ok := a[k]; !ok {
						e.add(&e.SDK, "headline article member %q is missing", k)
					}
				}
				var ts newssearch.Timestamp
				if raw, ok := a["datePublished"]; ok {
					_ = json.Unmarshal(raw, &ts)
				}
				formats[dateFormat(ts)]++
			}
		}
		if total > 0 {
			judgeDates(e, formats, formatSQL, total)
		}
	}
}

// printReport prints the report as a table or as JSON.
func (a *app) printReport(w io.Writer, rep *report) error {
	switch a.outputFormat() {
	case "json":
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	case "jsonl":
		for _, e := range rep.Endpoints {
			b, err := marshal(e)
			if err != nil {
				return err
			}
			if _, err := w.Write(append(b, '\n')); err != nil {
				return err
			}
		}
		return nil
	}
	mark := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "DIFFERS"
	}
	fmt.Fprintf(w, "Service %s against api/openapi.yaml and the SDK's model\n\n", rep.BaseURL)
	var table bytes.Buffer
	var rows [][]string
	for _, e := range rep.Endpoints {
		statuses := make([]string, len(e.HTTPStatus))
		for i, s := range e.HTTPStatus {
			statuses[i] = fmt.Sprint(s)
		}
		sdkOK := len(e.SDK) == 0 && e.Error == ""
		rows = append(rows, []string{e.Endpoint, cmpOr(strings.Join(statuses, ","), "-"),
			mark(len(e.OpenAPI) == 0), mark(sdkOK), strings.Join(e.Seen, "; ")})
	}
	header := []string{"ENDPOINT", "HTTP", "OPENAPI", "SDK", "SEEN"}
	writeTable(&table, header, rows, a.tableWidth(), shrinkOrder(header))
	out := table.String()
	if a.color() && a.env.stdoutTTY {
		out = colorMarks(out)
	}
	if _, err := io.WriteString(w, out); err != nil {
		return err
	}
	if rep.OK {
		_, err := fmt.Fprintf(w, "\nAll %d endpoints match.\n", len(rep.Endpoints))
		return err
	}
	fmt.Fprintln(w, "\nDifferences:")
	for _, e := range rep.Endpoints {
		if e.Error != "" {
			fmt.Fprintf(w, "  %s: the call failed: %s\n", e.Endpoint, e.Error)
		}
		for _, p := range e.OpenAPI {
			fmt.Fprintf(w, "  %s: openapi: %s\n", e.Endpoint, p)
		}
		for _, p := range e.SDK {
			fmt.Fprintf(w, "  %s: sdk: %s\n", e.Endpoint, p)
		}
	}
	return nil
}

// colorMarks colours the verdicts of the OPENAPI and SDK columns of an
// aligned table (after alignment, so the escapes do not upset it): ok in
// green, DIFFERS in red.
func colorMarks(table string) string {
	lines := strings.SplitAfter(table, "\n")
	if len(lines) == 0 {
		return table
	}
	cols := []int{strings.Index(lines[0], "OPENAPI"), strings.Index(lines[0], "SDK")}
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		for j := len(cols) - 1; j >= 0; j-- { // right to left, so offsets stay valid
			c := cols[j]
			if c < 0 || c >= len(l) {
				continue
			}
			switch {
			case strings.HasPrefix(l[c:], "DIFFERS"):
				l = l[:c] + "\x1b[31mDIFFERS\x1b[0m" + l[c+len("DIFFERS"):]
			case strings.HasPrefix(l[c:], "ok"):
				l = l[:c] + "\x1b[32mok\x1b[0m" + l[c+len("ok"):]
			}
		}
		lines[i] = l
	}
	return strings.Join(lines, "")
}
