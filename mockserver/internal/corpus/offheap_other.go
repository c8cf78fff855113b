//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package corpus

// offHeap is not available on this system: see offheap_unix.go.
func offHeap[T any](n int) (s []T, free func(), ok bool) { return nil, nil, false }
