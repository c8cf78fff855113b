package main

import (
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver"
)

func TestClockFlag(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		arg  string
		want clockValue
		text string
	}{
		{"real", clockValue{}, "real"},
		{"manual", clockValue{manual: true}, "manual"},
		{"MANUAL=2026-01-15T12:00:00Z", clockValue{manual: true, start: start}, "manual=2026-01-15T12:00:00Z"},
	} {
		cfg, _, err := parseFlags([]string{"-clock", tt.arg}, nil)
		if err != nil {
			t.Fatalf("-clock %s: %v", tt.arg, err)
		}
		if diff := cmp.Diff(tt.want, cfg.clock, cmp.AllowUnexported(clockValue{})); diff != "" || cfg.clock.String() != tt.text {
			t.Errorf("-clock %s: String %q (-want +got):\n%s", tt.arg, cfg.clock.String(), diff)
		}
	}
	for _, tt := range []struct{ arg, want string }{
		{"fake", `invalid value "fake" for flag -clock: use real, manual, or manual=<RFC 3339 time> such as manual=2026-01-15T12:00:00Z`},
		{"real=2026-01-15T12:00:00Z", `invalid value "real=2026-01-15T12:00:00Z" for flag -clock: use real, manual, or manual=<RFC 3339 time> such as manual=2026-01-15T12:00:00Z`},
		{"manual=tomorrow", `invalid value "manual=tomorrow" for flag -clock: the start "tomorrow" is not an RFC 3339 time: write e.g. -clock manual=2026-01-15T12:00:00Z`},
		{"manual=0001-01-01T00:00:00Z", `invalid value "manual=0001-01-01T00:00:00Z" for flag -clock: the start 0001-01-01T00:00:00Z is out of range: ` +
			`the server clock runs from 1970-01-01T00:00:00Z to 9700-01-01T00:00:00Z; write e.g. -clock manual=2026-01-15T12:00:00Z`},
		{"manual=9999-12-31T23:59:59Z", `invalid value "manual=9999-12-31T23:59:59Z" for flag -clock: the start 9999-12-31T23:59:59Z is out of range: ` +
			`the server clock runs from 1970-01-01T00:00:00Z to 9700-01-01T00:00:00Z; write e.g. -clock manual=2026-01-15T12:00:00Z`},
	} {
		_, _, err := parseFlags([]string{"-clock", tt.arg}, nil)
		if err == nil || err.Error() != tt.want {
			t.Errorf("-clock %s: error %v, want %q", tt.arg, err, tt.want)
		}
	}
}

func TestClockFlagMakesAManualClock(t *testing.T) {
	t.Parallel()
	cfg, _, err := parseFlags([]string{"-clock", "manual=2026-01-15T12:00:00Z"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cfg.options(slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	mock, err := mockserver.Start(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Close()
	start := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	if !mock.Now().Equal(start) {
		t.Fatalf("now %v, want the start %v", mock.Now(), start)
	}
	if _, err := mock.SetClock(start.Add(time.Hour)); err != nil {
		t.Fatalf("the clock is not manual: SetClock: %v", err)
	}
}
