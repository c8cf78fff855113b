package corpus

// Corpus languages, as indexes into packs.
const (
	langEN = iota
	langES
	langFR
	langDE
	langIT
	langPT
	langNL
	langSV
	numLangs
)

// langPack is everything the generator needs to write articles in one
// language.
//
// Templates use these slots: {P} and {Q} full names of the story's two
// people, {p} and {q} their surnames, {O} and {R} its two organisations, {L}
// its place, {X} its product, {T} its topic phrase, {N} a small number, {M}
// an amount in millions, {K} a head count and {D} the weekday of publication.
// [a|b|c] picks one alternative at random. The first letter of every
// rendered sentence is capitalised.
type langPack struct {
	code   string
	weight float64 // share of the corpus's events
	sites  int     // number of news sites

	// Site domains are a prefix, a suffix and a top-level domain.
	sitePrefixes, siteSuffixes, tlds []string

	// People are a first name and a last name of these pools.
	firstNames, lastNames []string
	persons               int

	weekdays [7]string // Sunday first, as time.Weekday
	generic  []string  // closing sentences that fit any story
	kinds    [numKinds]kindText
}

// kindText holds the templates of one event kind in one language.
type kindText struct {
	titles, descs, bodies []string
}

var packs = [numLangs]*langPack{&packEN, &packES, &packFR, &packDE, &packIT, &packPT, &packNL, &packSV}
