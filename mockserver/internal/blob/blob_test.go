package blob

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRoundTrip writes one section of each kind and reads them back.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Uint32s([]uint32{1, math.MaxUint32, 3})
	w.Int32s([]int32{-1})
	w.Float64s([]float64{math.Inf(-1), 0.1})
	w.Bytes8([]byte("hello"))
	w.Begin(2, 8)
	w.U64(math.MaxUint64)
	w.U64(7)
	w.End()
	w.Uint32s(nil)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	if w.Len() != int64(buf.Len()) || buf.Len()%8 != 0 {
		t.Fatalf("Len %d, %d bytes written; want equal and a multiple of 8", w.Len(), buf.Len())
	}
	r, err := NewReader(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got := []any{r.Uint32s(), r.Int32s(), r.Float64s(), string(r.Bytes8()), r.Int64s(), r.Uint32s()}
	want := []any{[]uint32{1, math.MaxUint32, 3}, []int32{-1}, []float64{math.Inf(-1), 0.1}, "hello", []int64{-1, 7}, []uint32{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-written +read):\n%s", diff)
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
}

// TestReaderErrors reads truncated and overlong blobs.
func TestReaderErrors(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Uint32s([]uint32{1, 2, 3})
	data := buf.Bytes()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"no header", data[:4], "no section header"},
		{"short section", data[:12], "does not fit"},
		{"huge count", append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, data[8:]...), "does not fit"},
	} {
		r, err := NewReader(bytes.Clone(tc.data))
		if err != nil {
			t.Fatal(err)
		}
		if v := r.Uint32s(); len(v) != 0 {
			t.Errorf("%s: read %v", tc.name, v)
		}
		if err := r.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
		r.Float64s() // the error sticks
		if err := r.Done(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Done %v, want the first error", tc.name, err)
		}
	}
	r, _ := NewReader(append(bytes.Clone(data), make([]byte, 8)...))
	r.Uint32s()
	if err := r.Done(); err == nil || !strings.Contains(err.Error(), "8 bytes left") {
		t.Errorf("Done with 8 bytes more: %v", err)
	}
}

// TestWriterMisuse checks that a section written wrongly is an error.
func TestWriterMisuse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		write func(w *Writer)
		want  string
	}{
		{"short", func(w *Writer) { w.Begin(2, 4); w.U32(1); w.End() }, "1 elements short"},
		{"long", func(w *Writer) { w.Begin(1, 4); w.U32(1); w.U32(2); w.End() }, "past its end"},
		{"wrong size", func(w *Writer) { w.Begin(1, 4); w.U64(1); w.End() }, "8-byte element"},
		{"nested", func(w *Writer) { w.Begin(1, 4); w.Begin(1, 4) }, "Begin inside a section"},
		{"raw past the end", func(w *Writer) { w.Begin(2, 1); w.Raw("abc"); w.End() }, "past its end"},
	} {
		w := NewWriter(&bytes.Buffer{})
		tc.write(w)
		if err := w.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
	failing := NewWriter(failWriter{})
	failing.Uint32s(make([]uint32, 20000))
	if err := failing.Err(); !errors.Is(err, errFail) {
		t.Errorf("a failing io.Writer: error %v", err)
	}
}

var errFail = errors.New("disk full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }

// TestStrings lays out strings visited three times: interned ones once,
// others at every visit, an interned string right after its first visit,
// and a long one that bypasses the scratch buffer.
func TestStrings(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 3*scratchSize)
	visits := []struct {
		s      string
		intern bool
	}{{"en", true}, {"en", true}, {"title", false}, {"title", false}, {"", true}, {"en", true}, {long, false}, {"", false}, {"fr", true}}
	var s Strings
	for _, v := range visits {
		s.Visit(v.s, v.intern)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	s.Begin(w)
	for _, v := range visits {
		s.Write(w, v.s, v.intern)
	}
	w.End()
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	r, _ := NewReader(buf.Bytes())
	table := NewStringTable(r.Bytes8())
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
	if got, want := string(table.data), "en"+"title"+"title"+long+"fr"; got != want {
		t.Fatalf("table %.40q..., want %.40q...", got, want)
	}
	s.Rewind()
	for i, v := range visits {
		off, n := s.Ref(v.s, v.intern)
		if got, ok := table.Get(off, n); !ok || got != v.s {
			t.Errorf("visit %d: Ref gives %.20q (%v), want %.20q", i, got, ok, v.s)
		}
	}
	if _, ok := table.Get(uint32(len(table.data)), 1); ok {
		t.Error("Get past the table's end succeeded")
	}
}

// TestAscending checks the start-column check.
func TestAscending(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		starts []uint32
		last   uint32
		want   bool
	}{{nil, 0, true}, {[]uint32{0, 0, 3}, 3, true}, {[]uint32{0, 4}, 3, false}, {[]uint32{2, 1}, 9, false}} {
		if got := Ascending(tc.starts, tc.last); got != tc.want {
			t.Errorf("Ascending(%v, %d) = %v", tc.starts, tc.last, got)
		}
	}
}
