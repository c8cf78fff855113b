package corpus

import (
	"cmp"
	"encoding/hex"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxArticles is the largest corpus Generate builds. Article ids end in a
// 24-bit counter, which keeps them unique up to this size.
const MaxArticles = 1 << 24

// Generator tuning. They shape the default corpus; tests pin their effect.
const (
	oneOffShare   = 0.45            // probability that an event is reported by a single article
	maxStorySize  = 14              // most articles one story gets
	storyWindow   = 36 * 3600       // seconds over which a story's articles appear
	densityGrowth = 3.5             // articles per day grow by e^densityGrowth from oldest to newest
	encodedShare  = 0.6             // share of articles with entities and embeddings
	homePlaceBias = 0.8             // probability that a story happens in a city of its language
	homeNameBias  = 0.85            // probability that a story's people come from its language
	maxSentiment  = 1.0             // bound of every sentiment score
	idCounterMask = MaxArticles - 1 // the counter part of an article id
	defaultSeed   = 20260630        // seed of the default corpus
	defaultDays   = 400             // span of the default corpus
	defaultCount  = 12000           // articles of the default corpus
	idTimeBytes   = 4               // id bytes holding the publication time
	idSaltBytes   = 5               // id bytes derived from the seed and article number
	idCountBytes  = 3               // id bytes holding the article counter
	idBytes       = idTimeBytes + idSaltBytes + idCountBytes
	secondsPerDay = 86400
)

// MaxDays is the longest span of publication dates Generate spreads a
// corpus over: a century.
const MaxDays = 36500

// Config controls Generate. A zero or negative Articles or Days, or a zero
// End, takes its DefaultConfig value; Articles above MaxArticles and Days
// above MaxDays are capped.
type Config struct {
	// Seed selects the corpus: the same Config always yields the same corpus,
	// byte for byte, and different seeds yield different names, sites and
	// stories.
	Seed int64
	// Articles is the number of articles to generate.
	Articles int
	// End is the latest publication instant (truncated to the second).
	// Articles are published in the Days days before it, more of them
	// towards End.
	End time.Time
	// Days is the span of publication dates.
	Days int
}

// DefaultConfig returns the configuration of Default: 12,000 articles
// published in the 400 days up to 2026-06-30 23:59:59 UTC.
func DefaultConfig() Config {
	return Config{
		Seed:     defaultSeed,
		Articles: defaultCount,
		End:      time.Date(2026, time.June, 30, 23, 59, 59, 0, time.UTC),
		Days:     defaultDays,
	}
}

var defaultCorpus = sync.OnceValue(func() *Corpus { return Generate(DefaultConfig()) })

// Default returns the default corpus, Generate(DefaultConfig()). It is built
// on first use, once per process, and shared: callers must not modify it.
func Default() *Corpus { return defaultCorpus() }

// Generate expands the embedded vocabularies into a corpus as cfg asks. The
// result depends on cfg alone. Work is spread over GOMAXPROCS goroutines.
func Generate(cfg Config) *Corpus { return generate(cfg, runtime.GOMAXPROCS(0)) }

// generate is Generate with at most the given number of goroutines. Every
// article depends only on its position, so the number does not change the
// result.
func generate(cfg Config, workers int) *Corpus {
	cfg = cfg.normalise()
	g := newGenerator(cfg)
	g.plan(newRNG(cfg.Seed, 1))
	articles := make([]Article, len(g.slots))
	workers = max(1, min(workers, len(articles)/1000))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(articles)/workers, (w+1)*len(articles)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				articles[i] = g.article(i)
			}
		})
	}
	wg.Wait()
	return newCorpus(articles)
}

// normalise fills in defaults and caps the size.
func (cfg Config) normalise() Config {
	def := DefaultConfig()
	if cfg.Articles <= 0 {
		cfg.Articles = def.Articles
	}
	cfg.Articles = min(cfg.Articles, MaxArticles)
	if cfg.Days <= 0 {
		cfg.Days = def.Days
	}
	cfg.Days = min(cfg.Days, MaxDays)
	if cfg.End.IsZero() {
		cfg.End = def.End
	}
	cfg.End = cfg.End.UTC().Truncate(time.Second)
	return cfg
}

// named is a vocabulary entity: its name and Wikidata-style id.
type named struct {
	name, wikidata string
}

// person is a generated person.
type person struct {
	named
	last string
}

// genSite is a generated news site.
type genSite struct {
	Site
	host       string  // host of article URLs: the domain, with "www." for some sites
	urlStyle   int     // one of four URL layouts
	imageShare float64 // share of the site's articles with an image
	categories bool    // whether the site files articles under categories
}

