package corpus

// Checker runs LoadJSONL's checks on lines given one at a time, so that the
// recorder appends only lines the loader accepts. It keeps what the checks
// across lines need, not the articles. Use NewChecker.
type Checker struct {
	l    *loader
	line int
}

// NewChecker returns a Checker that has seen no line.
func NewChecker() *Checker {
	l := newLoader()
	l.discard = true
	return &Checker{l: l}
}

// Check decodes one line as LoadJSONL would, as the next line of the file,
// and returns its article. A line that fails a check leaves the Checker as
// it was; the error says what is wrong (without a line number).
func (c *Checker) Check(text []byte) (Article, error) {
	d, err := decodeLine(text)
	if err != nil {
		return Article{}, err
	}
	if err := c.l.accept(c.line+1, d); err != nil {
		return Article{}, err
	}
	c.line++
	return d.article, nil
}

// Has reports whether an accepted line had the _id id (lower case).
func (c *Checker) Has(id string) bool {
	_, ok := c.l.ids[id]
	return ok
}

// Forget drops the _id id, as when a writer removes its line.
func (c *Checker) Forget(id string) { delete(c.l.ids, id) }
