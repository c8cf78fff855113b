package mockserver

import (
	"errors"
	"time"
)

// A testing/synctest bubble's clock starts at 2000-01-01 UTC, which no real
// clock running tests reads: the only way to tell a bubble from outside.
var (
	bubbleEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	bubbleEnd   = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
)

// inSynctestBubble reports whether the calling goroutine runs inside a
// testing/synctest bubble.
func inSynctestBubble() bool {
	now := time.Now()
	return !now.Before(bubbleEpoch) && now.Before(bubbleEnd)
}

// Errors of the testing/synctest combinations that cannot work.
var (
	errBubbleListener = errors.New("mockserver: a server with a socket cannot run inside a testing/synctest bubble " +
		"(network I/O never blocks durably, so the bubble's clock cannot advance and the test hangs): " +
		"pass mockserver.WithoutListener() and use the server's Client, HTTPClient or Transport")
	errRequestIntoBubble = errors.New("mockserver: this request comes from inside a testing/synctest bubble, " +
		"but the server was created outside it (its clock, timers and Close belong to the outside): " +
		"create the server inside the function given to synctest.Test, with mockserver.New(mockserver.WithoutListener())")
	errRequestOutOfBubble = errors.New("mockserver: this request comes from outside the testing/synctest bubble " +
		"the server was created in: use the server only inside that bubble, or create another one outside it")
)

// closeOutsideBubble is the panic of Close called outside the bubble the
// server was created in, which would otherwise kill the test binary.
const closeOutsideBubble = "mockserver: Close called outside the testing/synctest bubble the server was created in: " +
	"close it inside the bubble, e.g. defer srv.Close() in the function given to synctest.Test"
