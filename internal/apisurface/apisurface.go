// Package apisurface lists the exported API of a package as go/doc sees
// it, for the tests that keep the SDK's and the mock's surfaces within
// their targets (issue 27).
package apisurface

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
)

// Surface is a package's exported API.
type Surface struct {
	Types, Funcs, Methods, Consts, Vars []string
	// MethodsOf lists the methods of each type, by type name.
	MethodsOf map[string][]string
	// ErrorTypes are the types with an Error method.
	ErrorTypes []string
	// Undocumented lists the names whose doc comment does not start with
	// the name (or "A name" or "An name").
	Undocumented []string
}

// Total is the number of exported names.
func (s *Surface) Total() int {
	return len(s.Types) + len(s.Funcs) + len(s.Methods) + len(s.Consts) + len(s.Vars)
}

// Read parses the non-test Go files of the package in dir, whose import
// path is importPath, and lists its exported names.
func Read(dir, importPath string) (*Surface, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, importPath)
	if err != nil {
		return nil, err
	}
	s := &Surface{MethodsOf: map[string][]string{}}
	documented := func(name, text string) {
		if !strings.HasPrefix(text, name+" ") && !strings.HasPrefix(text, "A "+name+" ") && !strings.HasPrefix(text, "An "+name+" ") {
			s.Undocumented = append(s.Undocumented, name)
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
							s.Undocumented = append(s.Undocumented, n.Name)
						}
						continue
					}
					documented(n.Name, text)
				}
			}
		}
	}
	values(d.Consts, &s.Consts)
	values(d.Vars, &s.Vars)
	for _, f := range d.Funcs {
		s.Funcs = append(s.Funcs, f.Name)
		documented(f.Name, f.Doc)
	}
	for _, typ := range d.Types {
		s.Types = append(s.Types, typ.Name)
		documented(typ.Name, typ.Doc)
		values(typ.Consts, &s.Consts)
		values(typ.Vars, &s.Vars)
		for _, f := range typ.Funcs {
			s.Funcs = append(s.Funcs, f.Name)
			documented(f.Name, f.Doc)
		}
		for _, m := range typ.Methods {
			s.Methods = append(s.Methods, typ.Name+"."+m.Name)
			s.MethodsOf[typ.Name] = append(s.MethodsOf[typ.Name], m.Name)
			documented(m.Name, m.Doc)
			if m.Name == "Error" {
				s.ErrorTypes = append(s.ErrorTypes, typ.Name)
			}
		}
	}
	return s, nil
}
