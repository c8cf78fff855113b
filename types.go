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

// Language restricts a search to articles in one language: an ISO 639-1
// code such as "en", an English language name, or LanguageAll. The zero
// value means the service default, LanguageAll. The service decides which
// languages it supports and answers an unsupported one with a 400 error
// listing them.
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

// State is the outcome the service reports in a response's "state" field,
// kept exactly as received. Compare with the helper methods, which ignore
// case: the service is only known to send StateSuccess and StatePending, and
// any other non-empty value is a failure.
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

// IsSuccess reports whether s is "SUCCESS" in any case, or empty. An absent
// state can only reach a caller on an HTTP 2xx response (anything else is an
// error), and is treated as success.
func (s State) IsSuccess() bool { return s == "" || strings.EqualFold(string(s), string(StateSuccess)) }

// IsPending reports whether s is "PENDING" in any case.
func (s State) IsPending() bool { return strings.EqualFold(string(s), string(StatePending)) }

// IsFailure reports whether s is neither success nor pending (and not empty).
func (s State) IsFailure() bool { return !s.IsSuccess() && !s.IsPending() }

// Page is one page of results: the answer of Client.Search (QueryID is
// then ""), of Client.GetResults and of Client.Poll. While an asynchronous
// job runs, GetResults answers a page whose State is pending, with no
// articles and no counts: ask again later (Poll does).
type Page struct {
	// QueryID is the asynchronous job the page belongs to, or "" for a
	// synchronous search.
	QueryID string
	// Number is the page number, from 1.
	Number int
	// TotalResults is the number of matching articles over all pages, read
	// from "totalResults" or, when that is absent, "totalArticles".
	TotalResults int
	// Articles holds the page's articles, at most PageSize; none on a page
	// past the end, or while the job is pending.
	Articles []Article
	// State is the state the service reported: StatePending while a job
	// runs, a success otherwise (a failed job is a *JobFailedError).
	State State
	// Message is the service's explanation, when it sends one.
	Message string
}

// TotalPages returns the number of pages TotalResults fills.
func (p *Page) TotalPages() int { return pagesFor(p.TotalResults) }

// QueryJob is the answer to Client.SubmitQuery: the identifier of an
// asynchronous query, whose results Client.Poll waits for and
// Client.GetResults and Client.Results fetch.
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
	// State is the state the service reported (a success; see State).
	State State
}

// HeadlineCluster is a group of articles around one leading topic.
type HeadlineCluster struct {
	// Topic is the cluster's title.
	Topic string `json:"topic"`
	// Count is the size of the cluster; it can exceed len(Articles) because
	// the listed articles may be abbreviated.
	Count int `json:"count"`
	// Articles are the listed articles tied to the topic.
	Articles []HeadlineArticle `json:"articles"`
}

// HeadlineArticle is an article inside a headline cluster.
type HeadlineArticle struct {
	// Category is the article's category, or "" when the service sends null.
	Category string `json:"category"`
	// DatePublished is when the article was published.
	DatePublished Timestamp `json:"datePublished"`
	// Favicon is the URL of the site's icon.
	Favicon string `json:"favicon"`
	// Image holds the article's image URLs (none when the service sends null).
	Image ImageList `json:"image"`
	// Site is the site's domain.
	Site string `json:"site"`
	// Title is the article's title.
	Title string `json:"title"`
	// URL is the article's address.
	URL string `json:"url"`
}

// Article is one search result.
//
// Decoding is tolerant: a field the service sends with an unexpected JSON
// type (for example "entities" as an object) does not fail the response; it
// is left at its zero value and its raw JSON kept in Extra, as is every field
// this type does not know.
type Article struct {
	// ID is the article's identifier (24 lower-case hex characters).
	ID string `json:"_id"`
	// Title is the article's title.
	Title string `json:"title"`
	// Description is the article's summary.
	Description string `json:"description"`
	// BodyText is the article's text.
	BodyText string `json:"bodyText"`
	// URL is the article's address.
	URL string `json:"url"`
	// Site is the site's domain.
	Site string `json:"site"`
	// Image holds the article's image URLs: one for a string, none for null,
	// the elements of an array.
	Image ImageList `json:"image"`
	// Favicon is the URL of the site's icon.
	Favicon string `json:"favicon"`
	// Category is the article's category, or "" when the service sends null.
	Category string `json:"category"`
	// Language is the article's ISO 639-1 language code.
	Language string `json:"language"`
	// DatePublished is when the article was published.
	DatePublished Timestamp `json:"datePublished"`
	// Score is the relevance score (higher is more relevant; >= 0).
	Score float64 `json:"score"`
	// Topics are the article's topics.
	Topics []string `json:"topics"`
	// Sentiment holds the title and description sentiment scores.
	Sentiment Sentiment `json:"sentiment"`
	// Entities are the named entities found in the article; nil when the
	// service sends null.
	Entities []Entity `json:"entities"`
	// EntityRelationships link the article's entities; nil when the service
	// sends null.
	EntityRelationships []EntityRelationship `json:"entity_relationships"`
	// Embeddings is the article's vector, sent only when the search asked for
	// embeddings and the article has one.
	Embeddings []float32 `json:"embeddings"`
	// Extra keeps the raw JSON of every field not decoded above: unknown
	// fields and fields of an unexpected JSON type. It is nil when there are
	// none.
	Extra map[string]json.RawMessage `json:"-"`
}

