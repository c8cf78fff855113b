package cluster

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// grade scores clusters against the generator's Story labels (tests may read
// them; Build may not). Purity is the share of articles in multi-article
// clusters that belong to their cluster's main story, each one-off counting
// as a story of its own. Completeness is the share of the articles of
// multi-article stories that sit in their story's main cluster.
func grade(c *corpus.Corpus, docs []int32, clusters []Cluster) (purity, completeness float64) {
	storySize := map[int32]int{}
	for _, d := range docs {
		if s := c.Articles[d].Story; s >= 0 {
			storySize[s]++
		}
	}
	inMulti, majority := 0, 0
	bestCluster := map[int32]int{} // story -> most members it has in one cluster
	for _, cl := range clusters {
		count := map[int32]int{}
		top := 0
		for _, d := range cl.Docs {
			s := c.Articles[d].Story
			if s < 0 {
				s = -1 - d
			}
			count[s]++
			top = max(top, count[s])
		}
		for s, n := range count {
			if s >= 0 {
				bestCluster[s] = max(bestCluster[s], n)
			}
		}
		if cl.Count > 1 {
			inMulti += cl.Count
			majority += top
		}
	}
	inStories, together := 0, 0
	for s, n := range storySize {
		if n > 1 {
			inStories += n
			together += bestCluster[s]
		}
	}
	return float64(majority) / float64(inMulti), float64(together) / float64(inStories)
}

func TestBuildDefaultHeadlines(t *testing.T) {
	t.Parallel()
	c := corpus.Default()
	docs := recent(c, 48*time.Hour)
	start := time.Now()
	clusters := Build(c, docs)
	elapsed := time.Since(start)
	purity, completeness := grade(c, docs, clusters)
	multi := 0
	for _, cl := range clusters {
		if cl.Count > 1 {
			multi++
		}
	}
	t.Logf("%d articles of the last 48 hours: %d clusters, %d with 2+ articles, purity %.3f, completeness %.3f, built in %v",
		len(docs), len(clusters), multi, purity, completeness, elapsed)
	for _, cl := range clusters[:5] {
		t.Logf("  %2d  %s", cl.Count, cl.Topic)
	}
	if purity < 0.9 {
		t.Errorf("purity = %.3f, want at least 0.9", purity)
	}
	if completeness < 0.85 {
		t.Errorf("completeness = %.3f, want at least 0.85", completeness)
	}
	if multi < 20 {
		t.Errorf("%d clusters with 2+ articles, want at least 20", multi)
	}
	for i, cl := range clusters[:10] {
		if cl.Count < 3 {
			t.Errorf("cluster %d has %d articles, want the ten largest to have at least 3", i, cl.Count)
		}
	}
	checkClusters(t, c, docs, clusters)
}

// checkClusters checks the invariants of Build's result.
func checkClusters(t *testing.T, c *corpus.Corpus, docs []int32, clusters []Cluster) {
	t.Helper()
	seen := map[int32]bool{}
	for i, cl := range clusters {
		if cl.Count != len(cl.Docs) || cl.Count == 0 {
			t.Fatalf("cluster %d: Count %d with %d docs", i, cl.Count, len(cl.Docs))
		}
		if cl.Topic != c.Articles[cl.Docs[0]].Title {
			t.Errorf("cluster %d: topic %q is not the title of its first article", i, cl.Topic)
		}
		for _, d := range cl.Docs {
			if seen[d] {
				t.Fatalf("article %d is in two clusters", d)
			}
			seen[d] = true
		}
		if !slices.IsSortedFunc(cl.Docs[1:], func(x, y int32) int { return newerFirst(c, x, y) }) {
			t.Errorf("cluster %d: members after the first are not newest first", i)
		}
		if i > 0 {
			prev := clusters[i-1]
			if prev.Count < cl.Count || prev.Count == cl.Count && newest(c, prev).Before(newest(c, cl)) ||
				prev.Count == cl.Count && newest(c, prev).Equal(newest(c, cl)) && c.Articles[prev.Docs[0]].ID > c.Articles[cl.Docs[0]].ID {
				t.Errorf("clusters %d and %d are out of order", i-1, i)
			}
		}
	}
	for _, d := range docs {
		if !seen[d] {
			t.Fatalf("article %d is in no cluster", d)
		}
	}
	if len(seen) != len(normalise(len(c.Articles), docs)) {
		t.Errorf("clusters hold %d articles, want %d", len(seen), len(docs))
	}
}

