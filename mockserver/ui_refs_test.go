package mockserver

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestUIReferences checks the inspector's script against its page and the
// server: every element it looks up by a fixed id exists, the add-rule
// form has a message slot and an input for every field it can blame, and
// every endpoint it calls is one the server answers with that method.
func TestUIReferences(t *testing.T) {
	t.Parallel()
	html := string(uiAssets[UIPath].body)
	js := string(uiAssets[UIPath+"/inspector.js"].body)
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`\bid="([^"]+)"`).FindAllStringSubmatch(html, -1) {
		if ids[m[1]] {
			t.Errorf("id %q appears twice in the page", m[1])
		}
		ids[m[1]] = true
	}
	used := regexp.MustCompile(`\$\('([A-Za-z0-9_-]+)'\)`).FindAllStringSubmatch(js, -1)
	if len(used) < 50 {
		t.Fatalf("found %d element lookups in the script: the pattern no longer matches how it looks them up", len(used))
	}
	for _, m := range used {
		if !ids[m[1]] {
			t.Errorf("the script looks up #%s, which the page lacks", m[1])
		}
	}
	fields := regexp.MustCompile(`var faultFields = \[([^\]]+)\]`).FindStringSubmatch(js)
	if fields == nil {
		t.Fatal("the script has no faultFields list")
	}
	for _, f := range regexp.MustCompile(`'([a-z_]+)'`).FindAllStringSubmatch(fields[1], -1) {
		if !ids["err-"+f[1]] {
			t.Errorf("the add-rule form has no message slot #err-%s", f[1])
		}
		input := regexp.MustCompile(`\b` + f[1] + `: '([a-z-]+)'`).FindStringSubmatch(js)
		if input == nil || !ids[input[1]] {
			t.Errorf("the add-rule field %s has no input in the page (fieldInputs: %v)", f[1], input)
		}
	}
	for _, tab := range regexp.MustCompile(`data-tab="([a-z]+)"`).FindAllStringSubmatch(html, -1) {
		if !ids["panel-"+tab[1]] {
			t.Errorf("tab %s has no #panel-%s", tab[1], tab[1])
		}
	}

	// Every call: a method and a path relative to the page, a fixed one or a
	// prefix the script completes with an id.
	routes := Routes()
	calls := regexp.MustCompile(`request\('([A-Z]+)', '([^']+)'( \+)?`).FindAllStringSubmatch(js, -1)
	if len(calls) < 10 {
		t.Fatalf("found %d calls in the script: the pattern no longer matches how it calls the server", len(calls))
	}
	base, err := url.Parse("http://host" + UIPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		method, rel, completed := c[1], c[2], c[3] != ""
		u, err := base.Parse(rel)
		if err != nil {
			t.Fatal(err)
		}
		ok := slices.ContainsFunc(routes, func(r Route) bool {
			if r.Method != method {
				return false
			}
			if !completed {
				return r.Path == u.Path
			}
			prefix, _, templated := strings.Cut(r.Path, "{")
			return templated && prefix == u.Path
		})
		if !ok {
			t.Errorf("the script calls %s %s%s, which the server does not answer", method, u.Path, map[bool]string{true: "…"}[completed])
		}
	}
}
