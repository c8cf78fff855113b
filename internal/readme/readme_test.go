package readme_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// documents are the files whose ```go blocks must all be compiled.
var documents = []string{"README.md", "docs/mockserver.md", "docs/dependencies.md"}

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)\n```")

// TestSnippets holds every ```go block of the documents to a copy the
// compiler builds: a full program to quickstart/main.go, any other block to
// a region of snippets_test.go. It also reports regions no document uses.
func TestSnippets(t *testing.T) {
	t.Parallel()
	regions := readRegions(t, "snippets_test.go")
	used := make([]bool, len(regions))
	program := read(t, filepath.Join("quickstart", "main.go"))
	for _, doc := range documents {
		text := read(t, filepath.Join("..", "..", doc))
		for _, m := range goBlock.FindAllStringSubmatchIndex(text, -1) {
			block := text[m[2]:m[3]]
			line := 1 + strings.Count(text[:m[2]], "\n")
			if strings.HasPrefix(block, "package ") {
				if strings.TrimSpace(block) != strings.TrimSpace(program) {
					t.Errorf("%s:%d: the Go program differs from internal/readme/quickstart/main.go: "+
						"change both together (the file is what the compiler checks)", doc, line)
				}
				continue
			}
			i := slices.Index(regions, block)
			if i < 0 {
				t.Errorf("%s:%d: this Go snippet is in no readme:begin/readme:end region of internal/readme/snippets_test.go, "+
					"so nothing compiles it: add it there (indented one level deeper than its markers), or change the "+
					"region it came from together with the document:\n%s", doc, line, block)
				continue
			}
			used[i] = true
		}
	}
	for i, ok := range used {
		if !ok {
			t.Errorf("region %d of internal/readme/snippets_test.go is in no document (%v): remove it, or put it back in the document it came from:\n%s",
				i+1, documents, regions[i])
		}
	}
}

// readRegions returns the text between "// readme:begin" and
// "// readme:end" lines, with the markers' indentation removed and
// trailing blank lines dropped.
func readRegions(t *testing.T, name string) []string {
	t.Helper()
	var regions []string
	var body []string
	indent, in := "", false
	for line := range strings.Lines(read(t, name)) {
		line = strings.TrimSuffix(line, "\n")
		trimmed := strings.TrimLeft(line, "\t")
		switch {
		case trimmed == "// readme:begin":
			indent, in, body = line[:len(line)-len(trimmed)], true, nil
		case trimmed == "// readme:end":
			for len(body) > 0 && body[len(body)-1] == "" {
				body = body[:len(body)-1]
			}
			regions = append(regions, strings.Join(body, "\n"))
			in = false
		case in:
			body = append(body, strings.TrimPrefix(line, indent))
		}
	}
	if len(regions) == 0 {
		t.Fatalf("%s has no readme:begin/readme:end regions", name)
	}
	return regions
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
