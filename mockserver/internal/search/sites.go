package search

import "strings"

// normalizeSite reduces a site as a caller may write it ("https://www.BBC.co.uk/")
// to the domain the corpus uses ("bbc.co.uk"). Like the corpus loader, it
// drops every leading "www.", so "www.www.bbc.co.uk" is "bbc.co.uk" too.
func normalizeSite(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+len("://"):]
	}
	s = strings.TrimRight(s, "/")
	for strings.HasPrefix(s, "www.") {
		s = s[len("www."):]
	}
	return s
}
