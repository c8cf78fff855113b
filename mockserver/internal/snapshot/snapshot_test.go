package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
)

// built is the default corpus and its index, built once for these tests.
var built = sync.OnceValues(func() (*corpus.Corpus, *search.Index) {
	c := corpus.Default()
	return c, search.New(c)
})

// encoded is Encode of built, once.
var encoded = sync.OnceValues(func() ([]byte, error) {
	c, ix := built()
	var buf bytes.Buffer
	err := Encode(&buf, c, ix)
	return buf.Bytes(), err
})

// TestDefaultSum holds DefaultSum to what this version's generator and
// indexer write: when it fails, the message gives the value to put in
// snapshot.go.
func TestDefaultSum(t *testing.T) {
	t.Parallel()
	payload, err := encoded()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(payload)
	if got := hex.EncodeToString(sum[:]); got != DefaultSum {
		t.Fatalf("the default corpus and index now encode to %d bytes with SHA-256 %s, but DefaultSum is %s: "+
			"if the generator, the analyser, the index or the snapshot format changed on purpose, set DefaultSum to the new value",
			len(payload), got, DefaultSum)
	}
}

// TestDecodeGivesTheBuiltCorpus decodes the encoded default corpus and
// finds every article, site and language as built.
func TestDecodeGivesTheBuiltCorpus(t *testing.T) {
	t.Parallel()
	payload, err := encoded()
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := Decode(payload)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := built()
	if !reflect.DeepEqual(want, c) {
		t.Fatal("the decoded corpus differs from the one encoded")
	}
}

// TestDefaultStoresThenMaps checks the cache's life: the first Default
// builds and stores, the next maps the same corpus, and Load reads it.
func TestDefaultStoresThenMaps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	t.Setenv(EnvCache, dir)
	want, _ := built()
	for i, wantSource := range []Source{Stored, Mapped} {
		c, ix, source, err := Default()
		if source != wantSource || err != nil {
			t.Fatalf("Default #%d: source %v, error %v; want source %v and no error", i+1, source, err, wantSource)
		}
		if ix == nil || !reflect.DeepEqual(want, c) {
			t.Fatalf("Default #%d (%v): the corpus differs from the one built", i+1, source)
		}
	}
	if _, _, err := Load(filepath.Join(dir, FileName())); err != nil {
		t.Fatal(err)
	}
}

// TestCacheOff checks that NEWSSEARCH_MOCK_CACHE=off builds and writes
// nothing.
func TestCacheOff(t *testing.T) {
	t.Setenv(EnvCache, "off")
	const want = "the cache is off: NEWSSEARCH_MOCK_CACHE=off"
	if dir, err := Dir(); dir != "" || err == nil || err.Error() != want {
		t.Fatalf("Dir() = %q, %v with the cache off; want %q", dir, err, want)
	}
	c, ix, source, err := Default()
	if source != Built || err == nil || err.Error() != want || c == nil || ix == nil {
		t.Fatalf("Default: source %v, error %v; want Built, a corpus and %q", source, err, want)
	}
}

// TestUnwritableCacheBuilds checks that a cache directory that cannot be
// made leaves a working corpus and an error saying why.
func TestUnwritableCacheBuilds(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvCache, file)
	c, ix, source, err := Default()
	if source != Built || err == nil || c == nil || ix == nil {
		t.Fatalf("Default: source %v, error %v; want Built with an error", source, err)
	}
	if !strings.Contains(err.Error(), "not-a-dir") {
		t.Errorf("error %q does not name the directory", err)
	}
}

// TestDamagedFileIsRefusedAndReplaced damages a stored file in three ways:
// Load refuses each with a reason, and Default then stores a good file.
func TestDamagedFileIsRefusedAndReplaced(t *testing.T) {
	dir := t.TempDir()
	c, ix := built()
	if err := Store(dir, c, ix); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName())
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"one bit flipped", "checksum mismatch", flipped},
		{"truncated", "the header says", good[:len(good)-100]},
		{"another file", "not a snapshot of this format", []byte("{\"not\": \"a snapshot\"}")},
		{"empty", "size 0 cannot be mapped", nil},
		{"only the header", "the header says", good[:headerSize]},
		{"header cut", "not a snapshot of this format", good[:headerSize-1]},
		{"zeros", "not a snapshot of this format", make([]byte, len(good))},
	} {
		if err := os.WriteFile(path, tc.data, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Load(path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Load error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
	t.Setenv(EnvCache, dir)
	if _, _, source, err := Default(); source != Stored || err != nil {
		t.Fatalf("Default over a damaged file: source %v, error %v; want Stored", source, err)
	}
	if _, _, err := Load(path); err != nil {
		t.Fatalf("the replaced file: %v", err)
	}
}

// TestStoreRemovesOtherVersions checks what Store clears from the
// directory: other versions' files and stale temporary files, nothing else.
func TestStoreRemovesOtherVersions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	names := []string{"mock-corpus-0123456789abcdef.snap", "mock-corpus-1.tmp", "mock-corpus-2.tmp", "notes.txt"}
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := staleTmp().Add(-time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "mock-corpus-1.tmp"), old, old); err != nil {
		t.Fatal(err)
	}
	c, ix := built()
	if err := Store(dir, c, ix); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{FileName(), "mock-corpus-2.tmp", "notes.txt"}
	slices.Sort(want)
	if !slices.Equal(want, got) {
		t.Fatalf("after Store the directory holds %v, want %v", got, want)
	}
}

