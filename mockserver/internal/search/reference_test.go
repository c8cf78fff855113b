package search_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/internal/keyphrase"
	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
	"github.com/newssearch/newssearch-go/mockserver/internal/search"
	"github.com/newssearch/newssearch-go/mockserver/internal/search/analysis"
)

// refWords are drawn with skewed frequencies, so some terms are common and
// some rare; "Café" and "cafe" are one term.
var refWords = []string{"alpha", "beta", "gamma", "Delta", "café", "cafe", "zeta", "eta", "theta", "iota", "kappa", "lambda"}

func randomText(r *rand.Rand, maxWords int) string {
	n := r.IntN(maxWords + 1)
	words := make([]string, n)
	for i := range words {
		words[i] = refWords[min(r.IntN(len(refWords)), r.IntN(len(refWords)))]
	}
	return strings.Join(words, []string{" ", ", ", ". "}[r.IntN(3)])
}

func randomCorpus(r *rand.Rand, n int) *corpus.Corpus {
	docs := make([]doc, n)
	for i, id := range r.Perm(n) {
		docs[i] = doc{
			id:      id + 1,
			title:   randomText(r, 4),
			desc:    randomText(r, 6),
			body:    randomText(r, 30),
			site:    []string{"a.com", "b.org", "c.net", "d.io"}[r.IntN(4)],
			lang:    []string{"en", "es", "fr"}[r.IntN(3)],
			traffic: r.IntN(101),
			hour:    r.IntN(60),
			encoded: r.IntN(2) == 0,
		}
	}
	return build(docs)
}

func randomExpr(r *rand.Rand, depth int) string {
	if depth == 0 || r.IntN(3) == 0 {
		w := refWords[r.IntN(len(refWords))]
		if r.IntN(3) == 0 {
			w += " " + refWords[r.IntN(len(refWords))]
		}
		return "'" + w + "'"
	}
	switch r.IntN(3) {
	case 0:
		return "not " + randomExpr(r, depth-1)
	case 1:
		return "(" + randomExpr(r, depth-1) + " and " + randomExpr(r, depth-1) + ")"
	}
	return "(" + randomExpr(r, depth-1) + " or " + randomExpr(r, depth-1) + ")"
}

func randomQuery(r *rand.Rand) search.Query {
	var q search.Query
	var parts []string
	for range r.IntN(3) {
		parts = append(parts, refWords[r.IntN(len(refWords))])
	}
	if r.IntN(3) == 0 {
		parts = append(parts, `"`+refWords[r.IntN(len(refWords))]+" "+refWords[r.IntN(len(refWords))]+`"`)
	}
	q.Text = strings.Join(parts, " ")
	if r.IntN(3) == 0 {
		q.KeyPhrases = randomExpr(r, 3)
	}
	if r.IntN(3) == 0 {
		for range 1 + r.IntN(2) {
			q.Sites = append(q.Sites, []string{"a.com", "www.b.org", "C.NET", "d.io", "e.gov"}[r.IntN(5)])
		}
	}
	if r.IntN(2) == 0 {
		q.From = at(r.IntN(60))
	}
	if r.IntN(2) == 0 {
		q.To = at(r.IntN(60))
	}
	if r.IntN(4) == 0 {
		q.Language = []string{"en", "es", "fr", "de"}[r.IntN(4)]
	}
	if r.IntN(4) == 0 {
		q.TrafficRank = r.IntN(101)
	}
	q.EncodedOnly = r.IntN(4) == 0
	q.Order = search.Order(r.IntN(2))
	return q
}

// reference is a brute-force evaluation of queries over a corpus.
type reference struct {
	c      *corpus.Corpus
	fields [][3][]string // by doc: the terms of title, description, body
	df     map[string]int
	avg    [3]float64
}

func newReference(c *corpus.Corpus) *reference {
	ref := &reference{c: c, df: map[string]int{}}
	for _, a := range c.Articles {
		f := [3][]string{analysis.Tokens(a.Title), analysis.Tokens(a.Description), analysis.Tokens(a.Body)}
		ref.fields = append(ref.fields, f)
		seen := map[string]bool{}
		for i, terms := range f {
			ref.avg[i] += float64(len(terms)) / float64(len(c.Articles))
			for _, t := range terms {
				if !seen[t] {
					seen[t] = true
					ref.df[t]++
				}
			}
		}
	}
	return ref
}

func (ref *reference) hasPhrase(d int, terms []string) bool {
	for _, f := range ref.fields[d] {
		for i := 0; i+len(terms) <= len(f); i++ {
			if slices.Equal(f[i:i+len(terms)], terms) {
				return true
			}
		}
	}
	return false
}

