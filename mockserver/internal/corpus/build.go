package corpus

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// values holds the strings an article's template slots expand to.
type values struct {
	P, p, Q, q, O, R, L, X, T, S, N, M, K, F, D string
}

// get returns the value of the slot named by letter c.
func (v *values) get(c byte) string {
	switch c {
	case 'P':
		return v.P
	case 'p':
		return v.p
	case 'Q':
		return v.Q
	case 'q':
		return v.q
	case 'O':
		return v.O
	case 'R':
		return v.R
	case 'L':
		return v.L
	case 'X':
		return v.X
	case 'T':
		return v.T
	case 'S':
		return v.S
	case 'N':
		return v.N
	case 'M':
		return v.M
	case 'K':
		return v.K
	case 'F':
		return v.F
	default: // 'D'; the template test pins the letters in use
		return v.D
	}
}

// article writes the article of slot i, its strings stored in arena. buf is
// scratch space, returned for reuse.
func (g *generator) article(i int, buf []byte, arena *textArena) (Article, []byte) {
	s := &g.slots[i]
	ev := &g.events[s.event]
	site := &g.sites[s.site]
	pk := g.v.packs[ev.lang]
	kt := &pk.kinds[ev.kind]
	r := newRNG(g.cfg.Seed, uint64(i)+1<<40)
	published := time.Unix(s.when, 0).UTC()
	v := values{
		P: g.persons[ev.person].name, p: g.persons[ev.person].last,
		Q: g.persons[ev.person2].name, q: g.persons[ev.person2].last,
		O: g.orgs[ev.org].name, R: g.orgs[ev.org2].name,
		L: g.v.places[ev.place].name, X: g.products[ev.product].name,
		T: g.v.topics[ev.topic].names[ev.lang],
		N: ev.num, M: ev.amount, K: ev.count,
		F: ev.figure[:1] + pk.Decimal + ev.figure[1:], // 1.0 to 5.9
		D: pk.Weekdays[published.Weekday()],
	}
	if ev.subject >= 0 {
		v.S = g.v.subjects[ev.subject].names[ev.lang]
	}

	// Title, description and body are rendered together, and URL and image
	// together, then stored in the worker's arena: no allocation of their
	// own.
	buf = appendSentence(buf[:0], kt.Titles[(ev.titleTurn+s.pos)%len(kt.Titles)], &v, r)
	titleEnd := len(buf)
	buf = appendSentence(buf, kt.Descs[(ev.descTurn+s.pos)%len(kt.Descs)], &v, r)
	descEnd := len(buf)
	// The body: two of the kind's body sentences in random order, usually
	// followed by a closing sentence.
	first := r.intn(len(kt.Bodies))
	second := (first + 1 + r.intn(len(kt.Bodies)-1)) % len(kt.Bodies)
	buf = appendSentence(buf, kt.Bodies[first], &v, r)
	buf = append(buf, ' ')
	buf = appendSentence(buf, kt.Bodies[second], &v, r)
	if r.chance(0.75) {
		buf = append(buf, ' ')
		buf = appendSentence(buf, pick(r, pk.Generic), &v, r)
	}
	text := arena.add(buf)
	title, desc, body := text[:titleEnd], text[titleEnd:descEnd], text[descEnd:]

	a := Article{
		ID:          s.id,
		Title:       title,
		Description: desc,
		Body:        body,
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
	buf = appendArticleURL(buf[:0], site, ev, title, s.id)
	urlEnd := len(buf)
	if r.chance(site.imageShare) {
		buf = appendImageURL(buf, site, s.id)
	}
	links := arena.add(buf)
	a.URL, a.Image = links[:urlEnd], links[urlEnd:]
	if r.chance(encodedShare) {
		a.Entities, a.Relationships = g.entities(ev, r)
		a.DerivedEmbedding = true // Vector computes it from the text when asked
	}
	return a, buf
}

// arenaBlock is the size of the strings a textArena cuts its strings from.
const arenaBlock = 128 << 10

// textArena stores many short strings in a few large blocks: one allocation
// per block instead of one per string, and no size-class rounding. A string
// it returns keeps its whole block alive, which suits an immutable corpus.
type textArena struct {
	b strings.Builder
}

// add returns a string holding a copy of p.
func (t *textArena) add(p []byte) string {
	if t.b.Cap()-t.b.Len() < len(p) {
		// A new block; strings already handed out keep the old one. A
		// Builder only ever appends, so they never change.
		t.b = strings.Builder{}
		t.b.Grow(max(arenaBlock, len(p)))
	}
	start := t.b.Len()
	t.b.Write(p)
	return t.b.String()[start:]
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

// appendSentence renders tmpl onto buf and capitalises its first letter.
func appendSentence(buf []byte, tmpl string, v *values, r *rng) []byte {
	start := len(buf)
	buf = render(buf, tmpl, v, r)
	c, size := utf8.DecodeRune(buf[start:])
	if up := unicode.ToUpper(c); up != c {
		if utf8.RuneLen(up) == size {
			utf8.EncodeRune(buf[start:], up)
		} else {
			rest := string(buf[start+size:])
			buf = append(utf8.AppendRune(buf[:start], up), rest...)
		}
	}
	return buf
}

// render expands a template's slots and alternatives onto buf.
func render(buf []byte, tmpl string, v *values, r *rng) []byte {
	for i := 0; i < len(tmpl); {
		switch c := tmpl[i]; c {
		case '{':
			buf = append(buf, v.get(tmpl[i+1])...)
			i += 3
		case '[':
			end := i + strings.IndexByte(tmpl[i:], ']')
			alts := tmpl[i+1 : end]
			for k := r.intn(strings.Count(alts, "|") + 1); k > 0; k-- {
				alts = alts[strings.IndexByte(alts, '|')+1:]
			}
			if j := strings.IndexByte(alts, '|'); j >= 0 {
				alts = alts[:j]
			}
			buf = render(buf, alts, v, r)
			i = end + 1
		default:
			buf = append(buf, c)
			i++
		}
	}
	return buf
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

// appendSlug appends the URL slug of a title: lower-case ASCII words joined
// by hyphens, cut at a word boundary.
func appendSlug(buf []byte, title string) []byte {
	start := len(buf)
	wordEnd := start // end of the last complete word
	hyphen := false
	for _, c := range title {
		c = unicode.ToLower(c)
		ascii := 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		fold, n := "", 1
		if !ascii {
			fold = slugFolds[c]
			n = len(fold)
		}
		if n == 0 {
			hyphen = len(buf) > start
			continue
		}
		if hyphen {
			wordEnd = len(buf)
			buf = append(buf, '-')
			hyphen = false
		}
		if len(buf)-start+n > maxSlug {
			return buf[:wordEnd]
		}
		if ascii {
			buf = append(buf, byte(c))
		} else {
			buf = append(buf, fold...)
		}
	}
	return buf
}

// appendArticleURL appends an article's URL in its site's layout, with the
// slug of its title. No layout carries a date: the server shifts publication
// dates, and a URL must not contradict the datePublished it is served with.
func appendArticleURL(buf []byte, site *genSite, ev *event, title, id string) []byte {
	buf = append(append(append(buf, "https://"...), site.host...), '/')
	switch site.urlStyle {
	case 0:
		buf = append(buf, "stories/"...)
		buf = appendSlug(buf, title)
		return append(append(buf, '-'), id[18:]...)
	case 1:
		for _, c := range ev.category { // strings.ToLower, without the string
			buf = utf8.AppendRune(buf, unicode.ToLower(c))
		}
		buf = append(buf, '/')
		buf = appendSlug(buf, title)
		return append(append(buf, '-'), id[16:]...)
	case 2:
		buf = append(append(append(buf, "news/"...), id[:4]...), '/')
		buf = appendSlug(buf, title)
		return append(append(append(buf, '-'), id[20:]...), ".html"...)
	default:
		buf = append(append(append(buf, "article/"...), id...), '/')
		return appendSlug(buf, title)
	}
}

// appendImageURL appends the URL of an article's picture.
func appendImageURL(buf []byte, site *genSite, id string) []byte {
	if site.urlStyle%2 == 0 {
		buf = append(append(append(buf, "https://"...), site.host...), "/images/"...)
		buf = append(append(append(buf, id[:2]...), '/'), id[:16]...)
		return append(buf, ".jpg"...)
	}
	buf = append(append(append(buf, "https://cdn."...), site.Domain...), "/media/"...)
	return append(append(buf, id...), ".jpg"...)
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
