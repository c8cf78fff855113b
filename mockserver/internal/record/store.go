package record

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// A file is written only by replacing it: commit writes the current content
// and the new lines to a temporary file in the same directory, syncs it and
// renames it over the old one (then syncs the directory). A rename is
// atomic, so a reader, or a process that starts after a crash at any
// instant, sees either the old file or the new one, never a half line. An
// append with one write(2) would be cheaper, but a write the kernel
// interrupts (a SIGKILL between two pages of a large write, or a full disk)
// can leave part of a line behind, and the loader would then refuse the
// whole file.
//
// The copy of the old content is done by io.Copy between two *os.File,
// which on Linux uses copy_file_range: the bytes never enter the process.

// newFileMode is the mode of a recording file commit creates; a file that
// exists keeps its own.
const newFileMode os.FileMode = 0o644

// commit replaces the file at path by its current lines, without those for
// which skip returns true (nil skips none; the file is then copied whole),
// followed by add. add must be whole lines, each ending in '\n'. The file
// keeps its mode (a new one gets newFileMode). midWrite, set by tests
// only, is called once the first half of add is written.
func commit(path string, add []byte, skip func(line []byte) bool, midWrite func()) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	mode := newFileMode
	old, err := os.Open(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	default:
		if fi, serr := old.Stat(); serr == nil {
			mode = fi.Mode().Perm()
		}
		err = copyLines(tmp, old, skip)
		old.Close()
		if err != nil {
			return err
		}
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if midWrite != nil && len(add) > 1 {
		if _, err = tmp.Write(add[:len(add)/2]); err != nil {
			return err
		}
		midWrite()
		add = add[len(add)/2:]
	}
	if _, err = tmp.Write(add); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// copyLines copies src to dst, leaving out the lines skip returns true for.
func copyLines(dst io.Writer, src *os.File, skip func(line []byte) bool) error {
	if skip == nil {
		_, err := io.Copy(dst, src)
		return err
	}
	br := bufio.NewReaderSize(src, 64<<10)
	bw := bufio.NewWriterSize(dst, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && !skip(line) {
			if _, werr := bw.Write(line); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			return err
		}
	}
}

// removeStale removes the temporary files a commit into path left behind
// when its process was killed before the rename.
func removeStale(path string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	stale, _ := filepath.Glob(filepath.Join(dir, "."+globEscape(base)+".tmp-*"))
	for _, f := range stale {
		os.Remove(f)
	}
}

// globEscape quotes the characters filepath.Match treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// syncDir makes a rename in dir durable. Some systems cannot sync a
// directory; the rename is still atomic there, so the error is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// eachLine calls fn with every non-blank line of the file at path and its
// number from 1; a missing file has none. Lines may be up to
// corpus.MaxLineBytes long.
func eachLine(path string, fn func(n int, line []byte) error) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return scanLines(f, fn)
}

// scanLines calls fn with every non-blank line of r and its number from 1.
func scanLines(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), corpus.MaxLineBytes+2)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading: %w", err)
	}
	return nil
}

// HeadlinesPathFor returns where a recording into corpusPath keeps its
// headline answers by default: "news.jsonl" gives "news.headlines.jsonl".
func HeadlinesPathFor(corpusPath string) string {
	return strings.TrimSuffix(corpusPath, ".jsonl") + ".headlines.jsonl"
}
