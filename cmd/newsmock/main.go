// Command newsmock serves the mock news search service (package mockserver)
// over HTTP, for test suites written in any language.
//
// Run it with
//
//	go run github.com/newssearch/newssearch-go/cmd/newsmock -addr 127.0.0.1:0
//
// It listens on 127.0.0.1:8080 unless -addr says otherwise (port 0 picks a
// free one; an address beyond this machine needs -allow-remote) and prints
// one line to standard output once it accepts connections:
//
//	newsmock listening on http://127.0.0.1:43123
//
// (-url-file also writes the URL to a file). It serves the four endpoints of
// /api/v2/, the mock's control endpoints under /_mock/ and the service's
// OpenAPI document at GET /openapi.yaml. Logs go to standard error, a line
// at a time, and never show an API key. No web page can drive it: requests
// from pages of other sites, Host names other than localhost, *.localhost, IP addresses and
// those of -allow-host, and control POSTs that are not JSON (or lack the
// X-Newsmock-Control header) are refused.
//
// With -record URL -record-to FILE it is a recording proxy instead: every
// request goes to the service at URL unchanged and its answer comes back
// unchanged, while the articles of the answers are added to FILE (a corpus
// for -corpus) and the headline answers to a file for -headlines; the key
// is never kept. It prints what it recorded to standard error at exit
// (GET /_mock/record shows it while it runs). See docs/record.md.
//
// SIGINT or SIGTERM stops it gracefully: it stops accepting connections,
// answers the requests in an injected latency at once, lets the others in
// flight finish (for at most -drain-timeout) and exits 0; a second signal
// kills it at once. With -exit-with-parent it stops the same way when the
// program that started it goes (see exitWithParent). Bad flags exit 2. A corpus file that
// cannot be loaded, an address that cannot be listened on, or requests cut
// off by the drain timeout exit 1.
//
// Every flag can also be set by an environment variable NEWSMOCK_<FLAG>
// (NEWSMOCK_WORLD_PER_KEY for -world-per-key); a flag on the command line
// wins, and an unknown or malformed NEWSMOCK_ variable is refused (exit 2).
// newsmock health asks the newsmock on -addr for GET /_mock/health and
// exits 0 if it is up: the HEALTHCHECK of its container image.
//
// Run newsmock -h for the flags.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second signal kills the process at once, without draining
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
