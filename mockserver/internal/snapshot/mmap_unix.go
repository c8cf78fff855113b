//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package snapshot

import (
	"fmt"
	"os"
	"syscall"
)

// canMap reports whether mapFile maps files on this system.
const canMap = true

// mapFile maps the whole file at path read-only. unmap releases the mapping;
// it must only be called while nothing points into the data.
func mapFile(path string) (data []byte, unmap func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := info.Size()
	if size <= 0 || size != int64(int(size)) {
		return nil, nil, fmt.Errorf("snapshot %s: size %d cannot be mapped", path, size)
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("snapshot %s: mmap: %w", path, err)
	}
	return data, func() { syscall.Munmap(data) }, nil
}
