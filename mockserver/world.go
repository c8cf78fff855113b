package mockserver

import (
	"cmp"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/fault"
	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
	"github.com/newssearch/newssearch-go/mockserver/internal/journal"
)

// A world is what a test can change (see the package doc). Every key uses
// the default world unless it has one of its own: then its requests, and
// the control calls with it in KeyHeader, see that world alone.

// KeyHeader is the header that points a control call at the world of the API
// key it holds; without it a control call acts on the default world.
const KeyHeader = "X-Newsmock-Key"

// worldHeader points a control call at a world by its id, for the
// inspector, which never knows keys.
const worldHeader = "X-Newsmock-World"

// defaultWorldID names the default world in the journal and in GET
// /_mock/worlds; the others are named by KeyFingerprint of their key.
const defaultWorldID = "default"

// defaultMaxWorlds is Limits.MaxWorlds's default.
const defaultMaxWorlds = 1_000

// world is the state of one world.
type world struct {
	owner jobs.Owner // the key's hash; zero for the default world
	id    string     // defaultWorldID, or KeyFingerprint of the key

	data     atomic.Pointer[Corpus]     // the corpus searched now: the start, or it plus AddArticles
	addMu    sync.Mutex                 // serialises AddArticles and resetArticles
	arrived  atomic.Int64               // articles arrivals faults added since Reset
	clk      atomic.Pointer[worldClock] // the clock in force (clock.go)
	startClk *worldClock                // the clock the world started with, which Reset restores
	ids      idGen                      // request ids
	faults   *fault.Injector
	jobs     *jobs.Store[jobQuery]
	journal  *journal.Ring[journalRecord]
	expect   expectations
	// journalChanged tells AwaitJournal that an entry was added.
	journalChanged notifier
	settings       atomic.Pointer[Settings]
	limiter        atomic.Pointer[rateLimiter] // nil = no limit
	reqSeq         atomic.Uint64

	handle   *Server      // the handle requests to the world are served through
	lastUsed atomic.Int64 // the worlds' tick of its last request or control call
}

// worldSet holds a server's worlds other than the default one.
type worldSet struct {
	def     *world
	perKey  bool // WithWorldPerKey
	max     int
	tick    atomic.Int64 // orders uses, for least-recently-used eviction
	mu      sync.RWMutex
	byOwner map[jobs.Owner]*world
	dropped atomic.Uint64 // worlds evicted past max
	warned  atomic.Bool   // the warning of a world a request made was logged
}

// newWorld makes a world and its handle; owner is zero for the default one.
func (c *core) newWorld(key string, owner jobs.Owner, inj *fault.Injector, clk *worldClock) *Server {
	w := &world{
		owner:    owner,
		id:       defaultWorldID,
		startClk: clk,
		ids:      idGen{seed: c.seed},
		faults:   inj,
		jobs:     jobs.New[jobQuery](jobs.Config{}),
		journal:  newJournal(c.journalSize),
	}
	if owner != (jobs.Owner{}) {
		w.id = fingerprint(owner)
		w.ids.seed = c.seed ^ mix64(binary.BigEndian.Uint64(owner[:8]))
	}
	w.clk.Store(clk)
	w.applySettings(c.startSettings)
	w.data.Store(c.start)
	w.handle = &Server{core: c, world: w, apiKey: key}
	return w.handle
}

// touch marks the world used now, for eviction.
func (c *core) touch(w *world) { w.lastUsed.Store(c.worlds.tick.Add(1)) }

// routed returns the handle of the world of key hash owner: its own, or the
// default world. Under WithWorldPerKey a key without one gets one now,
// which e notes; the first such world is logged, as a test that set up its
// key's world would have made it before (its requests may send another key).
func (s *Server) routed(owner jobs.Owner, e *JournalEntry) *Server {
	ws := &s.worlds
	ws.mu.RLock()
	w := ws.byOwner[owner]
	ws.mu.RUnlock()
	if w == nil {
		if !ws.perKey {
			return s
		}
		var made bool
		if w, made = s.addWorld(owner); made {
			e.NewWorld = true
			if !ws.warned.Swap(true) {
				s.logger.Warn("mockserver: a request made the world of a key no control call named before "+
					"(such requests are marked new_world in their journal); if a test set faults, settings or articles "+
					"for its key, check that its requests send that same key", "world", w.id)
			}
		}
	}
	s.touch(w)
	return w.handle
}

// addWorld returns the world of owner, and whether it made it, evicting the
// least recently used world when the set is full.
func (s *Server) addWorld(owner jobs.Owner) (*world, bool) {
	ws := &s.worlds
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if w := ws.byOwner[owner]; w != nil {
		return w, false
	}
	if len(ws.byOwner) >= ws.max {
		var oldest *world
		for _, w := range ws.byOwner {
			if oldest == nil || w.lastUsed.Load() < oldest.lastUsed.Load() {
				oldest = w
			}
		}
		delete(ws.byOwner, oldest.owner)
		ws.dropped.Add(1)
		s.logger.Warn("mockserver: too many worlds: the least recently used one is dropped (raise Limits.MaxWorlds, newsmock -max-worlds)",
			"world", oldest.id, "max_worlds", ws.max)
	}
	// Seeded by the key: a world's probabilistic faults do not depend on
	// other worlds.
	inj, _ := fault.NewInjector(s.seed^mix64(binary.BigEndian.Uint64(owner[:8])), s.startFaults) // validated at New
	w := s.newWorld("", owner, inj, ws.def.startClk.startClock()).world
	ws.byOwner[owner] = w
	s.touch(w)
	return w, true
}

