// Command regen writes the generated clients of package codegen
// (oapiclient/ and ogenclient/) from api/openapi.yaml with the pinned
// generators. Run it through go generate from tests/:
//
//	go generate ./codegen/
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/newssearch/newssearch-go/tests/codegen/internal/gen"
)

func main() {
	// go generate runs this in the directory of package codegen.
	if err := gen.Generate(context.Background(), ".", "../../api/openapi.yaml", "."); err != nil {
		fmt.Fprintln(os.Stderr, "regen:", err)
		os.Exit(1)
	}
}
