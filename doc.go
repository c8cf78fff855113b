// Package newssearch is a client for the news search service (the Athena
// News API): synchronous and asynchronous article search, and headline
// clusters.
//
// Create one Client and share it; it is safe for concurrent use. The key
// and base URL may also come from NEWSSEARCH_API_KEY and
// NEWSSEARCH_BASE_URL:
//
//	client, err := newssearch.NewClient(newssearch.WithAPIKey(key))
//
// Each source of articles has a one-page form and an every-article form:
//
//   - Client.Search returns one Page; Client.SearchAll yields every
//     article. For short date ranges.
//   - Client.SubmitQuery starts a job; Client.Poll waits for it and returns
//     page 1, Client.GetResults fetches any page, Client.Results waits and
//     yields every article. For long date ranges.
//   - Client.SearchRange searches a long range with one job per window and
//     returns every article once, in order; Client.SearchRangeSeq yields it
//     window by window (docs/ranges.md).
//   - Client.Headlines returns articles clustered by topic.
//
// In SearchParams a zero field means "service default" and is not sent.
//
// NewClient takes Options and every method takes CallOptions, which
// override the Client's for one call; *PageOptions, *PollOptions and
// *RangeOptions go only to the methods they tune, and the compiler refuses
// an option where it would not work (see CallOption).
//
// Errors: a parameter or option rejected before any request is a
// *ValidationError; an answer the service gave is an *APIError, a failed
// job a *JobFailedError, a poll that ran out of time a *PollTimeoutError
// and an incomplete range a *RangeError. Classify with errors.Is and the
// Err sentinels; ErrAttemptTimeout (the service did not answer in time)
// never matches context.DeadlineExceeded (your deadline).
//
// Failed attempts are retried with backoff and jitter as far as each
// endpoint allows. No attempt starts before a Retry-After says; one longer
// than the call may wait ends it at once with ErrRateLimited. Once the
// service has answered them, the calls that walk pages or wait for a job
// ride out short outages (docs/retries.md).
//
// The API key travels only in request bodies: no error, log record or
// printed Client shows it.
package newssearch
