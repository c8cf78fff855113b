package corpus

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// article writes the article of slot i.
func (g *generator) article(i int) Article {
	s := &g.slots[i]
	ev := &g.events[s.event]
	site := &g.sites[s.site]
	pk := g.v.packs[ev.lang]
	kt := &pk.kinds[ev.kind]
	r := newRNG(g.cfg.Seed, uint64(i)+1<<40)
	published := time.UnixMilli(s.when).UTC()
	var v values
	v['P'], v['p'] = g.persons[ev.person].name, g.persons[ev.person].last
	v['Q'], v['q'] = g.persons[ev.person2].name, g.persons[ev.person2].last
	v['O'], v['R'] = g.orgs[ev.org].name, g.orgs[ev.org2].name
	v['L'], v['X'] = g.v.places[ev.place].name, g.products[ev.product].name
	v['T'] = pk.Topics[g.v.topics[ev.topic].label]
	if ev.subject >= 0 {
		v['S'] = pk.Subjects[g.v.subjects[ev.subject].label]
	}
	v['N'], v['M'], v['K'] = ev.num, ev.amount, ev.count
	v['F'] = ev.figure[:1] + pk.Decimal + ev.figure[1:] // 1.0 to 5.9
	v['D'] = pk.Weekdays[published.Weekday()]

	title := sentence(kt.Titles[(ev.titleTurn+s.pos)%len(kt.Titles)], &v, r)
	desc := sentence(kt.Descs[(ev.descTurn+s.pos)%len(kt.Descs)], &v, r)
	// The body: two of the kind's body sentences in random order, usually
	// followed by a closing sentence.
	first := r.intn(len(kt.Bodies))
	second := (first + 1 + r.intn(len(kt.Bodies)-1)) % len(kt.Bodies)
	body := []string{sentence(kt.Bodies[first], &v, r), sentence(kt.Bodies[second], &v, r)}
	if r.chance(0.75) {
		body = append(body, sentence(pick(r, pk.Generic), &v, r))
	}

	a := Article{
		ID:          s.id,
		Title:       title,
		Description: desc,
		Body:        strings.Join(body, " "),
		URL:         articleURL(site, ev.category, title, s.id),
		Site:        site.Domain,
		Favicon:     site.Favicon,
		Language:    pk.code,
		Traffic:     site.Traffic,
		Published:   published,
		Topics:      ev.topics, // shared by the event's articles: corpora are immutable
		Sentiment: Sentiment{
			Title:       round(clamp(ev.tone+(r.float()-0.5)*0.5), 4),
			Description: round(clamp(ev.tone+(r.float()-0.5)*0.5), 4),
		},
		Story: ev.label,
	}
	if site.categories {
		a.Category = ev.category
	}
	if r.chance(site.imageShare) {
		a.Image = imageURL(site, s.id)
	}
	if r.chance(encodedShare) {
		a.Entities, a.Relationships = g.entities(ev, r)
		a.DerivedEmbedding = true // Vector computes it from the text when asked
	}
	return a
}

// entities returns the entities an event's article names and the
// relationships between them, with per-article sentiment and confidence.
func (g *generator) entities(ev *event, r *rng) ([]Entity, []Relationship) {
	ki := &g.v.Kinds[ev.kind]
	type slotted struct {
		slot byte
		named
	}
	mentioned := make([]slotted, 0, 6)
	mentioned = append(mentioned, slotted{'P', g.persons[ev.person].named})
	if strings.Contains(ki.Mentions, "Q") {
		mentioned = append(mentioned, slotted{'Q', g.persons[ev.person2].named})
	}
	if strings.Contains(ki.Mentions, "O") {
		mentioned = append(mentioned, slotted{'O', g.orgs[ev.org]})
	}
	if strings.Contains(ki.Mentions, "R") {
		mentioned = append(mentioned, slotted{'R', g.orgs[ev.org2]})
	}
	if strings.Contains(ki.Mentions, "S") {
		mentioned = append(mentioned, slotted{'S', g.subjectIDs[ev.subject]})
	}
	mentioned = append(mentioned, slotted{'L', named{g.v.places[ev.place].name, g.placeIDs[ev.place]}})
	if strings.Contains(ki.Mentions, "X") {
		mentioned = append(mentioned, slotted{'X', g.products[ev.product]})
	}
	if strings.Contains(ki.Mentions, "E") {
		mentioned = append(mentioned, slotted{'E', named{ev.eventName, ev.eventID}})
	}
	name := func(slot byte) string {
		for _, m := range mentioned {
			if m.slot == slot {
				return m.name
			}
		}
		return "" // unreachable: TestTemplates checks relations name filled slots
	}
	ents := make([]Entity, len(mentioned))
	for i, m := range mentioned {
		ents[i] = Entity{
			Name:       m.name,
			Type:       g.entityType(ev, m.slot),
			WikidataID: m.wikidata,
			Sentiment:  round(clamp(ev.tone+(r.float()-0.5)*0.6), 3),
			Confidence: round(0.55+0.44*r.float(), 3),
		}
	}
	rels := make([]Relationship, len(ki.Relations))
	for i, rel := range ki.Relations {
		rels[i] = Relationship{
			Source:     name(rel[0][0]),
			Target:     name(rel[1][0]),
			Relation:   rel[2],
			Confidence: round(0.5+0.49*r.float(), 3),
		}
	}
	return ents, rels
}

