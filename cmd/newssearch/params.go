package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	newssearch "github.com/newssearch/newssearch-go"
)

// searchFlags are the flags mirroring the search parameters.
type searchFlags struct {
	sites       []string
	from, to    string
	since       string
	lang        string
	trafficRank int
	encoded     bool
	embeddings  bool
	keyPhrases  string
	sort        string
	limit       int
	now         string
	async       bool // key phrases and sort are accepted
}

// add registers the flags on cmd; async adds the fields only the
// asynchronous endpoint accepts.
func (f *searchFlags) add(cmd *cobra.Command, async bool) {
	f.async = async
	fl := cmd.Flags()
	fl.StringArrayVar(&f.sites, "site", nil, "keep only articles of this site domain (repeatable, or comma-separated)")
	fl.StringVar(&f.from, "from", "", "earliest publication time: 2025-01-31, RFC 3339, or relative to now (7d, 36h, 2w)")
	fl.StringVar(&f.to, "to", "", "latest publication time, same forms as --from; a date alone covers the whole day")
	fl.StringVar(&f.since, "since", "", "shorthand for --from with a relative time, e.g. --since 7d")
	fl.StringVar(&f.lang, "lang", "", "language: an ISO 639-1 code (en, es...), its English name, or all")
	fl.IntVar(&f.trafficRank, "traffic-rank", 0, "keep sites at or above this traffic percentile, 0..100 (95 keeps the top 5%)")
	fl.BoolVar(&f.encoded, "encoded", false, "only articles with entities and embeddings (toggle_state \"Encoded Articles\")")
	fl.BoolVar(&f.embeddings, "embeddings", false, "ask for each article's embedding vector")
	fl.IntVar(&f.limit, "limit", 0, "print at most this many articles (0: no limit)")
	addNowFlag(cmd, &f.now)
	_ = cmd.RegisterFlagCompletionFunc("lang", fixedCompletion("all", "en", "es", "fr", "de", "it", "pt"))
	_ = cmd.RegisterFlagCompletionFunc("site", cobra.NoFileCompletions)
	for _, n := range []string{"from", "to", "since"} {
		_ = cmd.RegisterFlagCompletionFunc(n, cobra.NoFileCompletions)
	}
	if async {
		fl.StringVar(&f.keyPhrases, "key-phrases", "", "refine with key phrases, e.g. \"('elon' or 'musk') and not 'sam altman'\"")
		fl.StringVar(&f.sort, "sort", "", "result order: relevance (default) or date (newest first)")
		_ = cmd.RegisterFlagCompletionFunc("sort", fixedCompletion("relevance", "date"))
	}
}

// dateSpec is a parsed --from/--to value.
type dateSpec struct {
	t        time.Time
	relative bool // computed from the clock ("7d", "now")
}

// addNowFlag registers --now, which sets the time relative dates count
// from.
func addNowFlag(cmd *cobra.Command, now *string) {
	cmd.Flags().StringVar(now, "now", "", "the time relative dates (7d, now) count from, e.g. 2026-01-15T12:00:00Z (default: this machine's clock)")
	_ = cmd.RegisterFlagCompletionFunc("now", cobra.NoFileCompletions)
}

// parseNow returns the time --now gives (RFC 3339 or a date), or clock
// when it is empty.
func parseNow(flag string, clock time.Time) (time.Time, error) {
	if flag == "" {
		return clock, nil
	}
	d, err := parseDate(flag, clock, false)
	if err != nil || d.relative {
		return time.Time{}, usagef("--now %q: pass a time such as 2026-01-15T12:00:00Z or 2026-01-15 (relative dates count from it)", flag)
	}
	return d.t, nil
}

