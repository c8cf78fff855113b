package jobs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var (
	t0    = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	alice = Owner{1}
	bob   = Owner{2}
)

type poll struct {
	State State
	Query string
	OK    bool
}

func pollAt(s *Store[string], id string, o Owner, now time.Time) poll {
	st, q, ok := s.Poll(id, o, now)
	return poll{st, q, ok}
}

func TestPendingForFirstPollByDefault(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 10, PendingPolls: 1})
	s.Submit("a", alice, "cars", Succeed, t0)
	want := []poll{{Pending, "cars", true}, {Succeeded, "cars", true}, {Succeeded, "cars", true}}
	got := []poll{pollAt(s, "a", alice, t0), pollAt(s, "a", alice, t0), pollAt(s, "a", alice, t0)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestReadyAtOnceWithoutPending(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 10})
	s.Submit("a", alice, "q", Succeed, t0)
	if diff := cmp.Diff(poll{Succeeded, "q", true}, pollAt(s, "a", alice, t0)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestPendingByTimeAndPolls(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 10, PendingPolls: 2, PendingFor: 10 * time.Second})
	s.Submit("a", alice, "q", Succeed, t0)
	got := []State{}
	for _, at := range []time.Duration{0, 20 * time.Second, 20 * time.Second, 5 * time.Second} {
		p := pollAt(s, "a", alice, t0.Add(at))
		got = append(got, p.State)
	}
	// Polls 1 and 2 are within PendingPolls; poll 3 is past both limits;
	// once ready a job stays ready even if the clock goes back.
	if diff := cmp.Diff([]State{Pending, Pending, Succeeded, Succeeded}, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	s.Submit("b", alice, "q", Succeed, t0)
	got = got[:0]
	for _, at := range []time.Duration{0, time.Second, 2 * time.Second, 9 * time.Second, 10 * time.Second} {
		got = append(got, pollAt(s, "b", alice, t0.Add(at)).State)
	}
	if diff := cmp.Diff([]State{Pending, Pending, Pending, Pending, Succeeded}, got); diff != "" {
		t.Fatalf("by time (-want +got):\n%s", diff)
	}
}

func TestOutcomes(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 10, PendingPolls: 1})
	s.Submit("f", alice, "q", Fail, t0)
	s.Submit("s", alice, "q", Stuck, t0)
	var got []State
	for range 3 {
		got = append(got, pollAt(s, "f", alice, t0).State, pollAt(s, "s", alice, t0.Add(time.Minute)).State)
	}
	want := []State{Pending, Pending, Failed, Pending, Failed, Pending}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestOtherOwnerAndUnknownID(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 10})
	s.Submit("a", alice, "q", Succeed, t0)
	if got := pollAt(s, "a", bob, t0); got.OK {
		t.Fatalf("bob saw alice's job: %+v", got)
	}
	if got := pollAt(s, "nope", alice, t0); got.OK {
		t.Fatalf("unknown id found: %+v", got)
	}
	// Bob's attempts neither count as polls nor refresh the job.
	if diff := cmp.Diff(poll{Succeeded, "q", true}, pollAt(s, "a", alice, t0)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestTTLCountsFromLastUse(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 10})
	s.Submit("a", alice, "q", Succeed, t0)
	s.Submit("b", alice, "q", Succeed, t0)
	if !pollAt(s, "a", alice, t0.Add(59*time.Minute)).OK {
		t.Fatal("a expired before its TTL")
	}
	if pollAt(s, "b", alice, t0.Add(time.Hour)).OK {
		t.Fatal("b still there an hour after its last use")
	}
	if !pollAt(s, "a", alice, t0.Add(time.Hour+58*time.Minute)).OK {
		t.Fatal("a expired although it was used 59 minutes before")
	}
	if pollAt(s, "a", alice, t0.Add(2*time.Hour+59*time.Minute)).OK {
		t.Fatal("a still there an hour after its last use")
	}
	if n := s.Len(); n != 0 {
		t.Fatalf("Len = %d after expiry, want 0", n)
	}
}

