// Package mockserver is the news search service in memory, for tests: the
// four endpoints of /api/v2/ (query, query-async, get-results, headlines)
// with real search over an embedded, generated corpus of news articles,
// async jobs, strict validation, fault injection, a request journal,
// expectations and a control API under /_mock/.
//
//	srv := mockserver.New() // a free loopback port; New(WithoutListener()) opens none
//	defer srv.Close()
//	client := srv.Client()  // an SDK client pointed at it, with a valid key
//
// URL, HTTPClient, Transport (in process) and Handler attach anything
// else; newsmock (cmd/newsmock) serves the same over HTTP for other
// languages, and docs/control-api.md describes its control API.
//
// Every date in the corpus is shifted so that the newest article is
// published at the server clock's now (DateShift). Request bodies are
// checked strictly: bad input gets a 4xx with {"state": "FAILED",
// "message": ...} saying what was wrong and how to fix it, never a 500.
// Same seed, corpus and clock: same bytes.
//
// A world is what a test can change: fault rules, clock, added articles,
// jobs, journal, settings and expectations. World(key) gives an API key a
// world of its own, so parallel tests can share one server; under
// WithWorldPerKey every key gets one.
//
// Faults come per request (FaultHeader) or by rule (FaultRule); Expect and
// Verify check what requests came; a server made inside a testing/synctest
// bubble WithoutListener runs on the bubble's clock. docs/mockserver.md
// has the details.
package mockserver
