package newssearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/newssearch/newssearch-go/internal/jsonscan"
	"github.com/newssearch/newssearch-go/internal/textutil"
)

// Decoding strategy. Responses are decoded in one json.Unmarshal into wire
// structs whose article type, articleFast, is Article without methods, so no
// per-article callback runs. A cheap walk of the already validated bytes
// then collects the members an article does not know into Extra. Only when
// that fast path fails (a field of an unexpected JSON type, a count that is
// not an integer) does the slow, tolerant path decode member by member,
// keeping what does not fit in Extra instead of failing the whole response.

var nullJSON = []byte("null")

var timestampType = reflect.TypeFor[Timestamp]()

// errNoQueryID reports a query-async answer without a query ID.
var errNoQueryID = errors.New(`the answer has no "query_id"`)

// errNotObject reports an answer that is valid JSON but not an object.
var errNotObject = errors.New("the answer is not a JSON object")

// decodeJSON decodes the JSON object data into v.
func decodeJSON(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	if i := jsonscan.SkipSpace(data, 0); data[i] != '{' {
		return errNotObject
	}
	return nil
}

// unquote decodes a JSON string literal, without allocating beyond the
// result when it holds no escapes and is valid UTF-8. Anything else goes
// through encoding/json, which also replaces invalid UTF-8 with U+FFFD.
func unquote(b []byte) (string, error) {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' && bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b[1:len(b)-1]) {
		return string(b[1 : len(b)-1]), nil
	}
	var s string
	err := json.Unmarshal(b, &s)
	return s, err
}

// optInt is an integer that may be absent.
type optInt struct {
	v   int
	set bool
}

// UnmarshalJSON accepts an integer or null.
func (o *optInt) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, nullJSON) {
		return nil
	}
	v, err := strconv.Atoi(string(b))
	if err != nil {
		return &json.UnmarshalTypeError{Value: textutil.JSONType(b), Type: reflect.TypeFor[int]()}
	}
	*o = optInt{v: v, set: true}
	return nil
}

// counts holds both names the service uses for the number of results.
type counts struct {
	TotalResults  optInt `json:"totalResults"`
	TotalArticles optInt `json:"totalArticles"`
}

// total prefers totalResults and falls back to totalArticles.
func (c *counts) total() int {
	if c.TotalResults.set {
		return c.TotalResults.v
	}
	return c.TotalArticles.v
}

// articleFast is Article without its JSON methods.
type articleFast Article

// resultSet is a count plus a page of articles.
type resultSet struct {
	counts
	Articles []articleFast `json:"articles"`
}

// envelopeWire is every top-level shape of query and get-results answers:
// the articles and the count each either inside "results" (preferred) or
// at the top level.
type envelopeWire struct {
	QueryID string    `json:"query_id"`
	Page    optInt    `json:"page"`
	Results resultSet `json:"results"`
	resultSet
	State   State  `json:"state"`
	Message string `json:"message"`
}

// total takes the count from "results" when it has one, else from the top
// level.
func (w *envelopeWire) total() int {
	if w.Results.TotalResults.set || w.Results.TotalArticles.set {
		return w.Results.total()
	}
	return w.resultSet.total()
}

// decodePage decodes a query or get-results answer into out: the fast path,
// else the tolerant one.
func decodePage(data []byte, out *Page) error {
	var w envelopeWire
	err := decodeJSON(data, &w)
	if err == nil {
		*out = Page{QueryID: w.QueryID, Number: w.Page.v, TotalResults: w.total(), State: w.State, Message: w.Message}
		list, inResults := w.resultSet.Articles, w.Results.Articles != nil
		if inResults {
			list = w.Results.Articles
		}
		if list != nil {
			out.Articles = make([]Article, len(list))
			for i := range list {
				out.Articles[i] = Article(list[i])
			}
			attachExtras(data, inResults, out.Articles)
		}
		return nil
	}
	var syntaxErr *json.SyntaxError
	if err == errNotObject || errors.As(err, &syntaxErr) || !json.Valid(data) {
		return err // not JSON at all: nothing to tolerate
	}
	return decodeEnvelopeTolerant(data, out)
}

