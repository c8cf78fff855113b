package newssearch

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTimestampEncodingsKeepRaw: every encoding of a Timestamp is its own
// (none is promoted from time.Time, which would drop Raw), round-trips
// Time and Raw, and never writes a Raw that no longer denotes Time.
func TestTimestampEncodingsKeepRaw(t *testing.T) {
	t.Parallel()
	decoded, err := ParseTimestamp("Wed, 13 Nov 2024 01:44:17 GMT")
	if err != nil {
		t.Fatal(err)
	}
	changed := decoded
	changed.Time = changed.Time.Add(time.Hour) // Raw is now stale
	unreadable := Timestamp{Raw: "sometime last week"}
	codecs := []struct {
		name string
		enc  func(Timestamp) ([]byte, error)
		dec  func([]byte) (Timestamp, error)
	}{
		{"JSON", func(ts Timestamp) ([]byte, error) { return json.Marshal(ts) },
			func(b []byte) (ts Timestamp, err error) { err = json.Unmarshal(b, &ts); return }},
		{"text", func(ts Timestamp) ([]byte, error) { return encoding.TextMarshaler(ts).MarshalText() },
			func(b []byte) (ts Timestamp, err error) { err = encoding.TextUnmarshaler(&ts).UnmarshalText(b); return }},
		{"text append", func(ts Timestamp) ([]byte, error) { return encoding.TextAppender(ts).AppendText(nil) },
			func(b []byte) (ts Timestamp, err error) { err = ts.UnmarshalText(b); return }},
		{"binary", func(ts Timestamp) ([]byte, error) { return encoding.BinaryMarshaler(ts).MarshalBinary() },
			func(b []byte) (ts Timestamp, err error) {
				err = encoding.BinaryUnmarshaler(&ts).UnmarshalBinary(b)
				return
			}},
		{"binary append", func(ts Timestamp) ([]byte, error) { return encoding.BinaryAppender(ts).AppendBinary(nil) },
			func(b []byte) (ts Timestamp, err error) { err = ts.UnmarshalBinary(b); return }},
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
		{"Time changed after decoding", changed, Timestamp{Time: changed.Time, Raw: "2024-11-13T02:44:17Z"}},
		{"unreadable Raw", unreadable, unreadable},
		{"built from a time", Timestamp{Time: time.Date(2025, 3, 1, 9, 0, 0, 5e6, time.UTC)},
			Timestamp{Time: time.Date(2025, 3, 1, 9, 0, 0, 5e6, time.UTC), Raw: "2025-03-01T09:00:00.005Z"}},
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
