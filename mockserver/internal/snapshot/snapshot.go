// Package snapshot keeps the mock server's default corpus and its search
// index in a file of the user's cache directory, so that a process other
// than the first on a machine maps them instead of generating and indexing
// 24,000 articles (about 400 ms of CPU and 12,000 page faults).
//
// The file holds the corpus and the index in package blob's form, after a
// header with a CRC-32C of the rest. It is mapped read-only and never
// unmapped: the corpus's strings and the index's arrays point into it, so
// no copy of them is made. Load checks the header's length and the CRC
// over the whole payload before decoding anything, so a cut, damaged or
// foreign file is refused (and Default builds instead) however it was
// damaged. The file must never be changed in place while a process maps it
// (a read past the end of a truncated mapping faults); this package only
// ever renames a new file over it, which leaves existing mappings whole.
// If another program truncates it all the same, Load turns the fault into
// an error, and Faulted lets a server that recovers from the panic of a
// later fault say why.
// The file's name carries the first hex digits of DefaultSum, the SHA-256 of
// what the generator and the indexer of this version write; a version that
// generates other bytes uses another file, and a process only writes the
// file when what it built matches DefaultSum.
//
// The directory is $NEWSSEARCH_MOCK_CACHE, or newssearch-go under
// os.UserCacheDir(); NEWSSEARCH_MOCK_CACHE=off turns the cache off. Any
// failure (no cache directory, a read-only one, a damaged file, a machine
// without mmap or not little-endian) falls back to building, as without a
// cache, and is never an error.
package snapshot

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/newssearch/newssearch-go/mockserver/internal/blob"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// DefaultSum is the SHA-256 of Encode(corpus.Default(), its index). A change
// to the generator, the vocabularies, the analyser, the index or this format
// changes it: TestDefaultSum then fails and prints the new value to put
// here, which also gives the cache file a new name.
const DefaultSum = "770d55e1bcfa29b47eace1f8d3622c6e600c1b78318140022a7f84cae8da37b5"

// EnvCache names the environment variable that sets the cache directory,
// or turns the cache off with the value "off".
const EnvCache = "NEWSSEARCH_MOCK_CACHE"

// magic starts every snapshot file; the last byte is the format version.
var magic = [8]byte{'N', 'S', 'M', 'O', 'C', 'K', 0, 1}

// headerSize is the header's length: magic, payload length, CRC-32C and
// padding that keeps the payload 8-byte aligned.
const headerSize = 24

// castagnoli is the CRC-32C table (hardware-assisted on amd64 and arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Encode writes the corpus and its index to w in the form Decode reads.
func Encode(w io.Writer, c *corpus.Corpus, ix *search.Index) error {
	bw := blob.NewWriter(w)
	if err := c.WriteSnapshot(bw); err != nil {
		return err
	}
	return ix.WriteSnapshot(bw)
}

// Decode reads a corpus and its index written by Encode. They point into
// payload, which must never change afterwards.
func Decode(payload []byte) (*corpus.Corpus, *search.Index, error) { return decode(payload, false) }

// decode is Decode; with mapped, payload is a mapped file that is never
// unmapped while the corpus lives, and the corpus's articles go outside the
// Go heap (corpus.ReadMappedSnapshot), to be released if anything after
// them fails.
func decode(payload []byte, mapped bool) (*corpus.Corpus, *search.Index, error) {
	r, err := blob.NewReader(payload)
	if err != nil {
		return nil, nil, err
	}
	var c *corpus.Corpus
	release := func() {}
	if mapped {
		c, release, err = corpus.ReadMappedSnapshot(r)
	} else {
		c, err = corpus.ReadSnapshot(r)
	}
	if err != nil {
		return nil, nil, err
	}
	done := false
	defer func() {
		if !done { // an error or a panic (a fault reading the mapping)
			release()
		}
	}()
	ix, err := search.ReadSnapshot(c, r)
	if err != nil {
		return nil, nil, err
	}
	if err := r.Done(); err != nil {
		return nil, nil, err
	}
	done = true
	return c, ix, nil
}