// attachExtras walks the validated document data to the article array the
// envelope used and stores each article's unknown members in its Extra, in
// one forward pass: the walk goes into "results" and "articles" instead of
// skipping them first. Keys match as encoding/json matches them. It is
// best effort: the articles are already decoded, and a document the walk
// cannot follow (which encoding/json accepted) only loses extras.
func attachExtras(data []byte, inResults bool, articles []Article) {
	_, _ = walkObject(data, 0, func(key []byte, v int) (int, error) {
		name, err := memberName(key)
		switch {
		case err != nil:
			return 0, err
		case inResults && data[v] == '{' && keyIs(name, "results"):
			return walkObject(data, v, func(key []byte, v int) (int, error) {
				name, err := memberName(key)
				if err != nil {
					return 0, err
				}
				if keyIs(name, "articles") {
					return articleExtras(data, v, articles)
				}
				return valueEnd(data, v)
			})
		case !inResults && keyIs(name, "articles"):
			return articleExtras(data, v, articles)
		}
		return valueEnd(data, v)
	})
}

// articleExtras walks the "articles" value starting at data[v], storing
// the unknown members of its i-th element in articles[i].Extra, and
// returns the index just past it. Duplicate "articles" members merge, as
// encoding/json merges a later array into the elements it decoded from an
// earlier one; elements past len(articles), which only an earlier,
// longer duplicate can have, are skipped, as encoding/json drops them.
func articleExtras(data []byte, v int, articles []Article) (int, error) {
	if data[v] != '[' {
		return valueEnd(data, v) // null: the decoded list came from elsewhere
	}
	return walkArray(data, v, func(n, e int) (int, error) {
		if n >= len(articles) || data[e] != '{' {
			return valueEnd(data, e) // dropped by encoding/json, or null
		}
		a := &articles[n]
		return walkObject(data, e, func(key []byte, v int) (int, error) {
			end, err := valueEnd(data, v)
			if err != nil {
				return 0, err
			}
			name, err := memberName(key)
			if err == nil && !isArticleKey(name) {
				addExtra(a, name, data[v:end])
			}
			return end, err
		})
	})
}

// keyIs reports whether an unescaped member name matches name the way
// encoding/json matches field names.
func keyIs(key []byte, name string) bool {
	return string(key) == name || bytes.EqualFold(key, []byte(name))
}

// memberName returns the name a raw member key (between the quotes, still
// escaped) stands for, as encoding/json reads it: the key itself when it is
// ASCII without escapes, else the key unescaped, invalid UTF-8 replaced by
// U+FFFD.
func memberName(key []byte) ([]byte, error) {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			s, err := unquote(append(append([]byte{'"'}, key...), '"'))
			return []byte(s), err
		}
	}
	return key, nil
}

// eachNamedMember is eachMember with each key unescaped by memberName.
func eachNamedMember(obj []byte, fn func(name, val []byte) error) error {
	return eachMember(obj, func(key, val []byte) error {
		name, err := memberName(key)
		if err != nil {
			return err
		}
		return fn(name, val)
	})
}

// collectExtra stores the members of the article object elem that Article
// has no field for in a.Extra.
func collectExtra(elem []byte, a *Article) error {
	if elem[0] != '{' {
		return nil // null
	}
	return eachNamedMember(elem, func(name, val []byte) error {
		if isArticleKey(name) {
			return nil
		}
		addExtra(a, name, val)
		return nil
	})
}

// addExtra stores a copy of val under the unescaped member name.
func addExtra(a *Article, name, val []byte) {
	if a.Extra == nil {
		a.Extra = make(map[string]json.RawMessage)
	}
	a.Extra[string(name)] = bytes.Clone(val)
}