// World returns the handle of key's world, making it if needed: the
// requests and control calls (KeyHeader) with key see that world alone. Its
// methods act on the world, its Client sends key, its Close drops the world.
// It panics if the server does not accept key.
func (s *Server) World(key string) *Server {
	if strings.TrimSpace(key) == "" {
		panic("mockserver: World(\"\"): pass the API key whose world you want, such as t.Name()")
	}
	owner, aerr := s.worldOwner(key)
	if aerr != nil {
		panic("mockserver: World: the key is not accepted by this server: pass one of the keys given to WithAPIKeys")
	}
	w, _ := s.addWorld(owner)
	return &Server{core: s.core, world: w, apiKey: key}
}

// worldOwner returns the hash that names key's world, or a 400 for a key
// the server does not accept.
func (s *Server) worldOwner(key string) (jobs.Owner, *apiError) {
	owner := jobs.Owner(sha256.Sum256([]byte(key)))
	if _, aerr := s.admit(owner); aerr != nil {
		return owner, badRequest("the key in %s is not accepted by this mock server: name a world by one of the keys it was started with (newsmock -keys)", KeyHeader)
	}
	return owner, nil
}

// dropWorld removes w from the set: no request reaches it any more.
func (s *Server) dropWorld(w *world) bool {
	ws := &s.worlds
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.byOwner[w.owner] != w {
		return false
	}
	delete(ws.byOwner, w.owner)
	return true
}

// worldByID returns the world of id (as GET /_mock/worlds lists it).
func (s *Server) worldByID(id string) *world {
	if id == defaultWorldID {
		return s.worlds.def
	}
	ws := &s.worlds
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for _, w := range ws.byOwner {
		if w.id == id {
			return w
		}
	}
	return nil
}

// listWorlds returns the worlds, the default one first, then by id.
func (s *Server) listWorlds() []*world {
	ws := &s.worlds
	ws.mu.Lock()
	out := make([]*world, 0, len(ws.byOwner)+1)
	for _, w := range ws.byOwner {
		out = append(out, w)
	}
	ws.mu.Unlock()
	slices.SortFunc(out, func(a, b *world) int { return cmp.Compare(a.id, b.id) })
	return append([]*world{ws.def}, out...)
}

// controlWorld returns the handle of the world a control call names by
// KeyHeader (made now under WithWorldPerKey) or by id, or the default world.
func (s *Server) controlWorld(key, id string) (*Server, *apiError) {
	switch {
	case key != "" && id != "":
		return nil, badRequest("the call names a world twice, by %s and by %s: send one of them", KeyHeader, worldHeader)
	case id != "":
		w := s.worldByID(id)
		if w == nil {
			return nil, &apiError{status: 404, msg: fmt.Sprintf("there is no world %s: GET /_mock/worlds lists them", quoteShort(id))}
		}
		s.touch(w)
		return w.handle, nil
	case key == "":
		return s, nil
	}
	owner, aerr := s.worldOwner(key)
	if aerr != nil {
		return nil, aerr
	}
	ws := &s.worlds
	ws.mu.RLock()
	w := ws.byOwner[owner]
	ws.mu.RUnlock()
	if w == nil {
		if !ws.perKey {
			return nil, &apiError{status: 404, msg: fmt.Sprintf("the key in %s has no world: create it with POST /_mock/worlds (with the same header), "+
				"or start the mock with a world per key (newsmock -world-per-key, mockserver.WithWorldPerKey)", KeyHeader)}
		}
		w, _ = s.addWorld(owner)
	}
	s.touch(w)
	return w.handle, nil
}

// worldJSON describes a world in the answers of /_mock/worlds.
type worldJSON struct {
	ID            string    `json:"id"`
	Default       bool      `json:"default"`
	Articles      int       `json:"articles"`
	AddedArticles int       `json:"added_articles"`
	Jobs          int       `json:"jobs"`
	Requests      uint64    `json:"requests"`
	FaultRules    int       `json:"fault_rules"`
	Now           time.Time `json:"now"`
	ManualClock   bool      `json:"manual_clock"`
}

func (s *Server) worldInfo(w *world) worldJSON {
	c := w.data.Load()
	return worldJSON{ID: w.id, Default: w == s.worlds.def, Articles: c.Len(), AddedArticles: c.Len() - c.root.Len(), Jobs: w.jobs.Len(),
		Requests: w.reqSeq.Load(), FaultRules: len(w.faults.Status()), Now: w.clock(), ManualClock: w.manual() != nil}
}