// Source says where Default's corpus came from.
type Source int

const (
	// Built means generated and indexed: the cache is off, or the file
	// could not be read and then not written.
	Built Source = iota
	// Stored means generated and indexed, then written to the cache file.
	Stored
	// Mapped means mapped from the cache file.
	Mapped
)

// String returns the source's name: "built", "stored" or "mapped".
func (s Source) String() string {
	switch s {
	case Built:
		return "built"
	case Stored:
		return "stored"
	case Mapped:
		return "mapped"
	}
	return fmt.Sprintf("Source(%d)", int(s))
}

// Default returns the default corpus and its index: mapped from the cache
// file when a valid one exists, or else built and, when the cache is on,
// written there for the next process. The error, if any, says why the cache
// was not used; the corpus and index are valid regardless.
func Default() (*corpus.Corpus, *search.Index, Source, error) {
	build := func() (*corpus.Corpus, *search.Index) {
		c := corpus.Default()
		return c, search.New(c)
	}
	dir, err := Dir()
	if err != nil {
		c, ix := build()
		return c, ix, Built, err
	}
	c, ix, loadErr := Load(filepath.Join(dir, FileName()))
	if loadErr == nil {
		return c, ix, Mapped, nil
	}
	c, ix = build()
	if err := Store(dir, c, ix); err != nil {
		return c, ix, Built, fmt.Errorf("%w; then %w", loadErr, err)
	}
	return c, ix, Stored, nil
}

// Describe says in words where Default's corpus came from, given what
// Default returned: "mapped from <file>", "built, then stored in <file>",
// or "built: <why the cache was not used>".
func Describe(source Source, err error) string {
	path := FileName()
	if dir, derr := Dir(); derr == nil {
		path = filepath.Join(dir, path)
	}
	switch {
	case source == Mapped:
		return "mapped from " + path
	case source == Stored:
		return "built, then stored in " + path
	case err != nil:
		return "built: " + err.Error()
	}
	return "built"
}

// Dir returns the cache directory, or an error saying why the cache is
// off: NEWSSEARCH_MOCK_CACHE is "off", this system's files are not mapped,
// the machine is big-endian, or there is no user cache directory.
func Dir() (string, error) {
	if !canMap {
		return "", errors.New("the cache is off: this system's files are not mapped")
	}
	if !blob.NativeLittleEndian {
		return "", errors.New("the cache is off: this machine is big-endian")
	}
	switch v := os.Getenv(EnvCache); v {
	case "off":
		return "", errors.New("the cache is off: " + EnvCache + "=off")
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("the cache is off: %w; set %s to a directory", err, EnvCache)
		}
		return filepath.Join(base, "newssearch-go"), nil
	default:
		return v, nil
	}
}

// FileName returns the cache file's name for this version's default corpus.
func FileName() string { return "mock-corpus-" + DefaultSum[:16] + ".snap" }

// Load maps the snapshot file at path and decodes it. On any error the
// mapping is released and nothing read from it is returned. A file that
// shrinks while Load reads it is an error too, not a crash (see
// decodeFile); once Load has returned, Faulted tells a fault in the mapping
// from other panics.
func Load(path string) (*corpus.Corpus, *search.Index, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, nil, err
	}
	c, ix, err := decodeFile(data)
	if err != nil {
		unmap()
		return nil, nil, fmt.Errorf("snapshot %s: %w", path, err)
	}
	mapped.Store(&mapping{start: uintptr(unsafe.Pointer(unsafe.SliceData(data))), size: uintptr(len(data)), path: path})
	return c, ix, nil
}