// params turns the flags into the SDK's parameters; query is the positional
// text and now this machine's clock (--now replaces it).
func (f *searchFlags) params(query string, now time.Time) (newssearch.AsyncSearchParams, dates, error) {
	var p newssearch.AsyncSearchParams
	var d dates
	now, err := parseNow(f.now, now)
	if err != nil {
		return p, d, err
	}
	d.now, d.nowGiven = now, f.now != ""
	if strings.TrimSpace(query) == "" {
		return p, d, usagef("no query: pass the search text as an argument, e.g. newssearch search \"central bank\"")
	}
	p.Query = query
	for _, s := range f.sites {
		for part := range strings.SplitSeq(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				p.Sites = append(p.Sites, part)
			}
		}
	}
	if f.since != "" && f.from != "" {
		return p, d, usagef("--since and --from both set the start: pass one of them")
	}
	from := f.from
	if f.since != "" {
		if _, err := parseRelative(f.since); err != nil {
			return p, d, usagef("--since %q: %v", f.since, err)
		}
		from = f.since
	}
	if from != "" {
		if d.from, err = parseDate(from, now, false); err != nil {
			return p, d, usagef("--from %q: %v", from, err)
		}
		p.StartDate = d.from.t
	}
	if f.to != "" {
		if d.to, err = parseDate(f.to, now, true); err != nil {
			return p, d, usagef("--to %q: %v", f.to, err)
		}
		p.EndDate = d.to.t
	}
	if !p.StartDate.IsZero() && !p.EndDate.IsZero() && p.EndDate.Before(p.StartDate) {
		return p, d, usagef("--to %s is before --from %s: swap them", p.EndDate.Format(time.RFC3339), p.StartDate.Format(time.RFC3339))
	}
	if f.trafficRank < 0 || f.trafficRank > 100 {
		return p, d, usagef("--traffic-rank %d is out of range: pass a percentile from 0 to 100 (95 keeps the top 5%% of sites)", f.trafficRank)
	}
	if f.limit < 0 {
		return p, d, usagef("--limit %d is negative: pass the most articles to print, or 0 for all", f.limit)
	}
	p.TrafficRank = f.trafficRank
	p.Language = newssearch.Language(f.lang)
	p.Embeddings = f.embeddings
	if f.encoded {
		p.ToggleState = newssearch.ToggleEncodedArticles
	}
	if f.keyPhrases != "" {
		if err := checkKeyPhrases(f.keyPhrases); err != nil {
			return p, d, err
		}
	}
	p.KeyPhrases = f.keyPhrases
	switch strings.ToLower(f.sort) {
	case "":
	case "relevance":
		p.SortOrder = newssearch.SortRelevance
	case "date", "date-published", "date published":
		p.SortOrder = newssearch.SortDatePublished
	default:
		return p, d, usagef("--sort %q is not an order: use relevance or date", f.sort)
	}
	return p, d, nil
}

// dates are the parsed bounds, kept to know which were relative, and the
// time relative ones count from.
type dates struct {
	from, to dateSpec
	now      time.Time
	nowGiven bool // --now was given
}

// parseDate reads a date as the flags accept it: YYYY-MM-DD (the start of
// the day, or with endOfDay its last millisecond), RFC 3339, "now", or a
// span before now such as 7d or 36h.
func parseDate(s string, now time.Time, endOfDay bool) (dateSpec, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "now") {
		return dateSpec{t: now.UTC(), relative: true}, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		if endOfDay {
			t = t.Add(24*time.Hour - time.Millisecond)
		}
		return dateSpec{t: t}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return dateSpec{t: t.UTC()}, nil
	}
	if t, err := time.Parse("2006-01-02T15:04", s); err == nil {
		return dateSpec{t: t}, nil
	}
	d, err := parseRelative(s)
	if errors.Is(err, errSpanTooLong) {
		return dateSpec{}, err
	}
	if err != nil {
		return dateSpec{}, fmt.Errorf("not a date: use 2025-01-31, 2025-01-31T09:00:00Z, now, or a span before now such as 7d, 36h or 2w")
	}
	return dateSpec{t: now.UTC().Add(-d), relative: true}, nil
}

// errSpanTooLong reports a span past what a time.Duration holds.
var errSpanTooLong = fmt.Errorf("too long a span: spans go up to %dd (about 292 years)", int64(math.MaxInt64/(24*time.Hour)))

// parseRelative reads a span such as 7d, 36h, 2w, 90m or 1d12h (units w, d,
// h, m, s).
func parseRelative(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty span: use a span such as 7d, 36h or 2w")
	}
	var total time.Duration
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) {
			return 0, fmt.Errorf("%q is not a span: use a number and a unit (w, d, h, m, s), such as 7d or 36h", s)
		}
		n, err := strconv.ParseInt(s[:i], 10, 64)
		var unit time.Duration
		switch s[i] {
		case 'w':
			unit = 7 * 24 * time.Hour
		case 'd':
			unit = 24 * time.Hour
		case 'h':
			unit = time.Hour
		case 'm':
			unit = time.Minute
		case 's':
			unit = time.Second
		default:
			return 0, fmt.Errorf("unit %q is not a unit: use w, d, h, m or s, as in 7d or 36h", s[i:i+1])
		}
		if err != nil || n > int64((math.MaxInt64-total)/unit) {
			return 0, errSpanTooLong
		}
		total += time.Duration(n) * unit
		s = s[i+1:]
	}
	return total, nil
}

// parseSpan reads --window: a span in the units of parseRelative or a Go
// duration.
func parseSpan(s string) (time.Duration, error) {
	d, err := parseRelative(s)
	if err == nil || errors.Is(err, errSpanTooLong) {
		return d, err
	}
	d, err = time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("not a span: use a number and a unit, such as 7d, 24h or 1d12h")
	}
	return d, nil
}

// syncParams checks that params carry nothing the synchronous endpoint
// cannot take and returns them.
func syncParams(p newssearch.AsyncSearchParams) newssearch.SearchParams {
	return p.SearchParams
}
