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
// NEWSSEARCH_BASE_URL environment variables. Each source of articles has two
// forms, one page or every article:
//
//   - Client.Search runs a synchronous search and returns one Page
//     (PageSize articles); Client.SearchAll yields every article of every
//     page. Suited to short date ranges.
//   - Client.SubmitQuery starts an asynchronous search and returns a
//     QueryJob. Client.Poll waits for it and returns page 1,
//     Client.GetResults fetches any one page, and Client.Results waits and
//     yields every article. Suited to long date ranges.
//   - Client.SearchRange searches a long range with one job per window,
//     several at once, and returns every article once, in order;
//     Client.SearchRangeSeq is the same engine as an iterator over the
//     windows (WindowResult), holding about two windows in memory.
//   - Client.Headlines returns articles clustered around leading topics.
//
// SearchParams and AsyncSearchParams use Go zero values for "service
// default": only the fields you set are sent.
//
// # Options
//
// There is one option type, Option. NewClient takes options, and so does
// every method, after its required arguments: a call's options override
// the Client's for that call. The With functions are options, and so are
// *PollOptions (how to wait for a job), *PageOptions (how to walk pages)
// and *RangeOptions (how to split a range). The options that configure
// what all calls share fail a call with a *ValidationError saying to pass
// them to NewClient. See Option.
//
// # Errors
//
// Each failure has one error type, whichever call saw it. Reach the type
// with errors.As and classify with errors.Is:
//
//	Failure                                     errors.As           errors.Is
//	------------------------------------------  ------------------  ---------------------------
//	the service answered 400, 413 or 422         *APIError           ErrBadRequest
//	the service answered 401 or 403              *APIError           ErrUnauthorized
//	the service answered 404 (unknown job)       *APIError           ErrNotFound
//	the service answered 429 (after retries)     *APIError           ErrRateLimited
//	the service answered 5xx (after retries)     *APIError           ErrServer
//	a 2xx answer with a failure state, or one    *APIError           (none)
//	  that cannot be decoded
//	a parameter or option rejected before any    *ValidationError    ErrBadRequest
//	  request
//	a job the service reports failed             *JobFailedError     ErrJobFailed
//	  (GetResults, Poll, Results, a range          (Unwrap: the 200
//	  window)                                      *APIError)
//	a job still pending when                     *PollTimeoutError   ErrPollTimeout
//	  PollOptions.MaxWait ran out
//	a range that did not deliver every window    *RangeError         the causes' (each window's
//	  (SearchRange, SearchRangeSeq)                (Unwrap: causes)    error, ctx's error)
//	the client gave up on a silent or too long   (none)              ErrAttemptTimeout
//	  attempt (stall, attempt, http.Client
//	  timeout)
//	pages that contradict each other             (none)              ErrInconsistentPages
//	the caller's context                         (none)              context.Canceled,
//	                                                                 context.DeadlineExceeded
//
// Transport failures wrap their cause, so errors.Is(err, context.Canceled)
// and errors.As(err, new(*net.OpError)) work; ErrAttemptTimeout never
// matches context.DeadlineExceeded, which means the caller's own deadline.
//
// # Retries
//
// Failed attempts are retried with exponential backoff and jitter,
// honouring Retry-After, as far as each endpoint allows (SubmitQuery, which
// creates a job, only where no job can have been made: never after a 503),
// and the calls that wait for a job ride out an outage shorter than
// PollOptions.MaxWait. The retry and outage policy is described once, on
// Client; WithMaxRetries and WithRetryWait tune it.
//
// # Secrets
//
// The API key travels only in request bodies. It never appears in an error,
// a log record, or the printed form of a Client.
package newssearch
