// Package journal keeps the mock server's request journal: a ring buffer,
// and the redaction of API keys from request bodies.
package journal

import (
	"sync"
	"sync/atomic"
)

// Ring is a fixed-capacity, concurrency-safe ring buffer that keeps the most
// recent entries. The zero value is unusable; call New.
type Ring[T any] struct {
	mu      sync.Mutex
	entries []T // grows by doubling up to size, from the first Add
	size    int
	next    int // index the next entry is written to once the buffer is full
	full    bool
	// dropped is atomic so that a ring of size 0 counts without the lock.
	dropped atomic.Uint64
	seal    func(*T)
	seq     func(*T) uint64 // orders entries; nil = the order of Add
	// adding holds the entry seq reads: the address of Add's argument would
	// move every entry to the heap.
	adding T
}

// New returns a ring of at most size entries, whose storage grows as they
// come. With seq, it keeps the size entries of highest seq, sorted, so that
// a request that arrived first but finished last takes its place. With
// seal, a snapshot first seals every entry under the lock, so that
// redaction is paid only for entries read; seal must be idempotent and not
// call the ring.
func New[T any](size int, seq func(*T) uint64, seal func(*T)) *Ring[T] {
	return &Ring[T]{size: max(size, 0), seq: seq, seal: seal}
}

// Add appends an entry (in its place by seq), evicting the oldest one when
// the ring is full; an entry evicted or not kept counts as dropped.
func (r *Ring[T]) Add(e T) {
	if r.size == 0 {
		r.dropped.Add(1)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.grow()
	if r.seq != nil && len(r.entries) > 0 {
		r.adding = e
		k := r.seq(&r.adding)
		var zero T
		r.adding = zero // keeps nothing of e alive
		if k < r.seq(r.at(len(r.entries)-1)) {
			r.insert(e, k)
			return
		}
	}
	if !r.full {
		r.entries = append(r.entries, e)
		if len(r.entries) == r.size {
			r.full = true
		}
		return
	}
	r.entries[r.next] = e
	r.next = (r.next + 1) % len(r.entries)
	r.dropped.Add(1)
}

// firstRoom is the room a ring makes at its first Add.
const firstRoom = 16

// grow makes room for one more entry in a ring that is not full: firstRoom,
// then twice the room, never more than size.
func (r *Ring[T]) grow() {
	if r.full || len(r.entries) < cap(r.entries) {
		return
	}
	room := min(max(2*cap(r.entries), firstRoom), r.size)
	bigger := make([]T, len(r.entries), room)
	copy(bigger, r.entries)
	r.entries = bigger
}

// at returns the i-th entry, oldest first.
func (r *Ring[T]) at(i int) *T {
	if r.full {
		i = (i + r.next) % len(r.entries)
	}
	return &r.entries[i]
}

// insert puts e, of seq k and older than the newest entry, in its place.
func (r *Ring[T]) insert(e T, k uint64) {
	n := len(r.entries)
	p := n - 1 // e goes before entry p (logical indices, oldest first)
	for p > 0 && k < r.seq(r.at(p-1)) {
		p--
	}
	if !r.full {
		r.entries = append(r.entries, e) // grows the logical range by one
		r.full = len(r.entries) == r.size
		if r.full {
			r.next = 0
		}
		for i := n; i > p; i-- {
			*r.at(i) = *r.at(i - 1)
		}
		*r.at(p) = e
		return
	}
	r.dropped.Add(1) // e, or the oldest entry
	if p == 0 {      // older than everything kept
		return
	}
	// The oldest goes, and its slot becomes the ring's newest end: after
	// the start moves on by one, the entries older than e are already in
	// place, and only the n-p entries newer than e move up one.
	r.next = (r.next + 1) % n
	for i := n - 1; i >= p; i-- {
		*r.at(i) = *r.at(i - 1)
	}
	*r.at(p - 1) = e
}

// Dropped returns how many entries added since New or Reset the ring does
// not hold: entries held plus Dropped is the entries added.
func (r *Ring[T]) Dropped() uint64 { return r.dropped.Load() }

// SnapshotDropped returns a copy of the stored entries, oldest first, each
// sealed (see New), and Dropped as of the same instant.
func (r *Ring[T]) SnapshotDropped() ([]T, uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seal != nil {
		for i := range r.entries {
			r.seal(&r.entries[i])
		}
	}
	out := make([]T, 0, len(r.entries))
	out = append(out, r.entries[r.next:]...)
	return append(out, r.entries[:r.next]...), r.dropped.Load()
}

// Reset removes every entry and sets Dropped back to 0.
func (r *Ring[T]) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.entries)
	r.entries = r.entries[:0]
	r.next = 0
	r.full = false
	r.dropped.Store(0)
}