func TestExpiredJobNotAtFrontIsGone(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 10})
	s.Submit("late", alice, "q", Succeed, t0.Add(3*time.Hour)) // clock went back afterwards
	s.Submit("early", alice, "q", Succeed, t0)
	if pollAt(s, "early", alice, t0.Add(time.Hour)).OK {
		t.Fatal("expired job behind an unexpired one was still found")
	}
}

func TestCapEvictsLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 3})
	for i := range 3 {
		s.Submit(fmt.Sprint(i), alice, "q", Succeed, t0)
	}
	pollAt(s, "0", alice, t0) // 0 is now the most recently used
	s.Submit("3", alice, "q", Succeed, t0)
	s.Submit("4", alice, "q", Succeed, t0)
	var got []string
	for i := range 5 {
		if pollAt(s, fmt.Sprint(i), alice, t0).OK {
			got = append(got, fmt.Sprint(i))
		}
	}
	if diff := cmp.Diff([]string{"0", "3", "4"}, got); diff != "" {
		t.Fatalf("kept (-want +got):\n%s", diff)
	}
	if s.Len() != 3 {
		t.Fatalf("Len = %d, want 3", s.Len())
	}
}

func TestManyJobsStayBounded(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 100})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				id := fmt.Sprint(g, "-", i)
				s.Submit(id, alice, "q", Succeed, t0)
				s.Poll(id, alice, t0)
			}
		})
	}
	wg.Wait()
	if n := s.Len(); n != 100 {
		t.Fatalf("Len = %d, want 100", n)
	}
	s.Reset()
	if n := s.Len(); n != 0 {
		t.Fatalf("Len after Reset = %d", n)
	}
}

func TestResubmitSameIDReplaces(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 2})
	s.Submit("a", alice, "old", Succeed, t0)
	s.Submit("a", bob, "new", Succeed, t0)
	if got := pollAt(s, "a", bob, t0); got.Query != "new" || s.Len() != 1 {
		t.Fatalf("got %+v, Len %d", got, s.Len())
	}
}

func TestForceListAndRemove(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 10, PendingPolls: 100})
	s.Submit("b", alice, "cars", Succeed, t0)
	s.Submit("a", bob, "bank", Succeed, t0.Add(time.Minute))
	s.Poll("b", alice, t0.Add(2*time.Minute)) // b is now the most recently used
	var order []string
	for _, j := range s.List(t0.Add(3 * time.Minute)) {
		order = append(order, j.ID)
	}
	if diff := cmp.Diff([]string{"b", "a"}, order); diff != "" {
		t.Fatalf("List is in submission order (-want +got):\n%s", diff)
	}
	info, ok := s.Force("a", Failed, "boom", t0.Add(3*time.Minute))
	want := Info[string]{ID: "a", Owner: bob, State: Failed, Query: "bank", Message: "boom",
		Created: t0.Add(time.Minute), Used: t0.Add(time.Minute), Expires: t0.Add(time.Hour + time.Minute)}
	if diff := cmp.Diff(want, info); diff != "" || !ok {
		t.Fatalf("Force (-want +got):\n%s", diff)
	}
	if r, ok := s.PollResult("a", bob, t0.Add(4*time.Minute)); !ok || r.State != Failed || r.Message != "boom" {
		t.Fatalf("PollResult after Force: %+v %v", r, ok)
	}
	if !s.Remove("b", t0.Add(5*time.Minute)) || s.Remove("b", t0.Add(5*time.Minute)) {
		t.Fatal("Remove should report the job once")
	}
	if _, _, ok := s.Poll("b", alice, t0.Add(5*time.Minute)); ok {
		t.Fatal("a removed job answered a poll")
	}
	if _, ok := s.Force("a", Succeeded, "", t0.Add(2*time.Hour)); ok {
		t.Fatal("Force of an expired job succeeded")
	}
}

