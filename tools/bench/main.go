// Command bench is the benchmark harness: it measures the SDK and the mock
// server against their baselines and targets and prints a markdown table
// (see BENCHMARKS.md at the repository root).
//
// It is a module of its own (github.com/newssearch/newssearch-go/tools/bench,
// whose go.mod replaces the SDK's module with the checkout at ../..), so that
// the SDK's module ships none of it. Usage, from this directory:
//
//	go run . [-quick] [-rows startup,wrk,...]
//
// or from the repository root, go -C tools/bench run . [flags].
//
// Comparisons run baseline and subject interleaved, in several rounds, and
// report the median of the per-round ratios. Start-up and the servers of
// the overhead and wrk rows run in child processes: the program
// re-executes itself, selected by the BENCHCMP_CHILD environment variable.
// The start-up and wrk rows build cmd/newsmock, and the simulated poll row
// runs a go test of this package, so the harness needs the go command.
//
// -quick runs every row with tiny counts and short waits: the figures mean
// nothing, it only proves the harness works (the package test uses it).
// The program never fails because a target is missed; it exits non-zero
// only when a measurement could not be made.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(runChild(mode, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses the flags, runs the rows and prints the table to stdout and
// progress to stderr. It returns the exit status: 0, 1 if a row failed to
// measure, 2 for bad flags.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "tiny counts and short waits: checks the harness, the figures mean nothing")
	rows := fs.String("rows", strings.Join(rowNames(), ","), "comma-separated rows to run, of: "+strings.Join(rowNames(), ", "))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected argument %q: pass flags only (see -h)\n", fs.Arg(0))
		return 2
	}
	selected, err := selectRows(*rows)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 2
	}
	p := fullParams()
	if *quick {
		p = quickParams()
	}
	rep := measure(context.Background(), p, selected, stderr)
	rep.print(stdout)
	if rep.failed() {
		return 1
	}
	return 0
}
