// Package journal keeps the mock server's request journal: a fixed-size ring
// buffer of entries, and the redaction that strips API keys from request
// bodies before anything is read.
package journal

import "sync"

// Ring is a fixed-capacity, concurrency-safe ring buffer that keeps the most
// recent entries. The zero value is unusable; call New.
type Ring[T any] struct {
	mu      sync.Mutex
	entries []T // capacity fixed (at size) by the first Add
	size    int
	next    int // index the next entry is written to once the buffer is full
	full    bool
	seal    func(*T)
}

// New returns a ring holding at most size entries. A size of zero or less
// gives a ring that stores nothing. The storage is allocated by the first
// Add, so a ring that is never written to costs nothing.
func New[T any](size int) *Ring[T] {
	return &Ring[T]{size: max(size, 0)}
}

// NewSealed is New with a seal: Snapshot calls seal on every stored entry,
// under the ring's lock, before copying it out, so that work such as
// redaction is paid only for entries that are read, and no reader ever
// sees an entry that was not sealed. seal must be idempotent and must not
// call the ring.
func NewSealed[T any](size int, seal func(*T)) *Ring[T] {
	r := New[T](size)
	r.seal = seal
	return r
}

// Add appends an entry, evicting the oldest one when the ring is full.
func (r *Ring[T]) Add(e T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.entries == nil {
		if r.size == 0 {
			return
		}
		r.entries = make([]T, 0, r.size)
	}
	if !r.full {
		r.entries = append(r.entries, e)
		if len(r.entries) == cap(r.entries) {
			r.full = true
		}
		return
	}
	r.entries[r.next] = e
	r.next = (r.next + 1) % len(r.entries)
}

// Snapshot returns a copy of the stored entries, oldest first, each sealed
// (see NewSealed).
func (r *Ring[T]) Snapshot() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seal != nil {
		for i := range r.entries {
			r.seal(&r.entries[i])
		}
	}
	out := make([]T, 0, len(r.entries))
	out = append(out, r.entries[r.next:]...)
	return append(out, r.entries[:r.next]...)
}

// Reset removes every entry.
func (r *Ring[T]) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.entries)
	r.entries = r.entries[:0]
	r.next = 0
	r.full = false
}
