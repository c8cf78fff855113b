package footprint

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/newssearch/newssearch-go"

// retryablehttp is go-retryablehttp and the modules of its own go.mod that
// a build with it checksums; every consumer gets them.
var retryablehttp = []string{
	"github.com/hashicorp/go-retryablehttp",
	"github.com/hashicorp/go-cleanhttp",
	"github.com/hashicorp/go-hclog",
	"github.com/fatih/color",
	"github.com/mattn/go-colorable",
	"github.com/mattn/go-isatty",
	"golang.org/x/sys",
}

// rootTestLibraries are the small test-only libraries the root package's
// own tests import. go mod tidy records their checksums in a consumer's
// go.sum (so that `go test all` can run our tests there) but nothing of
// them is compiled into the consumer's program.
var rootTestLibraries = []string{
	"github.com/google/go-cmp",
	"go.uber.org/goleak",
	"github.com/jarcoal/httpmock",
}

// cases are the consumer programs and their limits. A module outside
// sumAllowed in the consumer's go.sum, or a package outside depsAllowed
// in its build, fails the test.
var cases = []struct {
	name        string
	importPath  string // the one package the consumer imports
	depsAllowed []string
	sumAllowed  []string
}{
	{
		name:        "root",
		importPath:  module,
		depsAllowed: []string{module, "github.com/hashicorp/go-retryablehttp", "github.com/hashicorp/go-cleanhttp"},
		sumAllowed:  slices.Concat(retryablehttp, rootTestLibraries),
	},
	{
		name:        "mockserver",
		importPath:  module + "/mockserver",
		depsAllowed: []string{module, "github.com/hashicorp/go-retryablehttp", "github.com/hashicorp/go-cleanhttp"},
		sumAllowed:  slices.Concat(retryablehttp, rootTestLibraries),
	},
}

// TestConsumerFootprint is the external consumer test that docs/dependencies.md
// describes. It needs the go command and the module cache; a module missing
// from the cache is fetched through GOPROXY.
func TestConsumerFootprint(t *testing.T) {
	t.Parallel()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not on PATH (%v): install Go 1.25 or later to run the footprint test", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			write(t, filepath.Join(dir, "go.mod"), fmt.Sprintf(
				"module example.com/consumer\n\ngo 1.25.0\n\nrequire %s v0.0.0\n\nreplace %s => %s\n",
				module, module, root))
			write(t, filepath.Join(dir, "main.go"), fmt.Sprintf(
				"package main\n\nimport _ %q\n\nfunc main() {}\n", tc.importPath))

			tidy(t, goCmd, dir)
			sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
			if err != nil {
				t.Fatalf("go mod tidy wrote no go.sum: %v", err)
			}
			lines, sumModules := parseSum(sum)
			deps := run(t, goCmd, dir, nil, "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", ".")
			depModules := map[string]bool{}
			for m := range strings.FieldsSeq(deps) {
				if m != "example.com/consumer" {
					depModules[m] = true
				}
			}
			pkgs := run(t, goCmd, dir, nil, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
			t.Logf("a program importing only %s: go.sum %d lines, %d modules %v; builds %d non-standard packages from modules %v",
				tc.importPath, lines, len(sumModules), sumModules, len(strings.Fields(pkgs))-1, slices.Sorted(maps.Keys(depModules)))

			for _, m := range sumModules {
				if !slices.Contains(tc.sumAllowed, m) {
					t.Errorf("a program importing %s gets %s in its go.sum. Users of %s must not download it: "+
						"import it only from a package no library package imports (a cmd/ or examples/ package, "+
						"or a test in the nested module tests/), or, if it is truly needed, add it to the "+
						"limits in internal/footprint/footprint_test.go and docs/dependencies.md with the reason. "+
						"`go mod why -m %s` shows who needs it.", tc.importPath, m, tc.name, m)
				}
			}
			for m := range depModules {
				if !slices.Contains(tc.depsAllowed, m) {
					t.Errorf("a program importing %s compiles packages of %s. A library package (the root, mockserver, "+
						"api or anything under internal/ they import) must import only the standard library and "+
						"go-retryablehttp: move the import to a package users opt into (as mockserver/withhttpmock does "+
						"for httpmock) and see docs/dependencies.md. `go list -deps` in a consumer shows the chain.",
						tc.importPath, m)
				}
			}
			for _, m := range sumModules {
				if low := strings.ToLower(m); strings.Contains(low, "openapi") || strings.Contains(low, "yaml") {
					t.Errorf("%s in the go.sum of a program importing %s: OpenAPI and YAML libraries belong in the nested module tests/ only",
						m, tc.importPath)
				}
			}
		})
	}
}

// tidy runs go mod tidy in the consumer module, from the module cache
// alone when it can and through GOPROXY otherwise.
func tidy(t *testing.T, goCmd, dir string) {
	t.Helper()
	out, err := command(goCmd, dir, []string{"GOPROXY=off"}, "mod", "tidy")
	if err == nil {
		return
	}
	if !strings.Contains(out, "GOPROXY=off") {
		t.Fatalf("go mod tidy in a consumer module: %v\n%s", err, out)
	}
	t.Logf("the module cache lacks modules (%s); fetching them through GOPROXY", firstLine(out))
	run(t, goCmd, dir, nil, "mod", "tidy")
}

func run(t *testing.T, goCmd, dir string, env []string, args ...string) string {
	t.Helper()
	out, err := command(goCmd, dir, env, args...)
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// command runs the go command in dir, outside any workspace, with the
// toolchain at hand, without checksum database look-ups (the consumer is
// thrown away; only its go.sum's module list is read).
func command(goCmd, dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command(goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "GOSUMDB=off")
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.String(), err
}

// parseSum returns the number of lines of a go.sum and its modules, sorted.
func parseSum(sum []byte) (lines int, modules []string) {
	seen := map[string]bool{}
	for line := range strings.Lines(string(sum)) {
		if f := strings.Fields(line); len(f) == 3 {
			lines++
			seen[f[0]] = true
		}
	}
	return lines, slices.Sorted(maps.Keys(seen))
}

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
