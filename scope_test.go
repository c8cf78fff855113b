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

// optionScopes lists every option and the methods that take it ("all":
// every method); NewClient takes them all. TestOptionScopesCompile checks
// each against the compiler, and that the list names every option of the
// package.
var optionScopes = []struct {
	expr  string // a Go expression making the option, ns being this package
	calls string // the methods that take it, space-separated
}{
	{`ns.WithAPIKey("k")`, ""},
	{`ns.WithBaseURL("http://127.0.0.1:1")`, ""},
	{`ns.WithHTTPClient(http.DefaultClient)`, ""},
	{`ns.WithMiddleware(func(next http.RoundTripper) http.RoundTripper { return next })`, ""},
	{`ns.WithRateLimit(1, 1)`, ""},
	{`ns.WithoutEnvironment()`, ""},
	{`ns.WithMaxRetries(0)`, "all"},
	{`ns.WithRetryWait(time.Millisecond, time.Second)`, "all"},
	{`ns.WithLogger(slog.Default())`, "all"},
	{`ns.WithHeader("X-Trace", "t")`, "all"},
	{`ns.WithStallTimeout(time.Second)`, "all"},
	{`ns.WithAttemptTimeout(time.Second)`, "all"},
	{`ns.WithResponseInto(new(ns.Response))`, "all"},
	{`&ns.PollOptions{}`, "Poll Results SearchRange SearchRangeSeq"},
	{`&ns.PageOptions{}`, "SearchAll Results SearchRange SearchRangeSeq"},
	{`&ns.RangeOptions{}`, "SearchRange SearchRangeSeq"},
}

// callSnippets calls each method of Client that takes options with %s
// as its options.
var callSnippets = map[string]string{
	"Search":         `_, _ = c.Search(ctx, ns.SearchParams{}, %s)`,
	"SearchAll":      `_ = c.SearchAll(ctx, ns.SearchParams{}, %s)`,
	"SubmitQuery":    `_, _ = c.SubmitQuery(ctx, ns.AsyncSearchParams{}, %s)`,
	"GetResults":     `_, _ = c.GetResults(ctx, "q", 1, %s)`,
	"Poll":           `_, _ = c.Poll(ctx, "q", %s)`,
	"Results":        `_ = c.Results(ctx, "q", %s)`,
	"Headlines":      `_, _ = c.Headlines(ctx, %s)`,
	"SearchRange":    `_, _ = c.SearchRange(ctx, ns.AsyncSearchParams{}, %s)`,
	"SearchRangeSeq": `_ = c.SearchRangeSeq(ctx, ns.AsyncSearchParams{}, %s)`,
}

// TestOptionScopesCompile type-checks, with go/types against this
// package's export data, a use of every option in NewClient (which must
// compile) and in every method: it must compile where optionScopes says
// the method takes the option, and the compiler must refuse it elsewhere
// (Headlines(ctx, &RangeOptions{}) compiled before v0.1.0), so that no
// option type-checks where it would not work. It also checks that the
// slices people build keep compiling.
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

	// NewClient takes ...Option; every method with options is in callSnippets.
	if p := scope.Lookup("NewClient").(*types.Func).Signature().Params(); !types.Identical(p.At(p.Len()-1).Type(), types.NewSlice(option)) {
		t.Errorf("NewClient's options are %v, want ...Option", p.At(p.Len()-1).Type())
	}
	methods := types.NewMethodSet(types.NewPointer(scope.Lookup("Client").Type()))
	for i := range methods.Len() {
		name := methods.At(i).Obj().Name()
		if methods.At(i).Obj().(*types.Func).Signature().Variadic() && callSnippets[name] == "" {
			t.Errorf("Client.%s takes options: add it to callSnippets", name)
		}
	}

	for _, o := range optionScopes {
		if errs := typeCheckErrors(t, "_, _ = ns.NewClient("+o.expr+")"); len(errs) > 0 {
			t.Errorf("NewClient(%s) does not compile: %v", o.expr, errs)
		}
		for method, snippet := range callSnippets {
			takes := o.calls == "all" || slices.Contains(strings.Fields(o.calls), method)
			errs := typeCheckErrors(t, fmt.Sprintf(snippet, o.expr))
			switch {
			case takes && len(errs) > 0:
				t.Errorf("c.%s(…, %s) does not compile: %v", method, o.expr, errs)
			case !takes && len(errs) == 0:
				t.Errorf("c.%s(…, %s) compiles: the call would take an option it cannot honour", method, o.expr)
			case !takes && !strings.Contains(errs[0], "does not implement newssearch."):
				t.Errorf("c.%s(…, %s): the compiler says %q, want that it is not an option of the call", method, o.expr, errs[0])
			}
		}
	}

	// The forms people write keep compiling.
	for _, src := range []string{
		`_, _ = ns.NewClient(ns.WithAPIKey("k"), ns.WithMaxRetries(1), &ns.PollOptions{MaxWait: time.Minute})`,
		`opts := []ns.Option{ns.WithAPIKey("k"), ns.WithHTTPClient(http.DefaultClient), ns.WithMaxRetries(1)}
		 opts = append(opts, ns.WithLogger(slog.Default()))
		 _, _ = ns.NewClient(opts...)`,
		`_, _ = c.Search(ctx, ns.SearchParams{}, ns.WithMaxRetries(0), ns.WithHeader("X-Trace", "t"))`,
		`calls := []ns.RangeOption{&ns.RangeOptions{Concurrency: 2}, &ns.PageOptions{Prefetch: 2}, ns.WithMaxRetries(1)}
		 _, _ = c.SearchRange(ctx, ns.AsyncSearchParams{}, calls...)`,
		`_ = c.Results(ctx, "q", &ns.PollOptions{}, &ns.PageOptions{}, ns.WithMaxRetries(1))`,
		`var o ns.Option = ns.WithMaxRetries(1)
		 var p ns.PageOption = ns.WithMaxRetries(1)
		 _, _ = o, p`,
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