// adminWorlds answers GET /_mock/worlds: the worlds, the default one first.
func (s *Server) adminWorlds(*adminCall) (any, *apiError) {
	list := s.listWorlds()
	out := make([]worldJSON, len(list))
	for i, w := range list {
		out[i] = s.worldInfo(w)
	}
	return struct {
		State       string      `json:"state"`
		WorldPerKey bool        `json:"world_per_key"`
		MaxWorlds   int         `json:"max_worlds"`
		Evicted     uint64      `json:"evicted"`
		Worlds      []worldJSON `json:"worlds"`
	}{"SUCCESS", s.worlds.perKey, s.worlds.max, s.worlds.dropped.Load(), out}, nil
}

// adminCreateWorld answers POST /_mock/worlds for the key in KeyHeader.
func (s *Server) adminCreateWorld(c *adminCall) (any, *apiError) {
	key := c.r.Header.Get(KeyHeader)
	if strings.TrimSpace(key) == "" {
		return nil, badRequest("POST /_mock/worlds makes the world of the key in the %s header, and the request has none: "+
			"send it, e.g. curl -X POST -H '%s: my-test-key' .../_mock/worlds", KeyHeader, KeyHeader)
	}
	owner, aerr := s.worldOwner(key)
	if aerr != nil {
		return nil, aerr
	}
	w, created := s.addWorld(owner)
	return struct {
		State   string    `json:"state"`
		Created bool      `json:"created"`
		World   worldJSON `json:"world"`
	}{"SUCCESS", created, s.worldInfo(w)}, nil
}

// adminDropWorlds answers DELETE /_mock/worlds: it drops the world of the
// key in KeyHeader, or without the header every world but the default one.
func (s *Server) adminDropWorlds(c *adminCall) (any, *apiError) {
	n := 0
	if key := c.r.Header.Get(KeyHeader); key != "" {
		owner, aerr := s.worldOwner(key)
		if aerr != nil {
			return nil, aerr
		}
		s.worlds.mu.RLock()
		w := s.worlds.byOwner[owner]
		s.worlds.mu.RUnlock()
		if w == nil || !s.dropWorld(w) {
			return nil, &apiError{status: 404, msg: fmt.Sprintf("the key in %s has no world to drop: GET /_mock/worlds lists them", KeyHeader)}
		}
		n = 1
	} else {
		s.worlds.mu.Lock()
		n = len(s.worlds.byOwner)
		clear(s.worlds.byOwner)
		s.worlds.mu.Unlock()
	}
	return struct {
		State   string `json:"state"`
		Dropped int    `json:"dropped"`
	}{"SUCCESS", n}, nil
}

// adminDropWorld answers DELETE /_mock/worlds/{id}.
func (s *Server) adminDropWorld(c *adminCall) (any, *apiError) {
	if c.id == defaultWorldID {
		return nil, badRequest("the default world cannot be dropped: POST /_mock/reset (without %s) resets it", KeyHeader)
	}
	w := s.worldByID(c.id)
	if w == nil || !s.dropWorld(w) {
		return nil, &apiError{status: 404, msg: fmt.Sprintf("there is no world %s: GET /_mock/worlds lists them", quoteShort(c.id))}
	}
	return struct {
		State   string `json:"state"`
		Dropped int    `json:"dropped"`
	}{"SUCCESS", 1}, nil
}

// authenticate checks the api_key member and returns its hash, which names
// its world and owns its jobs.
func (s *Server) authenticate(f fields) (jobs.Owner, *apiError) {
	key, ok, aerr := f.str("api_key")
	switch {
	case aerr != nil:
		return jobs.Owner{}, aerr
	case !ok:
		return jobs.Owner{}, &apiError{status: http.StatusUnauthorized, msg: fmt.Sprintf(
			"api_key is missing: put your API key in the JSON body, e.g. %s", examples["api_key"])}
	case strings.TrimSpace(key) == "":
		return jobs.Owner{}, &apiError{status: http.StatusUnauthorized, msg: fmt.Sprintf(
			"api_key is blank: put your API key in the JSON body, e.g. %s", examples["api_key"])}
	}
	return s.admit(jobs.Owner(sha256.Sum256([]byte(key))))
}

// admit checks a key's hash against the accepted keys, in constant time.
func (s *Server) admit(owner jobs.Owner) (jobs.Owner, *apiError) {
	if s.keyHashes == nil {
		return owner, nil
	}
	match := 0
	for _, k := range s.keyHashes {
		match |= subtle.ConstantTimeCompare(owner[:], k[:])
	}
	if match != 1 {
		return jobs.Owner{}, &apiError{status: http.StatusUnauthorized, msg: "api_key is not accepted by this mock server: " +
			"use one of the keys it was started with (newsmock -keys on the command line; " +
			"mockserver.WithAPIKeys in Go, where Server.Client and Server.APIKey provide one)"}
	}
	return owner, nil
}
