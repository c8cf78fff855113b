// Package record keeps what the recording proxy sees: the articles of the
// answers, appended to a corpus file (corpus.LoadJSONL's form) once per
// _id; the headline answers, in a file of their own; and a summary.
package record

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/internal/redact"
	"github.com/newssearch/newssearch-go/internal/textutil"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/journal"
)

// Required are the members the corpus loader needs; they cannot be dropped.
var Required = []string{"_id", "title", "url", "site", "datePublished"}

// MinScrubbedKey is the shortest API key scrubbed wherever it occurs; a
// shorter one could match ordinary text. api_key members are always
// redacted.
const MinScrubbedKey = 8

// Redactor returns the redactor of the keys of at least MinScrubbedKey bytes.
func Redactor(keys ...string) *redact.Redactor {
	long := make([]string, 0, len(keys))
	for _, k := range keys {
		if len(k) >= MinScrubbedKey {
			long = append(long, k)
		}
	}
	return redact.New(long...)
}

// maxRejections bounds the rejections a Summary lists.
const maxRejections = 20

// Config says where a Recorder writes and what it leaves out.
type Config struct {
	// CorpusPath is the JSON Lines corpus the articles are appended to.
	CorpusPath string
	// HeadlinesPath is the JSON Lines file of headline answers.
	HeadlinesPath string
	// RefusedPath is the JSON Lines file of the exchanges the upstream
	// refused (see Refused); "" is RefusedPathFor(CorpusPath).
	RefusedPath string
	// Drop lists article members not to record.
	Drop []string
	// Modeled and HeadlineModeled are the members the SDK's Article and
	// HeadlineArticle decode; others are reported as unmodeled.
	Modeled, HeadlineModeled map[string]bool
	// Clock stamps headline answers (default time.Now).
	Clock func() time.Time
}

// Recorder records answers. It is safe for concurrent use; answers are
// recorded one at a time, in the order Answer is called.
type Recorder struct {
	mu            sync.Mutex
	cfg           Config
	drop          map[string]bool
	check         *corpus.Checker
	urls          map[string]string // article URL -> _id recorded for it
	stubs         map[string]string // _id of a headline stub -> its URL
	lastHeadlines []byte            // the last headline answer recorded

	inFile, headlineLines, refusedLines int
	st                                  Summary
	unmodeled                           map[[2]string]int // where, name
	dates                               map[[2]string]*DateFormat
	counts                              map[[2]string]int // endpoint, name
	requests, outcomes                  map[string]int

	testMidWrite func() error // set by tests only: see appendLines
}

