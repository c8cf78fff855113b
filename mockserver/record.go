package mockserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/internal/redact"
	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
	"github.com/newssearch/newssearch-go/mockserver/internal/record"
)

// maxUpstreamAnswer bounds an upstream answer; a larger one gets a 502.
const maxUpstreamAnswer = 64 << 20

// RecordOptions configure WithRecord; Upstream and CorpusPath are required.
type RecordOptions struct {
	// Upstream is the service's base URL, such as
	// "https://app.runathena.com".
	Upstream string
	// CorpusPath is the JSON Lines file the articles are added to.
	CorpusPath string
	// HeadlinesPath and RefusedPath default to CorpusPath with
	// ".headlines.jsonl" and ".refused.jsonl".
	HeadlinesPath string
	RefusedPath   string
	// Drop names article members to leave out, such as "bodyText".
	Drop []string
	// Client reaches the upstream; nil uses the environment's proxy.
	Client *http.Client
}

// WithRecord makes the server a recording proxy in front of opts.Upstream:
// requests and answers pass unchanged, and their articles are added to a
// corpus file for LoadCorpusFile (docs/record.md). The API key is never
// written.
func WithRecord(opts RecordOptions) Option {
	return func(c *config) {
		u, err := url.Parse(opts.Upstream)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			c.fail("WithRecord: Upstream %s is not a base URL: pass one such as \"https://app.runathena.com\"", quoteShort(opts.Upstream))
			return
		}
		if strings.TrimSpace(opts.CorpusPath) == "" {
			c.fail("WithRecord: CorpusPath %q is blank: pass the path of the JSON Lines file to record into", opts.CorpusPath)
			return
		}
		for _, f := range opts.Drop {
			if strings.TrimSpace(f) == "" {
				c.fail("WithRecord: a Drop field name is blank: name article members such as \"bodyText\"")
				return
			}
		}
		opts.Drop = slices.Clone(opts.Drop)
		c.record = opts
	}
}

// recorder is the proxy state of a recording server.
type recorder struct {
	upstream *url.URL
	client   *http.Client
	files    [3]string // corpus, headlines, refused
	rec      *record.Recorder
	keys     []string // the server's own (WithAPIKeys), scrubbed like a request's

	writeErrors    int
	lastWriteError string
}

// newRecorder opens the recording files. keys, the server's accepted keys,
// are scrubbed as the request's own; rules must have no job outcome.
func newRecorder(cfg RecordOptions, keys []string, rules []fault.Rule, clock func() time.Time) (*recorder, error) {
	u, _ := url.Parse(cfg.Upstream) // checked by WithRecord
	for i, r := range rules {
		if r.Action.Job != fault.JobNormal {
			return nil, fmt.Errorf("mockserver: WithRecord: fault rule %d (%s) sets the fate of a job, but a recording server's jobs are the upstream's: "+
				"leave job outcomes out of its rules, or give them to a mock upstream", i, r.Action)
		}
	}
	if cfg.HeadlinesPath == "" {
		cfg.HeadlinesPath = record.HeadlinesPathFor(cfg.CorpusPath)
	}
	if cfg.RefusedPath == "" {
		cfg.RefusedPath = record.RefusedPathFor(cfg.CorpusPath)
	}
	rec, err := record.Open(record.Config{
		CorpusPath: cfg.CorpusPath, HeadlinesPath: cfg.HeadlinesPath, RefusedPath: cfg.RefusedPath, Drop: cfg.Drop,
		Modeled: jsonNames(reflect.TypeFor[articleJSON]()), HeadlineModeled: jsonNames(reflect.TypeFor[headlineArticle]()),
		Clock: clock,
	})
	if err != nil {
		return nil, fmt.Errorf("mockserver: WithRecord: %w", err)
	}
	client := cfg.Client
	if client == nil {
		client = &http.Client{
			Transport: &http.Transport{
				Proxy:               http.ProxyFromEnvironment,
				DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
				TLSHandshakeTimeout: 10 * time.Second,
				MaxIdleConnsPerHost: 16,
				IdleConnTimeout:     30 * time.Second,
			},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return &recorder{upstream: u, client: client, files: [3]string{cfg.CorpusPath, cfg.HeadlinesPath, cfg.RefusedPath}, rec: rec, keys: keys}, nil
}

// jsonNames returns the JSON member names of a struct's fields.
func jsonNames(t reflect.Type) map[string]bool {
	names := map[string]bool{}
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names[name] = true
		}
	}
	return names
}

