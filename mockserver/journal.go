package mockserver

import (
	"slices"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/journal"
)

// JournalEntry records one request to an API endpoint (requests to /_mock/
// are not recorded). API keys are never stored: the body keeps every
// "api_key" member with its value replaced by "[redacted]", and a body that
// is not valid JSON is not stored at all (only its length).
type JournalEntry struct {
	// Seq numbers API requests from 1 in arrival order (Reset restarts it).
	Seq uint64 `json:"seq"`
	// Time is the server clock when the request arrived.
	Time      time.Time `json:"time"`
	RequestID string    `json:"request_id"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	// Status is the HTTP status sent, or 0 when no response was sent (a
	// drop fault, or the request was cancelled during injected latency).
	Status int `json:"status"`
	// Fault describes an injected fault and where it came from, e.g.
	// "header: status=503" or "rule 0: latency=150ms;drop"; "" for none.
	Fault string `json:"fault,omitempty"`
	// QueryID is the job id submitted (query-async) or asked for
	// (get-results).
	QueryID string `json:"query_id,omitempty"`
	// Duration is how long the server took to answer, from Time until the
	// answer was ready (injected latency included), measured on the server
	// clock: always 0 under a clock that does not move (WithClock).
	Duration time.Duration `json:"duration_ns"`
	// Body is the redacted request body, at most 8 KiB.
	Body string `json:"body"`
	// World is the id of the world that answered (see Server.World):
	// "default", or KeyFingerprint of the key whose world it is.
	World string `json:"world"`
}

// Journal returns the recorded requests that q selects, in arrival order
// (by Seq), oldest first; with no q, all of them, and with several, those
// any of them selects. The journal holds at most its size
// (WithJournalSize) most recent requests; JournalDropped counts the
// others. A request is recorded when it finishes, in its place by Seq: a
// slow request is listed before the faster ones that arrived after it.
func (s *Server) Journal(q ...JournalQuery) []JournalEntry {
	out, _ := s.journalSnapshot()
	if len(q) == 1 {
		return filterJournal(out, q[0])
	}
	if len(q) > 1 {
		out = slices.DeleteFunc(out, func(e JournalEntry) bool {
			return !slices.ContainsFunc(q, func(one JournalQuery) bool { return one.selects(e) })
		})
	}
	return out
}

// JournalDropped returns how many requests recorded since New or Reset (or
// DELETE /_mock/journal) the journal no longer holds because it was full: its size
// (WithJournalSize, newsmock -journal-size) most recent requests stay, and
// each request past them drops the oldest. With the journal off (size 0)
// every request counts. Journal's entries plus JournalDropped are the
// requests recorded; when it is not 0, raise the size to see them all.
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

// journalRecord is what the journal ring stores: an entry and, until the
// entry is first read, the body it was recorded with. Redaction is lazy: a
// request only keeps its body (which may hold the key), and the ring's
// seal, sealRecord, redacts it into entry.Body and drops it the first time
// a snapshot is taken, under the ring's lock. No reader of the ring sees
// the raw body; it never leaves this file.
type journalRecord struct {
	entry JournalEntry
	body  lazyBody
}

// lazyRedactMax is the largest body redacted lazily; a larger one (rare:
// the API's bodies are a few hundred bytes) is redacted at once, so that a
// full journal (or job list) never holds more than about its size × this
// many bytes of raw bodies.
const lazyRedactMax = 4 << 10

// lazyBody is a request body kept for a reader that may never come (the
// journal, the job list): the request's own buffer, which nothing else
// writes to, redacted only when it is read; or, above lazyRedactMax, the
// body redacted at once.
type lazyBody struct {
	raw      []byte
	redacted string
}

func newLazyBody(body []byte) lazyBody {
	if len(body) > 0 && len(body) <= lazyRedactMax {
		return lazyBody{raw: body}
	}
	return lazyBody{redacted: journal.Redact(body, maxJournalBody)}
}

// String returns the body with its keys redacted.
func (b lazyBody) String() string {
	if b.raw == nil {
		return b.redacted
	}
	return journal.Redact(b.raw, maxJournalBody)
}

// sealRecord redacts a record's body into its entry, once.
func sealRecord(r *journalRecord) {
	if r.body.raw != nil || r.body.redacted != "" {
		r.entry.Body, r.body = r.body.String(), lazyBody{}
	}
}

// newJournal returns the journal ring of a server.
func newJournal(size int) *journal.Ring[journalRecord] {
	return journal.NewOrderedSealed(size, func(r *journalRecord) uint64 { return r.entry.Seq }, sealRecord)
}
