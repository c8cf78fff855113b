package corpus

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// The word lists are data: common.json holds what does not depend on
// language, a file per language (en.json, ...) its sites, people, places,
// phrases and templates, languages.txt the ISO 639-1 names and
// stopwords.txt the words embeddings leave out. Names are invented, but for
// real cities and a few public figures, institutions and events; no text is
// taken from real articles.
//
//go:embed data
var dataFiles embed.FS

// kindInfo describes an event kind independently of language. Every
// story reports one event of one kind.
type kindInfo struct {
	Name       string   // the key of the kind's templates in a language file
	Label      string   // the kind's topic label, one of an article's three topics
	Categories []string // article categories the kind is filed under
	Topics     string   // the topic group {T} is drawn from
	Subjects   string   // the subject group {S} is drawn from, "" for none
	Tone       float64  // typical sentiment of the coverage
	Weight     float64  // share of the corpus's events, relative to other kinds
	Abroad     bool     // whether its stories happen in international places only
	// Mentions lists the entity slots the kind's articles name besides P
	// and L, by template letter: Q, O, R, X, S, or E (the event itself,
	// such as "Madrid Marathon").
	Mentions  string
	Relations [][3]string // source slot, target slot, relation
}

// langPack is what the generator needs to write articles in one language.
//
// Template slots: {P} and {Q} the story's two people, {p} and {q} their
// surnames, {O} and {R} its organisations, {L} its place, {X} its product,
// {T} its topic, {S} its subject, {N} a small number, {F} a figure 1.0 to
// 5.9, {M} an amount in millions, {K} a head count, {D} the weekday;
// [a|b|c] picks one at random. Sentences start with a capital.
type langPack struct {
	code    string
	Weight  float64 // share of the corpus's events
	Decimal string  // the decimal mark of {F}
	Sites   int     // number of news sites

	// Site domains are a prefix, a suffix and a top-level domain.
	SitePrefixes, SiteSuffixes, TLDs []string

	// People are a first name and a last name of these pools.
	FirstNames, LastNames []string
	Persons               int

	Weekdays [7]string         // Sunday first, as time.Weekday
	Generic  []string          // closing sentences that fit any story
	Places   [][2]string       // cities the language's stories prefer: name, region
	Topics   map[string]string // phrase by topic label
	Subjects map[string]string // phrase by subject label
	Kinds    map[string]kindText

	kinds []kindText // Kinds in the order of vocabulary.Kinds
}

// kindText holds the templates of one event kind in one language.
type kindText struct {
	Titles, Descs, Bodies []string
}

// topic is a subject a story is about: an English label (used in an
// article's topics) and its group. Every language has a phrase for it
// (langPack.Topics).
type topic struct {
	label, group string
}

// subject is a named entity stories of a kind are about: its English name,
// entity type and group. Every language has a phrase for it
// (langPack.Subjects).
type subject struct {
	label, typ, group string
}

// place is a city stories happen in. lang is the index in packs of the
// language whose stories prefer it, or -1 for a city any language may use.
type place struct {
	name, region string
	lang         int
}

// vocabulary is the content of data/.
type vocabulary struct {
	Languages []string
	Kinds     []kindInfo
	Topics    [][2]string // label, group
	Subjects  [][3]string // label, entity type, group
	Places    [][2]string // international cities: name, region

	// Organisation and product names are an invented brand word and a
	// sector word or model; a corpus draws Orgs and Products of them.
	OrgBrands, OrgSectors        []string
	Orgs                         int
	ProductBrands, ProductModels []string
	Products                     int

	packs    []*langPack
	topics   []topic
	subjects []subject
	places   []place
}

// vocab returns the embedded vocabulary, read on first use.
var vocab = sync.OnceValue(func() *vocabulary {
	v, err := readVocabulary(dataFiles)
	if err != nil {
		panic("corpus: embedded data: " + err.Error()) // TestTemplates checks the same files
	}
	return v
})

// readVocabulary reads data/common.json and a file per language from fsys
// and checks that they fit together.
func readVocabulary(fsys fs.FS) (*vocabulary, error) {
	v := &vocabulary{}
	if err := readJSON(fsys, "data/common.json", v); err != nil {
		return nil, err
	}
	for lang, code := range v.Languages {
		pk := &langPack{code: code}
		file := "data/" + code + ".json"
		if err := readJSON(fsys, file, pk); err != nil {
			return nil, err
		}
		for _, k := range v.Kinds {
			kt, ok := pk.Kinds[k.Name]
			if !ok || len(kt.Titles) == 0 || len(kt.Descs) == 0 || len(kt.Bodies) < 2 {
				return nil, fmt.Errorf("%s: kind %q needs titles, descs and two bodies at least", file, k.Name)
			}
			pk.kinds = append(pk.kinds, kt)
		}
		if len(pk.Kinds) != len(v.Kinds) {
			return nil, fmt.Errorf("%s: %d kinds, want the %d of common.json", file, len(pk.Kinds), len(v.Kinds))
		}
		for _, p := range pk.Places {
			v.places = append(v.places, place{p[0], p[1], lang})
		}
		v.packs = append(v.packs, pk)
	}
	for _, p := range v.Places {
		v.places = append(v.places, place{p[0], p[1], -1})
	}
	for _, t := range v.Topics {
		v.topics = append(v.topics, topic{t[0], t[1]})
	}
	for _, sj := range v.Subjects {
		v.subjects = append(v.subjects, subject{sj[0], sj[1], sj[2]})
	}
	for _, pk := range v.packs {
		for _, t := range v.topics {
			if _, ok := pk.Topics[t.label]; !ok {
				return nil, fmt.Errorf("data/%s.json: no phrase for topic %q", pk.code, t.label)
			}
		}
		for _, sj := range v.subjects {
			if _, ok := pk.Subjects[sj.label]; !ok {
				return nil, fmt.Errorf("data/%s.json: no phrase for subject %q", pk.code, sj.label)
			}
		}
	}
	return v, nil
}

// readJSON decodes a file of fsys into v, refusing unknown members.
func readJSON(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// dataLines returns the lines of a text file of data/, without blank lines
// and # comments.
func dataLines(name string) []string {
	b, err := dataFiles.ReadFile(name)
	if err != nil {
		panic("corpus: embedded data: " + err.Error())
	}
	var lines []string
	for line := range strings.Lines(string(b)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return lines
}