// hopHeaders are the headers of one connection, which a proxy does not
// pass on; Accept-Encoding is left to the upstream client, which asks for
// gzip and unpacks it itself so that the answer can be recorded.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length"}

func copyHeaders(dst, src http.Header, drop ...string) {
	for name, values := range src {
		dst[name] = append([]string(nil), values...)
	}
	for _, v := range src.Values("Connection") {
		for name := range strings.SplitSeq(v, ",") {
			dst.Del(strings.TrimSpace(name))
		}
	}
	for _, name := range append(hopHeaders, drop...) {
		dst.Del(name)
	}
}

// serveRecord passes one request to the upstream and its answer back,
// recording what it holds. The request's keys, and the server's own, are
// scrubbed in every form (package redact) from all it keeps or shows:
// journal, log, files, summary and its own error answers. The upstream's
// answer goes back unchanged: the client sent the key.
func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request) {
	n := s.reqSeq.Add(1)
	x := &exchange{started: time.Now(), entry: JournalEntry{Seq: n, RequestID: s.ids.request(n), Method: r.Method}}
	x.entry.Time = s.clock()
	rc := s.rec
	red := record.Redactor(rc.keys...) // the request's keys are added once its body is read
	path := func() string { return red.String(r.URL.Path) }
	x.entry.Path = path()
	endpoint := func() string {
		if endpointsByPath[r.URL.Path] == nil {
			return path()
		}
		return strings.TrimPrefix(r.URL.Path, "/api/v2/")
	}
	abort := false
	defer func() {
		s.record(x)
		if abort {
			panic(http.ErrAbortHandler)
		}
	}()
	fail := func(status int, outcome, msg string) {
		rc.rec.Exchange(endpoint(), outcome)
		x.entry.Status = status
		s.record(x)
		writeFailure(w, status, x.entry.RequestID, red.String(msg))
		if x.unread {
			s.drain(w, r)
		}
	}
	body, aerr := readBody(w, r, MaxBodyBytes, apiBodyTooBig)
	if aerr != nil {
		x.unread = aerr.status == http.StatusRequestEntityTooLarge
		fail(aerr.status, strconv.Itoa(aerr.status), aerr.msg)
		return
	}
	keys := record.APIKeys(body)
	red = record.Redactor(append(keys, rc.keys...)...)
	x.entry.Path = path()
	x.body = red.Bytes(body) // the journal's copy; the journal redacts api_key members too
	if endpointsByPath[r.URL.Path] != nil && endpoint() == EndpointGetResults {
		x.entry.QueryID = record.QueryID(x.body, maxEchoedID)
	}

	// As in serveAPI: the fault first, then the key, then the upstream.
	var act fault.Action
	source := ""
	if ep := endpointsByPath[r.URL.Path]; ep != nil {
		var rule int
		if act, rule = s.faults.Decide(bodyTarget(fault.Target{Endpoint: ep.faults.Endpoint}, x.body)); rule >= 0 { // no job outcome or answer shape applies to a proxied answer
			source = "rule " + strconv.Itoa(rule)
			x.entry.Fault = source + ": " + act.String()
		}
	}
	if err := fault.Wait(r.Context(), s.baseCtx.Done(), act.Latency); err != nil {
		x.entry.Fault += " (request cancelled during the latency)"
		rc.rec.Exchange(endpoint(), "fault")
		abort = true
		return
	}
	if act.Drop {
		rc.rec.Exchange(endpoint(), "fault")
		abort = true
		return
	}
	if act.Status != 0 {
		rc.rec.Exchange(endpoint(), "fault")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", x.entry.RequestID)
		s.send(w, r, x, (&apiError{status: act.Status, retryAfter: act.RetryAfter, msg: fmt.Sprintf(
			"injected fault (%s): the recording mock server was told to answer %d %s, without passing the request on; retry, or remove the fault",
			source, act.Status, http.StatusText(act.Status))}).answer(), act.Truncate)
		return
	}
	if aerr := s.admitAll(keys); aerr != nil {
		fail(aerr.status, "key refused", aerr.msg)
		return
	}
	target := *rc.upstream
	target.Path = strings.TrimSuffix(target.Path, "/") + r.URL.Path
	target.RawPath = strings.TrimSuffix(rc.upstream.EscapedPath(), "/") + r.URL.EscapedPath() // escapes as sent (%2F stays)
	target.RawQuery = r.URL.RawQuery
	wrote := false
	ctx := httptrace.WithClientTrace(r.Context(), &httptrace.ClientTrace{
		WroteRequest: func(i httptrace.WroteRequestInfo) { wrote = wrote || i.Err == nil },
	})
	req, err := http.NewRequestWithContext(ctx, r.Method, target.String(), bytes.NewReader(body))
	if err != nil {
		fail(http.StatusBadGateway, "unreachable", fmt.Sprintf("the recording proxy could not build the upstream request (%v): check the upstream URL given to -record", err))
		return
	}
	copyHeaders(req.Header, r.Header, "Accept-Encoding")
	if r.Body == nil || r.ContentLength == 0 && len(body) == 0 {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	resp, err := rc.client.Do(req)
	if err != nil {
		if wrote || errors.Is(r.Context().Err(), context.Canceled) {
			rc.rec.Exchange(endpoint(), "dropped")
			x.entry.Fault = "upstream: dropped the connection"
			s.logger.Warn("mockserver record: the upstream dropped the connection; dropping the client's", "path", path(), "error", red.String(err.Error()))
			abort = true
			return
		}
		s.logger.Warn("mockserver record: the upstream cannot be reached", "upstream", red.String(rc.upstream.Redacted()), "error", red.String(err.Error()))
		fail(http.StatusBadGateway, "unreachable", fmt.Sprintf(
			"the recording proxy cannot reach the upstream %s (%v): check the URL given to -record and the network", rc.upstream.Redacted(), err))
		return
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxUpstreamAnswer+1))
	if err == nil && len(answer) > maxUpstreamAnswer {
		fail(http.StatusBadGateway, "too large", fmt.Sprintf(
			"the upstream's answer is larger than %d bytes, which the recording proxy does not take: narrow the request", maxUpstreamAnswer))
		return
	}
	h := w.Header()
	copyHeaders(h, resp.Header)
	if _, ok := h["Content-Type"]; !ok {
		h["Content-Type"] = nil // as the upstream sent it: none, not a sniffed one
	}
	// Scrubbed before its length is judged: a key is never cut in two.
	if id := red.String(resp.Header.Get("X-Request-Id")); id != "" && len(id) <= 128 {
		x.entry.RequestID = id
	}
	x.entry.Status = resp.StatusCode
	if err != nil { // cut short: pass on what came, then cut the client off too
		rc.rec.Exchange(endpoint(), "truncated")
		x.entry.Fault = "upstream: truncated the answer"
		s.logger.Warn("mockserver record: the upstream cut its answer short; cutting the client's", "path", path(), "error", red.String(err.Error()))
		if resp.ContentLength > 0 {
			h.Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
		}
		s.record(x)
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(answer)
		_ = http.NewResponseController(w).Flush()
		abort = true
		return
	}
	rc.rec.Exchange(endpoint(), strconv.Itoa(resp.StatusCode))
	if endpoint() == EndpointQueryAsync && resp.StatusCode/100 == 2 {
		x.entry.QueryID = record.QueryID(red.Bytes(answer), maxEchoedID) // scrubbed, then judged by length
	}
	switch {
	case resp.StatusCode >= 400 || resp.StatusCode/100 == 2 && record.Failed(answer):
		err = rc.rec.Refused(record.Refusal{Endpoint: endpoint(), Method: r.Method, Path: path(), Status: resp.StatusCode,
			Header: resp.Header, Request: body, Answer: answer}, red)
	case resp.StatusCode/100 == 2:
		err = rc.rec.Answer(endpoint(), red, answer)
	}
	if err != nil {
		s.recordWriteError(red, err)
	}
	s.record(x)
	if act.Truncate { // the headers and half the answer, then the connection cut
		writeAnswer(w, resp.StatusCode, 0, len(answer), answer[:len(answer)/2])
		_ = http.NewResponseController(w).Flush()
		abort = true
		return
	}
	writeAnswer(w, resp.StatusCode, 0, len(answer), answer)
}