func TestBuildDeterministic(t *testing.T) {
	t.Parallel()
	c := corpus.Default()
	docs := recent(c, 72*time.Hour)
	want := Build(c, docs)
	shuffled := slices.Clone(docs)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	shuffled = append(shuffled, docs[:10]...)                      // repeats
	shuffled = append(shuffled, -1, int32(len(c.Articles)), 1<<30) // out of range
	if diff := cmp.Diff(want, Build(c, shuffled)); diff != "" {
		t.Errorf("Build depends on the order of docs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, Build(c, docs)); diff != "" {
		t.Errorf("Build is not deterministic (-want +got):\n%s", diff)
	}
	checkClusters(t, c, docs, want)
}

// TestBuildRepresentative checks that every cluster leads with the member
// closest to the cluster's centroid.
func TestBuildRepresentative(t *testing.T) {
	t.Parallel()
	c := corpus.Default()
	docs := recent(c, 48*time.Hour)
	ds := normalise(len(c.Articles), docs)
	vecs := vectorise(c, ds)
	pos := map[int32]int{}
	for i, d := range ds {
		pos[d] = i
	}
	for _, cl := range Build(c, docs) {
		centroid := map[int32]float64{}
		for _, d := range cl.Docs {
			for _, e := range vecs[pos[d]] {
				centroid[e.term] += e.weight
			}
		}
		score := func(d int32) float64 {
			s := 0.0
			for _, e := range vecs[pos[d]] {
				s += e.weight * centroid[e.term]
			}
			return s
		}
		best := score(cl.Docs[0])
		for _, d := range cl.Docs[1:] {
			if s := score(d); s > best+1e-9 {
				t.Errorf("cluster %q: member %q scores %.4f against the centroid, above the representative's %.4f",
					cl.Topic, c.Articles[d].Title, s, best)
			}
		}
	}
}

// TestBuildLoadedCorpus clusters a hand-written corpus without embeddings
// or entities, as users load them.
func TestBuildLoadedCorpus(t *testing.T) {
	t.Parallel()
	lines := []struct{ id, date, lang, title, desc string }{
		{"000000000000000000000001", "2026-06-29 08:00:00", "en", "Norvale Energy agrees to buy Kestrava Bank for $740 million",
			"Norvale Energy said on Monday it would buy Kestrava Bank for about $740 million."},
		{"000000000000000000000002", "2026-06-29 09:00:00", "en", "Kestrava Bank accepts $740 million takeover offer from Norvale Energy",
			"The $740 million takeover of Kestrava Bank gives Norvale Energy a foothold in Leeds."},
		{"000000000000000000000003", "2026-06-29 10:00:00", "en", "Norvale Energy to acquire rival Kestrava Bank in $740 million deal",
			"Norvale Energy and Kestrava Bank confirmed the $740 million deal on Monday."},
		{"000000000000000000000004", "2026-06-29 11:00:00", "en", "Toronto reports sharp rise in measles cases",
			"Health authorities in Toronto said 7443 measles cases had been recorded."},
		{"000000000000000000000005", "2026-06-29 12:00:00", "en", "7443 measles cases recorded in Toronto, officials say",
			"Priya Brennan urged people in Toronto with measles symptoms to stay at home."},
		{"000000000000000000000006", "2026-06-29 12:00:00", "es", "Lucía Herrera gana las elecciones en Sevilla con el 48 % de los votos",
			"Lucía Herrera fue proclamada ganadora en Sevilla, por delante de Diego Vega."},
		{"000000000000000000000007", "2026-06-29 11:30:00", "es", "Lucía Herrera se impone a Diego Vega en Sevilla",
			"Con el 48 % de los votos, Lucía Herrera gana en Sevilla y Diego Vega reconoce la derrota."},
		{"000000000000000000000008", "2026-06-29 13:00:00", "en", "Wildfires force thousands from their homes near Perth",
			"Crews fought the fires through the night."},
		{"000000000000000000000009", "2026-06-29 07:00:00", "en", "Quasar Neo phone goes on sale in Tokyo",
			"The handset costs less than its predecessor."},
	}
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString(`{"_id":"` + l.id + `","title":"` + l.title + `","description":"` + l.desc +
			`","url":"https://example.com/` + l.id + `","site":"example.com","language":"` + l.lang +
			`","datePublished":"` + l.date + `"}` + "\n")
	}
	c, err := corpus.LoadJSONL(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int32{}
	for i, a := range c.Articles {
		idx[a.ID[22:]] = int32(i)
	}
	docs := make([]int32, len(c.Articles))
	for i := range docs {
		docs[i] = int32(i)
	}
	cl := func(ids ...string) Cluster {
		out := Cluster{Count: len(ids), Topic: c.Articles[idx[ids[0]]].Title}
		for _, id := range ids {
			out.Docs = append(out.Docs, idx[id])
		}
		return out
	}
	want := []Cluster{
		cl("01", "03", "02"), // the deal: representative, then newest first
		cl("05", "04"),       // measles, newest 12:00, id ...05 < ...06
		cl("06", "07"),       // election, newest 12:00
		cl("08"),             // one-offs, newest first
		cl("09"),
	}
	if diff := cmp.Diff(want, Build(c, docs)); diff != "" {
		t.Errorf("Build (-want +got):\n%s", diff)
	}
}

func TestBuildEmpty(t *testing.T) {
	t.Parallel()
	c := corpus.Default()
	for _, docs := range [][]int32{nil, {}, {-5, int32(len(c.Articles))}} {
		if got := Build(c, docs); got != nil {
			t.Errorf("Build(%v) = %v, want nil", docs, got)
		}
	}
	one := Build(c, []int32{7})
	want := []Cluster{{Topic: c.Articles[7].Title, Count: 1, Docs: []int32{7}}}
	if diff := cmp.Diff(want, one); diff != "" {
		t.Errorf("Build of one article (-want +got):\n%s", diff)
	}
}
