package mockserver

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Targets for the package's exported surface (issue 27, "one way to do each
// thing"), counted as go/doc counts them over the non-test files.
const (
	maxExportedNames = 105 // types + funcs + methods + consts + vars
	maxServerMethods = 26
)

// surface is the package's exported API as go/doc sees it.
type surface struct {
	types, funcs, methods, consts, vars []string
	serverMethods                       []string
	undocumented                        []string // names whose doc comment does not start with them
}

func (s *surface) total() int {
	return len(s.types) + len(s.funcs) + len(s.methods) + len(s.consts) + len(s.vars)
}

// readSurface parses the package's non-test files and lists its exported
// names.
func readSurface(t *testing.T) *surface {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, "github.com/newssearch/newssearch-go/mockserver")
	if err != nil {
		t.Fatal(err)
	}
	s := &surface{}
	documented := func(name, text string) {
		if !strings.HasPrefix(text, name+" ") && !strings.HasPrefix(text, "A "+name+" ") && !strings.HasPrefix(text, "An "+name+" ") {
			s.undocumented = append(s.undocumented, name)
		}
	}
	values := func(list []*doc.Value, into *[]string) {
		for _, v := range list {
			for _, spec := range v.Decl.Specs {
				for _, n := range spec.(*ast.ValueSpec).Names {
					if !n.IsExported() {
						continue
					}
					*into = append(*into, n.Name)
					// A name in a group is documented by its own comment,
					// or by the group's.
					text := spec.(*ast.ValueSpec).Doc.Text()
					if text == "" {
						text = v.Doc
						if !strings.Contains(text, n.Name) && len(v.Decl.Specs) > 1 {
							s.undocumented = append(s.undocumented, n.Name)
						}
						continue
					}
					documented(n.Name, text)
				}
			}
		}
	}
	values(d.Consts, &s.consts)
	values(d.Vars, &s.vars)
	for _, f := range d.Funcs {
		s.funcs = append(s.funcs, f.Name)
		documented(f.Name, f.Doc)
	}
	for _, typ := range d.Types {
		s.types = append(s.types, typ.Name)
		documented(typ.Name, typ.Doc)
		values(typ.Consts, &s.consts)
		values(typ.Vars, &s.vars)
		for _, f := range typ.Funcs {
			s.funcs = append(s.funcs, f.Name)
			documented(f.Name, f.Doc)
		}
		for _, m := range typ.Methods {
			s.methods = append(s.methods, typ.Name+"."+m.Name)
			documented(m.Name, m.Doc)
			if typ.Name == "Server" {
				s.serverMethods = append(s.serverMethods, m.Name)
			}
		}
	}
	return s
}

// TestSurface keeps the exported API within the targets of issue 27: at
// most 105 names and 26 Server methods, every name with a doc comment that
// starts with it. Raising a target is a design decision: make it in an
// issue, not here.
func TestSurface(t *testing.T) {
	t.Parallel()
	s := readSurface(t)
	t.Logf("%d exported names: %d types, %d funcs, %d methods, %d consts, %d vars; Server methods %v",
		s.total(), len(s.types), len(s.funcs), len(s.methods), len(s.consts), len(s.vars), s.serverMethods)
	if n := s.total(); n > maxExportedNames {
		t.Errorf("%d exported names, more than %d: types %v, funcs %v, methods %v, consts %v, vars %v",
			n, maxExportedNames, s.types, s.funcs, s.methods, s.consts, s.vars)
	}
	if n := len(s.serverMethods); n > maxServerMethods {
		t.Errorf("Server has %d methods, more than %d: %v", n, maxServerMethods, s.serverMethods)
	}
	if len(s.undocumented) > 0 {
		t.Errorf("exported names whose doc comment does not start with the name: %v", s.undocumented)
	}
}
