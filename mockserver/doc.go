// Package mockserver is the news search service in memory, for tests: the
// four endpoints of /api/v2/ (query, query-async, get-results, headlines)
// with real search over an embedded corpus of generated news articles,
// async jobs, strict validation, fault injection, a request journal,
// expectations and a control API under /_mock/.
//
//	srv := mockserver.New() // a free loopback port; New(WithoutListener()) opens none
//	defer srv.Close()
//	client := srv.Client()  // an SDK client pointed at it, with a valid key
//
// URL, HTTPClient, Transport (in process) and Handler reach it otherwise;
// newsmock (cmd/newsmock) serves it over HTTP for other languages.
//
// Corpus dates are shifted so that the newest article is published at the
// server clock's now. Bad input gets a 4xx whose message says what was
// wrong and how to fix it, never a 500. Same seed, corpus and clock: same
// bytes.
//
// A world is what a test can change: fault rules, clock, added articles,
// jobs, journal, settings and expectations. World(key) gives an API key a
// world of its own, so that parallel tests can share one server.
//
// Faults come per request (FaultHeader) or by rule (FaultRule); Expect and
// Verify check which requests came; a server made WithoutListener inside a
// testing/synctest bubble runs on the bubble's clock. docs/mockserver.md
// has the details.
package mockserver
