package journal

import (
	"testing"
	"time"
)

// benchRecord is about the size of the mock's journal record.
type benchRecord struct {
	seq                                 uint64
	at                                  time.Time
	requestID, method, path, fault, qid string
	status                              int
	took                                time.Duration
	body                                string
	raw                                 []byte
}

// BenchmarkOrderedRingAdd adds entries to a full ring of the mock's default
// size: in order, and with one entry in every nine late behind one or eight
// newer ones (a request that finished after others that arrived after it,
// as under concurrent load). An operation is nine adds.
func BenchmarkOrderedRingAdd(b *testing.B) {
	for _, tc := range []struct {
		name string
		late uint64 // how many newer entries are in before the late one
	}{{"in-order", 0}, {"one-late", 1}, {"eight-late", 8}} {
		b.Run(tc.name, func(b *testing.B) {
			r := New(1000, func(e *benchRecord) uint64 { return e.seq }, nil)
			var n uint64
			t0 := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
			add := func(seq uint64) {
				r.Add(benchRecord{seq: seq, at: t0, requestID: "req-0123456789abcdef", method: "POST", path: "/api/v2/query-async",
					fault: "", qid: "0123456789abcdef0123456789abcdef", status: 200, took: time.Millisecond, body: `{"api_key":"[redacted]"}`, raw: nil})
			}
			for range 1000 {
				n++
				add(n)
			}
			for b.Loop() {
				// Nine requests n+1..n+9: the one at n+9-late finishes last.
				lateSeq := n + 9 - tc.late
				for k := uint64(1); k <= 9; k++ {
					if k != 9-tc.late || tc.late == 0 {
						add(n + k)
					}
				}
				if tc.late != 0 {
					add(lateSeq)
				}
				n += 9
			}
		})
	}
}