// event is a news event: a story reported by several articles, or a
// one-off reported by one.
type event struct {
	label                               int32 // story label, -1 for a one-off
	lang, kind                          int
	person, person2, org, org2, product int
	place, topic, subject               int // subject: -1 for none
	num, amount, count, figure          string
	tone                                float64
	category, eventName, eventID        string
	topics                              []string
	titleTurn, descTurn                 int
}

// slot is one planned article.
type slot struct {
	event, pos, site int
	when             int64 // Unix seconds, then milliseconds (see plan)
	id               string
}

// generator holds a corpus under construction.
type generator struct {
	cfg        Config
	start, end int64

	sites     []genSite
	v         *vocabulary
	langSites [][]int
	langCum   [][]float64 // cumulative site weights per language
	langs     *rotation   // of languages, by weight
	kinds     []*rotation // per language, of kinds, by weight
	turns     []int       // per language and kind, the events drawn

	persons     []person
	langPersons [][]int
	orgs        []named
	products    []named
	placeIDs    []string
	langPlaces  [][]int
	intlPlaces  []int
	groupTopics map[string][]int
	groupSubs   map[string][]int
	subjectIDs  []named // by subject: its English name and id

	events []event
	slots  []slot
	salt   uint64
}

// newGenerator draws the corpus's sites and names.
func newGenerator(cfg Config) *generator {
	v := vocab()
	n := len(v.packs)
	g := &generator{
		cfg:         cfg,
		end:         cfg.End.Unix(),
		v:           v,
		langSites:   make([][]int, n),
		langCum:     make([][]float64, n),
		langPersons: make([][]int, n),
		langPlaces:  make([][]int, n),
		groupTopics: map[string][]int{},
		groupSubs:   map[string][]int{},
		salt:        mix64(uint64(cfg.Seed) ^ 0x1d5a17),
	}
	g.start = g.end - int64(cfg.Days)*secondsPerDay
	r := newRNG(cfg.Seed, 0)
	g.makeSites(r)
	g.makePeople(r)
	g.orgs = combine(r, v.OrgBrands, v.OrgSectors, v.Orgs, "ORGANIZATION")
	g.products = combine(r, v.ProductBrands, v.ProductModels, v.Products, "PRODUCT")
	for i, p := range v.places {
		g.placeIDs = append(g.placeIDs, wikidataID("LOCATION", p.name))
		if p.lang < 0 {
			g.intlPlaces = append(g.intlPlaces, i)
		} else {
			g.langPlaces[p.lang] = append(g.langPlaces[p.lang], i)
		}
	}
	for i, t := range v.topics {
		g.groupTopics[t.group] = append(g.groupTopics[t.group], i)
	}
	for i, s := range v.subjects {
		g.groupSubs[s.group] = append(g.groupSubs[s.group], i)
		g.subjectIDs = append(g.subjectIDs, named{s.label, wikidataID(s.typ, s.label)})
	}
	var langWeights, kindWeights []float64
	for _, pk := range v.packs {
		langWeights = append(langWeights, pk.Weight)
	}
	for _, k := range v.Kinds {
		kindWeights = append(kindWeights, k.Weight)
	}
	g.langs = newRotation(langWeights)
	for range v.packs {
		g.kinds = append(g.kinds, newRotation(kindWeights))
	}
	g.turns = make([]int, len(v.packs)*len(v.Kinds))
	return g
}

// makeSites draws every language's news sites with their traffic percentiles
// (skewed towards small sites) and URL habits.
func (g *generator) makeSites(r *rng) {
	seen := map[string]bool{}
	for lang, pk := range g.v.packs {
		cum := 0.0
		for len(g.langSites[lang]) < pk.Sites {
			domain := pick(r, pk.SitePrefixes) + pick(r, pk.SiteSuffixes) + pick(r, pk.TLDs)
			if seen[domain] {
				continue
			}
			seen[domain] = true
			traffic := min(100, int(101*math.Pow(r.float(), 1.3)))
			s := genSite{
				Site:       Site{Domain: domain, Traffic: traffic, Language: pk.code},
				host:       domain,
				urlStyle:   r.intn(4),
				imageShare: 0.5 + 0.45*r.float(),
				categories: r.chance(0.88),
			}
			if r.chance(0.7) {
				s.host = "www." + domain
			}
			switch r.intn(4) {
			case 0:
				s.Favicon = "https://" + s.host + "/favicon.ico"
			case 1:
				s.Favicon = "https://static." + domain + "/icons/favicon-32.png"
			default:
				s.Favicon = "https://" + domain + "/favicon.ico"
			}
			// Busier sites publish more: weight 0.4 (smallest) to 4.4 (busiest).
			cum += 0.4 + 4*math.Pow(float64(traffic)/100, 2)
			g.langSites[lang] = append(g.langSites[lang], len(g.sites))
			g.langCum[lang] = append(g.langCum[lang], cum)
			g.sites = append(g.sites, s)
		}
	}
}

