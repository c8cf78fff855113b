package newssearch

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// PageSize is the number of articles on a full page of results. Pages are
// numbered from 1.
const PageSize = 25

// ToggleState selects which articles a search considers. The zero value means
// the service default, ToggleAllArticles.
type ToggleState string

// ToggleState values accepted by the service.
const (
	// ToggleAllArticles searches every article (the service default).
	ToggleAllArticles ToggleState = "All Articles"
	// ToggleEncodedArticles keeps only articles that carry entities and
	// embeddings.
	ToggleEncodedArticles ToggleState = "Encoded Articles"
)

// SortOrder orders the results of an asynchronous query. The zero value
// means the service default, SortRelevance.
type SortOrder string

// SortOrder values accepted by the service.
const (
	// SortRelevance orders by relevance score, highest first (the default).
	SortRelevance SortOrder = "Relevance"
	// SortDatePublished orders by publication date, newest first.
	SortDatePublished SortOrder = "Date Published"
)

// Language restricts a search to one language: an ISO 639-1 code, an
// English language name, or LanguageAll (the default).
type Language string

// Some Language values; any ISO 639-1 code may be used.
const (
	// LanguageAll searches articles in every language (the default).
	LanguageAll Language = "all"
	// LanguageEnglish is English.
	LanguageEnglish Language = "en"
	// LanguageSpanish is Spanish.
	LanguageSpanish Language = "es"
	// LanguageFrench is French.
	LanguageFrench Language = "fr"
	// LanguageGerman is German.
	LanguageGerman Language = "de"
	// LanguageItalian is Italian.
	LanguageItalian Language = "it"
	// LanguagePortuguese is Portuguese.
	LanguagePortuguese Language = "pt"
	// LanguageDutch is Dutch.
	LanguageDutch Language = "nl"
	// LanguageSwedish is Swedish.
	LanguageSwedish Language = "sv"
)

// State is the "state" of an answer, as sent. Compare with the methods,
// which ignore case; a value other than success and pending is a failure.
type State string

// State literals.
const (
	// StateSuccess reports a successful call or a finished query job.
	StateSuccess State = "SUCCESS"
	// StatePending reports a query job that has not finished yet.
	StatePending State = "PENDING"
	// StateFailed is the failure literal this SDK's mock server sends; the
	// real service may send another (see State.IsFailure).
	StateFailed State = "FAILED"
)

// IsSuccess reports whether s is "SUCCESS" in any case, or empty.
func (s State) IsSuccess() bool { return s == "" || strings.EqualFold(string(s), string(StateSuccess)) }

// IsPending reports whether s is "PENDING" in any case.
func (s State) IsPending() bool { return strings.EqualFold(string(s), string(StatePending)) }

// IsFailure reports whether s is neither success nor pending (and not empty).
func (s State) IsFailure() bool { return !s.IsSuccess() && !s.IsPending() }

// Page is one page of results, as Search, GetResults and Poll return it.
// While a job runs, GetResults answers a pending page with no articles.
type Page struct {
	// QueryID is the job the page belongs to ("" for Search).
	QueryID string
	// Number is the page number, from 1.
	Number int
	// TotalResults is the number of matching articles over all pages.
	TotalResults int
	// Articles holds at most PageSize articles.
	Articles []Article
	// State is StatePending while a job runs, else a success.
	State State
	// Message is the service's explanation, when it sends one.
	Message string
}

// TotalPages returns the number of pages TotalResults fills.
func (p *Page) TotalPages() int { return pagesFor(p.TotalResults) }

// QueryJob is the answer to Client.SubmitQuery.
type QueryJob struct {
	// QueryID identifies the job.
	QueryID string
	// State is the state the service reported for the submission.
	State State
}

// HeadlinesResponse is the answer to Client.Headlines.
type HeadlinesResponse struct {
	// Headlines holds the clusters of leading topics.
	Headlines []HeadlineCluster
	// State is the state the service reported.
	State State
}

// HeadlineCluster is a group of articles around one leading topic.
type HeadlineCluster struct {
	// Topic is the cluster's title.
	Topic string `json:"topic"`
	// Count is the size of the cluster; it can exceed len(Articles).
	Count int `json:"count"`
	// Articles are the listed articles tied to the topic.
	Articles []HeadlineArticle `json:"articles"`
}