// Sentiment holds sentiment scores in [-1, 1] (negative below -0.5, positive
// above 0.5).
type Sentiment struct {
	// Title is the sentiment of the title.
	Title float64 `json:"title"`
	// Description is the sentiment of the description.
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
	// Sentiment is the article's sentiment towards the entity, in [-1, 1].
	Sentiment float64 `json:"sentiment"`
	// Confidence is the confidence of the entity link, in [0, 1].
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
	// Confidence is the confidence of the relationship, in [0, 1].
	Confidence float64 `json:"confidence"`
}

// ImageList holds an article's image URLs. The service sends "image" as a
// string, an array of strings or null; all three decode into an ImageList
// (a string as one element; null, "" and [] as none, that is nil).
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

// Timestamp is a date and time sent by the service, with the string it was
// parsed from. The service writes RFC 1123 ("Wed, 13 Nov 2024 01:44:17 GMT"),
// "2006-01-02 15:04:05" (UTC), RFC 3339 with or without a fraction, or
// "2006-01-02"; Time holds the instant in UTC. JSON null decodes to the zero
// Timestamp. A string in none of these forms is kept (see Raw) with a zero
// Time rather than failing the whole response: check IsZero before use.
//
// Time is a named field, not an embedded time.Time, so no method of
// time.Time is promoted: format and compare ts.Time itself
// (a.DatePublished.Time.Format(time.DateOnly)). The string as sent is read
// with Raw and cannot be set apart from Time, so the two never get out of
// sync: Raw, String and every encoding (JSON, text, binary and so gob) give
// the string as sent while it still denotes Time, and Time in RFC 3339 once
// Time was changed. Build a Timestamp from a time with Timestamp{Time: t},
// from a string with ParseTimestamp; decoding sets both.
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

// ParseTimestamp parses s in any of the forms Timestamp understands. It
// returns an error naming the accepted forms when s matches none of them;
// the returned Timestamp then has a zero Time and keeps s for Raw.
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

// UnmarshalJSON decodes a date string or null. A string in an unknown form
// is kept in Raw with a zero Time; only a JSON value that is neither a
// string nor null is an error.
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

// Raw returns the string the service sent while it denotes Time (or Time
// is zero and the string is in no known form), else Time in RFC 3339 (UTC,
// with the fraction it has), and "" for the zero Timestamp. Raw never
// disagrees with Time: after ts.Time is changed, Raw follows it.
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

// IsZero reports whether Time is zero: the service sent no date (Raw is
// "") or one in no known form (Raw holds it).
func (ts Timestamp) IsZero() bool { return ts.Time.IsZero() }

// Equal reports whether ts and u hold the same instant (in whatever zone)
// with the same Raw. Two spellings of one instant ("2025-01-19" and
// "2025-01-19 00:00:00") are not Equal; compare ts.Time.Equal(u.Time) to
// ignore the spelling. go-cmp uses Equal to compare Timestamps.
func (ts Timestamp) Equal(u Timestamp) bool {
	return ts.Time.Equal(u.Time) && ts.Raw() == u.Raw()
}

// setText decodes the encoded form s into ts.
func (ts *Timestamp) setText(s string) {
	t, _ := parseTime(s)
	*ts = Timestamp{Time: t, raw: s}
}

// MarshalJSON writes Raw quoted: the string as sent while it denotes Time
// (so a decoded Timestamp round-trips unchanged), Time in RFC 3339 once
// Time was changed, and null for the zero Timestamp.
func (ts Timestamp) MarshalJSON() ([]byte, error) {
	s := ts.Raw()
	if s == "" {
		return []byte("null"), nil
	}
	return json.Marshal(s)
}

// MarshalText writes Raw ("" for the zero Timestamp).
func (ts Timestamp) MarshalText() ([]byte, error) { return []byte(ts.Raw()), nil }

// UnmarshalText decodes a date string as UnmarshalJSON does; an empty one
// gives the zero Timestamp.
func (ts *Timestamp) UnmarshalText(b []byte) error {
	ts.setText(string(b))
	return nil
}

// MarshalBinary writes the form MarshalText writes. encoding/gob uses it
// (gob does not use MarshalText), so a gob round trip keeps Raw.
func (ts Timestamp) MarshalBinary() ([]byte, error) { return ts.MarshalText() }

// UnmarshalBinary decodes what MarshalBinary writes.
func (ts *Timestamp) UnmarshalBinary(b []byte) error { return ts.UnmarshalText(b) }
