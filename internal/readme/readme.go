// Package readme keeps the Go snippets of README.md and docs/*.md compiled:
// its tests hold every ```go block of those files to a copy that the Go
// toolchain builds (snippets_test.go, and quickstart/main.go for the full
// program), so a renamed function or field breaks the build, not the
// reader. It has no API.
package readme
