// Command gencorpus writes a generated mock-server corpus as JSON Lines, the
// format corpus.LoadJSONL reads, and prints the corpus's figures.
//
// Usage:
//
//	go run ./mockserver/internal/corpus/gencorpus -o corpus.jsonl [-seed N] [-n N] [-days N]
//
// Without -seed, -n and -days it writes the default corpus. "-o -" writes to
// standard output; the figures always go to standard error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command and returns its exit status: 0 on success, 1
// when writing fails, 2 for bad flags.
func run(args []string, stdout, stderr io.Writer) int {
	def := corpus.DefaultConfig()
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", `output file ("-" for standard output); required`)
	seed := fs.Int64("seed", def.Seed, "generator seed")
	n := fs.Int("n", def.Articles, fmt.Sprintf("number of articles, 1 to %d", corpus.MaxArticles))
	days := fs.Int("days", def.Days, "span of publication dates in days, ending "+def.End.Format("2006-01-02 15:04:05 MST"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch {
	case *out == "":
		fmt.Fprintln(stderr, "gencorpus: no output file; pass -o corpus.jsonl (or -o - for standard output)")
		return 2
	case *n < 1 || *n > corpus.MaxArticles:
		fmt.Fprintf(stderr, "gencorpus: -n %d is out of range; pass a number of articles from 1 to %d\n", *n, corpus.MaxArticles)
		return 2
	case *days < 1:
		fmt.Fprintf(stderr, "gencorpus: -days %d is out of range; pass a positive number of days\n", *days)
		return 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "gencorpus: unexpected argument %q; pass options only\n", fs.Arg(0))
		return 2
	}
	c := corpus.Generate(corpus.Config{Seed: *seed, Articles: *n, End: def.End, Days: *days})
	if err := write(*out, stdout, c); err != nil {
		fmt.Fprintf(stderr, "gencorpus: %v\n", err)
		return 1
	}
	f := c.Figures()
	fmt.Fprintf(stderr, "articles:  %d (%d encoded)\nsites:     %d\nlanguages: %d\nstories:   %d\nspan:      %.1f days, %s to %s\n",
		f.Articles, f.Encoded, f.Sites, f.Languages, f.Stories, f.Span().Hours()/24,
		f.Oldest.Format("2006-01-02 15:04:05"), f.Newest.Format("2006-01-02 15:04:05"))
	return 0
}

// write writes c as JSONL to the named file, or to stdout for "-".
func write(name string, stdout io.Writer, c *corpus.Corpus) error {
	if name == "-" {
		return corpus.WriteJSONL(stdout, c)
	}
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("creating the output: %w; check the path and its directory", err)
	}
	return errors.Join(corpus.WriteJSONL(f, c), f.Close())
}