// makePeople draws every language's people from its name pools.
func (g *generator) makePeople(r *rng) {
	seen := map[string]bool{}
	for lang, pk := range g.v.packs {
		for len(g.langPersons[lang]) < pk.Persons {
			last := pick(r, pk.LastNames)
			full := pick(r, pk.FirstNames) + " " + last
			if seen[full] {
				continue
			}
			seen[full] = true
			g.langPersons[lang] = append(g.langPersons[lang], len(g.persons))
			g.persons = append(g.persons, person{named{full, wikidataID("PERSON", full)}, last})
		}
	}
}

// combine returns n distinct "a b" names from the cross product of as and bs,
// in random order.
func combine(r *rng, as, bs []string, n int, kind string) []named {
	all := make([]named, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			all = append(all, named{name: a + " " + b})
		}
	}
	for i := len(all) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		all[i], all[j] = all[j], all[i]
	}
	all = all[:min(n, len(all))]
	for i := range all {
		all[i].wikidata = wikidataID(kind, all[i].name)
	}
	return all
}

// wikidataID derives a stable Wikidata-style id ("Q" and digits) from an
// entity's type and name.
func wikidataID(kind, name string) string {
	h := tokenHash([]byte(kind + "/" + name))
	return "Q" + strconv.FormatUint(100000+h%120000000, 10)
}

// plan draws the events until they hold cfg.Articles articles, spreads
// them over the span in the order they were drawn, and orders the articles'
// slots as the corpus orders articles. Languages, kinds, topics and subjects
// are dealt in rotation (see rotation), and events are placed at evenly
// spaced quantiles of a density growing exponentially towards End, so every
// stretch of time holds its share of each: the newest week of a small corpus
// still has central bank decisions, storms and elections in every language.
func (g *generator) plan(r *rng) {
	n := g.cfg.Articles
	// An event has about four articles on average: room for the events of
	// n articles, with a margin, spares regrowing the slices.
	g.events = make([]event, 0, n/3+16)
	sizes := make([]int, 0, n/3+16)
	stories := int32(0)
	for total := 0; total < n; {
		ev := g.newEvent(r)
		size := 1
		if !r.chance(oneOffShare) {
			size = 2 + int(float64(maxStorySize-1)*math.Pow(r.float(), 1.8))
		}
		size = min(size, len(g.langSites[ev.lang]), n-total)
		ev.label = -1
		if size > 1 {
			ev.label = stories
			stories++
		}
		g.events = append(g.events, ev)
		sizes = append(sizes, size)
		total += size
	}
	g.slots = make([]slot, 0, n)
	span := float64(g.end - g.start)
	for e, ev := range g.events {
		q := (float64(e) + r.float()) / float64(len(g.events))
		x := math.Log1p(q*math.Expm1(densityGrowth)) / densityGrowth
		anchor := g.start + int64(x*span)
		window := float64(min(storyWindow, g.end-anchor))
		for pos, site := range g.pickSites(r, ev.lang, sizes[e]) {
			when := anchor
			if pos > 0 {
				u := r.float()
				when += int64(window * u * u)
			}
			g.slots = append(g.slots, slot{event: e, pos: pos, site: site, when: when})
		}
	}
	for i := range g.slots {
		sl := &g.slots[i]
		sl.id = g.articleID(sl.when, uint64(i))
		// From here on when is in milliseconds: times carry a fraction of a
		// second, as the service's do, drawn without touching r.
		sl.when = sl.when*1000 + int64(mix64(^g.salt^uint64(i))%1000)
	}
	slices.SortFunc(g.slots, func(a, b slot) int {
		return cmp.Or(cmp.Compare(a.when, b.when), cmp.Compare(a.id, b.id))
	})
}

// rotation deals indexes in proportion to their weights, each as evenly
// spread over the sequence as the weights allow (smooth weighted
// round-robin): any stretch of it holds about its share of every index.
type rotation struct {
	weights, credits []float64
	total            float64
}

func newRotation(weights []float64) *rotation {
	ro := &rotation{weights: weights, credits: make([]float64, len(weights))}
	for _, w := range weights {
		ro.total += w
	}
	return ro
}

