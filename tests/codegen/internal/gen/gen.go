// Package gen runs the pinned OpenAPI code generators (oapi-codegen and
// ogen, tool directives of tests/go.mod) over api/openapi.yaml. Package
// codegen's generate directive (through command regen) and its up-to-date
// test both call Generate, so the committed clients and the test's fresh
// ones come from the same commands.
package gen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Generator is one code generator and the package it writes.
type Generator struct {
	// Name is the tool's name in tests/go.mod's tool block (`go tool Name`).
	Name string
	// Package is the generated package's name and directory under the
	// output directory.
	Package string
	// Generated reports whether a file name in the package's directory is
	// one the generator writes (the hand-written tests beside them are not).
	Generated func(name string) bool
	// args returns the tool's arguments: its configuration is in dir, the
	// document at spec, the package's directory at out.
	args func(dir, spec, out string) []string
}

// Generators lists the generators in the order Generate runs them.
var Generators = []Generator{
	{
		Name:      "oapi-codegen",
		Package:   "oapiclient",
		Generated: func(name string) bool { return name == "client.gen.go" },
		args: func(dir, spec, out string) []string {
			return []string{"-config", filepath.Join(dir, "oapi-codegen.yaml"), "-o", filepath.Join(out, "client.gen.go"), spec}
		},
	},
	{
		Name:    "ogen",
		Package: "ogenclient",
		Generated: func(name string) bool {
			return strings.HasPrefix(name, "oas_") && strings.HasSuffix(name, "_gen.go")
		},
		args: func(dir, spec, out string) []string {
			return []string{"--config", filepath.Join(dir, "ogen.yml"), "--target", out, "--package", "ogenclient",
				"--clean", "--loglevel", "error", "--color=false", spec}
		},
	},
}

// Generate runs every generator with the configuration files of dir (the
// directory of package codegen) over the document spec, writing each
// package to outDir/<Package>. It runs `go tool` in dir, so the tools are
// the versions tests/go.mod pins, built (once, then cached) by the go
// command; the module proxy is needed the first time.
func Generate(ctx context.Context, dir, spec, outDir string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if spec, err = filepath.Abs(spec); err != nil {
		return err
	}
	for _, g := range Generators {
		out, err := filepath.Abs(filepath.Join(outDir, g.Package))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		cmd := exec.CommandContext(ctx, "go", append([]string{"tool", g.Name}, g.args(dir, spec, out)...)...)
		cmd.Dir = dir
		var output bytes.Buffer
		cmd.Stdout, cmd.Stderr = &output, &output
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go tool %s %s: %v\n%s", g.Name, strings.Join(g.args(dir, spec, out), " "), err, output.String())
		}
	}
	return nil
}
