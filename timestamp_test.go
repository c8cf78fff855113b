package newssearch

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTimestampEncodingsKeepRaw: every encoding of a Timestamp (JSON, text,
// binary, and gob through the binary form) is its own (none is promoted from
// time.Time, which would drop Raw), round-trips Time and Raw, and never
// writes a Raw that no longer denotes Time.
func TestTimestampEncodingsKeepRaw(t *testing.T) {
	t.Parallel()
	decoded, err := ParseTimestamp("Wed, 13 Nov 2024 01:44:17 GMT")
	if err != nil {
		t.Fatal(err)
	}
	changed := decoded
	changed.Time = changed.Time.Add(time.Hour) // Raw is now stale
	unreadable := Timestamp{raw: "sometime last week"}
	codecs := []struct {
		name string
		enc  func(Timestamp) ([]byte, error)
		dec  func([]byte) (Timestamp, error)
	}{
		{"JSON", func(ts Timestamp) ([]byte, error) { return json.Marshal(ts) },
			func(b []byte) (ts Timestamp, err error) { err = json.Unmarshal(b, &ts); return }},
		{"text", func(ts Timestamp) ([]byte, error) { return encoding.TextMarshaler(ts).MarshalText() },
			func(b []byte) (ts Timestamp, err error) { err = encoding.TextUnmarshaler(&ts).UnmarshalText(b); return }},
		{"binary", func(ts Timestamp) ([]byte, error) { return encoding.BinaryMarshaler(ts).MarshalBinary() },
			func(b []byte) (ts Timestamp, err error) {
				err = encoding.BinaryUnmarshaler(&ts).UnmarshalBinary(b)
				return
			}},
		{"gob", func(ts Timestamp) ([]byte, error) {
			var buf bytes.Buffer
			err := gob.NewEncoder(&buf).Encode(ts)
			return buf.Bytes(), err
		}, func(b []byte) (ts Timestamp, err error) { err = gob.NewDecoder(bytes.NewReader(b)).Decode(&ts); return }},
	}
	cases := []struct {
		name string
		in   Timestamp
		want Timestamp
	}{
		{"decoded", decoded, decoded},
		{"Time changed after decoding", changed, Timestamp{Time: changed.Time, raw: "2024-11-13T02:44:17Z"}},
		{"unreadable Raw", unreadable, unreadable},
		{"built from a time", Timestamp{Time: time.Date(2025, 3, 1, 9, 0, 0, 5e6, time.UTC)},
			Timestamp{Time: time.Date(2025, 3, 1, 9, 0, 0, 5e6, time.UTC), raw: "2025-03-01T09:00:00.005Z"}},
		{"zero", Timestamp{}, Timestamp{}},
	}
	for _, codec := range codecs {
		for _, tc := range cases {
			b, err := codec.enc(tc.in)
			if err != nil {
				t.Errorf("%s: encoding %s: %v", codec.name, tc.name, err)
				continue
			}
			got, err := codec.dec(b)
			if err != nil {
				t.Errorf("%s: decoding %s (%q): %v", codec.name, tc.name, b, err)
				continue
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s round trip of %s (-want +got):\n%s", codec.name, tc.name, diff)
			}
		}
	}
}

// TestTimestampHasNoPromotedMethods: Time is a named field, not an embedded
// one, so no method of time.Time (Format, Before, MarshalText, GobEncode...)
// is promoted to Timestamp; its method set is exactly its own.
func TestTimestampHasNoPromotedMethods(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[Timestamp]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.Anonymous {
			t.Errorf("Timestamp embeds %s; want only named fields", f.Type)
		}
	}
	var got []string
	ptr := reflect.PointerTo(typ)
	for i := range ptr.NumMethod() {
		got = append(got, ptr.Method(i).Name)
	}
	// Gob uses MarshalBinary (it never uses MarshalText: golang/go#6760),
	// so that one stays; AppendText, AppendBinary and the Gob pair do not.
	want := []string{"Equal", "IsZero", "MarshalBinary", "MarshalJSON", "MarshalText", "Raw", "String", "UnmarshalBinary", "UnmarshalJSON", "UnmarshalText"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("*Timestamp's methods (-want +got):\n%s", diff)
	}
}