// Open returns a Recorder that appends to the files of cfg, reading what
// they hold so that a restarted recording goes on de-duplicating. A torn
// last line is cut off first; a corpus file the loader would refuse is an
// error naming its line.
func Open(cfg Config) (*Recorder, error) {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.RefusedPath == "" {
		cfg.RefusedPath = RefusedPathFor(cfg.CorpusPath)
	}
	r := &Recorder{
		cfg: cfg, drop: map[string]bool{}, check: corpus.NewChecker(),
		urls: map[string]string{}, stubs: map[string]string{},
		unmodeled: map[[2]string]int{}, dates: map[[2]string]*DateFormat{}, counts: map[[2]string]int{},
		requests: map[string]int{}, outcomes: map[string]int{},
	}
	for _, f := range cfg.Drop {
		if slices.Contains(Required, f) {
			return nil, fmt.Errorf("cannot drop %q: a corpus article needs %s", f, strings.Join(Required, ", "))
		}
		r.drop[f] = true
	}
	for _, path := range []string{cfg.CorpusPath, cfg.HeadlinesPath, cfg.RefusedPath} {
		if err := repairTail(path); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	err := eachLine(cfg.CorpusPath, func(line []byte) error {
		a, err := r.check.Check(line)
		if err != nil {
			return err
		}
		if old, ok := str(get(members(line), "_replaces")); ok {
			delete(r.stubs, strings.ToLower(old))
			r.inFile--
		}
		r.urls[a.URL] = a.ID
		if a.ID == stubID(a.URL) {
			r.stubs[a.ID] = a.URL
		}
		r.inFile++
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachLine(cfg.HeadlinesPath, func(line []byte) error {
		ans, err := headlineAnswer(line)
		if err != nil {
			return err
		}
		r.lastHeadlines = bytes.Clone(ans)
		r.headlineLines++
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachLine(cfg.RefusedPath, func(line []byte) error {
		r.refusedLines++
		return refusedLine(line)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// headlineAnswer returns the "answer" member of a headlines file line.
func headlineAnswer(line []byte) ([]byte, error) {
	if !json.Valid(line) {
		return nil, fmt.Errorf("is not valid JSON; write each headline answer as one JSON object on its own line")
	}
	ans := get(members(line), "answer")
	if textutil.JSONType(ans) != "object" || textutil.JSONType(get(members(ans), "headlines")) != "array" {
		return nil, fmt.Errorf(`has no "answer" object with a "headlines" array; write lines such as {"recorded_at": "2025-01-19T01:04:00Z", "answer": {"headlines": [...], "state": "SUCCESS"}}`)
	}
	return ans, nil
}

// stubID is the _id given to an article known only from a headline
// cluster, which carries none: 24 hex digits of the SHA-256 of its URL.
func stubID(url string) string {
	sum := sha256.Sum256([]byte("newsmock-headline-article:" + url))
	return hex.EncodeToString(sum[:12])
}

// Exchange counts one request passed on by endpoint (or path) and outcome.
func (r *Recorder) Exchange(endpoint, outcome string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests[endpoint]++
	r.outcomes[outcome]++
}

// batch is what one answer adds.
type batch struct {
	lines    []byte
	added    []corpus.Article
	replaced map[string]string // _id of a headline stub a full article replaces -> its URL
	endpoint string
	red      *redact.Redactor
}

// Answer records a successful answer of endpoint, scrubbed by red. A body
// that is not JSON or is FAILED (see Refused) is ignored, as is a headline
// answer the loader would refuse. The error is the file system's; the
// Recorder is then as if the answer had not come.
func (r *Recorder) Answer(endpoint string, red *redact.Redactor, body []byte) error {
	if !json.Valid(body) || Failed(body) {
		return nil
	}
	env := members(body)
	r.mu.Lock()
	defer r.mu.Unlock()
	b := &batch{endpoint: endpoint, red: red, replaced: map[string]string{}}
	switch endpoint {
	case "query", "get-results":
		arts := get(env, "articles")
		r.countFields(b, "", env)
		if res := get(env, "results"); textutil.JSONType(res) == "object" {
			rm := members(res)
			r.countFields(b, "results.", rm)
			if a := get(rm, "articles"); a != nil {
				arts = a
			}
		}
		for _, el := range elements(arts) {
			r.article(b, el)
		}
	case "headlines":
		for _, cl := range elements(get(env, "headlines")) {
			for _, el := range elements(get(members(cl), "articles")) {
				r.headlineArticle(b, el)
			}
		}
	default:
		return nil
	}
	if len(b.lines) > 0 {
		if err := appendLines(r.cfg.CorpusPath, b.lines, r.testMidWrite); err != nil {
			r.undo(b)
			return err
		}
		for id := range b.replaced {
			delete(r.stubs, id)
			r.inFile--
		}
		r.inFile += len(b.added)
		r.st.ArticlesRecorded += len(b.added)
	}
	if endpoint == "headlines" {
		r.st.HeadlineAnswers++
		ans := compact(scrub(body, red))
		if _, err := headlineAnswer(append(append([]byte(`{"answer":`), ans...), '}')); err != nil || bytes.Equal(ans, r.lastHeadlines) {
			return nil // an answer the headlines loader would refuse, or a repeat
		}
		stamp, _ := json.Marshal(r.cfg.Clock().UTC().Format(time.RFC3339Nano))
		line := append(append(append([]byte(`{"recorded_at":`), stamp...), `,"answer":`...), ans...)
		if err := appendLines(r.cfg.HeadlinesPath, append(line, "}\n"...), r.testMidWrite); err != nil {
			return err
		}
		r.lastHeadlines = ans
		r.headlineLines++
	}
	return nil
}

// undo forgets the articles of a batch that could not be written, and
// gives the stubs they replaced their URLs back.
func (r *Recorder) undo(b *batch) {
	for id, url := range b.replaced {
		r.urls[url] = id
	}
	for _, a := range b.added {
		r.check.Forget(a.ID)
		delete(r.stubs, a.ID)
		if r.urls[a.URL] == a.ID {
			delete(r.urls, a.URL)
		}
	}
}

// countFields counts the numeric members of an answer's envelope but page:
// the names of the service's result counts.
func (r *Recorder) countFields(b *batch, prefix string, ms []member) {
	for _, m := range ms {
		if m.name != "page" && textutil.JSONType(m.value) == "number" {
			r.counts[[2]string{b.endpoint, b.red.String(prefix + m.name)}]++
		}
	}
}

// observe counts an article's unmodeled members and its date format. A
// date is scrubbed before its format is named, so that the shape of an
// unknown format never shows a key's.
func (r *Recorder) observe(b *batch, where string, modeled map[string]bool, ms []member) {
	for _, m := range ms {
		if !modeled[m.name] {
			r.unmodeled[[2]string{where, b.red.String(m.name)}]++
		}
		if m.name == "datePublished" {
			s, ok := str(m.value)
			s = b.red.String(s)
			format := "JSON " + textutil.JSONType(m.value)
			if ok {
				format = dateFormat(s)
			}
			k := [2]string{where, format}
			if r.dates[k] == nil {
				r.dates[k] = &DateFormat{Where: where, Format: format}
				if ok {
					r.dates[k].Example = s
				}
			}
			r.dates[k].Count++
		}
	}
}

// article records one search-result article.
func (r *Recorder) article(b *batch, el []byte) {
	r.st.ArticlesSeen++
	ms := members(el)
	r.observe(b, "article", r.cfg.Modeled, ms)
	id, _ := str(get(ms, "_id"))
	if id != "" && r.check.Has(strings.ToLower(id)) {
		r.st.Duplicates++
		return
	}
	r.keep(b, id, ms, nil)
}

// headlineArticle records one article of a headline cluster: as a stub
// with a made-up _id, unless an article with its URL is recorded already.
func (r *Recorder) headlineArticle(b *batch, el []byte) {
	r.st.ArticlesSeen++
	ms := members(el)
	r.observe(b, "headline article", r.cfg.HeadlineModeled, ms)
	if id, ok := str(get(ms, "_id")); ok { // the service gave it an id after all
		if r.check.Has(strings.ToLower(id)) {
			r.st.Duplicates++
			return
		}
		r.keep(b, id, ms, nil)
		return
	}
	url, _ := str(get(ms, "url"))
	url = b.red.String(url) // as the file will hold it, and the made-up _id is made of it
	if _, seen := r.urls[url]; seen {
		r.st.Duplicates++
		return
	}
	id := stubID(url)
	r.keep(b, id, ms, []byte(`"_id":"`+id+`"`))
}

// keep checks an article's line and adds it to the batch, or lists why not.
// first, for a headline stub, gives its made-up _id. A full article whose
// URL has a stub in the file replaces it with "_replaces" (the service's
// own "_replaces" is left out).
func (r *Recorder) keep(b *batch, id string, ms []member, first []byte) {
	parts := make([][]byte, 0, len(ms)+2)
	if first != nil {
		parts = append(parts, first)
	}
	for _, m := range ms {
		if !r.drop[m.name] && m.name != "_replaces" {
			parts = append(parts, m.whole)
		}
	}
	stub := ""
	if u, ok := str(get(ms, "url")); ok && first == nil {
		if old, ok := r.urls[b.red.String(u)]; ok && r.stubs[old] != "" {
			if _, done := b.replaced[old]; !done {
				stub = old
				parts = append(parts, []byte(`"_replaces":"`+old+`"`))
			}
		}
	}
	line := compact(scrub(object(parts), b.red))
	if !json.Valid(line) {
		r.reject(b, id, "it held the API key outside a JSON string, so it was not recorded")
		return
	}
	a, err := r.check.Check(line)
	if err != nil {
		r.reject(b, id, err.Error())
		return
	}
	if stub != "" {
		b.replaced[stub] = r.stubs[stub]
	}
	if first != nil {
		r.stubs[a.ID] = a.URL
		r.st.HeadlineStubs++
	}
	r.urls[a.URL] = a.ID
	b.added = append(b.added, a)
	b.lines = append(append(b.lines, line...), '\n')
}

func (r *Recorder) reject(b *batch, id, reason string) {
	r.st.ArticlesRejected++
	if len(r.st.Rejections) < maxRejections {
		r.st.Rejections = append(r.st.Rejections, Rejection{ID: b.red.String(id), Endpoint: b.endpoint, Reason: b.red.String(reason)})
	}
}

// scrub redacts every api_key member of v and every occurrence of red's
// keys.
func scrub(v []byte, red *redact.Redactor) []byte {
	return red.Bytes([]byte(journal.Redact(v, math.MaxInt)))
}

// Date layouts dateFormat recognises, by the name it gives them.
var dateLayouts = []struct{ name, layout string }{
	{"RFC 1123 (Mon, 02 Jan 2006 15:04:05 GMT)", "Mon, 02 Jan 2006 15:04:05 GMT"},
	{"YYYY-MM-DD HH:MM:SS", "2006-01-02 15:04:05"},
	{"RFC 3339 with fraction (2006-01-02T15:04:05.000Z07:00)", time.RFC3339Nano},
	{"RFC 3339 (2006-01-02T15:04:05Z07:00)", time.RFC3339},
	{"YYYY-MM-DD", "2006-01-02"},
	{"RFC 1123 with offset (Mon, 02 Jan 2006 15:04:05 -0700)", time.RFC1123Z},
}

// dateFormat names the layout of a date, or gives its shape (digits as 9,
// letters as a) when no known layout fits.
func dateFormat(s string) string {
	for _, l := range dateLayouts {
		if _, err := time.Parse(l.layout, s); err == nil {
			if l.layout == time.RFC3339Nano && !strings.Contains(s, ".") {
				continue
			}
			return l.name
		}
	}
	shape := []byte(s)
	for i, c := range shape {
		switch {
		case c >= '0' && c <= '9':
			shape[i] = '9'
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			shape[i] = 'a'
		}
	}
	return "unknown: " + string(shape)
}

// Summary is what a recording has seen.
type Summary struct {
	RequestsProxied  int
	Requests         map[string]int
	Outcomes         map[string]int
	ArticlesSeen     int
	ArticlesRecorded int
	ArticlesInFile   int
	Duplicates       int
	HeadlineStubs    int
	HeadlineAnswers  int
	HeadlinesInFile  int
	RefusedRecorded  int
	RefusedInFile    int
	ArticlesRejected int
	Rejections       []Rejection
	UnmodeledFields  []Field
	DateFormats      []DateFormat
	CountFields      []Field
}

// Rejection is an article the corpus loader would refuse, left out.
type Rejection struct{ ID, Endpoint, Reason string }

// Field is a member name, where it was seen and how often.
type Field struct {
	Where, Name string
	Count       int
}

// DateFormat is a layout of datePublished, where it was seen, how often,
// and its first value.
type DateFormat struct {
	Where, Format, Example string
	Count                  int
}

// Summary returns the figures so far, in a fixed order.
func (r *Recorder) Summary() Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.st
	s.Requests, s.Outcomes = maps.Clone(r.requests), maps.Clone(r.outcomes)
	for _, n := range r.requests {
		s.RequestsProxied += n
	}
	s.ArticlesInFile, s.HeadlinesInFile, s.RefusedInFile = r.inFile, r.headlineLines, r.refusedLines
	s.Rejections = slices.Clone(r.st.Rejections)
	s.UnmodeledFields = fields(r.unmodeled)
	s.CountFields = fields(r.counts)
	s.DateFormats = []DateFormat{}
	for _, d := range r.dates {
		s.DateFormats = append(s.DateFormats, *d)
	}
	slices.SortFunc(s.DateFormats, func(a, b DateFormat) int {
		return cmp.Or(strings.Compare(a.Where, b.Where), strings.Compare(a.Format, b.Format))
	})
	return s
}

func fields(m map[[2]string]int) []Field {
	out := make([]Field, 0, len(m))
	for _, k := range slices.SortedFunc(maps.Keys(m), func(a, b [2]string) int {
		return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1])
	}) {
		out = append(out, Field{Where: k[0], Name: k[1], Count: m[k]})
	}
	return out
}
