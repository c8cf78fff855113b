// Package journal keeps the mock server's request journal: a fixed-size ring
// buffer of entries, and the redaction that strips API keys from request
// bodies before anything is stored.
package journal

import "sync"

// Ring is a fixed-capacity, concurrency-safe ring buffer that keeps the most
// recent entries. The zero value is unusable; call New.
type Ring[T any] struct {
	mu      sync.Mutex
	entries []T // capacity fixed at construction
	next    int // index the next entry is written to once the buffer is full
	full    bool
}

// New returns a ring holding at most size entries. A size of zero or less
// gives a ring that stores nothing.
func New[T any](size int) *Ring[T] {
	return &Ring[T]{entries: make([]T, 0, max(size, 0))}
}

// Add appends an entry, evicting the oldest one when the ring is full.
func (r *Ring[T]) Add(e T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cap(r.entries) == 0 {
		return
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

// Snapshot returns a copy of the stored entries, oldest first.
func (r *Ring[T]) Snapshot() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
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
