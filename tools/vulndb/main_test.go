package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBuild builds a database of two entries and reads back what govulncheck reads: the module index with
// the newest fix of each, the db time, and each entry under ID/ with the bytes of its OSV file.
func TestBuild(t *testing.T) {
	t.Parallel()
	src, out := t.TempDir(), filepath.Join(t.TempDir(), "db")
	entries := map[string]string{
		// Fixed twice: the newest fix counts (1.10.0 > 1.9.2, compared as versions, not strings).
		"GO-2026-0001": `{"id":"GO-2026-0001","published":"2026-01-02T00:00:00Z","affected":[{"package":{"name":"example.com/a"},
			"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"1.9.2"},{"introduced":"1.10.0-rc.1"},{"fixed":"1.10.0"}]}]}]}`,
		// Introduced again after its last fix: no fixed version.
		"GO-2026-0002": `{"id":"GO-2026-0002","modified":"2026-03-04T00:00:00Z","affected":[{"package":{"name":"example.com/a"},
			"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"0.2.0"},{"introduced":"0.3.0"}]}]},
			{"package":{"name":"stdlib"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"1.26.9"}]}]}]}`,
	}
	for id, e := range entries {
		if err := os.WriteFile(filepath.Join(src, id+".json"), []byte(e), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pinned := time.Date(2026, 11, 5, 23, 49, 57, 0, time.UTC)
	n, err := build(src, out, pinned)
	if err != nil || n != 2 {
		t.Fatalf("build: %d entries, %v; want 2, nil", n, err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got, want := read("index/db.json"), `{"modified":"2026-11-05T23:49:57Z"}`; got != want {
		t.Errorf("index/db.json = %s, want %s", got, want)
	}
	var modules []moduleMeta
	if err := json.Unmarshal([]byte(read("index/modules.json")), &modules); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(modules)
	want := `[{"path":"example.com/a","vulns":[{"id":"GO-2026-0001","modified":"2026-01-02T00:00:00Z","fixed":"1.10.0"},` +
		`{"id":"GO-2026-0002","modified":"2026-03-04T00:00:00Z"}]},` +
		`{"path":"stdlib","vulns":[{"id":"GO-2026-0002","modified":"2026-03-04T00:00:00Z","fixed":"1.26.9"}]}]`
	if string(got) != want {
		t.Errorf("index/modules.json =\n%s\nwant\n%s", got, want)
	}
	for id, e := range entries {
		if got := read("ID/" + id + ".json"); got != e {
			t.Errorf("ID/%s.json is not the OSV file as it was", id)
		}
	}
}

// TestBuildRefusesMisnamedEntry: an entry whose id is not its file's name would be served under the wrong ID.
func TestBuildRefusesMisnamedEntry(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "GO-2026-0001.json"), []byte(`{"id":"GO-2026-0009"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := build(src, filepath.Join(t.TempDir(), "db"), time.Time{})
	if err == nil || !strings.Contains(err.Error(), `its id is "GO-2026-0009", want the file's name`) {
		t.Fatalf("build: %v; want an error naming the id", err)
	}
}
