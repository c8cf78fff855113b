package corpus

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/blob"
)

// snapshotRoundTrip writes c as a snapshot and reads it back.
func snapshotRoundTrip(t *testing.T, c *Corpus) (*Corpus, error) {
	t.Helper()
	var buf bytes.Buffer
	if err := c.WriteSnapshot(blob.NewWriter(&buf)); err != nil {
		return nil, err
	}
	r, err := blob.NewReader(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadSnapshot(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
	return got, nil
}

// TestSnapshotRoundTripDefault reads back the default corpus as generated,
// with each event's topic list still shared by its articles.
func TestSnapshotRoundTripDefault(t *testing.T) {
	t.Parallel()
	want := Default()
	got, err := snapshotRoundTrip(t, want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatal("the corpus read back differs from the one written")
	}
	distinct := func(c *Corpus) int {
		lists := map[*string]bool{}
		for i := range c.Articles {
			if len(c.Articles[i].Topics) > 0 {
				lists[&c.Articles[i].Topics[0]] = true
			}
		}
		return len(lists)
	}
	if w, g := distinct(want), distinct(got); w != g {
		t.Errorf("%d distinct topic lists written, %d read back", w, g)
	}
}

// TestSnapshotRoundTripEdges covers what the generator does not make: nil
// and empty slices, empty strings, a repeated string that is also a text
// field, and nanoseconds.
func TestSnapshotRoundTripEdges(t *testing.T) {
	t.Parallel()
	shared := []string{"politics", "economy"}
	when := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	want := &Corpus{
		Articles: []Article{
			{ID: "a", Title: "en", Language: "en", Published: when, Topics: shared, Entities: []Entity{}, Relationships: nil},
			{ID: "b", Title: "", Body: "politics", Language: "en", Published: when.Add(time.Second), Topics: shared,
				Entities:      []Entity{{Name: "Ada", Type: "PERSON", WikidataID: "Q7259", Sentiment: -0.5, Confidence: 0.9}},
				Relationships: []Relationship{{Source: "Ada", Target: "en", Relation: "wrote", Confidence: 1}}, DerivedEmbedding: true, Story: 7},
			{ID: "c", Language: "fr", Published: when.Add(2 * time.Second), Topics: []string{}, Traffic: -3},
		},
		Sites:     []Site{{Domain: "", Traffic: 100, Language: "en", Favicon: "en"}},
		Languages: []Language{{Code: "en", Name: "English"}, {Code: "fr"}},
	}
	got, err := snapshotRoundTrip(t, want)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-written +read):\n%s", diff)
	}
	for i, a := range got.Articles {
		w := want.Articles[i]
		if (a.Entities == nil) != (w.Entities == nil) || (a.Relationships == nil) != (w.Relationships == nil) || (a.Topics == nil) != (w.Topics == nil) {
			t.Errorf("article %s: nil and empty slices are not kept apart", a.ID)
		}
	}
	if &got.Articles[0].Topics[0] != &got.Articles[1].Topics[0] {
		t.Error("a topic list shared when written is not shared when read")
	}
}

// TestSnapshotRefuses checks what WriteSnapshot will not store.
func TestSnapshotRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, want string
		a          Article
	}{
		{"embedding", "stores an embedding vector", Article{ID: "x", Embedding: []float32{1}, Published: time.Unix(0, 0).UTC()}},
		{"time zone", "is not published in UTC", Article{ID: "x", Published: time.Unix(0, 0).In(time.FixedZone("X", 3600))}},
	} {
		_, err := snapshotRoundTrip(t, &Corpus{Articles: []Article{tc.a}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestSnapshotRefusesDamage reads snapshots whose columns disagree: each
// gives an error, none a panic.
func TestSnapshotRefusesDamage(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	c := &Corpus{Articles: []Article{{ID: "a", Title: "t", Published: time.Unix(0, 0).UTC(), Entities: []Entity{{Name: "n"}}}}}
	if err := c.WriteSnapshot(blob.NewWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for i := 0; i+8 <= len(good); i += 8 {
		bad := bytes.Clone(good)
		bad[i] ^= 0x81 // section counts, offsets, lengths and starts alike
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("byte %d altered: ReadSnapshot panicked: %v", i, p)
				}
			}()
			r, err := blob.NewReader(bad)
			if err != nil {
				t.Fatal(err)
			}
			ReadSnapshot(r)
		}()
	}
}
