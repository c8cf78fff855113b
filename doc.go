// Package newssearch is a client for the news search service (the Athena
// News API, https://app.runathena.com): synchronous and asynchronous article
// search, and headline clusters.
//
// # Tour
//
// Create one Client and share it; it is safe for concurrent use:
//
//	client, err := newssearch.NewClient(newssearch.WithAPIKey(key))
//
// The key and base URL may also come from the NEWSSEARCH_API_KEY and
// NEWSSEARCH_BASE_URL environment variables. Then:
//
//   - Client.Search runs a synchronous search and returns one page
//     (PageSize articles) of a SearchResponse. Suited to short date ranges.
//   - Client.SubmitQuery starts an asynchronous search and returns a
//     QueryJob; Client.GetResults fetches its pages, reporting a pending
//     state until the job is done. Suited to long date ranges.
//   - Client.Headlines returns articles clustered around leading topics.
//
// SearchParams and AsyncSearchParams use Go zero values for "service
// default": only the fields you set are sent.
//
// # Polling, paging and long ranges
//
//   - Client.Poll waits for a submitted job with growing, jittered delays and
//     a maximum total wait (PollOptions); Client.SearchAsync submits and polls
//     in one call. A failed job is a *JobFailedError, giving up is a
//     *PollTimeoutError that carries the query ID so the caller can resume.
//   - Client.SearchAll and Client.Results are iterators over every article of
//     a search or a finished job (range-over-func, iter.Seq2); SearchPages and
//     ResultPages walk whole pages with their numbers and totals. PageOptions
//     fetches pages ahead concurrently while still yielding in order; breaking
//     out of the loop stops every request.
//   - Client.SearchRange splits a long date range into windows, runs one job
//     per window concurrently, pages every job to the end and returns the
//     merged articles without duplicates, in the requested SortOrder.
//
// # Errors
//
// A failure reported by the service is an *APIError (use errors.As) with
// the HTTP status, the service's message and the request ID; errors.Is
// classifies it with ErrBadRequest, ErrUnauthorized, ErrNotFound,
// ErrRateLimited and ErrServer. Parameters the client can judge are checked
// before any request and fail with a *ValidationError, which matches
// ErrBadRequest. Transport failures wrap their cause, so errors.Is(err,
// context.Canceled) and errors.Is(err, context.DeadlineExceeded) work.
//
// # Retries
//
// Search, GetResults and Headlines change nothing on the service, so a
// connection failure, a response body that breaks off, 408, 429 and 5xx
// (but 501) are retried with exponential backoff and jitter, honouring
// Retry-After (see WithMaxRetries and WithRetryWait). SubmitQuery creates a
// job and is retried only when the service provably did not process it:
// a failure to connect, 408 and 429, never a 503, which a proxy may send
// after forwarding the request. A cancelled context stops any wait.
//
// # Secrets
//
// The API key travels only in request bodies. It never appears in an error,
// a log record, or the printed form of a Client.
package newssearch
