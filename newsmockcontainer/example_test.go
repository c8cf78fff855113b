package newsmockcontainer_test

import (
	"context"
	"fmt"
	"log"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/newsmockcontainer"
	"github.com/testcontainers/testcontainers-go"
)

// A mock in a container, with a world per key and one 503 on the first
// search of each key. (Not run by go test: it needs a container runtime.)
func ExampleRun() {
	ctx := context.Background()
	ctr, err := newsmockcontainer.Run(ctx, "newssearch/newsmock:0.1.0",
		newsmockcontainer.WithWorldPerKey(), newsmockcontainer.WithFaults("endpoint=query;times=1;status=503"))
	defer func() { _ = testcontainers.TerminateContainer(ctr) }()
	if err != nil {
		log.Fatal(err)
	}
	client, err := ctr.Client(ctx, "test-key")
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Search(ctx, newssearch.SearchParams{Query: "election"}) // the SDK retries the 503
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.Articles) > 0)
}
