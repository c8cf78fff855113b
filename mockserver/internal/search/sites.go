package search

import "strings"

// normalizeSite reduces a site as a caller may write it ("https://www.BBC.co.uk/")
// to the domain the corpus uses ("bbc.co.uk").
func normalizeSite(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+len("://"):]
	}
	s = strings.TrimRight(s, "/")
	return strings.TrimPrefix(s, "www.")
}
