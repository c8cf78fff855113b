// Command vulndb builds a Go vulnerability database (the v1 layout that
// govulncheck -db file:///DIR reads) from the OSV entries of one pinned version
// of the golang.org/x/vulndb module, with no network beyond the module proxy:
//
//	DIR/index/db.json       {"modified": the newest entry's time}
//	DIR/index/modules.json  every module path with its vulnerabilities (id, modified, fixed)
//	DIR/ID/<id>.json        each OSV entry, as it is in the module's data/osv
//
// Usage: go run ./tools/vulndb [-refresh] OUT. The pin is the file "pin" beside this one: the module
// version and its go.sum hash, checked after the download. -refresh writes the newest version to the pin
// first (the one command that moves it; see RELEASING.md).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

const vulndb = "golang.org/x/vulndb"

// entry is the part of an OSV entry the index needs.
type entry struct {
	ID        string    `json:"id"`
	Modified  time.Time `json:"modified"`
	Published time.Time `json:"published"`
	Affected  []struct {
		Package struct {
			Name string `json:"name"` // the module path
		} `json:"package"`
		Ranges []osvRange `json:"ranges"`
	} `json:"affected"`
}

// osvRange is one range of affected versions of an OSV entry.
type osvRange struct {
	Type   string `json:"type"`
	Events []struct {
		Introduced string `json:"introduced"`
		Fixed      string `json:"fixed"`
	} `json:"events"`
}

type moduleVuln struct {
	ID       string    `json:"id"`
	Modified time.Time `json:"modified"`
	Fixed    string    `json:"fixed,omitempty"`
}

type moduleMeta struct {
	Path  string       `json:"path"`
	Vulns []moduleVuln `json:"vulns"`
}

// download is the "go mod download -json" answer for one module version.
type download struct {
	Version, Dir, Sum, Error string
}

func main() {
	refresh := flag.Bool("refresh", false, "write the newest "+vulndb+" version to the pin file, then build")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./tools/vulndb [-refresh] OUT\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *refresh); err != nil {
		fmt.Fprintf(os.Stderr, "vulndb: %v\n", err)
		os.Exit(1)
	}
}

func run(out string, refresh bool) error {
	pinFile, err := pinPath()
	if err != nil {
		return err
	}
	if refresh {
		d, err := goModDownload(vulndb + "@latest")
		if err != nil {
			return err
		}
		if err := os.WriteFile(pinFile, []byte(d.Version+" "+d.Sum+"\n"), 0o644); err != nil {
			return err
		}
		fmt.Printf("vulndb: pinned %s %s in %s\n", vulndb, d.Version, pinFile)
	}
	pin, err := os.ReadFile(pinFile)
	if err != nil {
		return err
	}
	fields := strings.Fields(string(pin))
	if len(fields) != 2 {
		return fmt.Errorf("%s: want one line \"VERSION h1:HASH\" (e.g. v0.0.0-20261105234957-e22db6528018 h1:...), got %q", pinFile, pin)
	}
	d, err := goModDownload(vulndb + "@" + fields[0])
	if err != nil {
		return err
	}
	if d.Sum != fields[1] {
		return fmt.Errorf("%s@%s has hash %s, but the pin in %s says %s", vulndb, d.Version, d.Sum, pinFile, fields[1])
	}
	// The entries' own times are mostly unset in data/osv: the database is as new as the commit pinned.
	pinned, err := module.PseudoVersionTime(d.Version)
	if err != nil {
		return fmt.Errorf("%s@%s: %v (pin a pseudo-version, as -refresh does)", vulndb, d.Version, err)
	}
	n, err := build(filepath.Join(d.Dir, "data", "osv"), out, pinned)
	if err != nil {
		return err
	}
	fmt.Printf("vulndb: %d entries of %s@%s in %s\n", n, vulndb, d.Version, out)
	return nil
}