// next returns the next index of the rotation.
func (ro *rotation) next() int {
	best := 0
	for i, w := range ro.weights {
		ro.credits[i] += w
		if ro.credits[i] > ro.credits[best] {
			best = i
		}
	}
	ro.credits[best] -= ro.total
	return best
}

// articleID returns a 24-hex id in the manner of a database object id: the
// publication time, five bytes derived from the seed and the article
// number, and a counter that makes the id unique.
func (g *generator) articleID(when int64, n uint64) string {
	var b [idBytes]byte
	t := uint32(when)
	b[0], b[1], b[2], b[3] = byte(t>>24), byte(t>>16), byte(t>>8), byte(t)
	salt := mix64(g.salt ^ n)
	for i := range idSaltBytes {
		b[idTimeBytes+i] = byte(salt >> (8 * i))
	}
	c := (n + g.salt>>40) & idCounterMask
	b[9], b[10], b[11] = byte(c>>16), byte(c>>8), byte(c)
	return hex.EncodeToString(b[:])
}

// newEvent makes the next event: its language and kind in rotation, its
// topic and subject in turn (the language's events of a kind go round the
// kind's lists), and its names, numbers and tone drawn from r.
func (g *generator) newEvent(r *rng) event {
	v := g.v
	lang := g.langs.next()
	kind := g.kinds[lang].next()
	turn := g.turns[lang*len(v.Kinds)+kind] // this language's events of this kind so far
	g.turns[lang*len(v.Kinds)+kind]++
	ki := &v.Kinds[kind]
	kt := &v.packs[lang].kinds[kind]
	ev := event{
		lang:      lang,
		kind:      kind,
		person:    g.pickPerson(r, lang),
		org:       r.intn(len(g.orgs)),
		product:   r.intn(len(g.products)),
		topic:     cycle(g.groupTopics[ki.Topics], turn),
		num:       strconv.Itoa(r.between(2, 60)),
		amount:    strconv.Itoa(r.between(40, 950)),
		count:     strconv.Itoa(r.between(300, 9000)),
		figure:    strconv.Itoa(r.between(10, 59)),
		subject:   -1,
		tone:      clamp(ki.Tone + (r.float()-0.5)*0.4),
		category:  pick(r, ki.Categories),
		titleTurn: r.intn(len(kt.Titles)),
		descTurn:  r.intn(len(kt.Descs)),
	}
	for ev.person2 = ev.person; ev.person2 == ev.person; {
		ev.person2 = g.pickPerson(r, lang)
	}
	for ev.org2 = ev.org; ev.org2 == ev.org; {
		ev.org2 = r.intn(len(g.orgs))
	}
	if ki.Subjects != "" {
		ev.subject = cycle(g.groupSubs[ki.Subjects], turn)
	}
	if !ki.Abroad && r.chance(homePlaceBias) {
		ev.place = pick(r, g.langPlaces[lang])
	} else {
		ev.place = pick(r, g.intlPlaces)
	}
	if strings.Contains(ki.Mentions, "E") { // named in the first language, English
		ev.eventName = v.places[ev.place].name + " " + titleCase(v.packs[0].Topics[v.topics[ev.topic].label])
		ev.eventID = wikidataID("EVENT", ev.eventName)
	}
	ev.topics = []string{v.topics[ev.topic].label, ki.Label, v.places[ev.place].region}
	return ev
}

// cycle returns the element of s that the turn-th event takes when events
// go round s in order.
func cycle(s []int, turn int) int { return s[turn%len(s)] }

// pickPerson draws a person, usually one named in lang.
func (g *generator) pickPerson(r *rng, lang int) int {
	if r.chance(homeNameBias) {
		return pick(r, g.langPersons[lang])
	}
	return r.intn(len(g.persons))
}

// pickSites draws n distinct sites of lang, busier sites more often.
func (g *generator) pickSites(r *rng, lang, n int) []int {
	cum := g.langCum[lang]
	chosen := make([]int, 0, n)
	for len(chosen) < n {
		s := g.langSites[lang][searchCum(cum, r.float()*cum[len(cum)-1])]
		if !slices.Contains(chosen, s) {
			chosen = append(chosen, s)
		}
	}
	return chosen
}

// searchCum returns the index of the first cumulative weight above x.
func searchCum(cum []float64, x float64) int {
	i, _ := slices.BinarySearch(cum, x)
	if i < len(cum) && cum[i] == x {
		i++
	}
	return min(i, len(cum)-1)
}

// clamp bounds a sentiment score to [-1, 1].
func clamp(x float64) float64 { return math.Max(-maxSentiment, math.Min(maxSentiment, x)) }

// round rounds x to the given number of decimals.
func round(x float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(x*p) / p
}