// admitAll checks a recorded request's api_key values against WithAPIKeys:
// there must be one, and every one must be accepted.
func (s *Server) admitAll(keys []string) *apiError {
	if s.keyHashes == nil {
		return nil
	}
	if len(keys) == 0 {
		return &apiError{status: http.StatusUnauthorized, msg: fmt.Sprintf(
			"api_key is missing: put your API key in the JSON body, e.g. %s; this recording mock server passes on only requests with a key it accepts",
			examples["api_key"])}
	}
	for _, k := range keys {
		if _, aerr := s.admit(jobs.Owner(sha256.Sum256([]byte(k)))); aerr != nil {
			return aerr
		}
	}
	return nil
}

// recordWriteError notes a recording file that could not be written; the
// client still gets its answer.
func (s *Server) recordWriteError(red *redact.Redactor, err error) {
	msg := red.String(err.Error())
	s.mu.Lock()
	s.rec.writeErrors++
	s.rec.lastWriteError = msg
	s.mu.Unlock()
	s.logger.Error("mockserver record: could not write the recording; this answer is not recorded", "error", msg)
}

// RecordSummary is what a recording server has seen, as GET /_mock/record
// shows it (docs/record.md).
type RecordSummary struct {
	// Recording is false without WithRecord.
	Recording        bool              `json:"recording"`
	Upstream         string            `json:"upstream,omitempty"`
	CorpusFile       string            `json:"corpus_file,omitempty"`
	HeadlinesFile    string            `json:"headlines_file,omitempty"`
	RefusedFile      string            `json:"refused_file,omitempty"`
	RequestsProxied  int               `json:"requests_proxied"`
	Requests         map[string]int    `json:"requests"`
	Outcomes         map[string]int    `json:"outcomes"`
	ArticlesSeen     int               `json:"articles_seen"`
	ArticlesRecorded int               `json:"articles_recorded"`
	ArticlesInFile   int               `json:"articles_in_file"`
	Duplicates       int               `json:"duplicates"`
	HeadlineStubs    int               `json:"headline_stubs"`
	ArticlesRejected int               `json:"articles_rejected"`
	Rejections       []RecordRejection `json:"rejections"`
	HeadlineAnswers  int               `json:"headline_answers"`
	HeadlinesInFile  int               `json:"headlines_in_file"`
	RefusedRecorded  int               `json:"refused_recorded"`
	RefusedInFile    int               `json:"refused_in_file"`
	// UnmodeledFields are the article members the SDK has no field for.
	UnmodeledFields []RecordField      `json:"unmodeled_fields"`
	DateFormats     []RecordDateFormat `json:"date_formats"`
	CountFields     []RecordField      `json:"count_fields"`
	WriteErrors     int                `json:"write_errors"`
	LastWriteError  string             `json:"last_write_error,omitempty"`
}