// TestTimestampRawFollowsTime: Raw is the string as sent while it denotes
// Time, and Time's own RFC 3339 form as soon as Time is changed, so the two
// can never disagree, whichever way the Timestamp was made.
func TestTimestampRawFollowsTime(t *testing.T) {
	t.Parallel()
	sent, err := ParseTimestamp("Wed, 13 Nov 2024 01:44:17 GMT")
	if err != nil {
		t.Fatal(err)
	}
	changed := sent
	changed.Time = changed.Time.Add(90 * time.Minute)
	moved := sent
	moved.Time = moved.Time.In(time.FixedZone("UTC+2", 2*3600)) // same instant
	unreadable, _ := ParseTimestamp("sometime last week")
	dated := unreadable
	dated.Time = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	var fromJSON Timestamp
	if err := json.Unmarshal([]byte(`"2025-01-19 01:04:00"`), &fromJSON); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		ts      Timestamp
		wantRaw string
		zero    bool
	}{
		{"as sent", sent, "Wed, 13 Nov 2024 01:44:17 GMT", false},
		{"Time changed", changed, "2024-11-13T03:14:17Z", false},
		{"same instant in another zone", moved, "Wed, 13 Nov 2024 01:44:17 GMT", false},
		{"unreadable", unreadable, "sometime last week", true},
		{"unreadable, then dated", dated, "2025-03-01T09:00:00Z", false},
		{"built from a time", Timestamp{Time: time.Date(2025, 3, 1, 9, 0, 0, 5e6, time.UTC)}, "2025-03-01T09:00:00.005Z", false},
		{"decoded from JSON", fromJSON, "2025-01-19 01:04:00", false},
		{"zero", Timestamp{}, "", true},
	}
	for _, tt := range tests {
		if got := tt.ts.Raw(); got != tt.wantRaw {
			t.Errorf("%s: Raw() = %q, want %q", tt.name, got, tt.wantRaw)
		}
		if got := tt.ts.String(); got != tt.wantRaw {
			t.Errorf("%s: String() = %q, want %q", tt.name, got, tt.wantRaw)
		}
		if got := fmt.Sprint(tt.ts); got != tt.wantRaw {
			t.Errorf("%s: fmt.Sprint = %q, want %q", tt.name, got, tt.wantRaw)
		}
		if got := tt.ts.IsZero(); got != tt.zero {
			t.Errorf("%s: IsZero() = %v, want %v", tt.name, got, tt.zero)
		}
		b, err := json.Marshal(tt.ts)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		wantJSON := "null"
		if tt.wantRaw != "" {
			wantJSON = strconv.Quote(tt.wantRaw)
		}
		if string(b) != wantJSON {
			t.Errorf("%s: json.Marshal = %s, want %s", tt.name, b, wantJSON)
		}
	}
}

// TestTimestampEqual: Equal compares the instant and Raw (so go-cmp, which
// uses it, sees a different spelling of the same instant), ignoring the
// zone Time is held in.
func TestTimestampEqual(t *testing.T) {
	t.Parallel()
	a, _ := ParseTimestamp("2025-01-19 00:00:00")
	b, _ := ParseTimestamp("2025-01-19")
	a2 := a
	a2.Time = a2.Time.In(time.FixedZone("UTC-5", -5*3600))
	x, _ := ParseTimestamp("soon")
	y, _ := ParseTimestamp("later")
	tests := []struct {
		name string
		a, b Timestamp
		want bool
	}{
		{"same", a, a, true},
		{"same instant, other zone", a, a2, true},
		{"same instant, other spelling", a, b, false},
		{"built from the same time", Timestamp{Time: a.Time}, Timestamp{Time: a2.Time}, true},
		{"two unreadable strings", x, y, false},
		{"unreadable and zero", x, Timestamp{}, false},
		{"zero", Timestamp{}, Timestamp{}, true},
	}
	for _, tt := range tests {
		if got := tt.a.Equal(tt.b); got != tt.want {
			t.Errorf("%s: %v.Equal(%v) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
		if got := cmp.Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: cmp.Equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}
