package corpus

import (
	"math"
	"net/url"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var (
	hexID      = regexp.MustCompile(`^[0-9a-f]{24}$`)
	wikidataRe = regexp.MustCompile(`^Q[0-9]+$`)
)

// TestDefaultFigures reports the default corpus's figures and checks the
// shape the mock server relies on.
func TestDefaultFigures(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	c := Generate(DefaultConfig())
	elapsed := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(c)
	f := c.Figures()
	t.Logf("articles %d, encoded %d (%.1f%%), sites %d, languages %d, stories %d, span %.1f days (%s to %s)",
		f.Articles, f.Encoded, 100*float64(f.Encoded)/float64(f.Articles), f.Sites, f.Languages, f.Stories,
		f.Span().Hours()/24, f.Oldest.Format(time.DateOnly), f.Newest.Format(time.DateOnly))
	t.Logf("build %v (GOMAXPROCS %d, machine load not controlled), heap held %.1f MiB",
		elapsed, runtime.GOMAXPROCS(0), float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20))

	if f.Articles < 10000 {
		t.Errorf("articles = %d, want at least 10000", f.Articles)
	}
	if f.Sites < 300 {
		t.Errorf("sites = %d, want at least 300", f.Sites)
	}
	if f.Languages < 8 {
		t.Errorf("languages = %d, want at least 8", f.Languages)
	}
	if f.Span() < 365*24*time.Hour {
		t.Errorf("span = %v, want at least a year", f.Span())
	}
	if share := float64(f.Encoded) / float64(f.Articles); share < 0.55 || share > 0.65 {
		t.Errorf("encoded share = %.3f, want about 0.6", share)
	}
	end := DefaultConfig().End
	if !f.Newest.After(end.Add(-time.Hour)) || f.Newest.After(end) {
		t.Errorf("newest article %v, want within the hour before %v", f.Newest, end)
	}
}

// TestDefaultArticles checks every article of the default corpus field by
// field.
func TestDefaultArticles(t *testing.T) {
	t.Parallel()
	c := Default()
	sites := map[string]Site{}
	for _, s := range c.Sites {
		sites[s.Domain] = s
	}
	langs := map[string]bool{}
	for _, l := range c.Languages {
		langs[l.Code] = true
		if name, _ := LanguageName(l.Code); name != l.Name {
			t.Errorf("language %+v, want name %q", l, name)
		}
	}
	ids := map[string]bool{}
	var withImage, withCategory, english int
	perLang := map[string]int{}
	for i := range c.Articles {
		a := &c.Articles[i]
		if !hexID.MatchString(a.ID) || ids[a.ID] {
			t.Fatalf("article %d: id %q is not 24 hex characters or not unique", i, a.ID)
		}
		ids[a.ID] = true
		if i > 0 && compareArticles(c.Articles[i-1], *a) >= 0 {
			t.Fatalf("articles %d and %d are out of (Published, ID) order", i-1, i)
		}
		checkArticle(t, a, sites, langs)
		if a.Image != "" {
			withImage++
		}
		if a.Category != "" {
			withCategory++
		}
		if a.Language == "en" {
			english++
		}
		perLang[a.Language]++
	}
	n := float64(len(c.Articles))
	if share := float64(withImage) / n; share < 0.5 || share > 0.95 {
		t.Errorf("share of articles with an image = %.3f, want a mix", share)
	}
	if share := float64(withCategory) / n; share < 0.7 || share > 0.97 {
		t.Errorf("share of articles with a category = %.3f, want most but not all", share)
	}
	if share := float64(english) / n; share < 0.35 || share > 0.6 {
		t.Errorf("English share = %.3f, want about 40%% (the weight of en.json)", share)
	}
	for code, count := range perLang {
		if float64(count)/n < 0.02 {
			t.Errorf("language %s has %d articles, want at least 2%%", code, count)
		}
	}
}