// articleField decodes one known member into an Article.
type articleField struct {
	name string
	set  func(a *Article, raw []byte) error
}

// decodeInto decodes raw into *dst, leaving *dst untouched on failure.
func decodeInto[T any](dst *T, raw []byte) error {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	*dst = v
	return nil
}

// articleFields lists Article's members in the order of its fields.
var articleFields = [...]articleField{
	{"_id", func(a *Article, r []byte) error { return decodeInto(&a.ID, r) }},
	{"title", func(a *Article, r []byte) error { return decodeInto(&a.Title, r) }},
	{"description", func(a *Article, r []byte) error { return decodeInto(&a.Description, r) }},
	{"bodyText", func(a *Article, r []byte) error { return decodeInto(&a.BodyText, r) }},
	{"url", func(a *Article, r []byte) error { return decodeInto(&a.URL, r) }},
	{"site", func(a *Article, r []byte) error { return decodeInto(&a.Site, r) }},
	{"image", func(a *Article, r []byte) error { return decodeInto(&a.Image, r) }},
	{"favicon", func(a *Article, r []byte) error { return decodeInto(&a.Favicon, r) }},
	{"category", func(a *Article, r []byte) error { return decodeInto(&a.Category, r) }},
	{"language", func(a *Article, r []byte) error { return decodeInto(&a.Language, r) }},
	{"datePublished", func(a *Article, r []byte) error { return decodeInto(&a.DatePublished, r) }},
	{"score", func(a *Article, r []byte) error { return decodeInto(&a.Score, r) }},
	{"topics", func(a *Article, r []byte) error { return decodeInto(&a.Topics, r) }},
	{"sentiment", func(a *Article, r []byte) error { return decodeInto(&a.Sentiment, r) }},
	{"entities", func(a *Article, r []byte) error { return decodeInto(&a.Entities, r) }},
	{"entity_relationships", func(a *Article, r []byte) error { return decodeInto(&a.EntityRelationships, r) }},
	{"embeddings", func(a *Article, r []byte) error { return decodeInto(&a.Embeddings, r) }},
}

// articleFieldIndex returns the index in articleFields of the field an
// unescaped member name names (exactly, or ignoring case as encoding/json
// does), or -1.
func articleFieldIndex(key []byte) int {
	for i := range articleFields {
		if string(key) == articleFields[i].name {
			return i
		}
	}
	for i := range articleFields {
		if bytes.EqualFold(key, []byte(articleFields[i].name)) {
			return i
		}
	}
	return -1
}

// isArticleKey reports whether an unescaped member name names an Article
// field; it is articleFieldIndex(key) >= 0, written as a switch for the
// fast path.
func isArticleKey(key []byte) bool {
	switch string(key) {
	case "_id", "title", "description", "bodyText", "url", "site", "image", "favicon", "category",
		"language", "datePublished", "score", "topics", "sentiment", "entities",
		"entity_relationships", "embeddings":
		return true
	}
	return articleFieldIndex(key) >= 0
}

// decodeArticleTolerant decodes the article object elem member by member;
// a member that does not fit its field is kept in Extra.
func decodeArticleTolerant(elem []byte, a *Article) error {
	*a = Article{}
	if bytes.Equal(elem, nullJSON) {
		return nil
	}
	return eachNamedMember(elem, func(name, val []byte) error {
		if i := articleFieldIndex(name); i >= 0 && articleFields[i].set(a, val) == nil {
			return nil
		}
		addExtra(a, name, val)
		return nil
	})
}

// UnmarshalJSON decodes an article tolerantly (see Article); only JSON that
// is not an object is an error.
func (a *Article) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, nullJSON) {
		return nil
	}
	var fast articleFast
	if err := json.Unmarshal(b, &fast); err == nil {
		*a = Article(fast)
		return collectExtra(b, a)
	}
	if !json.Valid(b) {
		return errors.New("newssearch: article is not a JSON object: got invalid JSON")
	}
	if i := jsonscan.SkipSpace(b, 0); b[i] != '{' {
		return fmt.Errorf("newssearch: article is not a JSON object: got %s", textutil.JSONKind(b[i:]))
	}
	return decodeArticleTolerant(b, a)
}