// decodeFile checks a whole file's header and its checksum, then decodes
// it: Decode only ever reads the bytes Store wrote.
//
// The file is mapped, so reading a page the file no longer has (it was
// truncated in place after mapFile measured it) raises SIGBUS, which
// would kill the process; here it panics instead (debug.SetPanicOnFault),
// and that panic, like any other while decoding, is an error, after which
// Default builds the corpus.
func decodeFile(data []byte) (c *corpus.Corpus, ix *search.Index, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			c, ix, err = nil, nil, fmt.Errorf("reading it failed (%v): the file changed while it was read", p)
		}
	}()
	if len(data) < headerSize || !bytes.Equal(data[:len(magic)], magic[:]) {
		return nil, nil, errors.New("not a snapshot of this format")
	}
	payload := data[headerSize:]
	if n := binary.LittleEndian.Uint64(data[8:]); n != uint64(len(payload)) {
		return nil, nil, fmt.Errorf("the header says %d bytes, the file holds %d", n, len(payload))
	}
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(data[16:]) {
		return nil, nil, errors.New("checksum mismatch")
	}
	return decode(payload, true)
}

// mapping is the file Load mapped and returned a corpus from.
type mapping struct {
	start, size uintptr
	path        string
}

// mapped is the mapping Load returned a corpus from, if any (Default loads
// at most one per process).
var mapped atomic.Pointer[mapping]

// Faulted reports whether p, a value recovered from a panic of a goroutine
// that called debug.SetPanicOnFault(true), is a fault reading the file
// that Load mapped, which happens when that file is truncated in place
// while the process runs, and returns the file's path. The corpus and
// index from the file cannot be read whole any more: the process must be
// restarted, and then builds them anew.
func Faulted(p any) (path string, ok bool) {
	e, ok := p.(interface{ Addr() uintptr })
	m := mapped.Load()
	if !ok || m == nil {
		return "", false
	}
	if a := e.Addr(); a >= m.start && a-m.start < m.size {
		return m.path, true
	}
	return "", false
}

// Store writes the snapshot of c and ix to dir under FileName, if their
// bytes match DefaultSum, and removes the files of other versions. The file
// appears whole or not at all (written aside, then renamed), so processes
// storing at once do no harm, and a process that maps the old file keeps
// it whole. It is not synced to disk: a file that a machine crash leaves
// damaged fails Load's checks, and the next process builds and stores it
// again.
func Store(dir string, c *corpus.Corpus, ix *search.Index) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "mock-corpus-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = writeFile(f, c, ix)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, FileName()))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	removeOthers(dir)
	return nil
}

// writeFile writes the header and the payload to f, and fails if the
// payload does not match DefaultSum.
func writeFile(f *os.File, c *corpus.Corpus, ix *search.Index) error {
	var header [headerSize]byte
	if _, err := f.Write(header[:]); err != nil {
		return err
	}
	crc, sum := crc32.New(castagnoli), sha256.New()
	buf := bufio.NewWriterSize(io.MultiWriter(f, crc, sum), 1<<20)
	if err := Encode(buf, c, ix); err != nil {
		return err
	}
	if err := buf.Flush(); err != nil {
		return err
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != DefaultSum {
		return fmt.Errorf("snapshot: the corpus built has SHA-256 %s, not DefaultSum; not stored", got)
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	copy(header[:], magic[:])
	binary.LittleEndian.PutUint64(header[8:], uint64(size-headerSize))
	binary.LittleEndian.PutUint32(header[16:], crc.Sum32())
	_, err = f.WriteAt(header[:], 0)
	return err
}

// removeOthers removes the snapshot files of other versions from dir, and
// temporary files that a killed process left.
func removeOthers(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "mock-corpus-") || name == FileName() {
			continue
		}
		if strings.HasSuffix(name, ".tmp") {
			if info, err := e.Info(); err != nil || info.ModTime().After(staleTmp()) {
				continue // perhaps another process is writing it
			}
		}
		os.Remove(filepath.Join(dir, name))
	}
}

// staleTmp returns the time before which a temporary file is taken as left
// by a process that died while writing it.
func staleTmp() time.Time { return time.Now().Add(-time.Hour) }