// checkArticle checks one generated article.
func checkArticle(t *testing.T, a *Article, sites map[string]Site, langs map[string]bool) {
	t.Helper()
	for field, text := range map[string]string{"title": a.Title, "description": a.Description, "body": a.Body} {
		if text == "" || strings.ContainsAny(text, "{}[]|") {
			t.Fatalf("article %s: %s %q is empty or holds template syntax", a.ID, field, text)
		}
	}
	if strings.Count(a.Body, ". ") < 1 {
		t.Errorf("article %s: body %q has fewer than two sentences", a.ID, a.Body)
	}
	site, ok := sites[a.Site]
	if !ok || site.Traffic != a.Traffic || site.Favicon != a.Favicon || site.Language != a.Language {
		t.Fatalf("article %s: site %q traffic %d favicon %q language %q disagree with the corpus's sites (%+v)",
			a.ID, a.Site, a.Traffic, a.Favicon, a.Language, site)
	}
	u, err := url.Parse(a.URL)
	if err != nil || u.Scheme != "https" || strings.TrimPrefix(u.Host, "www.") != a.Site || len(u.Path) < 10 {
		t.Fatalf("article %s: url %q is not an https URL with a path on %s", a.ID, a.URL, a.Site)
	}
	if a.Image != "" && !strings.HasPrefix(a.Image, "https://") {
		t.Errorf("article %s: image %q is not an https URL", a.ID, a.Image)
	}
	if !langs[a.Language] {
		t.Errorf("article %s: language %q not in the corpus's languages", a.ID, a.Language)
	}
	if a.Traffic < 0 || a.Traffic > 100 {
		t.Errorf("article %s: traffic %d out of 0..100", a.ID, a.Traffic)
	}
	if len(a.Topics) != 3 || slices.Contains(a.Topics, "") {
		t.Errorf("article %s: topics %q, want three", a.ID, a.Topics)
	}
	if math.Abs(a.Sentiment.Title) > 1 || math.Abs(a.Sentiment.Description) > 1 {
		t.Errorf("article %s: sentiment %+v out of [-1, 1]", a.ID, a.Sentiment)
	}
	if !a.Encoded() {
		if a.Entities != nil || a.Relationships != nil || a.HasEmbedding() {
			t.Errorf("article %s: not encoded but has entities, relationships or an embedding", a.ID)
		}
		return
	}
	names := map[string]bool{}
	for _, e := range a.Entities {
		names[e.Name] = true
		if e.Name == "" || !slices.Contains([]string{"PERSON", "ORGANIZATION", "LOCATION", "PRODUCT", "EVENT"}, e.Type) ||
			!wikidataRe.MatchString(e.WikidataID) || math.Abs(e.Sentiment) > 1 || e.Confidence < 0 || e.Confidence > 1 {
			t.Errorf("article %s: bad entity %+v", a.ID, e)
		}
	}
	if len(a.Entities) < 2 || len(a.Relationships) == 0 {
		t.Errorf("article %s: %d entities and %d relationships, want some of both", a.ID, len(a.Entities), len(a.Relationships))
	}
	for _, r := range a.Relationships {
		if !names[r.Source] || !names[r.Target] || r.Relation == "" || r.Confidence < 0 || r.Confidence > 1 {
			t.Errorf("article %s: relationship %+v does not link two of its entities", a.ID, r)
		}
	}
	if want := Embed(a.Title + " " + a.Description + " " + a.Body); !slices.Equal(want, a.Vector()) {
		t.Errorf("article %s: embedding is not Embed(title description body) (-want +got):\n%s", a.ID, cmp.Diff(want, a.Vector()))
	}
}

// TestDefaultSites checks the spread of site sizes.
func TestDefaultSites(t *testing.T) {
	t.Parallel()
	c := Default()
	var small, big int
	for _, s := range c.Sites {
		if s.Traffic <= 20 {
			small++
		}
		if s.Traffic >= 95 {
			big++
		}
		if s.Domain != strings.ToLower(s.Domain) || strings.HasPrefix(s.Domain, "www.") || !strings.Contains(s.Domain, ".") {
			t.Errorf("site domain %q is not a bare lower-case domain", s.Domain)
		}
	}
	if small < len(c.Sites)/5 || big == 0 || big > len(c.Sites)/10 {
		t.Errorf("%d of %d sites at traffic <= 20 and %d at >= 95, want many small sites and a few big ones", small, len(c.Sites), big)
	}
}

