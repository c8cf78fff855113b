// Package buildinfo is the version newssearch and newsmock print, from one
// source: the SDK's newssearch.Version, which tools/dist/build stamps into
// both binaries.
package buildinfo

import (
	"runtime/debug"

	newssearch "github.com/newssearch/newssearch-go"
)

// Version is the version of a binary: stamped, the value of its main.version
// (tools/dist/build sets it with -ldflags "-X main.version=..."), else the
// module version a go install ...@v1.2.3 records, else newssearch.Version.
func Version(stamped string) string {
	if stamped != "" {
		return stamped
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return newssearch.Version
}
