package newssearch

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// optionScopes lists every option and whether a call takes it; NewClient
// takes them all. TestOptionScopesCompile checks each against the
// compiler, and that the list names every option of the package.
var optionScopes = []struct {
	expr string // a Go expression making the option, ns being this package
	call bool   // a method takes it too
}{
	{`ns.WithAPIKey("k")`, false},
	{`ns.WithBaseURL("http://127.0.0.1:1")`, false},
	{`ns.WithHTTPClient(http.DefaultClient)`, false},
	{`ns.WithMiddleware(func(next http.RoundTripper) http.RoundTripper { return next })`, false},
	{`ns.WithRateLimit(1, 1)`, false},
	{`ns.WithoutEnvironment()`, false},
	{`ns.WithMaxRetries(0)`, true},
	{`ns.WithRetryWait(time.Millisecond, time.Second)`, true},
	{`ns.WithLogger(slog.Default())`, true},
	{`ns.WithHeader("X-Trace", "t")`, true},
	{`ns.WithStallTimeout(time.Second)`, true},
	{`ns.WithAttemptTimeout(time.Second)`, true},
	{`ns.WithResponseInto(new(ns.Response))`, true},
	{`&ns.PollOptions{}`, true},
	{`&ns.PageOptions{}`, true},
	{`&ns.RangeOptions{}`, true},
}

// TestOptionScopesCompile type-checks, with go/types against this
// package's export data, a use of every option in NewClient (which must
// compile) and in a call (which must compile for a CallOption and be
// refused by the compiler for the others), so that no option type-checks
// where it would not work. It also checks that every method takes
// ...CallOption and NewClient ...Option, and that the slices people build
// keep compiling.
func TestOptionScopesCompile(t *testing.T) {
	t.Parallel()
	pkg := typeCheckSnippet(t, "", nil)
	scope := pkg.Scope()
	option := scope.Lookup("Option").Type()
	callOption := scope.Lookup("CallOption").Type()

	// Every option of the package is in optionScopes.
	var listed, found []string
	for _, o := range optionScopes {
		listed = append(listed, strings.TrimPrefix(strings.TrimPrefix(o.expr[:strings.IndexAny(o.expr, "({")], "&"), "ns."))
	}
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		switch obj := obj.(type) {
		case *types.Func:
			res := obj.Signature().Results()
			if obj.Exported() && res.Len() == 1 && (types.Identical(res.At(0).Type(), option) || types.Identical(res.At(0).Type(), callOption)) {
				found = append(found, name)
			}
		case *types.TypeName:
			if obj.Exported() && !types.IsInterface(obj.Type()) && types.Implements(types.NewPointer(obj.Type()), option.Underlying().(*types.Interface)) {
				found = append(found, name)
			}
		}
	}
	slices.Sort(listed)
	slices.Sort(found)
	if !slices.Equal(listed, found) {
		t.Errorf("the package's options %v, optionScopes lists %v: classify every option", found, listed)
	}

	// NewClient takes ...Option, every method ...CallOption.
	if p := scope.Lookup("NewClient").(*types.Func).Signature().Params(); !types.Identical(p.At(p.Len()-1).Type(), types.NewSlice(option)) {
		t.Errorf("NewClient's options are %v, want ...Option", p.At(p.Len()-1).Type())
	}
	methods := types.NewMethodSet(types.NewPointer(scope.Lookup("Client").Type()))
	for i := range methods.Len() {
		sig := methods.At(i).Obj().(*types.Func).Signature()
		if sig.Variadic() && !types.Identical(sig.Params().At(sig.Params().Len()-1).Type(), types.NewSlice(callOption)) {
			t.Errorf("Client.%s takes %v, want ...CallOption", methods.At(i).Obj().Name(), sig.Params().At(sig.Params().Len()-1).Type())
		}
	}

	for _, o := range optionScopes {
		if errs := typeCheckErrors(t, "_, _ = ns.NewClient("+o.expr+")"); len(errs) > 0 {
			t.Errorf("NewClient(%s) does not compile: %v", o.expr, errs)
		}
		errs := typeCheckErrors(t, "_, _ = c.Search(ctx, ns.SearchParams{}, "+o.expr+")")
		switch {
		case o.call && len(errs) > 0:
			t.Errorf("c.Search(ctx, p, %s) does not compile: %v", o.expr, errs)
		case !o.call && len(errs) == 0:
			t.Errorf("c.Search(ctx, p, %s) compiles: a call would take an option it cannot honour", o.expr)
		case !o.call && !strings.Contains(errs[0], "does not implement newssearch.CallOption (missing method callOption)"):
			t.Errorf("c.Search(ctx, p, %s): the compiler says %q, want that it is no CallOption", o.expr, errs[0])
		}
	}

	// The forms people write keep compiling.
	for _, src := range []string{
		`_, _ = ns.NewClient(ns.WithAPIKey("k"), ns.WithMaxRetries(1), &ns.PollOptions{MaxWait: time.Minute})`,
		`opts := []ns.Option{ns.WithAPIKey("k"), ns.WithHTTPClient(http.DefaultClient), ns.WithMaxRetries(1)}
		 opts = append(opts, ns.WithLogger(slog.Default()))
		 _, _ = ns.NewClient(opts...)`,
		`_, _ = c.Search(ctx, ns.SearchParams{}, ns.WithMaxRetries(0), ns.WithHeader("X-Trace", "t"))`,
		`calls := []ns.CallOption{&ns.RangeOptions{Concurrency: 2}, &ns.PageOptions{Prefetch: 2}}
		 _, _ = c.SearchRange(ctx, ns.AsyncSearchParams{}, calls...)`,
		`var o ns.Option = ns.WithMaxRetries(1)
		 _ = o`,
	} {
		if errs := typeCheckErrors(t, src); len(errs) > 0 {
			t.Errorf("%s\ndoes not compile: %v", src, errs)
		}
	}
}

