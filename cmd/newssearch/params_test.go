package main

import (
	"testing"
	"time"
)

func TestParseRelative(t *testing.T) {
	t.Parallel()
	const notSpan = " is not a span: use a number and a unit (w, d, h, m, s), such as 7d or 36h"
	const tooLong = "too long a span: spans go up to 106751d (about 292 years)"
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{in: "7d", want: 7 * 24 * time.Hour},
		{in: "36h", want: 36 * time.Hour},
		{in: "2w", want: 14 * 24 * time.Hour},
		{in: "1d12h", want: 36 * time.Hour},
		{in: "90m", want: 90 * time.Minute},
		{in: "45s", want: 45 * time.Second},
		{in: " 7d ", want: 7 * 24 * time.Hour},
		{in: "0d", want: 0},
		{in: "106751d23h", want: (106751*24 + 23) * time.Hour},
		{in: "", err: "empty span: use a span such as 7d, 36h or 2w"},
		{in: "7", err: `"7"` + notSpan},
		{in: "d", err: `"d"` + notSpan},
		{in: "7d5", err: `"5"` + notSpan},
		{in: "-7d", err: `"-7d"` + notSpan},
		{in: "7y", err: `unit "y" is not a unit: use w, d, h, m or s, as in 7d or 36h`},
		{in: "100000w", err: tooLong},
		{in: "106752d", err: tooLong},
		{in: "106751d1d", err: tooLong},
		{in: "99999999999999999999d", err: tooLong},
	} {
		got, err := parseRelative(tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("parseRelative(%q) = %v, %v; want the error %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("parseRelative(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseDate(t *testing.T) {
	t.Parallel()
	const notDate = "not a date: use 2025-01-31, 2025-01-31T09:00:00Z, now, or a span before now such as 7d, 36h or 2w"
	for _, tc := range []struct {
		in       string
		endOfDay bool
		want     time.Time
		relative bool
		err      string
	}{
		{in: "2025-01-31", want: time.Date(2025, 1, 31, 0, 0, 0, 0, time.UTC)},
		{in: "2025-01-31", endOfDay: true, want: time.Date(2025, 1, 31, 23, 59, 59, 999_000_000, time.UTC)},
		{in: "2025-01-31T09:00:00Z", want: time.Date(2025, 1, 31, 9, 0, 0, 0, time.UTC)},
		{in: "2025-01-31T09:00:00+02:00", endOfDay: true, want: time.Date(2025, 1, 31, 7, 0, 0, 0, time.UTC)},
		{in: "2025-01-31T09:00:00.250Z", want: time.Date(2025, 1, 31, 9, 0, 0, 250_000_000, time.UTC)},
		{in: "2025-01-31T09:00", want: time.Date(2025, 1, 31, 9, 0, 0, 0, time.UTC)},
		{in: "now", want: fixedNow, relative: true},
		{in: "NOW", endOfDay: true, want: fixedNow, relative: true},
		{in: "7d", want: fixedNow.Add(-7 * 24 * time.Hour), relative: true},
		{in: "36h", want: fixedNow.Add(-36 * time.Hour), relative: true},
		{in: "1d12h", endOfDay: true, want: fixedNow.Add(-36 * time.Hour), relative: true},
		{in: "yesterday", err: notDate},
		{in: "2025-02-30", err: notDate},
		{in: "31/01/2025", err: notDate},
		{in: "100000w", err: "too long a span: spans go up to 106751d (about 292 years)"},
	} {
		got, err := parseDate(tc.in, fixedNow, tc.endOfDay)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("parseDate(%q) = %v, %v; want the error %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || !got.t.Equal(tc.want) || got.t.Location() != time.UTC || got.relative != tc.relative):
			t.Errorf("parseDate(%q, endOfDay %v) = %v (relative %v), %v; want %v (relative %v)", tc.in, tc.endOfDay, got.t, got.relative, err, tc.want, tc.relative)
		}
	}
}

func TestParseSpan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{in: "7d", want: 7 * 24 * time.Hour},
		{in: "1h30m", want: 90 * time.Minute},
		{in: "1.5h", want: 90 * time.Minute},
		{in: "500ms", want: 500 * time.Millisecond},
		{in: "fortnight", err: "not a span: use a number and a unit, such as 7d, 24h or 1d12h"},
		{in: "200000w", err: "too long a span: spans go up to 106751d (about 292 years)"},
	} {
		got, err := parseSpan(tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("parseSpan(%q) = %v, %v; want the error %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("parseSpan(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}
