// Package blob writes and reads the flat binary form in which the mock
// server caches its default corpus and index between processes (package
// snapshot).
//
// A blob is a sequence of sections, each an 8-byte little-endian element
// count followed by the elements and padded to 8 bytes. A Reader hands the
// sections back without copying: slices and strings point into the blob's
// bytes, which therefore must never change or go away while they are used
// (a read-only mapping of a file that is never unmapped, or a heap slice
// nobody writes to). Numbers are stored little-endian, so the views are only
// offered on little-endian machines (NativeLittleEndian); elsewhere the
// cache is not used.
package blob

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"
)

// NativeLittleEndian reports whether this machine stores numbers
// little-endian, as blobs do. Readers refuse to work elsewhere.
var NativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// align is the alignment of every section.
const align = 8

// Writer writes a blob to an io.Writer as it goes: it never holds the
// blob in memory. Its first write error sticks; later writes do nothing.
type Writer struct {
	w       io.Writer
	n       int64
	scratch []byte
	err     error

	open, left int // the open section's element size, and elements left
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Err returns the first write error, if any.
func (w *Writer) Err() error { return w.err }

// Len returns how many bytes were written.
func (w *Writer) Len() int64 { return w.n }

// write writes p, unless an earlier write failed.
func (w *Writer) write(p []byte) {
	if w.err != nil || len(p) == 0 {
		return
	}
	n, err := w.w.Write(p)
	w.n += int64(n)
	w.err = err
}

// scratchSize is how much a Writer encodes before it writes.
const scratchSize = 32 << 10

// Begin starts a section of n elements of size bytes each (1, 4 or 8),
// which the calls that follow write one by one and End closes. The slice
// methods (Uint32s and the others) do all three.
func (w *Writer) Begin(n, size int) {
	if w.open != 0 && w.err == nil {
		w.err = errors.New("blob: Begin inside a section")
	}
	w.scratch = binary.LittleEndian.AppendUint64(w.scratch, uint64(n))
	w.open, w.left = size, n
}

// element accounts for one element of the open section.
func (w *Writer) element(size int) {
	if w.err == nil && (w.open != size || w.left == 0) {
		w.err = fmt.Errorf("blob: a %d-byte element outside a section of %d-byte elements or past its end", size, w.open)
	}
	w.left--
	if len(w.scratch) >= scratchSize {
		w.write(w.scratch)
		w.scratch = w.scratch[:0]
	}
}

// U32 writes a 4-byte element: a uint32, or an int32 converted.
func (w *Writer) U32(x uint32) {
	w.scratch = binary.LittleEndian.AppendUint32(w.scratch, x)
	w.element(4)
}

// U64 writes an 8-byte element: a uint64, or an int64 converted.
func (w *Writer) U64(x uint64) {
	w.scratch = binary.LittleEndian.AppendUint64(w.scratch, x)
	w.element(8)
}

// F64 writes a float64 element, bit for bit.
func (w *Writer) F64(x float64) { w.U64(math.Float64bits(x)) }

// Raw writes bytes of a section of bytes.
func (w *Writer) Raw(p string) {
	if w.err == nil && (w.open != 1 || w.left < len(p)) {
		w.err = fmt.Errorf("blob: %d bytes outside a section of bytes or past its end", len(p))
	}
	w.left -= len(p)
	if len(w.scratch)+len(p) <= scratchSize {
		w.scratch = append(w.scratch, p...)
		return
	}
	w.write(w.scratch)
	w.scratch = w.scratch[:0]
	if len(p) < scratchSize {
		w.scratch = append(w.scratch, p...)
		return
	}
	if w.err == nil {
		n, err := io.WriteString(w.w, p)
		w.n += int64(n)
		w.err = err
	}
}

// End closes the open section, padding it to the alignment, and writes
// what the Writer holds.
func (w *Writer) End() {
	if w.err == nil && w.left != 0 {
		w.err = fmt.Errorf("blob: a section ended %d elements short", w.left)
	}
	for (w.n+int64(len(w.scratch)))%align != 0 {
		w.scratch = append(w.scratch, 0)
	}
	w.write(w.scratch)
	w.scratch = w.scratch[:0]
	w.open, w.left = 0, 0
}

// Uint32s writes a section of uint32 values.
func (w *Writer) Uint32s(v []uint32) { write32(w, v) }

// Int32s writes a section of int32 values.
func (w *Writer) Int32s(v []int32) { write32(w, v) }

// write32 writes a section of 4-byte values.
func write32[T uint32 | int32](w *Writer, v []T) {
	w.Begin(len(v), 4)
	for _, x := range v {
		w.U32(uint32(x))
	}
	w.End()
}

// Float64s writes a section of float64 values, bit for bit.
func (w *Writer) Float64s(v []float64) {
	w.Begin(len(v), 8)
	for _, x := range v {
		w.F64(x)
	}
	w.End()
}

// Bytes8 writes a section of bytes.
func (w *Writer) Bytes8(v []byte) {
	w.Begin(len(v), 1)
	w.write(w.scratch) // the count, then v as it is: no copy
	w.scratch = w.scratch[:0]
	w.write(v)
	w.left = 0
	w.End()
}

// Reader reads a blob's sections in the order they were written. Its
// methods return an error, never panic, when the blob is shorter than a
// section says; the error sticks, and later reads return empty values.
type Reader struct {
	data []byte
	off  int
	err  error
}

// NewReader returns a Reader over data. data must stay unchanged for as long
// as anything read from it is in use.
func NewReader(data []byte) (*Reader, error) {
	if !NativeLittleEndian {
		return nil, errors.New("blob: this machine is not little-endian")
	}
	if len(data) > 0 && uintptr(unsafe.Pointer(&data[0]))%align != 0 {
		return nil, errors.New("blob: data is not 8-byte aligned")
	}
	return &Reader{data: data}, nil
}

// Err returns the first error met, if any.
func (r *Reader) Err() error { return r.err }

// Done returns the first error met, or an error if bytes are left over.
func (r *Reader) Done() error {
	if r.err == nil && r.off != len(r.data) {
		r.err = fmt.Errorf("blob: %d bytes left after the last section", len(r.data)-r.off)
	}
	return r.err
}

// section returns the next section's bytes, size bytes per element.
func (r *Reader) section(size int) (n int, p []byte) {
	if r.err != nil {
		return 0, nil
	}
	if len(r.data)-r.off < 8 {
		r.err = fmt.Errorf("blob: truncated at byte %d: no section header", r.off)
		return 0, nil
	}
	count := binary.LittleEndian.Uint64(r.data[r.off:])
	start := r.off + 8
	if count > uint64(len(r.data)-start)/uint64(size) {
		r.err = fmt.Errorf("blob: truncated at byte %d: a section of %d elements of %d bytes does not fit", r.off, count, size)
		return 0, nil
	}
	n = int(count)
	end := start + n*size
	r.off = min(len(r.data), (end+align-1)/align*align)
	return n, r.data[start:end:end]
}

// view returns the next section as values of T, without copying.
func view[T uint32 | int32 | int64 | float64](r *Reader) []T {
	var zero T
	n, p := r.section(int(unsafe.Sizeof(zero)))
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&p[0])), n)
}

