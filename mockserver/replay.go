package mockserver

import (
	"fmt"
	"io"
	"os"

	"github.com/newssearch/newssearch-go/mockserver/internal/record"
)

// Headlines is a recorded headlines answer for WithHeadlines.
type Headlines struct {
	answer []byte
	lines  int
}

// LoadHeadlines reads a headlines file that WithRecord wrote and keeps its
// last answer.
func LoadHeadlines(r io.Reader) (*Headlines, error) {
	ans, n, err := record.LastHeadlines(r)
	if err != nil {
		return nil, fmt.Errorf("mockserver: LoadHeadlines: %w", err)
	}
	return &Headlines{answer: ans, lines: n}, nil
}

// LoadHeadlinesFile is LoadHeadlines reading the file at path.
func LoadHeadlinesFile(path string) (*Headlines, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mockserver: LoadHeadlinesFile: %w", err)
	}
	defer f.Close()
	ans, n, err := record.LastHeadlines(f)
	if err != nil {
		return nil, fmt.Errorf("mockserver: LoadHeadlinesFile %s: %w", path, err)
	}
	return &Headlines{answer: ans, lines: n}, nil
}

// Answers returns how many answers the file held.
func (h *Headlines) Answers() int { return h.lines }

// WithHeadlines makes /api/v2/headlines answer with h, its dates moved by the
// date shift, instead of clustering the corpus.
func WithHeadlines(h *Headlines) Option {
	return func(c *config) {
		if h == nil {
			c.fail("WithHeadlines(nil): pass headlines from LoadHeadlinesFile, or leave the option out")
			return
		}
		c.headlines = h
	}
}