func (ref *reference) score(d int, terms []string) float64 {
	slices.Sort(terms)
	terms = slices.Compact(terms)
	weights := [3]float64{3, 2, 1}
	sum := 0.0
	for _, t := range terms {
		tf := 0.0
		for i, f := range ref.fields[d] {
			n := 0
			for _, w := range f {
				if w == t {
					n++
				}
			}
			tf += float64(n) * weights[i] / (0.25 + 0.75*float64(len(f))/ref.avg[i])
		}
		N, df := float64(len(ref.c.Articles)), float64(ref.df[t])
		sum += math.Log(1+(N-df+0.5)/(df+0.5)) * 2.2 * tf / (1.2 + tf)
	}
	return sum
}

// search returns the matching docs (in document order) and their scores.
func (ref *reference) search(t *testing.T, q search.Query) ([]int, []float64) {
	var terms []string
	var phrases [][]string
	for i, seg := range strings.Split(q.Text, `"`) {
		toks := analysis.Tokens(seg)
		terms = append(terms, toks...)
		if i%2 == 1 && len(toks) > 1 {
			phrases = append(phrases, toks)
		}
	}
	var expr *keyphrase.Expr
	if q.KeyPhrases != "" {
		var err error
		if expr, err = search.ParseKeyPhrases(q.KeyPhrases); err != nil {
			t.Fatal(err)
		}
	}
	sites := map[string]bool{}
	for _, s := range q.Sites {
		sites[strings.TrimPrefix(strings.ToLower(s), "www.")] = true
	}
	var docs []int
	var scores []float64
	for d, a := range ref.c.Articles {
		ok := (len(sites) == 0 || sites[a.Site]) &&
			(q.From.IsZero() || !a.Published.Before(q.From)) &&
			(q.To.IsZero() || !a.Published.After(q.To)) &&
			(q.Language == "" || q.Language == a.Language) &&
			(q.TrafficRank == 0 || ref.siteKept(a.Site, q.TrafficRank)) && (!q.EncodedOnly || a.Encoded())
		for _, term := range terms {
			ok = ok && ref.hasPhrase(d, []string{term})
		}
		for _, p := range phrases {
			ok = ok && ref.hasPhrase(d, p)
		}
		if ok && expr != nil {
			ok = expr.Eval(func(i int) bool { return ref.hasPhrase(d, expr.Phrases()[i].Terms) })
		}
		if ok {
			docs = append(docs, d)
			scores = append(scores, ref.score(d, slices.Clone(terms)))
		}
	}
	return docs, scores
}

func TestAgainstReference(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 4 {
		c := randomCorpus(r, 50+round*150)
		ix := search.New(c)
		ref := newReference(c)
		for range 300 {
			q := randomQuery(r)
			docs, scores := ref.search(t, q)
			res, err := ix.Search(q, 0, len(c.Articles))
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			label := fmt.Sprintf("round %d query %+v", round, q)
			if res.Total != len(docs) || len(res.Hits) != len(docs) {
				t.Fatalf("%s: Total %d, %d hits; want %d", label, res.Total, len(res.Hits), len(docs))
			}
			want := map[int32]float64{}
			for i, d := range docs {
				want[int32(d)] = scores[i]
			}
			for i, h := range res.Hits {
				ws, ok := want[h.Doc]
				if !ok {
					t.Fatalf("%s: doc %d should not match", label, h.Doc)
				}
				if math.Abs(ws-h.Score) > 1e-9*math.Max(1, ws) {
					t.Fatalf("%s: doc %d score %v, want %v", label, h.Doc, h.Score, ws)
				}
				if i == 0 {
					continue
				}
				prev, cur := res.Hits[i-1], h
				pa, ca := c.Articles[prev.Doc], c.Articles[cur.Doc]
				var order int
				if q.Order == search.ByDate {
					order = cmp.Or(ca.Published.Compare(pa.Published), cmp.Compare(pa.ID, ca.ID))
				} else {
					order = cmp.Or(cmp.Compare(prev.Score, cur.Score)*-1, cmp.Compare(pa.ID, ca.ID))
				}
				if order >= 0 {
					t.Fatalf("%s: hit %d (%s) is out of order after %s", label, i, ca.ID, pa.ID)
				}
			}
		}
	}
}

// siteKept reports, by brute force, whether traffic_rank n keeps site: the
// sites sorted busiest first (ties by domain), those within the first
// (100-n)% stay.
func (ref *reference) siteKept(site string, n int) bool {
	traffic := map[string]int{}
	for _, a := range ref.c.Articles {
		traffic[a.Site] = max(traffic[a.Site], a.Traffic)
	}
	var sites []string
	for s := range traffic {
		sites = append(sites, s)
	}
	slices.SortFunc(sites, func(a, b string) int {
		return cmp.Or(cmp.Compare(traffic[b], traffic[a]), strings.Compare(a, b))
	})
	keep := float64(len(sites)) * float64(100-n) / 100
	for p, s := range sites {
		if s == site {
			return float64(p+1) <= keep
		}
	}
	return false
}
