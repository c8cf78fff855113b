// Command newssearch searches the news search service (the Athena News API)
// from the command line, for people and for scripts.
//
// Install it with
//
//	go install ./cmd/newssearch   (from a clone; @latest once the module is published)
//
// and give it a key in the NEWSSEARCH_API_KEY environment variable (or a file
// named by --api-key-file; there is deliberately no flag that takes the key
// itself, since command lines show in ps). NEWSSEARCH_BASE_URL or --base-url
// points it at another service, such as a local newsmock.
//
// Commands:
//
//	newssearch search "central bank" --since 7d          one page of a synchronous search (--all for every page)
//	newssearch async "central bank" --from 2025-01-01    submit an asynchronous query, wait for it, print its articles
//	newssearch results QUERY_ID                          the articles of a submitted query
//	newssearch range "central bank" --since 365d         a long range, one job per window, with a progress bar
//	newssearch headlines                                 the current headline clusters
//	newssearch check                                     compare a service with api/openapi.yaml and the SDK
//	newssearch version
//	newssearch completion bash|zsh|fish
//
// Output is a table on a terminal and JSON Lines otherwise; --format
// table|json|jsonl|csv and --fields choose. Progress and logs go to standard
// error, and only when it is a terminal. Exit codes: 0 success, 1 an error
// reported by the service or the network, 2 a usage error, 130 interrupted.
//
// Everything goes through the SDK (package newssearch); see docs/cli.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills the process at once
	}()
	e := &env{
		stdin:     os.Stdin,
		stdout:    os.Stdout,
		stderr:    os.Stderr,
		getenv:    os.Getenv,
		stdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		stderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		stdoutWidth: func() int {
			w, _, err := term.GetSize(int(os.Stdout.Fd()))
			if err != nil {
				return 0
			}
			return w
		},
	}
	os.Exit(run(ctx, e, os.Args[1:]))
}
