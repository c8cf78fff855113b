// Package jobs holds the mock server's asynchronous query jobs: their
// owner, query (never results), state and expiry. A job expires a fixed
// time after its last use, and a full store evicts the least recently used.
package jobs

import (
	"cmp"
	"container/list"
	"crypto/subtle"
	"slices"
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
	elem    *list.Element // in the store's LRU list
	seq     uint64        // submission order
	message string        // the failure message set by Force, if any
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
	byID map[string]*job[Q]
	lru  list.List // of *job[Q], least recently used first
	seq  uint64    // jobs submitted
}

// New returns an empty store.
func New[Q any](cfg Config) *Store[Q] {
	return &Store[Q]{cfg: cfg, byID: map[string]*job[Q]{}}
}

// SetConfig changes the store's limits from the next submission or poll on.
func (s *Store[Q]) SetConfig(cfg Config) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg = cfg
}

// front returns the least recently used job, or nil.
func (s *Store[Q]) front() *job[Q] {
	if e := s.lru.Front(); e != nil {
		return e.Value.(*job[Q])
	}
	return nil
}

// Submit stores a job under id, replacing any, and evicts expired jobs and,
// past Max, the least recently used.
func (s *Store[Q]) Submit(id string, owner Owner, q Q, outcome Outcome, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	if old := s.byID[id]; old != nil {
		s.remove(old)
	}
	s.seq++
	j := &job[Q]{seq: s.seq, id: id, owner: owner, query: q, outcome: outcome, created: now, used: now}
	j.elem = s.lru.PushBack(j)
	s.byID[id] = j
	for len(s.byID) > max(s.cfg.Max, 1) {
		s.remove(s.front())
	}
}

// Result is what a poll reports; Message is Force's.
type Result[Q any] struct {
	State   State
	Query   Q
	Message string
	// ReadyIn is how long a pending job still waits for PendingFor.
	ReadyIn time.Duration
}

// PollResult counts a poll of job id by owner and reports its state, query
// and failure message. ok is false when the id is unknown, expired, or was
// submitted by another owner; the three cases are indistinguishable by
// design.
func (s *Store[Q]) PollResult(id string, owner Owner, now time.Time) (r Result[Q], ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	j, found := s.byID[id]
	if !found {
		return r, false
	}
	if subtle.ConstantTimeCompare(j.owner[:], owner[:]) != 1 {
		return r, false
	}
	if s.expired(j, now) { // possible when the clock went backwards for others
		s.remove(j)
		return r, false
	}
	j.used = now
	s.lru.MoveToBack(j.elem)
	j.polls++
	if !j.ready && j.outcome != Stuck && j.polls > s.cfg.PendingPolls && !now.Before(j.created.Add(s.cfg.PendingFor)) {
		j.ready = true
	}
	r = Result[Q]{State: j.state(), Query: j.query, Message: j.message}
	if !j.ready && j.outcome != Stuck {
		r.ReadyIn = max(j.created.Add(s.cfg.PendingFor).Sub(now), 0)
	}
	return r, true
}

func (j *job[Q]) state() State {
	switch {
	case !j.ready:
		return Pending
	case j.outcome == Fail:
		return Failed
	}
	return Succeeded
}

func (j *job[Q]) info(ttl time.Duration) Info[Q] {
	return Info[Q]{ID: j.id, Owner: j.owner, State: j.state(), Query: j.query, Message: j.message,
		Created: j.created, Used: j.used, Expires: j.used.Add(ttl), Polls: j.polls}
}

// Info describes a job for the mock's control API.
type Info[Q any] struct {
	ID      string
	Owner   Owner
	State   State
	Query   Q
	Message string // set by Force
	Created time.Time
	Used    time.Time // the last submission or poll
	Expires time.Time
	Polls   int
}

// List returns the live jobs in submission order, sweeping expired ones.
func (s *Store[Q]) List(now time.Time) []Info[Q] {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	var live []*job[Q]
	for _, j := range s.byID {
		if !s.expired(j, now) { // possible when the clock went backwards
			live = append(live, j)
		}
	}
	slices.SortFunc(live, func(a, b *job[Q]) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]Info[Q], len(live))
	for i, j := range live {
		out[i] = j.info(s.cfg.TTL)
	}
	return out
}

// Force sets the state of job id, whoever owns it, without counting a use;
// Pending keeps it pending until forced again. It reports false for an
// unknown or expired id.
func (s *Store[Q]) Force(id string, state State, message string, now time.Time) (Info[Q], bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	j, found := s.byID[id]
	if !found || s.expired(j, now) {
		return Info[Q]{}, false
	}
	j.message = ""
	switch state {
	case Succeeded:
		j.outcome, j.ready = Succeed, true
	case Failed:
		j.outcome, j.ready, j.message = Fail, true, message
	default:
		j.outcome, j.ready = Stuck, false
	}
	return j.info(s.cfg.TTL), true
}

// Remove forgets job id; false for an unknown or expired id.
func (s *Store[Q]) Remove(id string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	j, found := s.byID[id]
	if !found {
		return false
	}
	expired := s.expired(j, now)
	s.remove(j)
	return !expired
}

// Len returns the number of jobs held, expired ones included until swept.
func (s *Store[Q]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
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
	for j := s.front(); j != nil && s.expired(j, now); j = s.front() {
		s.remove(j)
	}
}

func (s *Store[Q]) remove(j *job[Q]) {
	delete(s.byID, j.id)
	s.lru.Remove(j.elem)
}
