package mockserver

import (
	"fmt"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
)

// This file is the only one of the package that imports the SDK: the mock
// reads requests and writes answers from the wire format alone, so that
// the contract tests check two independent readings of it.

// ClientOptions returns the options Client gives newssearch.NewClient: the
// server's URL, APIKey and HTTPClient, no environment, and retry and poll
// waits of 1 to 20 ms, to keep tests fast.
func (s *Server) ClientOptions() []newssearch.Option {
	return []newssearch.Option{
		newssearch.WithoutEnvironment(),
		newssearch.WithBaseURL(s.url),
		newssearch.WithAPIKey(s.apiKey),
		newssearch.WithHTTPClient(s.httpClient),
		newssearch.WithRetryWait(time.Millisecond, 20*time.Millisecond),
		&newssearch.PollOptions{MinDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond},
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
