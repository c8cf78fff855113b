// Package mockserver is an in-memory mock of the news search service for
// tests: the four endpoints of /api/v2/ (query, query-async, get-results,
// headlines) with real search semantics over an embedded, deterministic
// article corpus, plus fault injection, a request journal and rate limiting.
//
// # Attaching
//
//   - New starts a server on a free loopback port; URL, Client (an SDK
//     client already pointed at it with a valid key), HTTPClient and Close
//     do the rest. Start is New returning an error instead of panicking.
//   - New(WithoutListener()) opens no socket: Transport, HTTPClient and
//     Client serve requests in process.
//   - Handler is the plain http.Handler, to mount in a server of your own.
//   - Package mockserver/withhttpmock installs the endpoints on an
//     httpmock.MockTransport under any base URL, for tests that already use
//     github.com/jarcoal/httpmock (only that package requires it).
//   - Routes lists every method and path a Server answers.
//
// Client sets newssearch.WithoutEnvironment, the server's URL and key, its
// HTTP client and short retry waits (clientRetryWaitMin to
// clientRetryWaitMax); options passed to Client come after and win.
//
// # Corpus and dates
//
// The default corpus and its search index are made once per process and
// shared by every Server, so later New calls take microseconds. The first
// maps them from a cache file (about 60 ms): newssearch-go/mock-corpus-*.snap
// under os.UserCacheDir, or in the directory $NEWSSEARCH_MOCK_CACHE names.
// When there is no valid file, the first New builds them (about 0.3 s) and
// writes the file (about 32 MB) for later processes; it is replaced when a
// new version of this module generates other bytes.
// NEWSSEARCH_MOCK_CACHE=off builds them in every process and writes nothing.
// A cache that cannot be read or written is never an error: New builds.
// WithCorpus serves a corpus from LoadCorpus or LoadCorpusFile instead; its
// index is built once per *Corpus.
//
// Every date is shifted by a fixed whole number of seconds so that the
// newest article is published at the server clock's now when New runs (see
// Server.DateShift; WithoutDateShift turns this off). Request date bounds
// are inclusive; start_date and end_date take RFC 3339 (any fraction, any
// offset) or YYYY-MM-DD, and a date-only end_date covers its whole day.
//
// # Requests
//
// Bodies are validated strictly and every failure is answered
// {"state": "FAILED", "message": ...} with a fitting status: 400 bad input
// (the message names the field, what was wrong and how to fix it), 401
// missing or unknown api_key, 404 unknown path or unknown, expired or foreign
// query_id, 405 wrong method (with Allow), 413 body over MaxBodyBytes, 429
// rate limited (with Retry-After), 403 and 421 for requests a web page sent
// (see below), and 5xx only for injected faults. The
// API key is never echoed, logged or stored. Unknown JSON fields are
// ignored; null counts as absent. Enumerated values (toggle_state,
// sort_order, language) are matched ignoring case.
//
// key_phrases and sort_order belong to /api/v2/query-async. Sent to
// /api/v2/query they are a 400 telling the caller to use query-async,
// rather than being silently ignored, so a test never believes a filter
// applied when it did not.
//
// Results come pageSize to a page; a page past the end is an empty success
// with the true total. The same request to two servers with the same seed,
// corpus and clock gets the same bytes.
//
// # Asynchronous jobs
//
// query-async validates the search at once (a bad one creates no job) and
// returns a 32-hex-digit query_id derived from the seed and a counter (the
// page it carries is validated, then left to get-results, where an absent
// page means 1). A job stores its validated query, never its results. get-results answers
// PENDING until the job has been polled more than WithPendingPolls times
// (default 1: every client sees PENDING once) and WithPendingDuration has
// passed (default 0), then SUCCESS with the page and both totalResults and
// totalArticles. A PENDING answer of a job ready in a second or more
// carries Retry-After: the whole seconds until then, rounded up, which the
// SDK's Poll honours (so on a fake clock a long pending costs a few polls).
// A query_id lives an hour (Limits.JobTTL) after its last use on the
// server clock; beyond 10,000 jobs (Limits.MaxJobs) the least recently
// used is forgotten. A job is visible only to the key that
// submitted it (compared as hashes): any other key gets the same 404 as an
// unknown id.
//
// # Headlines
//
// /api/v2/headlines clusters the articles published in the HeadlineWindow
// (48 hours) before the server clock's now: at most 20 clusters
// (Limits.HeadlineClusters), largest first, each listing at most 5 articles
// (Limits.HeadlineArticles) with exactly the seven headline fields while
// count stays the true cluster size.
//
// # Faults
//
// A request asks for a fault with the FaultHeader (X-Mock-Fault) header,
// e.g. "status=503", "status=429;retry-after=2", "latency=150ms", "drop",
// "truncate", "job=fail", "job=stuck" or "job=refuse"; see ParseFault. FaultRule values
// given to WithFaults or SetFaults inject faults by endpoint, on every Nth
// matching request or with a seeded probability. Decisions depend only on
// the seed and the order of requests.
//
// # Journal and control endpoints
//
// Every API request is recorded (Server.Journal, in arrival order by Seq,
// at most 1,000 (WithJournalSize), filtered by a JournalQuery;
// JournalDropped counts the requests dropped past the size) with its redacted body. X-Request-Id
// is on every response, derived from the seed and a counter. The server
// also answers control endpoints under /_mock/ (see Routes and
// docs/control-api.md), which need no key, are never journaled or faulted,
// and each call the Server method of the same action: health, the journal
// with filters and counts (DELETE empties it), reset (Reset), fault
// rules with their counters (Faults, SetFaults, AddFault, RemoveFault),
// jobs (Jobs, ForceJob, ExpireJob), a manual clock (WithManualClock, Now,
// SetClock, within 1970 to 9700), articles (AddArticles; DELETE drops the
// added ones), GET /_mock/record and the inspector page. Tests in any
// language can so steer a running newsmock.
//
// # Worlds
//
// A world is everything a test can change: the fault rules and their
// counters, the clock, the articles added, the jobs with their query_ids,
// and the journal. A Server starts with one, the default world, which every
// API key uses. World(key) gives a key a world of its own and returns a
// *Server handle bound to it: the handle's Client sends key, its methods
// (AddFault, SetClock, AddArticles, Journal, Jobs, Reset…) act on that
// world, and its Close drops the world while the server goes on. Parallel
// tests can so share one server, each with its own key:
//
//	w := srv.World(t.Name())
//	t.Cleanup(w.Close)
//	c := w.Client()
//
// An API request is answered by the world of the api_key in its body (the
// default world for a key without one), and a control call under /_mock/
// by the world of the key in its KeyHeader header (X-Newsmock-Key), or the
// default world without it. WithWorldPerKey (newsmock -world-per-key)
// gives every key a world at its first request or first control call with
// KeyHeader. A new world starts as the server did at New: the WithFaults
// rules with fresh counters, the clock (a manual clock at its start), the
// start-up corpus, no jobs and an empty journal. A key never reads another
// world's job: get-results with its query_id is a 404. Journal entries name
// their world (JournalEntry.World: "default" or KeyFingerprint of the key,
// never the key). GET /_mock/worlds lists the worlds, POST makes the
// world of the key in KeyHeader, DELETE drops one or all but the default.
//
// What worlds share: the socket, the options, the start-up corpus and its
// index (a world's added articles are a small overlay over it) and the date
// shift. Limits.MaxWorlds (default 1,000; newsmock -max-worlds) bounds the
// worlds besides the default one: making one more drops the least recently
// used, with a log line. Each world holds at most Limits.MaxJobs jobs and
// its journal, so memory is bounded by MaxWorlds+1 worlds plus the articles
// added.
//
// # Web pages cannot drive it
//
// A server running on a developer's machine must not be steered by a web
// page open in their browser. So a POST to a control endpoint needs
// Content-Type: application/json (or JSON Lines for articles), or the
// ControlHeader header with any type: both are what a page cannot send to
// another site without a CORS preflight, and the server grants none (415
// otherwise). A request whose Origin or Sec-Fetch-Site header says it comes
// from a page of another site is a 403, on the control endpoints and the
// API alike, except GET of the inspector and OpenAPIPath. A request on a
// socket whose Host is not an IP address, localhost, *.localhost, the host
// of WithAddr or one of WithAllowedHosts is a 421 (DNS rebinding). WithAddr
// beyond this machine needs WithAllowRemote. A body announced over its
// limit is a 413 before any of it is read. Refused requests change nothing
// and are not journaled. Programs (the SDK, curl, tests) send no Origin or
// Sec-Fetch-Site and are not affected; nor is Transport, whatever its host.
//
// # testing/synctest
//
// A server made inside a testing/synctest bubble with WithoutListener runs
// on the bubble's fake clock: pending durations, job expiry, rate limits,
// the headline window and the SDK's poll delays pass at once, and dates
// follow the bubble's clock (which starts at 2000-01-01), so date-relative
// searches find articles. Make the server in the function given to
// synctest.Test and Close it there:
//
//	synctest.Test(t, func(t *testing.T) {
//		srv := mockserver.New(mockserver.WithoutListener(), mockserver.WithPendingDuration(10*time.Minute))
//		defer srv.Close()
//		client := srv.Client() // polls a 10-minute job to the end at once
//		...
//	})
//
// The combinations that cannot work fail at once with a message saying
// what to do: a server with a socket inside a bubble (Start returns an
// error), a server made outside a bubble used from inside one, a server
// used after its bubble ended (requests fail), and Close outside the bubble
// the server was made in (a panic, instead of the runtime's fatal error).
//
// # Recording and replay
//
// WithRecord turns a Server into a proxy in front of the real service that
// passes every request and answer on unchanged and records the articles
// of the answers into a JSON Lines corpus (the headline answers, and the
// exchanges the service refused, into files of their own), appending only,
// never the API key in any form; fault rules and accepted keys apply to it
// as to the mock. RecordSummary and GET /_mock/record say what it saw. LoadCorpusFile and WithCorpus serve the
// recording with the full search semantics; LoadHeadlinesFile and
// WithHeadlines replay the recorded headlines.
//
// # Inspector
//
// GET /_mock/ui (UIPath) in a browser shows the server live: the journal,
// newest first, with each request's redacted body, and a form that searches
// through the real endpoints. The page is embedded in the package and loads nothing from
// the network; the API key never appears on it.
package mockserver
