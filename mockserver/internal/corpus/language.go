package corpus

import "strings"

// isoLanguages maps every ISO 639-1 code to the English name of its
// language (data/languages.txt).
var isoLanguages = func() map[string]string {
	m := map[string]string{}
	for _, line := range dataLines("data/languages.txt") {
		code, name, _ := strings.Cut(line, " ")
		m[code] = name
	}
	return m
}()

// LanguageName returns the English name of the language with ISO 639-1 code
// code ("en" gives "English"), ignoring case and surrounding spaces. ok is
// false when code is not an ISO 639-1 code.
func LanguageName(code string) (name string, ok bool) {
	name, ok = isoLanguages[strings.ToLower(strings.TrimSpace(code))]
	return name, ok
}