// MarshalJSON encodes the article with its Extra members, so that a decoded
// article encodes back to what it was decoded from.
func (a Article) MarshalJSON() ([]byte, error) {
	known, err := json.Marshal(articleFast(a))
	if err != nil || len(a.Extra) == 0 {
		return known, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	first := true
	sep := func() {
		if !first {
			out.WriteByte(',')
		}
		first = false
	}
	err = eachMember(known, func(key, val []byte) error {
		if _, dup := a.Extra[string(key)]; !dup {
			sep()
			out.WriteByte('"')
			out.Write(key)
			out.WriteString(`":`)
			out.Write(val)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(a.Extra)) {
		k, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		v := a.Extra[name]
		if !json.Valid(v) {
			return nil, fmt.Errorf("newssearch: Article.Extra[%q] is not valid JSON: store raw JSON values only", name)
		}
		sep()
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// rawSet holds the raw members of a result set.
type rawSet struct {
	totalResults, totalArticles, articles []byte
}

// member stores a result-set member and reports whether the unescaped
// member name key named one.
func (r *rawSet) member(key, val []byte) bool {
	switch {
	case keyIs(key, "totalResults"):
		r.totalResults = val
	case keyIs(key, "totalArticles"):
		r.totalArticles = val
	case keyIs(key, "articles"):
		r.articles = val
	default:
		return false
	}
	return true
}

// decodeEnvelopeTolerant is the slow path for a valid JSON document: every
// member is decoded on its own, counts may be numeric strings or integral
// floats, and each article goes through decodeArticleTolerant.
func decodeEnvelopeTolerant(data []byte, out *Page) error {
	if i := jsonscan.SkipSpace(data, 0); data[i] != '{' {
		return errNotObject
	}
	var top, inner rawSet
	var queryID, page, state, message []byte
	err := eachNamedMember(data, func(key, val []byte) error {
		switch {
		case top.member(key, val):
		case keyIs(key, "query_id"):
			queryID = val
		case keyIs(key, "page"):
			page = val
		case keyIs(key, "state"):
			state = val
		case keyIs(key, "message"):
			message = val
		case keyIs(key, "results"):
			inner = rawSet{}
			if bytes.Equal(val, nullJSON) {
				return nil
			}
			if val[0] != '{' {
				return fmt.Errorf(`"results" is not an object: got %s`, textutil.JSONKind(val))
			}
			return eachNamedMember(val, func(key, val []byte) error {
				inner.member(key, val)
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return err
	}
	counts, articles := top, top.articles
	if isSet(inner.totalResults) || isSet(inner.totalArticles) {
		counts = inner
	}
	if isSet(inner.articles) {
		articles = inner.articles
	}
	*out = Page{}
	if out.QueryID, err = looseString(queryID, "query_id"); err != nil {
		return err
	}
	if out.Number, err = looseInt(page, "page"); err != nil {
		return err
	}
	var st string
	if st, err = looseString(state, "state"); err != nil {
		return err
	}
	out.State = State(st)
	if out.Message, err = looseString(message, "message"); err != nil {
		return err
	}
	if isSet(counts.totalResults) {
		out.TotalResults, err = looseInt(counts.totalResults, "totalResults")
	} else {
		out.TotalResults, err = looseInt(counts.totalArticles, "totalArticles")
	}
	if err != nil || !isSet(articles) {
		return err
	}
	if articles[0] != '[' {
		return fmt.Errorf(`"articles" is not an array: got %s`, textutil.JSONKind(articles))
	}
	out.Articles = make([]Article, 0, PageSize)
	return eachElement(articles, func(i int, elem []byte) error {
		out.Articles = append(out.Articles, Article{})
		if elem[0] != '{' && !bytes.Equal(elem, nullJSON) {
			return fmt.Errorf("article %d is not an object: got %s", i, textutil.JSONKind(elem))
		}
		return decodeArticleTolerant(elem, &out.Articles[i])
	})
}

// isSet reports whether a raw member was present and not null.
func isSet(raw []byte) bool { return len(raw) > 0 && !bytes.Equal(raw, nullJSON) }

// looseString decodes an optional string member; another scalar is kept as
// its JSON text.
func looseString(raw []byte, name string) (string, error) {
	if !isSet(raw) {
		return "", nil
	}
	switch raw[0] {
	case '"':
		return unquote(raw)
	case '{', '[':
		return "", fmt.Errorf("%q is not a string: got %s", name, textutil.JSONKind(raw))
	}
	return string(raw), nil
}

// looseInt decodes an optional count: an integer, an integral float or a
// string holding one.
func looseInt(raw []byte, name string) (int, error) {
	if !isSet(raw) {
		return 0, nil
	}
	s := string(raw)
	if raw[0] == '"' {
		var err error
		if s, err = unquote(raw); err != nil {
			return 0, err
		}
		s = strings.TrimSpace(s)
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return int(f), nil
	}
	kind := textutil.JSONKind(raw)
	switch {
	case kind == "a string":
		kind = "a string not holding an integer"
	case kind == "a number" && err == nil && f != math.Trunc(f):
		kind = "a non-integer number"
	case kind == "a number":
		kind = "a number out of range" // beyond int, or beyond 2^53 as a float
	}
	return 0, fmt.Errorf("%q is not an integer: got %s", name, kind)
}

// decodeError reports a 2xx body that cannot be decoded.
func (c *Client) decodeError(endpoint string, resp *http.Response, body []byte, cause error) error {
	e := c.newAPIError(endpoint, resp, body)
	e.cause = cause
	if isHTML(resp, body) {
		// A captive portal, a proxy's login page, a wrong base URL.
		e.Message = "the answer is an HTML page, not the service's JSON: check the base URL or a proxy (Content-Type " +
			strconv.Quote(excerpt(c.cfg.red, []byte(resp.Header.Get("Content-Type")), maxMessageLen)) + ", page " + strconv.Quote(excerpt(c.cfg.red, []byte(e.Message), maxPageLen)) + ")"
		return e
	}
	e.Message = c.scrub(cause.Error()) + ": the service's answer does not have the documented shape; report it with the request id"
	return e
}

// isHTML reports an answer that is an HTML page: so declared, or starting
// with a tag.
func isHTML(resp *http.Response, body []byte) bool {
	if ct := strings.ToLower(resp.Header.Get("Content-Type")); strings.Contains(ct, "html") {
		return true
	}
	b := bytes.TrimLeft(body, " \t\r\n\ufeff")
	return len(b) > 0 && b[0] == '<'
}

// Members of each endpoint's answer: an answer holding none of them is not
// the endpoint's, whatever its status (e.g. {} from a proxy).
var (
	pageMembers      = []string{"state", "results", "articles", "totalResults", "totalArticles", "query_id", "page", "message"}
	headlinesMembers = []string{"state", "headlines", "message"}
)

// noMembersError reports a JSON object that holds none of the members of
// the endpoint's answer.
func noMembersError(names []string) error {
	return fmt.Errorf("the answer is a JSON object with none of the members of this endpoint's answer (%s): check the base URL or a proxy",
		strings.Join(names, ", "))
}

// hasMember reports whether the JSON object data has a member named as one
// of names (letter case ignored, as encoding/json ignores it).
func hasMember(data []byte, names []string) bool {
	found := false
	_, _ = walkObject(data, jsonscan.SkipSpace(data, 0), func(key []byte, v int) (int, error) {
		if name, err := memberName(key); err == nil && !found {
			found = slices.ContainsFunc(names, func(n string) bool { return keyIs(name, n) })
		}
		return valueEnd(data, v)
	})
	return found
}
