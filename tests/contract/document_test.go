package contract_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

// TestDocumentIsValidOpenAPI31 holds openapi.yaml to the validator's own
// check of the document against the OpenAPI 3.1 meta-schema.
func TestDocumentIsValidOpenAPI31(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	if got := c.doc.GetVersion(); !strings.HasPrefix(got, "3.1.") {
		t.Errorf("openapi.yaml declares openapi %q; the document must be OpenAPI 3.1.x", got)
	}
	if ok, errs := c.validator.ValidateDocument(); !ok {
		t.Errorf("openapi.yaml is not a valid OpenAPI 3.1 document:%s", formatErrors(errs))
	}
}

// TestDocumentSchemasCompile compiles every component schema with the
// validator's JSON Schema 2020-12 engine: a bad pattern, a dangling $ref or
// a keyword misuse fails here rather than in a contract test.
func TestDocumentSchemasCompile(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	sv := schema_validation.NewSchemaValidator(config.WithFormatAssertions())
	for _, name := range c.schemaNames() {
		s := c.componentSchema(t, name)
		if ok, errs := sv.ValidateSchemaBytes(s, nil); !ok {
			t.Errorf("components/schemas/%s does not compile:%s", name, formatErrors(errs))
		}
	}
}

// TestDocumentExamplesValidate checks every example of the document (media
// type examples and schema examples) against its own schema, so the examples
// other-language users copy are real.
func TestDocumentExamplesValidate(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	sv := schema_validation.NewSchemaValidator(config.WithFormatAssertions())
	checked := 0
	check := func(where string, s *base.Schema, node yamlNode) {
		t.Helper()
		value, err := nodeValue(node)
		if err != nil {
			t.Errorf("%s: example does not decode: %v", where, err)
			return
		}
		checked++
		if ok, errs := sv.ValidateSchemaObject(s, value); !ok {
			t.Errorf("%s: example does not match its schema:%s", where, formatErrors(errs))
		}
	}
	checkMedia := func(where string, content map[string]*v3.MediaType) {
		for mt, m := range content {
			if m.Schema == nil {
				continue
			}
			s := m.Schema.Schema()
			if m.Example != nil {
				check(where+" "+mt+" example", s, m.Example)
			}
			for name, ex := range m.Examples.FromOldest() {
				check(where+" "+mt+" examples/"+name, s, ex.Value)
			}
		}
	}
	for path, item := range c.model.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			where := strings.ToUpper(method) + " " + path
			if op.RequestBody != nil {
				checkMedia(where+" request", mapOf(op.RequestBody.Content.FromOldest()))
			}
			for code, r := range op.Responses.Codes.FromOldest() {
				checkMedia(where+" "+code, mapOf(r.Content.FromOldest()))
			}
		}
	}
	for name, r := range c.model.Components.Responses.FromOldest() {
		checkMedia("components/responses/"+name, mapOf(r.Content.FromOldest()))
	}
	for _, name := range c.schemaNames() {
		s := c.componentSchema(t, name)
		for i, ex := range s.Examples {
			check(fmt.Sprintf("components/schemas/%s examples[%d]", name, i), s, ex)
		}
	}
	if checked == 0 {
		t.Fatal("openapi.yaml has no examples; add request and response examples")
	}
	t.Logf("%d examples validated", checked)
}