// entityType names the entity type of an event's slot.
func (g *generator) entityType(ev *event, slot byte) string {
	switch slot {
	case 'S':
		return g.v.subjects[ev.subject].typ
	case 'P', 'Q':
		return "PERSON"
	case 'O', 'R':
		return "ORGANIZATION"
	case 'L':
		return "LOCATION"
	case 'X':
		return "PRODUCT"
	default:
		return "EVENT"
	}
}

// values holds the strings an article's template slots expand to, by
// letter: {P} expands to v['P'].
type values [128]string

// sentence renders tmpl with the slot values v and capitalises its first
// letter.
func sentence(tmpl string, v *values, r *rng) string {
	var b strings.Builder
	b.Grow(len(tmpl) + 32) // room for most expansions
	render(&b, tmpl, v, r)
	s := b.String()
	c, size := utf8.DecodeRuneInString(s)
	if up := unicode.ToUpper(c); up != c {
		return string(up) + s[size:]
	}
	return s
}

// render expands a template's slots and alternatives onto b.
func render(b *strings.Builder, tmpl string, v *values, r *rng) {
	for {
		i := strings.IndexAny(tmpl, "{[")
		if i < 0 {
			b.WriteString(tmpl)
			return
		}
		b.WriteString(tmpl[:i])
		if tmpl[i] == '{' {
			b.WriteString(v[tmpl[i+1]])
			tmpl = tmpl[i+3:]
			continue
		}
		end := strings.IndexByte(tmpl, ']')
		alts := tmpl[i+1 : end]
		for range r.intn(strings.Count(alts, "|") + 1) { // skip to a random alternative
			_, alts, _ = strings.Cut(alts, "|")
		}
		alt, _, _ := strings.Cut(alts, "|")
		render(b, alt, v, r)
		tmpl = tmpl[end+1:]
	}
}

// slugFolds spells accented letters of the corpus languages in ASCII.
var slugFolds = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'æ': "ae", 'ç': "c",
	'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i",
	'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o", 'œ': "oe",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ý': "y", 'ÿ': "y", 'ß': "ss",
}

// maxSlug is the longest URL slug, in bytes.
const maxSlug = 70

// slug returns the URL slug of a title: lower-case ASCII words joined by
// hyphens, cut at a word boundary.
func slug(title string) string {
	var b strings.Builder
	b.Grow(maxSlug)
	wordEnd := 0 // the end of the last complete word
	hyphen := false
	for _, c := range title {
		c = unicode.ToLower(c)
		word := string(c)
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			word = slugFolds[c]
		}
		if word == "" {
			hyphen = b.Len() > 0
			continue
		}
		if hyphen {
			wordEnd = b.Len()
			b.WriteByte('-')
			hyphen = false
		}
		if b.Len()+len(word) > maxSlug {
			return b.String()[:wordEnd]
		}
		b.WriteString(word)
	}
	return b.String()
}

// articleURL returns an article's URL in its site's layout, with the slug
// of its title. No layout carries a date: the server shifts publication
// dates, and a URL must not contradict the datePublished it is served with.
func articleURL(site *genSite, category, title, id string) string {
	switch site.urlStyle {
	case 0:
		return "https://" + site.host + "/stories/" + slug(title) + "-" + id[18:]
	case 1:
		return "https://" + site.host + "/" + strings.ToLower(category) + "/" + slug(title) + "-" + id[16:]
	case 2:
		return "https://" + site.host + "/news/" + id[:4] + "/" + slug(title) + "-" + id[20:] + ".html"
	default:
		return "https://" + site.host + "/article/" + id + "/" + slug(title)
	}
}

// imageURL returns the URL of an article's picture.
func imageURL(site *genSite, id string) string {
	if site.urlStyle%2 == 0 {
		return "https://" + site.host + "/images/" + id[:2] + "/" + id[:16] + ".jpg"
	}
	return "https://cdn." + site.Domain + "/media/" + id + ".jpg"
}

// titleCase capitalises the first letter of every word of s.
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		c, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(c)) + w[size:]
	}
	return strings.Join(words, " ")
}