// Uint32s returns the next section as uint32 values, without copying.
func (r *Reader) Uint32s() []uint32 { return view[uint32](r) }

// Int32s returns the next section as int32 values, without copying.
func (r *Reader) Int32s() []int32 { return view[int32](r) }

// Int64s returns the next section as int64 values, without copying.
func (r *Reader) Int64s() []int64 { return view[int64](r) }

// Float64s returns the next section as float64 values, without copying.
func (r *Reader) Float64s() []float64 { return view[float64](r) }

// Bytes8 returns the next section's bytes, without copying.
func (r *Reader) Bytes8() []byte {
	_, p := r.section(1)
	if p == nil {
		return []byte{}
	}
	return p
}

// Strings lays out a section of strings that a writer visits twice or more
// in the same order: first to measure (Visit on a fresh Strings, which
// assigns every string its place), then to write (Begin, Write) and to
// refer (Rewind, Ref). A string visited with intern set is stored once
// however often it is visited; the others are stored at every visit. The
// strings are never copied. WriteStrings does the whole sequence.
type Strings struct {
	size     uint64
	interned map[string]uint32
	pos      uint64 // replay position
	err      error
}

// Visit is the measuring visit of s.
func (s *Strings) Visit(str string, intern bool) {
	if intern {
		if _, ok := s.interned[str]; ok {
			return
		}
		if s.interned == nil {
			s.interned = map[string]uint32{}
		}
		s.interned[str] = uint32(s.size)
	}
	s.size += uint64(len(str))
	if s.size > math.MaxUint32 && s.err == nil {
		s.err = errors.New("blob: more than 4 GiB of strings")
	}
}