// TestDocumentConventions enforces the house rules of the document: every
// operation is named, tagged and described, every schema property is
// described, every answer carries X-Request-Id, 405 carries Allow and 429
// carries Retry-After, and every service operation lists the same failures.
func TestDocumentConventions(t *testing.T) {
	t.Parallel()
	c := loadContract(t)

	var servers []string
	for _, s := range c.model.Servers {
		servers = append(servers, s.URL)
	}
	if diff := cmp.Diff([]string{"https://app.runathena.com", "http://127.0.0.1:8080"}, servers); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}

	serviceCodes := []string{"200", "400", "401", "405", "413", "429", "5XX"}
	for path, item := range c.model.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			where := strings.ToUpper(method) + " " + path
			if op.OperationId == "" || op.Summary == "" || op.Description == "" || len(op.Tags) == 0 {
				t.Errorf("%s: every operation needs operationId, summary, description and tags", where)
			}
			mockOnly := slices.Contains(op.Tags, "mock")
			flag := get(op.Extensions, "x-mock-only")
			if mockOnly != (flag != nil && extensionValue(flag) == true) {
				t.Errorf("%s: an operation is tagged mock exactly when it has x-mock-only: true", where)
			}
			var codes []string
			for code, r := range op.Responses.Codes.FromOldest() {
				codes = append(codes, code)
				if get(r.Content, "application/json") == nil {
					if !mockOnly {
						t.Errorf("%s %s: the answer must have an application/json body", where, code)
					}
					continue // only the JSON API answers carry the API's headers
				}
				var required []string
				if path != "/openapi.yaml" { // served by cmd/newsmock itself, without request ids
					required = append(required, "X-Request-Id")
				}
				switch code {
				case "405":
					required = append(required, "Allow")
				case "429":
					required = append(required, "Retry-After")
				}
				for _, name := range required {
					if h := get(r.Headers, name); h == nil || !h.Required {
						t.Errorf("%s %s: the answer must declare the required header %s", where, code, name)
					}
				}
			}
			if mockOnly {
				continue
			}
			if strings.HasSuffix(path, "/get-results") {
				want := slices.Insert(slices.Clone(serviceCodes), 3, "404")
				if diff := cmp.Diff(want, codes); diff != "" {
					t.Errorf("%s: response codes (-want +got):\n%s", where, diff)
				}
			} else if diff := cmp.Diff(serviceCodes, codes); diff != "" {
				t.Errorf("%s: response codes (-want +got):\n%s", where, diff)
			}
			if method != "post" || op.RequestBody == nil || op.RequestBody.Required == nil || !*op.RequestBody.Required {
				t.Errorf("%s: service operations are POST with a required JSON body", where)
			}
		}
	}

	for _, name := range c.schemaNames() {
		s := c.componentSchema(t, name)
		if s.Description == "" {
			t.Errorf("components/schemas/%s has no description; describe it", name)
		}
		walkProperties(s, "components/schemas/"+name, func(where string, p *base.SchemaProxy) {
			if p.IsReference() {
				return // described where it is defined
			}
			if p.Schema().Description == "" {
				t.Errorf("%s has no description; describe it", where)
			}
		})
	}
}

// walkProperties calls fn for every property of s, including properties of
// the inline branches of oneOf/anyOf/allOf; referenced schemas are not
// entered (they are walked under their own name).
func walkProperties(s *base.Schema, where string, fn func(string, *base.SchemaProxy)) {
	for name, p := range s.Properties.FromOldest() {
		fn(where+"."+name, p)
		if !p.IsReference() {
			walkProperties(p.Schema(), where+"."+name, fn)
		}
	}
	for i, p := range slices.Concat(s.OneOf, s.AnyOf, s.AllOf) {
		if !p.IsReference() {
			walkProperties(p.Schema(), fmt.Sprintf("%s[branch %d]", where, i), fn)
		}
	}
}

// yamlNode is the part of a YAML node of the libopenapi model the tests use.
type yamlNode interface{ Decode(v any) error }

// nodeValue decodes a YAML node into the value encoding/json would produce
// for the same JSON text.
func nodeValue(n yamlNode) (any, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// extensionValue decodes an extension's YAML node.
func extensionValue(n yamlNode) any {
	v, err := nodeValue(n)
	if err != nil {
		return err
	}
	return v
}

// get returns m[key], or the zero value when m is nil or lacks key.
func get[V any](m *orderedmap.Map[string, V], key string) V {
	var zero V
	if m == nil {
		return zero
	}
	return m.GetOrZero(key)
}

// mapOf collects an ordered-map iterator into a map.
func mapOf[V any](seq func(func(string, V) bool)) map[string]V {
	m := map[string]V{}
	for k, v := range seq {
		m[k] = v
	}
	return m
}