// snippetHeader is the file a snippet is type-checked in, as the body of
// a function with a context and a Client at hand.
const snippetHeader = `package snippet

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	ns "github.com/newssearch/newssearch-go"
)

var _, _, _ = slog.Default, http.DefaultClient, time.Second

func _(ctx context.Context, c *ns.Client) {
	%s
}
`

// typeCheckErrors type-checks src (a function body) and returns the
// compiler's errors.
func typeCheckErrors(t *testing.T, src string) []string {
	var errs []string
	typeCheckSnippet(t, src, func(err error) { errs = append(errs, err.Error()) })
	return errs
}

// typeCheckSnippet type-checks src and returns this package as the
// snippet imports it; errors go to report (nil: none expected).
func typeCheckSnippet(t *testing.T, src string, report func(error)) *types.Package {
	t.Helper()
	imp, err := snippetImporter()
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(imp.fset, "snippet.go", fmt.Sprintf(snippetHeader, src), 0)
	if err != nil {
		t.Fatalf("snippet %q: %v", src, err)
	}
	if report == nil {
		report = func(err error) { t.Errorf("snippet %q: %v", src, err) }
	}
	conf := types.Config{Importer: imp.Importer, Error: report}
	conf.Check("snippet", imp.fset, []*ast.File{f}, nil)
	p, err := imp.Import("github.com/newssearch/newssearch-go")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// snippetImporter reads the export data of the packages the snippets
// import, and of their dependencies, as `go list -export` builds it.
var snippetImporter = sync.OnceValues(func() (*exportImporter, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}",
		"context", "log/slog", "net/http", "time", ".").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			err = fmt.Errorf("%v: %s", err, ee.Stderr)
		}
		return nil, fmt.Errorf("go list -export: %w", err)
	}
	files := map[string]string{}
	for line := range strings.Lines(string(out)) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "=")
		files[path] = file
	}
	fset := token.NewFileSet()
	return &exportImporter{fset: fset, Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if files[path] == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(files[path])
	})}, nil
})

// exportImporter is an importer and the file set of what it imports.
type exportImporter struct {
	types.Importer
	fset *token.FileSet
}
