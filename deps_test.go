package newssearch_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportGraph keeps the packages users import light: the SDK needs only
// the standard library and go-retryablehttp (with go-cleanhttp, which it
// uses), and mockserver adds only httpmock and this module's own packages,
// never an OpenAPI or YAML library or anything the command line uses.
func TestImportGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped with -short")
	}
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the imports with: %v", err)
	}
	const module = "github.com/newssearch/newssearch-go"
	for _, tc := range []struct {
		pkg     string
		allowed []string // import path prefixes besides the standard library and this module
	}{
		{".", []string{"github.com/hashicorp/go-retryablehttp", "github.com/hashicorp/go-cleanhttp"}},
		{"./mockserver", []string{"github.com/hashicorp/go-retryablehttp", "github.com/hashicorp/go-cleanhttp", "github.com/jarcoal/httpmock"}},
	} {
		out, err := exec.CommandContext(t.Context(), goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", tc.pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", tc.pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == module || strings.HasPrefix(dep, module+"/") && !strings.HasPrefix(dep, module+"/cmd/") {
				continue
			}
			if !slices.ContainsFunc(tc.allowed, func(p string) bool { return dep == p || strings.HasPrefix(dep, p+"/") }) {
				t.Errorf("package %s imports %s: keep it to the standard library and %s (move the code that needs it under cmd/ or into a test)",
					tc.pkg, dep, strings.Join(tc.allowed, ", "))
			}
		}
	}
}