// TestLRUAgainstModel drives a small store with a seeded random mix of
// submissions (new and repeated ids), polls, removals and resets, and
// checks after each step that the live jobs are those a plain
// least-recently-used list would hold.
func TestLRUAgainstModel(t *testing.T) {
	t.Parallel()
	const maxJobs = 5
	s := New[string](Config{TTL: time.Hour, Max: maxJobs})
	var model []string // least recently used first
	drop := func(id string) bool {
		for i, m := range model {
			if m == id {
				model = append(model[:i], model[i+1:]...)
				return true
			}
		}
		return false
	}
	rng := rand.New(rand.NewPCG(17, 23))
	for step := range 2000 {
		id := fmt.Sprint("j", rng.IntN(9))
		switch op := rng.IntN(20); {
		case op < 9:
			s.Submit(id, alice, id, Succeed, t0)
			drop(id)
			for len(model) >= maxJobs {
				model = model[1:]
			}
			model = append(model, id)
		case op < 16:
			_, _, ok := s.Poll(id, alice, t0)
			if want := drop(id); ok != want {
				t.Fatalf("step %d: Poll(%s) ok %v, want %v", step, id, ok, want)
			}
			if ok {
				model = append(model, id)
			}
		case op < 19:
			if got, want := s.Remove(id, t0), drop(id); got != want {
				t.Fatalf("step %d: Remove(%s) = %v, want %v", step, id, got, want)
			}
		default:
			s.Reset()
			model = model[:0]
		}
		var live []string
		for _, j := range s.List(t0) {
			live = append(live, j.ID)
		}
		want := slices.Clone(model)
		slices.Sort(live)
		slices.Sort(want)
		if !slices.Equal(live, want) || s.Len() != len(model) {
			t.Fatalf("step %d: live %v (Len %d), want %v", step, live, s.Len(), want)
		}
	}
}

// TestSubmitSameIDReplaces: a job submitted under an id already stored
// replaces the old one, which leaves both the index and the LRU order (so
// that evicting it later cannot drop the new one).
func TestSubmitSameIDReplaces(t *testing.T) {
	t.Parallel()
	s := New[string](Config{TTL: time.Hour, Max: 3})
	expect := func(after string, want ...string) {
		t.Helper()
		var got []string
		for _, j := range s.List(t0) {
			got = append(got, j.ID+"="+j.Query)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("after %s (-want +got):\n%s", after, diff)
		}
	}
	expectPoll := func(id, query string) {
		t.Helper()
		if p := pollAt(s, id, alice, t0); !p.OK || p.Query != query {
			t.Errorf("poll of %s = %+v, want the query %q", id, p, query)
		}
	}
	s.Submit("a", alice, "first", Succeed, t0)
	s.Submit("b", alice, "b", Succeed, t0)
	s.Submit("a", alice, "second", Succeed, t0)
	expect("resubmitting a", "b=b", "a=second")
	// Fill the store: the LRU end is b, then a; a stale entry for the old
	// a would be evicted first and take the new a's index entry with it.
	s.Submit("c", alice, "c", Succeed, t0)
	s.Submit("d", alice, "d", Succeed, t0)
	expect("filling the store", "a=second", "c=c", "d=d")
	expectPoll("a", "second")
	// The same id as the store's least recently used job, the store full.
	s.Submit("c", alice, "c again", Succeed, t0)
	expect("resubmitting c into a full store", "a=second", "d=d", "c=c again")
	// An id in the middle of a full store (LRU order d, a, c): a is
	// replaced, which frees its place, so nothing is evicted; then e
	// pushes out d, the least recently used.
	s.Submit("a", alice, "third", Succeed, t0)
	s.Submit("e", alice, "e", Succeed, t0)
	expect("resubmitting a in the middle", "c=c again", "a=third", "e=e")
	expectPoll("a", "third")
}

// Poll is PollResult without the message.
func (s *Store[Q]) Poll(id string, owner Owner, now time.Time) (state State, q Q, ok bool) {
	r, ok := s.PollResult(id, owner, now)
	return r.State, r.Query, ok
}
