package corpus

import (
	"bytes"
	"runtime"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/blob"
)

// TestReadMappedSnapshot reads the default corpus's snapshot with
// ReadMappedSnapshot: the corpus equals ReadSnapshot's, still after
// garbage collections that would have freed anything the collector could
// not see, and its articles, topics, entities and relationships add
// (almost) nothing to the Go heap where the system can map memory.
func TestReadMappedSnapshot(t *testing.T) {
	var buf bytes.Buffer
	if err := Default().WriteSnapshot(blob.NewWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes() // kept alive below: the corpus points into it
	read := func(mapped bool) (*Corpus, func()) {
		r, err := blob.NewReader(data)
		if err != nil {
			t.Fatal(err)
		}
		if !mapped {
			c, err := ReadSnapshot(r)
			if err != nil {
				t.Fatal(err)
			}
			return c, func() {}
		}
		c, release, err := ReadMappedSnapshot(r)
		if err != nil {
			t.Fatal(err)
		}
		return c, release
	}
	want, _ := read(false)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, release := read(true)
	defer release()
	runtime.GC()
	runtime.ReadMemStats(&after)
	articles := uintptr(len(got.Articles)) * unsafe.Sizeof(Article{})
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if _, _, ok := offHeap[byte](1); ok && grew > int64(articles/10) {
		t.Errorf("the Go heap grew by %d bytes reading a mapped snapshot of %d articles (%d bytes of Article): want them outside it", grew, len(got.Articles), articles)
	}

	// Garbage made and collected in between must not reach the corpus.
	for range 3 {
		junk := make([][]byte, 0, 1<<12)
		for i := range cap(junk) {
			junk = append(junk, bytes.Repeat([]byte{byte(i)}, 256))
		}
		runtime.KeepAlive(junk)
		runtime.GC()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadMappedSnapshot differs from ReadSnapshot (-want +got):\n%s", diff)
	}
	runtime.KeepAlive(data)
}

// TestReadMappedSnapshotDamaged: a damaged snapshot (cut short) is an
// error, and what was mapped for it is released, with no panic.
func TestReadMappedSnapshotDamaged(t *testing.T) {
	var buf bytes.Buffer
	if err := Default().WriteSnapshot(blob.NewWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, cut := range []int{buf.Len() / 50, buf.Len() / 10, buf.Len() / 3} {
		r, err := blob.NewReader(buf.Bytes()[:cut])
		if err != nil {
			refused++
			continue
		}
		c, release, err := ReadMappedSnapshot(r)
		if err == nil {
			err = r.Done()
			release()
		}
		if err == nil {
			t.Errorf("%d of %d bytes read as %d articles, want an error", cut, buf.Len(), len(c.Articles))
		}
	}
	t.Logf("%d of 3 cuts refused by blob.NewReader", refused)
}
