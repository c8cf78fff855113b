package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/newssearch/newssearch-go/mockserver/internal/corpus"
)

// The recording files are only appended to: each answer's lines in one
// write, synced before the answer is passed back. A write stopped part-way
// (SIGKILL, a full disk) leaves at most a torn last line, which the loaders
// skip (corpus.TornLine). A failed write is undone by truncating, and Open
// cuts off a torn last line, so an append never extends it into a bad one.

// newFileMode is the mode of a recording file appendLines creates; a file
// that exists keeps its own.
const newFileMode os.FileMode = 0o644

// appendLines appends add, whole lines, to the file at path in one write
// and syncs it, creating it if missing; a failed write is cut back.
// midWrite, set by tests only, runs once half of add is written; its error
// is the write's.
func appendLines(path string, add []byte, midWrite func() error) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	created := false
	if errors.Is(err, os.ErrNotExist) {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, newFileMode)
		created = err == nil
	}
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	if created {
		if err := f.Chmod(newFileMode); err != nil { // whatever the umask
			return err
		}
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	defer func() {
		if err != nil {
			_ = f.Truncate(size) // a line cut short must not stay for the next append to extend
			_ = f.Sync()
		}
	}()
	if midWrite != nil && len(add) > 1 {
		if _, err = f.Write(add[:len(add)/2]); err != nil {
			return err
		}
		if err = midWrite(); err != nil {
			return err
		}
		add = add[len(add)/2:]
	}
	if _, err = f.Write(add); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if created {
		syncDir(filepath.Dir(path))
	}
	return nil
}

// repairTail makes the file at path end in a whole line: a torn last line
// is cut off, a whole one without a line ending gets one, and any other is
// left for the reader to report.
func repairTail(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return err
	}
	size := fi.Size()
	n := min(size, corpus.MaxLineBytes+2)
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, size-n); err != nil {
		return err
	}
	if tail[n-1] == '\n' {
		return nil
	}
	start := bytes.LastIndexByte(tail, '\n') + 1 // 0 when the window holds no line ending
	if start == 0 && size > n {
		return nil // a line too long: the reader reports it
	}
	last := tail[start:]
	switch {
	case corpus.TornLine(last):
		err = f.Truncate(size - int64(len(last)))
	case json.Valid(last):
		_, err = f.WriteAt([]byte{'\n'}, size)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	return f.Sync()
}

// syncDir makes the creation of a file in dir durable. Some systems cannot
// sync a directory; the error is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// eachLine calls fn with every line of the file at path (see scanLines), if
// it exists; the error names the file and the line.
func eachLine(path string, fn func(line []byte) error) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err == nil {
		err = scanLines(f, fn)
		f.Close()
	}
	if err != nil {
		return fmt.Errorf("%s %w; record into a new file, or fix that line", path, err)
	}
	return nil
}

// scanLines calls fn with every non-blank line of r but a torn last one.
func scanLines(r io.Reader, fn func(line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		var err error
		buf, err = corpus.ReadLine(br, buf[:0])
		switch {
		case errors.Is(err, corpus.ErrLineTooLong):
			return fmt.Errorf("line %d: longer than %d bytes; keep each line to at most 1 MiB", n, corpus.MaxLineBytes)
		case err != nil && err != io.EOF:
			return fmt.Errorf("reading: %w", err)
		}
		line := bytes.TrimSpace(buf)
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		if len(line) > 0 && !(err == io.EOF && corpus.TornLine(line)) {
			if err := fn(line); err != nil {
				return fmt.Errorf("line %d: %w", n, err)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// HeadlinesPathFor returns where a recording into corpusPath keeps its
// headline answers by default: "news.jsonl" gives "news.headlines.jsonl".
func HeadlinesPathFor(corpusPath string) string {
	return strings.TrimSuffix(corpusPath, ".jsonl") + ".headlines.jsonl"
}