// HeadlineArticle is an article inside a headline cluster.
type HeadlineArticle struct {
	// Category is "" when the service sends null.
	Category string `json:"category"`
	// DatePublished is when the article was published.
	DatePublished Timestamp `json:"datePublished"`
	// Favicon is the URL of the site's icon.
	Favicon string `json:"favicon"`
	// Image holds the image URLs.
	Image ImageList `json:"image"`
	// Site is the site's domain.
	Site string `json:"site"`
	// Title is the article's title.
	Title string `json:"title"`
	// URL is the article's address.
	URL string `json:"url"`
}

// Article is one search result. A field of an unexpected JSON type does not
// fail the answer: it is left zero and its raw JSON kept in Extra, as is
// every unknown field.
type Article struct {
	// ID is the article's identifier.
	ID string `json:"_id"`
	// Title is the article's title.
	Title string `json:"title"`
	// Description is the summary.
	Description string `json:"description"`
	// BodyText is the text.
	BodyText string `json:"bodyText"`
	// URL is the article's address.
	URL string `json:"url"`
	// Site is the site's domain.
	Site string `json:"site"`
	// Image holds the image URLs.
	Image ImageList `json:"image"`
	// Favicon is the URL of the site's icon.
	Favicon string `json:"favicon"`
	// Category is "" when the service sends null.
	Category string `json:"category"`
	// Language is an ISO 639-1 code.
	Language string `json:"language"`
	// DatePublished is when the article was published.
	DatePublished Timestamp `json:"datePublished"`
	// Score is the relevance (higher is more relevant).
	Score float64 `json:"score"`
	// Topics are the article's topics.
	Topics []string `json:"topics"`
	// Sentiment holds the title's and the description's sentiment.
	Sentiment Sentiment `json:"sentiment"`
	// Entities are the named entities.
	Entities []Entity `json:"entities"`
	// EntityRelationships link the entities.
	EntityRelationships []EntityRelationship `json:"entity_relationships"`
	// Embeddings is the vector, if the search asked for it.
	Embeddings []float32 `json:"embeddings"`
	// Extra keeps the raw JSON of the fields not decoded above.
	Extra map[string]json.RawMessage `json:"-"`
}

// Sentiment holds sentiment scores in [-1, 1].
type Sentiment struct {
	// Title is the title's sentiment.
	Title float64 `json:"title"`
	// Description is the description's sentiment.
	Description float64 `json:"description"`
}

// Entity is a named entity linked to Wikidata.
type Entity struct {
	// Name is the entity's name.
	Name string `json:"name"`
	// Type is the entity's kind, e.g. "PERSON" or "ORGANIZATION".
	Type string `json:"type"`
	// WikidataID is the Wikidata item, e.g. "Q42".
	WikidataID string `json:"wikidata_id"`
	// Sentiment is the article's sentiment towards the entity.
	Sentiment float64 `json:"sentiment"`
	// Confidence is the confidence of the link, in [0, 1].
	Confidence float64 `json:"confidence"`
}

// EntityRelationship links two entities of an article.
type EntityRelationship struct {
	// Source is the name of the first entity.
	Source string `json:"source"`
	// Target is the name of the second entity.
	Target string `json:"target"`
	// Relation describes how Source relates to Target.
	Relation string `json:"relation"`
	// Confidence is the confidence of the link, in [0, 1].
	Confidence float64 `json:"confidence"`
}

// ImageList holds an article's image URLs, decoded from a string, an array
// or null.
type ImageList []string

// First returns the first image URL, or "" when there is none.
func (l ImageList) First() string {
	if len(l) == 0 {
		return ""
	}
	return l[0]
}

// UnmarshalJSON decodes a string, an array of strings or null.
func (l *ImageList) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		s, err := unquote(b)
		if err != nil {
			return err
		}
		if s == "" {
			*l = nil
		} else {
			*l = ImageList{s}
		}
		return nil
	case bytes.Equal(b, nullJSON):
		*l = nil
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*l = nil
	if len(list) > 0 {
		*l = list
	}
	return nil
}

// Timestamp is a date sent by the service, with the string it was parsed
// from (Raw). It reads RFC 1123, "2006-01-02 15:04:05", RFC 3339 and
// "2006-01-02"; Time is in UTC, and zero for null or an unknown form (kept in
// Raw rather than failing the answer). Encodings write Raw, which follows
// Time once Time is changed.
type Timestamp struct {
	// Time is the instant (in UTC when decoded), or zero when the service
	// sent no date or one in no known form.
	Time time.Time
	// raw is the string as the service sent it; read it with Raw, which
	// checks that it still denotes Time.
	raw string
}

// Layouts Timestamp understands, besides RFC 3339.
const (
	layoutRFC1123NoZone = "Mon, 02 Jan 2006 15:04:05"
	layoutSpaced        = "2006-01-02 15:04:05"
	layoutDate          = "2006-01-02"
	layoutNoZone        = "2006-01-02T15:04:05"
)