// Err reports a table too large to lay out.
func (s *Strings) Err() error { return s.err }

// Rewind starts a replay: the visits after it must repeat the measuring
// visits, in order.
func (s *Strings) Rewind() { s.pos = 0 }

// Ref is a replayed visit of s: it returns where s is stored.
func (s *Strings) Ref(str string, intern bool) (off, n uint32) {
	off, _ = s.place(str, intern)
	return off, uint32(len(str))
}

// place is a replayed visit of str: where it is stored, and whether it is
// stored at this visit.
func (s *Strings) place(str string, intern bool) (off uint32, here bool) {
	if intern {
		if at := s.interned[str]; uint64(at) != s.pos {
			// Stored at its first visit: a later one finds the position
			// past it (an empty string is nowhere, and anywhere).
			return at, false
		}
	}
	off = uint32(s.pos)
	s.pos += uint64(len(str))
	return off, true
}

// Begin starts the section of strings on w; a replay of the visits with
// Write then fills it, and End closes it.
func (s *Strings) Begin(w *Writer) {
	s.Rewind()
	w.Begin(int(s.size), 1)
}

// Write is a replayed visit of str that writes it to w where it belongs.
func (s *Strings) Write(w *Writer, str string, intern bool) {
	if _, here := s.place(str, intern); here {
		w.Raw(str)
	}
}

// StringColumn is a column of string references for WriteStrings: Refs
// strings, which Visit passes to f in order, each saying whether it repeats
// (intern) or is stored at every visit.
type StringColumn struct {
	Refs  int
	Visit func(f func(s string, intern bool))
}

// WriteStrings writes the strings of cols as one section, then, column by
// column, a section of their references: an offset and a length (uint32)
// per string, which StringTable.Get takes.
func WriteStrings(w *Writer, cols ...StringColumn) error {
	var strs Strings
	for _, col := range cols {
		col.Visit(strs.Visit)
	}
	if err := strs.Err(); err != nil {
		return err
	}
	strs.Begin(w)
	for _, col := range cols {
		col.Visit(func(s string, intern bool) { strs.Write(w, s, intern) })
	}
	w.End()
	strs.Rewind()
	for _, col := range cols {
		w.Begin(2*col.Refs, 4)
		col.Visit(func(s string, intern bool) {
			off, n := strs.Ref(s, intern)
			w.U32(off)
			w.U32(n)
		})
		w.End()
	}
	return w.Err()
}

// StringTable reads the strings of a section written by WriteStrings.
type StringTable struct {
	data []byte
}

// NewStringTable returns the table over a section read by Reader.Bytes8.
func NewStringTable(data []byte) StringTable { return StringTable{data} }

// Get returns the string at off with length n, without copying, or false if
// it lies outside the table.
func (t StringTable) Get(off, n uint32) (string, bool) {
	if uint64(off)+uint64(n) > uint64(len(t.data)) {
		return "", false
	}
	if n == 0 {
		return "", true
	}
	return unsafe.String(&t.data[off], int(n)), true
}

// Ascending reports whether starts never decrease and end with at most
// last: the check a column of section starts must pass before it is used to
// cut another column.
func Ascending(starts []uint32, last uint32) bool {
	for i := 1; i < len(starts); i++ {
		if starts[i] < starts[i-1] {
			return false
		}
	}
	return len(starts) == 0 || starts[len(starts)-1] <= last
}
