package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/internal/textutil"
	"github.com/newssearch/newssearch-go/mockserver/internal/journal"
)

// JournalEntry records one request to an API endpoint.
type JournalEntry struct {
	// Seq numbers the world's requests from 1 in arrival order; Time is
	// the server clock then.
	Seq       uint64    `json:"seq"`
	Time      time.Time `json:"time"`
	RequestID string    `json:"request_id"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	// Status is the status sent, 0 for none (dropped, cancelled).
	Status int `json:"status"`
	// Fault is the injected fault and its source: "rule 0: status=503".
	Fault string `json:"fault,omitempty"`
	// QueryID is the job submitted or asked for.
	QueryID string `json:"query_id,omitempty"`
	// Duration is the time to answer, on the server clock.
	Duration time.Duration `json:"duration_ns"`
	// Body is the JSON request body with every api_key value "[redacted]";
	// a body that is not JSON, or over 8 KiB, is a JSON string.
	Body json.RawMessage `json:"body,omitempty"`
	// World is "default" or KeyFingerprint of the world's key; NewWorld
	// says the request made its world (WithWorldPerKey).
	World    string `json:"world"`
	NewWorld bool   `json:"new_world,omitempty"`
}

// JournalQuery selects journal entries; its zero value selects all.
type JournalQuery struct {
	// Path is a path or endpoint name, Status an HTTP status, Since the
	// Seq the entries come after and Limit the most entries, oldest first;
	// zero values select all.
	Path   string
	Status int
	Since  uint64
	Limit  int
	// Body keeps the requests whose body has these members: a name or
	// dotted path ("a.b"), and its value, a string as it is or other JSON
	// as text ("2", "true").
	Body map[string]string
}

// Journal returns the world's recorded requests that any q selects (all with
// no q), oldest first.
func (s *Server) Journal(q ...JournalQuery) []JournalEntry {
	out, _ := s.journalSnapshot()
	return selectEntries(out, q)
}

// AwaitJournal waits until at least n entries that q selects are in the
// journal and returns them, or returns those there are with ctx's error.
func (s *Server) AwaitJournal(ctx context.Context, n int, q ...JournalQuery) ([]JournalEntry, error) {
	for {
		changed := s.journalChanged.wait()
		got := s.Journal(q...)
		if len(got) >= n {
			return got, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return got, ctx.Err()
		}
	}
}

// JournalDropped returns how many requests since New or Reset the full journal
// no longer holds.
func (s *Server) JournalDropped() uint64 { return s.journal.Dropped() }

// journalSnapshot returns the journal and JournalDropped as of one instant.
func (s *Server) journalSnapshot() ([]JournalEntry, uint64) {
	recs, dropped := s.journal.SnapshotDropped()
	out := make([]JournalEntry, len(recs))
	for i := range recs {
		out[i] = recs[i].entry
	}
	return out, dropped
}

// selectEntries keeps the entries any of qs selects (all with no qs), in
// place, at most the Limit of a single query.
func selectEntries(all []JournalEntry, qs []JournalQuery) []JournalEntry {
	if len(qs) == 0 {
		return all
	}
	out := all[:0]
	for _, e := range all {
		if !slices.ContainsFunc(qs, func(q JournalQuery) bool { return q.selects(e) }) {
			continue
		}
		out = append(out, e)
		if len(qs) == 1 && qs[0].Limit > 0 && len(out) == qs[0].Limit {
			break
		}
	}
	return out
}

// selects reports whether q selects e (Limit aside).
func (q JournalQuery) selects(e JournalEntry) bool {
	path := q.Path
	if path != "" && !strings.HasPrefix(path, "/") {
		path = "/api/v2/" + path
	}
	return e.Seq > q.Since && (path == "" || e.Path == path) && (q.Status == 0 || e.Status == q.Status) && bodyHas(e.Body, q.Body)
}

// bodyHas reports whether the JSON object body has every member of
// members (see JournalQuery.Body).
func bodyHas(body json.RawMessage, members map[string]string) bool {
	for name, want := range members {
		if !memberIs(body, strings.Split(name, "."), want) {
			return false
		}
	}
	return true
}

// bodyMembers reads the members of a JSON body object a query names, as
// JournalQuery.Body holds them: a string as it is, other JSON as text.
func bodyMembers(in map[string]json.RawMessage) (map[string]string, error) {
	var out map[string]string
	for name, v := range in {
		var text string
		if json.Unmarshal(v, &text) != nil {
			text = string(bytes.TrimSpace(v)) // a number, true, false: as JSON text
			if text != "" && (text[0] == '[' || text[0] == '{') {
				return nil, fmt.Errorf("body.%s is %s: give the value one member must hold, a string, number or boolean "+
					"(a member holding an array matches when one element does)", name, textutil.JSONKind([]byte(text)))
			}
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = text
	}
	return out, nil
}

// memberIs reports whether the member at path of the JSON object body
// holds want (see JournalQuery.Body).
func memberIs(body json.RawMessage, path []string, want string) bool {
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) != nil {
		return false
	}
	v, ok := members[path[0]]
	if !ok {
		return false
	}
	if len(path) > 1 {
		return memberIs(v, path[1:], want)
	}
	var items []json.RawMessage
	if json.Unmarshal(v, &items) == nil {
		return slices.ContainsFunc(items, func(it json.RawMessage) bool { return valueIs(it, want) })
	}
	return valueIs(v, want)
}

// valueIs reports whether a JSON value is want: a string equal to it, or
// any value whose JSON text is it.
func valueIs(v json.RawMessage, want string) bool {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s == want
	}
	return string(bytes.TrimSpace(v)) == want
}

// journalRecord is what the journal ring stores: an entry and, until it is
// first read, the raw body, which may hold the key. The ring's seal,
// sealRecord, redacts it into entry.Body under the ring's lock before any
// snapshot, so no reader sees the raw body.
type journalRecord struct {
	entry JournalEntry
	body  []byte
}

// lazyRedactMax is the largest body redacted lazily; a larger one is
// redacted at once, which bounds the raw bodies a full journal holds.
const lazyRedactMax = 4 << 10

func newJournalRecord(e JournalEntry, body []byte) journalRecord {
	if len(body) > lazyRedactMax {
		e.Body, body = redactBody(body), nil
	}
	return journalRecord{entry: e, body: body}
}

// sealRecord redacts a record's body into its entry, once.
func sealRecord(r *journalRecord) {
	if r.body != nil {
		r.entry.Body, r.body = redactBody(r.body), nil
	}
}

// redactBody returns a body as the journal and Jobs show it.
func redactBody(body []byte) json.RawMessage {
	text := journal.Redact(body, maxJournalBody)
	switch {
	case text == "":
		return nil
	case json.Valid([]byte(text)):
		return json.RawMessage(text)
	}
	return encodeJSON(text) // a placeholder, or a cut body: a JSON string
}

// newJournal returns the journal ring of a world.
func newJournal(size int) *journal.Ring[journalRecord] {
	return journal.New(size, func(r *journalRecord) uint64 { return r.entry.Seq }, sealRecord)
}

// notifier's wait returns a channel that the next notify closes.
type notifier struct {
	mu sync.Mutex
	ch chan struct{}
}

func (n *notifier) wait() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = make(chan struct{})
	}
	return n.ch
}

func (n *notifier) notify() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch != nil {
		close(n.ch)
		n.ch = nil
	}
}

// journalParams are the query parameters GET /_mock/journal accepts.
const journalParams = "path, status, since, limit, count, body.<member>, wait and min"

// maxJournalWait bounds GET /_mock/journal's wait.
const maxJournalWait = time.Minute

func (s *Server) adminJournal(c *adminCall) (any, *apiError) {
	var q JournalQuery
	count := false
	var wait time.Duration
	least := 1
	values := c.r.URL.Query()
	for _, name := range slices.Sorted(maps.Keys(values)) {
		vs := values[name]
		if len(vs) > 1 {
			return nil, badRequest("the parameter %s is given %d times: give it once", quoteShort(name), len(vs))
		}
		v := vs[0]
		number := func(min int64) (int64, *apiError) {
			n, err := strconv.ParseInt(v, 10, 64)
			if errors.Is(err, strconv.ErrRange) && n > 0 {
				err = nil // n is math.MaxInt64, above any seq, status or count it meets
			}
			if err != nil || n < min {
				return 0, badRequest("%s=%s is not a whole number from %d: write e.g. %s=%d", name, quoteShort(v), min, name, max(min, 2))
			}
			return n, nil
		}
		var aerr *apiError
		var n int64
		switch name {
		case "path":
			if _, ok := endpointName(v); !ok && !strings.HasPrefix(v, "/") {
				return nil, badRequest("path=%s is not an endpoint: use a path such as /api/v2/query-async or a name: query, query-async, get-results or headlines", quoteShort(v))
			}
			q.Path = v
		case "status":
			n, aerr = number(0)
			q.Status = int(min(n, 999))
		case "since":
			n, aerr = number(0)
			q.Since = uint64(n)
		case "limit":
			n, aerr = number(0)
			q.Limit = int(min(n, 1<<31-1))
		case "min":
			n, aerr = number(1)
			least = int(min(n, 1<<31-1))
		case "wait":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > maxJournalWait {
				return nil, badRequest("wait=%s is not a duration from 0 to %v: write e.g. wait=2s", quoteShort(v), maxJournalWait)
			}
			wait = d
		case "count":
			switch strings.ToLower(v) {
			case "", "1", "true":
				count = true
			case "0", "false":
			default:
				return nil, badRequest("count=%s is not a boolean: write count=true, or leave it out for the entries", quoteShort(v))
			}
		default:
			member, ok := strings.CutPrefix(name, "body.")
			if !ok || member == "" {
				return nil, badRequest("unknown parameter %s: GET /_mock/journal takes %s", quoteShort(name), journalParams)
			}
			if q.Body == nil {
				q.Body = map[string]string{}
			}
			q.Body[member] = v
		}
		if aerr != nil {
			return nil, aerr
		}
	}
	if values.Has("min") && !values.Has("wait") {
		return nil, badRequest("min goes with wait: write e.g. wait=2s&min=3 to wait until 3 entries match")
	}
	if q.Limit > 0 && least > q.Limit {
		return nil, badRequest("min=%d is more than limit=%d: no answer can hold that many; raise limit or lower min", least, q.Limit)
	}
	ctx, cancel := context.WithTimeout(c.r.Context(), wait)
	defer cancel()
	entries, err := s.AwaitJournal(ctx, least, q)
	_, dropped := s.journalSnapshot()
	var met *bool // whether wait found min entries; absent without wait
	if values.Has("wait") {
		ok := err == nil
		met = &ok
	}
	if count {
		return struct {
			State   string `json:"state"`
			Count   int    `json:"count"`
			Dropped uint64 `json:"dropped"`
			Met     *bool  `json:"met,omitempty"`
		}{"SUCCESS", len(entries), dropped, met}, nil
	}
	return struct {
		State   string         `json:"state"`
		Dropped uint64         `json:"dropped"` // before the entries, which may be long
		Met     *bool          `json:"met,omitempty"`
		Entries []JournalEntry `json:"entries"`
	}{"SUCCESS", dropped, met, entries}, nil
}