// TestDefaultStories checks that stories are several sites' takes on one
// event and that the newest two days hold enough of them for headlines.
func TestDefaultStories(t *testing.T) {
	t.Parallel()
	c := Default()
	type story struct {
		first, last    time.Time
		sites, titles  map[string]bool
		lang           map[string]bool
		inLast48, size int
	}
	stories := map[int32]*story{}
	oneOffs := 0
	cut := c.Newest().Add(-48 * time.Hour)
	recent := 0
	for i := range c.Articles {
		a := &c.Articles[i]
		if a.Published.After(cut) {
			recent++
		}
		if a.Story < 0 {
			oneOffs++
			continue
		}
		s := stories[a.Story]
		if s == nil {
			s = &story{first: a.Published, sites: map[string]bool{}, titles: map[string]bool{}, lang: map[string]bool{}}
			stories[a.Story] = s
		}
		s.size++
		s.last = a.Published
		s.sites[a.Site] = true
		s.titles[a.Title] = true
		s.lang[a.Language] = true
		if a.Published.After(cut) {
			s.inLast48++
		}
	}
	recentStories := 0
	for label, s := range stories {
		if s.size < 2 || len(s.sites) != s.size || len(s.lang) != 1 || s.last.Sub(s.first) > 36*time.Hour {
			t.Errorf("story %d: %d articles on %d sites in %d languages over %v, want 2+ articles on distinct sites in one language within 36h",
				label, s.size, len(s.sites), len(s.lang), s.last.Sub(s.first))
		}
		if s.size >= 3 && len(s.titles) < 2 {
			t.Errorf("story %d: all %d articles share one title, want different wordings", label, s.size)
		}
		if s.inLast48 >= 2 {
			recentStories++
		}
	}
	if share := float64(oneOffs) / float64(len(c.Articles)); share < 0.05 || share > 0.25 {
		t.Errorf("one-off share = %.3f, want most articles in stories and some one-offs", share)
	}
	t.Logf("last 48 hours: %d articles, %d stories with 2+ articles", recent, recentStories)
	if recent < 200 || recentStories < 20 {
		t.Errorf("last 48 hours hold %d articles and %d multi-article stories, want at least 200 and 20", recent, recentStories)
	}
	firstMonth := 0
	for _, a := range c.Articles {
		if a.Published.Before(c.Articles[0].Published.Add(30 * 24 * time.Hour)) {
			firstMonth++
		}
	}
	lastMonth := 0
	for _, a := range c.Articles {
		if a.Published.After(c.Newest().Add(-30 * 24 * time.Hour)) {
			lastMonth++
		}
	}
	if lastMonth < 3*firstMonth {
		t.Errorf("first month %d articles, last month %d, want density rising towards the newest date", firstMonth, lastMonth)
	}
}

// TestGenerateDeterministic generates the same configuration twice, and with
// different numbers of goroutines.
func TestGenerateDeterministic(t *testing.T) {
	t.Parallel()
	cfg := Config{Seed: 42, Articles: 800}
	if diff := cmp.Diff(Generate(cfg), Generate(cfg)); diff != "" {
		t.Errorf("Generate is not deterministic (-want +got):\n%s", diff)
	}
	cfg.Articles = 3000 // enough for three goroutines
	if a, b := generate(cfg, 1), generate(cfg, 3); !reflect.DeepEqual(a, b) {
		t.Errorf("one and three goroutines generate different corpora (-want +got):\n%s", cmp.Diff(a, b))
	}
	a, other := Generate(Config{Seed: 42, Articles: 100}), Generate(Config{Seed: 43, Articles: 100})
	if cmp.Equal(a.Articles[:10], other.Articles[:10]) {
		t.Error("seeds 42 and 43 gave the same articles")
	}
}

// TestDefaultIsGenerate checks Default against a fresh Generate. cmp over
// 12,000 articles takes seconds, so reflect.DeepEqual compares and cmp.Diff
// explains.
func TestDefaultIsGenerate(t *testing.T) {
	t.Parallel()
	if first, second := Default(), Default(); first != second {
		t.Error("Default built two corpora")
	}
	if want := Generate(DefaultConfig()); !reflect.DeepEqual(want, Default()) {
		t.Errorf("Default() differs from Generate(DefaultConfig()) (-want +got):\n%s", cmp.Diff(want, Default()))
	}
}

