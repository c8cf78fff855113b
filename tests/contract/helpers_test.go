package contract_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	valerrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"github.com/newssearch/newssearch-go/api"
)

// contract is the parsed document with its validator. The libopenapi model
// builds and renders schemas lazily and is not safe for concurrent use, so
// every test loads its own contract, and code that may run on several
// goroutines (a checker behind a concurrent SDK call) holds mu.
type contract struct {
	mu        sync.Mutex
	doc       libopenapi.Document
	model     *v3.Document
	validator validator.Validator
}

// loadContract parses api.OpenAPI and builds a validator that asserts
// formats (date-time, date, uri), so that the date rules are checked too.
func loadContract(t *testing.T) *contract {
	t.Helper()
	doc, err := libopenapi.NewDocument(api.OpenAPI)
	if err != nil {
		t.Fatalf("parse openapi.yaml: %v; fix api/openapi.yaml", err)
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		t.Fatalf("build the OpenAPI 3 model of openapi.yaml: %v; fix api/openapi.yaml", err)
	}
	v := validator.NewValidatorFromV3Model(&m.Model, config.WithFormatAssertions())
	v.SetDocument(doc)
	return &contract{doc: doc, model: &m.Model, validator: v}
}

// componentSchema returns the named schema of components/schemas.
func (c *contract) componentSchema(t *testing.T, name string) *base.Schema {
	t.Helper()
	p := c.model.Components.Schemas.GetOrZero(name)
	if p == nil {
		t.Fatalf("openapi.yaml has no components/schemas/%s; add it", name)
	}
	s := p.Schema()
	if s == nil {
		t.Fatalf("components/schemas/%s does not build: %v", name, p.GetBuildError())
	}
	return s
}

// operation returns the operation of method (upper case) on path.
func (c *contract) operation(t *testing.T, method, path string) *v3.Operation {
	t.Helper()
	item := c.model.Paths.PathItems.GetOrZero(path)
	if item == nil {
		t.Fatalf("openapi.yaml has no path %s", path)
	}
	op := item.GetOperations().GetOrZero(strings.ToLower(method))
	if op == nil {
		t.Fatalf("openapi.yaml has no %s %s", method, path)
	}
	return op
}

// formatErrors renders validation errors with their schema failures, one
// per line, for a test failure message.
func formatErrors(errs []*valerrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "\n  - %s: %s", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "\n      at %q (%s): %s", f.InstancePath, f.KeywordLocation, f.Reason)
		}
	}
	return b.String()
}

// schemaNames returns the names of components/schemas in document order.
func (c *contract) schemaNames() []string {
	return slices.Collect(c.model.Components.Schemas.KeysFromOldest())
}
