package corpus

import (
	"cmp"
	"slices"
)

// newCorpus orders articles by (Published, ID) and derives the corpus's
// sites and languages from them. A site's traffic and favicon are those of
// its first article; its language is the one most of its articles use (ties
// go to the smaller code).
func newCorpus(articles []Article) *Corpus {
	slices.SortFunc(articles, compareArticles)
	type siteInfo struct {
		site  Site
		langs map[string]int
	}
	bySite := map[string]*siteInfo{}
	langs := map[string]bool{}
	for i := range articles {
		a := &articles[i]
		langs[a.Language] = true
		info := bySite[a.Site]
		if info == nil {
			info = &siteInfo{site: Site{Domain: a.Site, Traffic: a.Traffic, Favicon: a.Favicon}, langs: map[string]int{}}
			bySite[a.Site] = info
		}
		info.langs[a.Language]++
	}
	c := &Corpus{Articles: articles}
	for _, info := range bySite {
		best := 0
		for code, n := range info.langs {
			if n > best || n == best && code < info.site.Language {
				info.site.Language, best = code, n
			}
		}
		c.Sites = append(c.Sites, info.site)
	}
	slices.SortFunc(c.Sites, func(a, b Site) int { return cmp.Compare(a.Domain, b.Domain) })
	for code := range langs {
		name, _ := LanguageName(code)
		c.Languages = append(c.Languages, Language{Code: code, Name: name})
	}
	slices.SortFunc(c.Languages, func(a, b Language) int { return cmp.Compare(a.Code, b.Code) })
	return c
}

// compareArticles orders articles by publication time, then id.
func compareArticles(a, b Article) int {
	return cmp.Or(a.Published.Compare(b.Published), cmp.Compare(a.ID, b.ID))
}