// RecordRejection is an article a recording left out, and why.
type RecordRejection struct {
	ID       string `json:"_id"`
	Endpoint string `json:"endpoint"`
	Reason   string `json:"reason"`
}

// RecordField counts a member name where it was seen.
type RecordField struct {
	Where string `json:"where"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// RecordDateFormat counts a layout of datePublished where it was seen, with an
// example.
type RecordDateFormat struct {
	Where   string `json:"where"`
	Format  string `json:"format"`
	Example string `json:"example,omitempty"`
	Count   int    `json:"count"`
}

// RecordSummary returns what the recording has seen so far.
func (s *Server) RecordSummary() RecordSummary {
	if s.rec == nil {
		return RecordSummary{Requests: map[string]int{}, Outcomes: map[string]int{}, Rejections: []RecordRejection{},
			UnmodeledFields: []RecordField{}, DateFormats: []RecordDateFormat{}, CountFields: []RecordField{}}
	}
	in := s.rec.rec.Summary()
	out := RecordSummary{
		Recording: true, Upstream: s.rec.upstream.Redacted(), CorpusFile: s.rec.files[0], HeadlinesFile: s.rec.files[1], RefusedFile: s.rec.files[2],
		RequestsProxied: in.RequestsProxied, Requests: in.Requests, Outcomes: in.Outcomes,
		ArticlesSeen: in.ArticlesSeen, ArticlesRecorded: in.ArticlesRecorded, ArticlesInFile: in.ArticlesInFile,
		Duplicates: in.Duplicates, HeadlineStubs: in.HeadlineStubs, ArticlesRejected: in.ArticlesRejected,
		Rejections: []RecordRejection{}, HeadlineAnswers: in.HeadlineAnswers, HeadlinesInFile: in.HeadlinesInFile,
		RefusedRecorded: in.RefusedRecorded, RefusedInFile: in.RefusedInFile,
		UnmodeledFields: recordFields(in.UnmodeledFields), DateFormats: []RecordDateFormat{}, CountFields: recordFields(in.CountFields),
	}
	for _, r := range in.Rejections {
		out.Rejections = append(out.Rejections, RecordRejection(r))
	}
	for _, d := range in.DateFormats {
		out.DateFormats = append(out.DateFormats, RecordDateFormat(d))
	}
	s.mu.Lock()
	out.WriteErrors, out.LastWriteError = s.rec.writeErrors, s.rec.lastWriteError
	s.mu.Unlock()
	return out
}

func recordFields(in []record.Field) []RecordField {
	out := make([]RecordField, 0, len(in))
	for _, f := range in {
		out = append(out, RecordField(f))
	}
	return out
}

// String writes the summary as newsmock prints it at exit.
func (r RecordSummary) String() string {
	if !r.Recording {
		return "not recording\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "recorded from %s into %s and %s\n", r.Upstream, r.CorpusFile, r.HeadlinesFile)
	fmt.Fprintf(&b, "requests proxied: %d%s; outcomes:%s\n", r.RequestsProxied, countList(" (", r.Requests, ")"), countList(" ", r.Outcomes, ""))
	fmt.Fprintf(&b, "articles: %d seen, %d recorded (%d from headlines only), %d already recorded, %d rejected; %d in the file\n",
		r.ArticlesSeen, r.ArticlesRecorded, r.HeadlineStubs, r.Duplicates, r.ArticlesRejected, r.ArticlesInFile)
	for _, rj := range r.Rejections {
		fmt.Fprintf(&b, "  rejected %q from %s: %s\n", rj.ID, rj.Endpoint, rj.Reason)
	}
	fmt.Fprintf(&b, "headline answers: %d seen, %d in the file\n", r.HeadlineAnswers, r.HeadlinesInFile)
	fmt.Fprintf(&b, "refused answers: %d recorded, %d in %s\n", r.RefusedRecorded, r.RefusedInFile, r.RefusedFile)
	b.WriteString("fields the SDK does not model:")
	if len(r.UnmodeledFields) == 0 {
		b.WriteString(" none")
	}
	for _, f := range r.UnmodeledFields {
		fmt.Fprintf(&b, " %s (%s, %d)", f.Name, f.Where, f.Count)
	}
	b.WriteString("\ndate formats:")
	if len(r.DateFormats) == 0 {
		b.WriteString(" none")
	}
	for _, d := range r.DateFormats {
		fmt.Fprintf(&b, "\n  %s: %s, %d (e.g. %q)", d.Where, d.Format, d.Count, d.Example)
	}
	b.WriteString("\ncount fields:")
	if len(r.CountFields) == 0 {
		b.WriteString(" none")
	}
	for _, f := range r.CountFields {
		fmt.Fprintf(&b, " %s.%s (%d)", f.Where, f.Name, f.Count)
	}
	b.WriteString("\n")
	if r.WriteErrors > 0 {
		fmt.Fprintf(&b, "write errors: %d; last: %s\n", r.WriteErrors, r.LastWriteError)
	}
	return b.String()
}

// countList writes a map of counts in key order: "a 1, b 2".
func countList(open string, m map[string]int, close string) string {
	if len(m) == 0 {
		return open + "none" + close
	}
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return open + strings.Join(parts, ", ") + close
}
