//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package snapshot

import "errors"

// canMap reports whether mapFile maps files on this system.
const canMap = false

// mapFile reports that this system's files are not mapped: the default
// corpus is built in every process, as without a cache.
func mapFile(string) ([]byte, func(), error) {
	return nil, nil, errors.New("snapshot: files are not mapped on this system")
}