// ParseTimestamp parses s in any form Timestamp reads; for another, it
// returns an error and a Timestamp keeping s.
func ParseTimestamp(s string) (Timestamp, error) {
	if t, ok := parseTime(s); ok {
		return Timestamp{Time: t, raw: s}, nil
	}
	return Timestamp{raw: s}, &timestampError{raw: s}
}

// timestampError reports a date string in no known form.
type timestampError struct{ raw string }

// Error names the date and the accepted forms.
func (e *timestampError) Error() string {
	return "newssearch: cannot parse date " + quoteShort(e.raw) +
		": use RFC 1123 (\"Wed, 13 Nov 2024 01:44:17 GMT\"), \"2006-01-02 15:04:05\", RFC 3339 or \"2006-01-02\""
}

// parseTime parses the known forms into UTC without allocating for the
// common GMT and Z zones.
func parseTime(s string) (time.Time, bool) {
	var (
		t   time.Time
		err error
	)
	switch {
	case len(s) == len(layoutDate):
		t, err = time.Parse(layoutDate, s)
	case strings.IndexByte(s, ',') > 0:
		if base, ok := strings.CutSuffix(s, " GMT"); ok {
			t, err = time.Parse(layoutRFC1123NoZone, base)
		} else if base, ok := strings.CutSuffix(s, " UTC"); ok {
			t, err = time.Parse(layoutRFC1123NoZone, base)
		} else if t, err = time.Parse(time.RFC1123Z, s); err != nil {
			t, err = time.Parse(time.RFC1123, s)
		}
	case len(s) > 10 && s[10] == ' ':
		t, err = time.Parse(layoutSpaced, s)
	case len(s) > 10 && s[10] == 'T':
		if t, err = time.Parse(time.RFC3339Nano, s); err != nil {
			t, err = time.Parse(layoutNoZone, s)
		}
	default:
		return time.Time{}, false
	}
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// UnmarshalJSON decodes a date string or null.
func (ts *Timestamp) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, nullJSON) {
		*ts = Timestamp{}
		return nil
	}
	if len(b) == 0 || b[0] != '"' {
		return &json.UnmarshalTypeError{Value: "non-string", Type: timestampType}
	}
	s, err := unquote(b)
	if err != nil {
		return err
	}
	ts.setText(s)
	return nil
}

// Raw returns the string sent while it denotes Time, else Time in RFC 3339,
// and "" for the zero Timestamp.
func (ts Timestamp) Raw() string {
	if ts.raw != "" {
		if t, ok := parseTime(ts.raw); ok && t.Equal(ts.Time) || !ok && ts.Time.IsZero() {
			return ts.raw
		}
	}
	if ts.Time.IsZero() {
		return ""
	}
	return ts.Time.UTC().Format(time.RFC3339Nano)
}

// String returns Raw.
func (ts Timestamp) String() string { return ts.Raw() }

// IsZero reports whether Time is zero.
func (ts Timestamp) IsZero() bool { return ts.Time.IsZero() }

// Equal reports whether ts and u hold the same instant with the same Raw
// (go-cmp uses it); compare ts.Time to ignore the spelling.
func (ts Timestamp) Equal(u Timestamp) bool {
	return ts.Time.Equal(u.Time) && ts.Raw() == u.Raw()
}

// setText decodes the encoded form s into ts.
func (ts *Timestamp) setText(s string) {
	t, _ := parseTime(s)
	*ts = Timestamp{Time: t, raw: s}
}

// MarshalJSON writes Raw quoted, or null for the zero Timestamp.
func (ts Timestamp) MarshalJSON() ([]byte, error) {
	s := ts.Raw()
	if s == "" {
		return []byte("null"), nil
	}
	return json.Marshal(s)
}

// MarshalText writes Raw ("" for the zero Timestamp).
func (ts Timestamp) MarshalText() ([]byte, error) { return []byte(ts.Raw()), nil }

// UnmarshalText decodes a date string as UnmarshalJSON does.
func (ts *Timestamp) UnmarshalText(b []byte) error {
	ts.setText(string(b))
	return nil
}

// MarshalBinary writes Raw, for encoding/gob.
func (ts Timestamp) MarshalBinary() ([]byte, error) { return ts.MarshalText() }

// UnmarshalBinary decodes what MarshalBinary writes.
func (ts *Timestamp) UnmarshalBinary(b []byte) error { return ts.UnmarshalText(b) }
