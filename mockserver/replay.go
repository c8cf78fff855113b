package mockserver

import (
	"fmt"
	"io"
	"os"

	"github.com/newssearch/newssearch-go/mockserver/internal/record"
)

// Headlines is a recorded headlines answer, for WithHeadlines: the last
// answer of a headlines file that a recording server (WithRecord) wrote.
// It is immutable and may be shared by servers.
type Headlines struct {
	answer []byte
	lines  int
}

// LoadHeadlines reads a headlines file, one JSON object per line of the
// form {"recorded_at": "…", "answer": {"headlines": […], "state": …}}, and
// keeps the answer of its last line. The error names the first bad line.
func LoadHeadlines(r io.Reader) (*Headlines, error) {
	ans, n, err := record.LastHeadlines(r)
	if err != nil {
		return nil, fmt.Errorf("mockserver: LoadHeadlines: %w", err)
	}
	return &Headlines{answer: ans, lines: n}, nil
}

// LoadHeadlinesFile reads the headlines file at path (see LoadHeadlines).
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

// Answers returns how many answers the file held; the server replays the
// last.
func (h *Headlines) Answers() int { return h.lines }

// WithHeadlines makes /api/v2/headlines answer with the recorded answer
// instead of clustering the corpus: its clusters verbatim, every other
// member too, with each article's datePublished moved by the server's date
// shift (Server.DateShift) in the layout it came in. Pair it with
// WithCorpus over the corpus recorded alongside, whose newest article then
// sets the shift. The request is checked as usual (key, rate limit,
// faults).
func WithHeadlines(h *Headlines) Option {
	return func(c *config) {
		if h == nil {
			c.fail("WithHeadlines(nil): pass headlines from LoadHeadlinesFile, or leave the option out")
			return
		}
		c.headlines = h
	}
}
