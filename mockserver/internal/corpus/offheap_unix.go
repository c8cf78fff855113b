//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package corpus

import (
	"syscall"
	"unsafe"
)

// offHeap returns n zero values of T in memory of their own outside the Go
// heap (an anonymous mapping), which the garbage collector neither scans
// nor frees, or false when the system refuses the mapping. free releases
// it. What is stored there must hold no pointer to the Go heap that
// nothing else keeps alive: the collector does not see it.
func offHeap[T any](n int) (s []T, free func(), ok bool) {
	size := n * int(unsafe.Sizeof(*new(T)))
	if size == 0 {
		return nil, func() {}, true
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n), func() { _ = syscall.Munmap(b) }, true
}
