// Package jobs holds the mock server's asynchronous query jobs: which key
// submitted each one, the validated query it will run, whether it is still
// pending, and when it expires.
//
// A job stores its query, never its results; results are computed when they
// are asked for. Memory stays bounded however many jobs are submitted: a job
// expires a fixed time after its last use, and when the store is full the
// least recently used job is evicted.
package jobs

import (
	"container/list"
	"crypto/subtle"
	"sync"
	"time"
)

// Outcome is the fate decided for a job when it is submitted.
type Outcome uint8

// Outcomes.
const (
	Succeed Outcome = iota // the job becomes ready and succeeds
	Fail                   // the job becomes ready and fails
	Stuck                  // the job never becomes ready
)

// State is what a poll reports.
type State uint8

// States.
const (
	Pending State = iota
	Succeeded
	Failed
)

// Config sets the store's limits. A job is pending until it has been polled
// more than PendingPolls times AND PendingFor has passed since it was
// submitted; both zero means it is ready at the first poll.
type Config struct {
	TTL          time.Duration // a job expires this long after its last use
	Max          int           // at most this many jobs; the least recently used goes first
	PendingPolls int
	PendingFor   time.Duration
}

// Owner identifies who submitted a job: a hash of the API key, never the key.
type Owner [32]byte

type job[Q any] struct {
	id      string
	owner   Owner
	query   Q
	outcome Outcome
	created time.Time
	used    time.Time
	polls   int
	ready   bool
}

// Store holds jobs whose query has type Q. It is safe for concurrent use.
type Store[Q any] struct {
	cfg  Config
	mu   sync.Mutex
	byID map[string]*list.Element // of *job[Q]
	lru  *list.List               // front = least recently used
}

// New returns an empty store.
func New[Q any](cfg Config) *Store[Q] {
	return &Store[Q]{cfg: cfg, byID: map[string]*list.Element{}, lru: list.New()}
}

// Submit stores a job under id, which the caller makes unique, evicting
// expired jobs and, when the store is full, the least recently used ones.
func (s *Store[Q]) Submit(id string, owner Owner, q Q, outcome Outcome, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	if e, ok := s.byID[id]; ok {
		s.remove(e)
	}
	for s.lru.Len() >= max(s.cfg.Max, 1) {
		s.remove(s.lru.Front())
	}
	j := &job[Q]{id: id, owner: owner, query: q, outcome: outcome, created: now, used: now}
	s.byID[id] = s.lru.PushBack(j)
}

// Poll counts a poll of job id by owner and reports its state and query.
// ok is false when the id is unknown, expired, or was submitted by another
// owner; the three cases are indistinguishable by design.
func (s *Store[Q]) Poll(id string, owner Owner, now time.Time) (state State, q Q, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	e, found := s.byID[id]
	if !found {
		return Pending, q, false
	}
	j := e.Value.(*job[Q])
	if subtle.ConstantTimeCompare(j.owner[:], owner[:]) != 1 {
		return Pending, q, false
	}
	if s.expired(j, now) { // possible when the clock went backwards for others
		s.remove(e)
		return Pending, q, false
	}
	j.used = now
	s.lru.MoveToBack(e)
	j.polls++
	if !j.ready && j.outcome != Stuck && j.polls > s.cfg.PendingPolls && !now.Before(j.created.Add(s.cfg.PendingFor)) {
		j.ready = true
	}
	switch {
	case !j.ready:
		return Pending, j.query, true
	case j.outcome == Fail:
		return Failed, j.query, true
	}
	return Succeeded, j.query, true
}

// Len returns the number of jobs held, expired ones included until the next
// Submit or Poll sweeps them.
func (s *Store[Q]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}

// Reset removes every job.
func (s *Store[Q]) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.byID)
	s.lru.Init()
}

func (s *Store[Q]) expired(j *job[Q], now time.Time) bool {
	return !now.Before(j.used.Add(s.cfg.TTL))
}

// expire drops jobs from the least recently used end while they are expired.
func (s *Store[Q]) expire(now time.Time) {
	for e := s.lru.Front(); e != nil && s.expired(e.Value.(*job[Q]), now); e = s.lru.Front() {
		s.remove(e)
	}
}

func (s *Store[Q]) remove(e *list.Element) {
	delete(s.byID, e.Value.(*job[Q]).id)
	s.lru.Remove(e)
}