func TestGenerateConfig(t *testing.T) {
	t.Parallel()
	end := time.Date(2024, time.March, 10, 12, 30, 0, 0, time.UTC)
	c := Generate(Config{Seed: 5, Articles: 120, End: end, Days: 30})
	f := c.Figures()
	if f.Articles != 120 {
		t.Errorf("articles = %d, want 120", f.Articles)
	}
	if f.Newest.After(end) || f.Oldest.Before(end.AddDate(0, 0, -30)) {
		t.Errorf("articles span %v to %v, want within the 30 days before %v", f.Oldest, f.Newest, end)
	}
	used := map[string]bool{}
	for _, a := range c.Articles {
		used[a.Site] = true
	}
	if len(c.Sites) != len(used) {
		t.Errorf("corpus lists %d sites but its articles use %d", len(c.Sites), len(used))
	}

	def := DefaultConfig()
	for _, tc := range []struct {
		in, want Config
	}{
		{Config{}, Config{Seed: 0, Articles: def.Articles, End: def.End, Days: def.Days}},
		{Config{Seed: 3, Articles: MaxArticles + 1, End: end.Add(time.Second / 2), Days: -1}, Config{Seed: 3, Articles: MaxArticles, End: end, Days: def.Days}},
		{Config{Seed: -4, Articles: 10, End: end.In(time.FixedZone("X", 3600)), Days: MaxDays + 1}, Config{Seed: -4, Articles: 10, End: end, Days: MaxDays}},
	} {
		if diff := cmp.Diff(tc.want, tc.in.normalise()); diff != "" {
			t.Errorf("normalise(%+v) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestTemplates checks the embedded vocabulary (data/): every template's
// syntax, the relations of every kind, and the sizes the generator counts
// on.
func TestTemplates(t *testing.T) {
	t.Parallel()
	v, err := readVocabulary(dataFiles)
	if err != nil {
		t.Fatal(err)
	}
	slotRe := regexp.MustCompile(`\{[PpQqORLXTSNMKFD]\}`)
	altRe := regexp.MustCompile(`\[[^\[\]{}]*(\{[PpQqORLXTSNMKFD]\}[^\[\]{}]*)*\]`)
	check := func(where, tmpl string) {
		rest := altRe.ReplaceAllStringFunc(tmpl, func(alt string) string {
			if !strings.Contains(alt, "|") {
				t.Errorf("%s: alternative %q has a single choice", where, alt)
			}
			return strings.ReplaceAll(slotRe.ReplaceAllString(alt[1:len(alt)-1], ""), "|", "")
		})
		rest = slotRe.ReplaceAllString(rest, "")
		if strings.ContainsAny(rest, "{}[]|") {
			t.Errorf("%s: template %q has malformed slots or alternatives", where, tmpl)
		}
	}
	for _, pk := range v.packs {
		for k, kt := range pk.kinds {
			where := pk.code + " " + v.Kinds[k].Name
			if len(kt.Titles) < 3 || len(kt.Descs) < 2 || len(kt.Bodies) < 2 {
				t.Errorf("%s: %d titles, %d descriptions, %d bodies, want at least 3, 2, 2", where, len(kt.Titles), len(kt.Descs), len(kt.Bodies))
			}
			for _, list := range [][]string{kt.Titles, kt.Descs, kt.Bodies} {
				for _, tmpl := range list {
					check(where, tmpl)
				}
			}
		}
		if len(pk.Kinds) != len(v.Kinds) {
			t.Errorf("%s: templates for %d kinds, want the %d of common.json", pk.code, len(pk.Kinds), len(v.Kinds))
		}
		if len(pk.Topics) != len(v.Topics) {
			t.Errorf("%s: phrases for %d topics, want the %d of common.json", pk.code, len(pk.Topics), len(v.Topics))
		}
		for _, tmpl := range pk.Generic {
			check(pk.code+" generic", tmpl)
		}
		if combos := len(pk.SitePrefixes) * len(pk.SiteSuffixes) * len(pk.TLDs); combos < 3*pk.Sites {
			t.Errorf("%s: %d domain combinations for %d sites, want three times as many", pk.code, combos, pk.Sites)
		}
		if combos := len(pk.FirstNames) * len(pk.LastNames); combos < 3*pk.Persons {
			t.Errorf("%s: %d name combinations for %d people, want three times as many", pk.code, combos, pk.Persons)
		}
		if _, ok := LanguageName(pk.code); !ok {
			t.Errorf("language code %q is not ISO 639-1", pk.code)
		}
		if len(pk.Places) == 0 {
			t.Errorf("%s: no places", pk.code)
		}
	}
	groups := map[string]bool{}
	for _, tp := range v.Topics {
		groups[tp[1]] = true
	}
	for _, k := range v.Kinds {
		if !groups[k.Topics] {
			t.Errorf("kind %s draws its topic from group %q, which has none", k.Name, k.Topics)
		}
		filled := "PL" + k.Mentions
		for _, r := range k.Relations {
			if len(r[0]) != 1 || len(r[1]) != 1 || !strings.Contains(filled, r[0]) || !strings.Contains(filled, r[1]) {
				t.Errorf("kind %s: relation %q names a slot the kind does not fill (%s)", k.Name, r, filled)
			}
		}
	}
	if len(v.OrgBrands)*len(v.OrgSectors) < v.Orgs || len(v.ProductBrands)*len(v.ProductModels) < v.Products {
		t.Errorf("too few name parts for %d organisations and %d products", v.Orgs, v.Products)
	}
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ title, want string }{
		{"Norvale Energy to buy Kestrava Bank in $740 million deal", "norvale-energy-to-buy-kestrava-bank-in-740-million-deal"},
		{"Forte hausse des cas de rougeole à Genève", "forte-hausse-des-cas-de-rougeole-a-geneve"},
		{"Straße in Köln: Ærø & Œuvre", "strasse-in-koln-aero-oeuvre"},
		{"Researchers in São Paulo report breakthrough in gene therapy after a very long study", "researchers-in-sao-paulo-report-breakthrough-in-gene-therapy-after-a"},
		{"¿Qué?", "que"},
	} {
		if got := slug(tc.title); got != tc.want {
			t.Errorf("slug(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}