// pinPath is the pin file beside this source file (the tool runs from its own module directory).
func pinPath() (string, error) {
	dir, err := exec.Command("go", "list", "-f", "{{.Dir}}", ".").Output()
	if err != nil {
		return "", fmt.Errorf("go list: %v (run it from tools/vulndb: go run . OUT)", err)
	}
	return filepath.Join(strings.TrimSpace(string(dir)), "pin"), nil
}

func goModDownload(query string) (*download, error) {
	cmd := exec.Command("go", "mod", "download", "-json", query)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	var d download
	jerr := json.Unmarshal(b, &d) // a failed download still writes its JSON, with Error
	switch {
	case jerr == nil && d.Error != "":
		return nil, fmt.Errorf("go mod download %s: %s", query, d.Error)
	case err != nil:
		return nil, fmt.Errorf("go mod download %s: %v: %s", query, err, stderr.String())
	case jerr != nil:
		return nil, fmt.Errorf("go mod download %s: %v", query, jerr)
	}
	return &d, nil
}

// build writes the v1 database of the OSV files in src to out, and returns how many entries it holds.
func build(src, out string, newest time.Time) (int, error) {
	files, err := filepath.Glob(filepath.Join(src, "*.json"))
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return 0, fmt.Errorf("no OSV entries (*.json) in %s", src)
	}
	if err := os.RemoveAll(out); err != nil {
		return 0, err
	}
	if err := errors.Join(os.MkdirAll(filepath.Join(out, "ID"), 0o755), os.MkdirAll(filepath.Join(out, "index"), 0o755)); err != nil {
		return 0, err
	}
	modules := map[string]*moduleMeta{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		var e entry
		if err := json.Unmarshal(b, &e); err != nil {
			return 0, fmt.Errorf("%s: %v", f, err)
		}
		if e.ID == "" || e.ID+".json" != filepath.Base(f) {
			return 0, fmt.Errorf("%s: its id is %q, want the file's name", f, e.ID)
		}
		// data/osv leaves "modified" unset (the published database fills it in): use the later of the two.
		if e.Published.After(e.Modified) {
			e.Modified = e.Published
		}
		if e.Modified.After(newest) {
			newest = e.Modified
		}
		for _, a := range e.Affected {
			m := modules[a.Package.Name]
			if m == nil {
				m = &moduleMeta{Path: a.Package.Name, Vulns: []moduleVuln{}}
				modules[a.Package.Name] = m
			}
			m.Vulns = append(m.Vulns, moduleVuln{ID: e.ID, Modified: e.Modified, Fixed: latestFix(a.Ranges)})
		}
		if err := os.WriteFile(filepath.Join(out, "ID", e.ID+".json"), b, 0o644); err != nil {
			return 0, err
		}
	}
	list := make([]*moduleMeta, 0, len(modules))
	for _, m := range modules {
		sort.Slice(m.Vulns, func(i, j int) bool { return m.Vulns[i].ID < m.Vulns[j].ID })
		list = append(list, m)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
	if err := writeJSON(filepath.Join(out, "index", "modules.json"), list); err != nil {
		return 0, err
	}
	return len(files), writeJSON(filepath.Join(out, "index", "db.json"), map[string]time.Time{"modified": newest})
}

// latestFix is the newest fixed version of the SEMVER ranges, or "" when the vulnerability was
// introduced again after it (govulncheck's own index does the same).
func latestFix(ranges []osvRange) string {
	less := func(a, b string) bool { // OSV versions have no "v"; "" is lowest
		return a == "" && b != "" || b != "" && semver.Compare("v"+a, "v"+b) < 0
	}
	fixed := ""
	for _, r := range ranges {
		if r.Type != "SEMVER" {
			continue
		}
		for _, e := range r.Events {
			if e.Fixed != "" && less(fixed, e.Fixed) {
				fixed = e.Fixed
			}
		}
		for _, e := range r.Events {
			if e.Introduced != "" && e.Introduced != "0" && less(fixed, e.Introduced) {
				fixed = ""
				break
			}
		}
	}
	return fixed
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
