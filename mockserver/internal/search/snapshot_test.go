package search

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/blob"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// snapshotOf writes ix alone and returns the bytes.
func snapshotOf(t *testing.T, ix *Index) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ix.WriteSnapshot(blob.NewWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readSnapshot reads an index snapshot of c.
func readSnapshot(c *corpus.Corpus, data []byte) (*Index, error) {
	r, err := blob.NewReader(data)
	if err != nil {
		return nil, err
	}
	ix, err := ReadSnapshot(c, r)
	if err != nil {
		return nil, err
	}
	return ix, r.Done()
}

// TestSnapshotRoundTrip reads back the snapshot of two indexes, the default
// corpus's and a small random one's, and finds every field as built.
func TestSnapshotRoundTrip(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]*corpus.Corpus{"default": corpus.Default(), "wordy": wordyCorpus(3*minChunk + 17)} {
		want := New(c)
		got, err := readSnapshot(c, snapshotOf(t, want))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if again := snapshotOf(t, got); !bytes.Equal(again, snapshotOf(t, want)) {
			t.Errorf("%s: the index read back writes other bytes", name)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s (-built +read):\n%s", name, cmp.Diff(want, got, cmp.AllowUnexported(Index{})))
		}
	}
}

// TestSnapshotSearchesAlike runs queries on an index and on its snapshot.
func TestSnapshotSearchesAlike(t *testing.T) {
	t.Parallel()
	c := corpus.Default()
	built := New(c)
	read, err := readSnapshot(c, snapshotOf(t, built))
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	for _, q := range []Query{
		{Text: "election"},
		{Text: "\"central bank\"", Order: ByDate},
		{Text: "storm OR flood", Language: "en", TrafficRank: 50},
		{Text: "market AND NOT shares", EncodedOnly: true},
		{Text: "zürich", Sites: []string{c.Articles[0].Site}},
	} {
		want, werr := built.Search(q, 0, 25)
		got, gerr := read.Search(q, 0, 25)
		if werr != nil || gerr != nil {
			t.Fatalf("%+v: errors %v and %v", q, werr, gerr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+v (-built +read):\n%s", q, diff)
		}
		hits += len(want.Hits)
	}
	if hits == 0 {
		t.Fatal("no query found anything: the comparison proves nothing")
	}
}

// TestSnapshotRefusesDamage damages one column at a time: each read fails
// with a message naming what is wrong, and none panics.
func TestSnapshotRefusesDamage(t *testing.T) {
	t.Parallel()
	c := wordyCorpus(500)
	for _, tc := range []struct {
		name, want string
		damage     func(ix *Index)
	}{
		{"a document out of range", "document number is out of range", func(ix *Index) { ix.docs[0] = int32(len(c.Articles)) }},
		{"postings out of order", "do not ascend", func(ix *Index) {
			for t := range len(ix.termStart) - 1 {
				if d := ix.termDocs(int32(t)); len(d) > 1 {
					d[0], d[1] = d[1], d[0]
					return
				}
			}
		}},
		{"starts out of order", "starts are out of order", func(ix *Index) { ix.termStart[1], ix.termStart[2] = ix.termStart[2]+1, ix.termStart[1] }},
		{"offsets past the positions", "offsets are out of order", func(ix *Index) { ix.posOff[len(ix.posOff)-1]++ }},
		{"a short column", "do not have 500 entries", func(ix *Index) { ix.bodyLen = ix.bodyLen[:1] }},
		{"a language out of range", "language number is out of range", func(ix *Index) { ix.lang[3] = 7 }},
	} {
		damaged := build(c, 1)
		tc.damage(damaged)
		data := snapshotOf(t, damaged)
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: ReadSnapshot panicked: %v", tc.name, p)
				}
			}()
			if _, err := readSnapshot(c, data); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
			}
		}()
	}
}
