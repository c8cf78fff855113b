package newssearch_test

import (
	"context"
	"errors"
	"fmt"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

// WithHeader sends the mock server's fault header: here every attempt of
// one call is answered 503, so the call fails after its retries, while the
// Client's other calls are untouched. (A 429 from the mock carries
// Retry-After, which pauses the whole Client: see docs/retries.md.)
func ExampleWithHeader() {
	srv := mockserver.New(mockserver.WithoutListener())
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	_, err := client.Headlines(ctx, newssearch.WithHeader(mockserver.FaultHeader, "status=503"))
	fmt.Println("with the fault header:", errors.Is(err, newssearch.ErrServer))

	_, err = client.Headlines(ctx)
	fmt.Println("without it:", err)
	// Output:
	// with the fault header: true
	// without it: <nil>
}
