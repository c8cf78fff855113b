package mockserver

import (
	"fmt"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
)

// This file is the only one of the package that imports the SDK: the mock
// reads requests and writes answers from the wire format alone, so that
// the contract tests check two independent readings of it.

// Retry waits and poll delays Client sets: short, so tests that exercise
// retries and polling stay fast. Options given to Client win.
const (
	clientRetryWaitMin = time.Millisecond
	clientRetryWaitMax = 20 * time.Millisecond
	clientPollDelayMin = time.Millisecond
	clientPollDelayMax = 20 * time.Millisecond
)

// ClientOptions returns the options Client gives newssearch.NewClient: the
// server's URL, APIKey and HTTPClient, no environment, and retry and poll
// waits of 1 to 20 ms.
func (s *Server) ClientOptions() []newssearch.Option {
	return []newssearch.Option{
		newssearch.WithoutEnvironment(),
		newssearch.WithBaseURL(s.url),
		newssearch.WithAPIKey(s.apiKey),
		newssearch.WithHTTPClient(s.httpClient),
		newssearch.WithRetryWait(clientRetryWaitMin, clientRetryWaitMax),
		&newssearch.PollOptions{MinDelay: clientPollDelayMin, MaxDelay: clientPollDelayMax},
	}
}

// Client returns an SDK client pointed at the server: ClientOptions, then
// opts. It panics on an invalid option.
func (s *Server) Client(opts ...newssearch.Option) *newssearch.Client {
	c, err := newssearch.NewClient(append(s.ClientOptions(), opts...)...)
	if err != nil {
		panic(fmt.Sprintf("mockserver: Client: %v", err))
	}
	return c
}
