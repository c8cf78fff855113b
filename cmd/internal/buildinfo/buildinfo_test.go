package buildinfo

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	newssearch "github.com/newssearch/newssearch-go"
)

// TestBothBinariesPrintOneVersion builds newssearch and newsmock as a user
// would, plainly and stamped as tools/dist/build stamps them, and runs
// `newssearch version` and `newsmock -version`: both print the same
// version, newssearch.Version when not stamped (issue 45: "devel" against
// "0.1.0").
func TestBothBinariesPrintOneVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries; skipped with -short")
	}
	t.Parallel()
	for _, tt := range []struct{ name, ldflags, want string }{
		{"plain", "", newssearch.Version},
		{"stamped", "-X main.version=9.8.7", "9.8.7"},
	} {
		dir := t.TempDir()
		build := exec.Command("go", "build", "-buildvcs=false", "-ldflags", tt.ldflags, "-o", dir+string(filepath.Separator), "./cmd/newssearch", "./cmd/newsmock")
		build.Dir = filepath.Join("..", "..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("%s: go build: %v\n%s", tt.name, err, out)
		}
		cli, err := exec.Command(filepath.Join(dir, "newssearch"), "version").Output()
		if err != nil {
			t.Fatalf("%s: newssearch version: %v", tt.name, err)
		}
		mock, err := exec.Command(filepath.Join(dir, "newsmock"), "-version").Output()
		if err != nil {
			t.Fatalf("%s: newsmock -version: %v", tt.name, err)
		}
		gotCLI := regexp.MustCompile(`(?m)^newssearch (\S+)$`).FindSubmatch(cli)
		gotMock := regexp.MustCompile(`^newsmock (\S+) \(`).FindSubmatch(mock)
		if gotCLI == nil || gotMock == nil || string(gotCLI[1]) != tt.want || string(gotMock[1]) != tt.want {
			t.Errorf("%s: newssearch version printed %q and newsmock -version %q; want version %s in both", tt.name, cli, mock, tt.want)
		}
	}
}