// TestDamagedPayloadNeverPanics decodes truncated and altered payloads:
// each gives an error or a corpus, never a panic.
func TestDamagedPayloadNeverPanics(t *testing.T) {
	t.Parallel()
	payload, err := encoded()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 7, 8, 9, 64, len(payload) / 3, len(payload) / 2, len(payload) - 8, len(payload) - 1} {
		if _, _, err := Decode(payload[:n]); err == nil {
			t.Errorf("Decode of the first %d of %d bytes: no error", n, len(payload))
		}
	}
	altered := bytes.Clone(payload)
	r := rand.New(rand.NewPCG(1, 2))
	for range 24 {
		i := r.IntN(len(altered))
		old := altered[i]
		altered[i] ^= byte(1 + r.IntN(255))
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("Decode with byte %d altered panicked: %v", i, p)
				}
			}()
			Decode(altered)
		}()
		altered[i] = old
	}
}

// TestDecodeRefusesTrailingBytes checks that bytes after the last section
// are an error, not ignored.
func TestDecodeRefusesTrailingBytes(t *testing.T) {
	t.Parallel()
	payload, err := encoded()
	if err != nil {
		t.Fatal(err)
	}
	longer := append(bytes.Clone(payload), make([]byte, 8)...)
	if _, _, err := Decode(longer); err == nil || !strings.Contains(err.Error(), "8 bytes left") {
		t.Fatalf("Decode with 8 bytes more: error %v, want one saying 8 bytes are left", err)
	}
}

// TestDirFollowsTheUserCacheDir checks where the file goes without
// NEWSSEARCH_MOCK_CACHE, and the error when there is nowhere to put it.
func TestDirFollowsTheUserCacheDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("os.UserCacheDir reads XDG_CACHE_HOME and HOME on Linux only")
	}
	t.Setenv(EnvCache, "")
	base := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", base)
	if dir, err := Dir(); err != nil || dir != filepath.Join(base, "newssearch-go") {
		t.Errorf("Dir() = %q, %v; want %q", dir, err, filepath.Join(base, "newssearch-go"))
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if dir, err := Dir(); dir != "" || err == nil || !strings.Contains(err.Error(), "set NEWSSEARCH_MOCK_CACHE to a directory") {
		t.Errorf("Dir() without HOME = %q, %v; want an error saying to set NEWSSEARCH_MOCK_CACHE", dir, err)
	}
}

// TestDescribe checks the words Default's outcome is told in.
func TestDescribe(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvCache, dir)
	file := filepath.Join(dir, FileName())
	for _, tc := range []struct {
		source Source
		err    error
		want   string
	}{
		{Mapped, nil, "mapped from " + file},
		{Stored, nil, "built, then stored in " + file},
		{Built, errors.New("the cache is off: NEWSSEARCH_MOCK_CACHE=off"), "built: the cache is off: NEWSSEARCH_MOCK_CACHE=off"},
	} {
		if got := Describe(tc.source, tc.err); got != tc.want {
			t.Errorf("Describe(%v, %v) = %q, want %q", tc.source, tc.err, got, tc.want)
		}
	}
}

// TestFileTruncatedWhileLoading truncates the file after it is mapped and
// before it is read, as another program writing it in place would: the
// reads past the new end fault, and decodeFile turns that into an error
// instead of letting SIGBUS kill the process.
func TestFileTruncatedWhileLoading(t *testing.T) {
	t.Parallel()
	if !canMap {
		t.Skip("files are not mapped on this system")
	}
	dir := t.TempDir()
	c, ix := built()
	if err := Store(dir, c, ix); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName())
	data, unmap, err := mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer unmap()
	if err := os.Truncate(path, 1<<16); err != nil {
		t.Fatal(err)
	}
	if _, _, err := decodeFile(data); err == nil || !strings.Contains(err.Error(), "the file changed while it was read") {
		t.Fatalf("decodeFile of a file truncated under it: error %v, want one saying it changed", err)
	}
}

// TestFaultedNamesTheMappedFile loads a file, truncates it in place and
// reads an article's text, which now lies past the file's end: with
// debug.SetPanicOnFault the read panics, and Faulted recognises the panic
// as a fault in that file. It is not parallel: Load sets the one mapping
// Faulted knows.
func TestFaultedNamesTheMappedFile(t *testing.T) {
	if !canMap {
		t.Skip("files are not mapped on this system")
	}
	dir := t.TempDir()
	bc, bix := built()
	if err := Store(dir, bc, bix); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName())
	c, _, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 1<<16); err != nil {
		t.Fatal(err)
	}
	var p any
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { p = recover() }()
		for i := len(c.Articles) - 1; i >= 0; i-- {
			_ = strings.Clone(c.Articles[i].Body) // reads the file's pages
		}
	}()
	if p == nil {
		t.Fatal("reading the corpus of a truncated file did not fault")
	}
	if got, ok := Faulted(p); !ok || got != path {
		t.Fatalf("Faulted(%v) = %q, %v; want %q, true", p, got, ok, path)
	}
	for _, other := range []any{"a string", errors.New("an error"), nil} {
		if _, ok := Faulted(other); ok {
			t.Errorf("Faulted(%v) = true, want false", other)
		}
	}
}
