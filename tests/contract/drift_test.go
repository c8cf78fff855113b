package contract_test

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"net/http"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pb33f/libopenapi/datamodel/high/base"

	newssearch "github.com/newssearch/newssearch-go"
)

// sdkSource parses the non-test Go files of the SDK (the root package).
func sdkSource(t *testing.T) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("..", "..", "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("cannot list the SDK's source files in ..: %v", err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing the SDK source %s: %v", name, err)
		}
		files = append(files, f)
	}
	return files
}

// sdkConstants returns, per type name, the string constants the SDK
// declares with that type (`X T = "v"` or `X = T("v")`), in source order.
// Reading the source is the only way to list constants, so a constant added
// to the SDK shows up here without anyone updating the test.
func sdkConstants(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, f := range sdkSource(t) {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					typ, lit := constTypeAndLiteral(vs.Type, v)
					if typ == "" || lit == nil || lit.Kind != token.STRING || !vs.Names[i].IsExported() {
						continue
					}
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatalf("SDK constant %s: %v", vs.Names[i].Name, err)
					}
					out[typ] = append(out[typ], s)
				}
			}
		}
	}
	return out
}

// constTypeAndLiteral returns the named type and the literal of a constant.
func constTypeAndLiteral(typ ast.Expr, v ast.Expr) (string, *ast.BasicLit) {
	if id, ok := typ.(*ast.Ident); ok {
		lit, _ := v.(*ast.BasicLit)
		return id.Name, lit
	}
	if call, ok := v.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if id, ok := call.Fun.(*ast.Ident); ok {
			lit, _ := call.Args[0].(*ast.BasicLit)
			return id.Name, lit
		}
	}
	return "", nil
}

// enumValues returns the enum of a component schema as strings.
func enumValues(t *testing.T, s *base.Schema) []string {
	t.Helper()
	var out []string
	for _, n := range s.Enum {
		v, err := nodeValue(n)
		if err != nil {
			t.Fatalf("decoding an enum value: %v", err)
		}
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// TestDriftEnums compares the SDK's ToggleState and SortOrder constants
// with the document's enumerations, and its State constants with the
// states the document's response schemas pin (const on a state member).
func TestDriftEnums(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	consts := sdkConstants(t)
	for _, typ := range []string{"ToggleState", "SortOrder"} {
		want := slices.Sorted(slices.Values(enumValues(t, c.componentSchema(t, typ))))
		got := slices.Sorted(slices.Values(consts[typ]))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the SDK's %s constants differ from components/schemas/%s enum in openapi.yaml (-document +SDK):\n%s",
				typ, typ, diff)
		}
	}
	pinned := map[string]bool{}
	for _, name := range c.schemaNames() {
		walkProperties(c.componentSchema(t, name), name, func(where string, p *base.SchemaProxy) {
			s := p.Schema()
			if !strings.HasSuffix(where, ".state") || s == nil || s.Const == nil {
				return
			}
			v, err := nodeValue(s.Const)
			if err != nil {
				t.Errorf("%s: const %v: %v", where, s.Const, err)
				return
			}
			pinned[fmt.Sprint(v)] = true
		})
	}
	want := slices.Sorted(maps.Keys(pinned))
	got := slices.Sorted(slices.Values(consts["State"]))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the SDK's State constants differ from the states openapi.yaml's responses pin (-document +SDK):\n%s", diff)
	}
}

// tagNames returns the JSON member names of a struct type's fields.
func tagNames(typ reflect.Type) []string {
	var out []string
	for _, f := range reflect.VisibleFields(typ) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || f.Anonymous || name == "-" || name == "" {
			continue
		}
		out = append(out, name)
	}
	return slices.Sorted(slices.Values(out))
}

// propertyNames returns the property names of a schema and of every
// branch of its oneOf, anyOf and allOf.
func propertyNames(s *base.Schema) []string {
	var out []string
	for _, b := range flatten(s) {
		for name := range b.Properties.KeysFromOldest() {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return slices.Sorted(slices.Values(out))
}

// taggedTypes maps every exported SDK type with JSON tags to the component
// schema describing it on the wire.
var taggedTypes = map[string]struct {
	typ    reflect.Type
	schema string
}{
	"Article":            {reflect.TypeFor[newssearch.Article](), "Article"},
	"Sentiment":          {reflect.TypeFor[newssearch.Sentiment](), "Sentiment"},
	"Entity":             {reflect.TypeFor[newssearch.Entity](), "Entity"},
	"EntityRelationship": {reflect.TypeFor[newssearch.EntityRelationship](), "EntityRelationship"},
	"HeadlineCluster":    {reflect.TypeFor[newssearch.HeadlineCluster](), "HeadlineCluster"},
	"HeadlineArticle":    {reflect.TypeFor[newssearch.HeadlineArticle](), "HeadlineArticle"},
}

// TestDriftSDKTypes compares the JSON tags of the SDK's exported response
// types with the properties of their schemas, both ways, and fails when the
// SDK gains an exported type with JSON tags that the table does not map.
func TestDriftSDKTypes(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	for name, tt := range taggedTypes {
		want := propertyNames(c.componentSchema(t, tt.schema))
		if diff := cmp.Diff(want, tagNames(tt.typ)); diff != "" {
			t.Errorf("newssearch.%s's JSON tags differ from components/schemas/%s's properties (-document +SDK):\n%s",
				name, tt.schema, diff)
		}
	}
	for _, f := range sdkSource(t) {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok || !ts.Name.IsExported() || !hasJSONTag(st) {
					continue
				}
				if _, mapped := taggedTypes[ts.Name.Name]; !mapped {
					t.Errorf("newssearch.%s has JSON tags but no schema in the drift table: add it to taggedTypes in tests/contract/drift_test.go "+
						"and describe it in openapi.yaml", ts.Name.Name)
				}
			}
		}
	}
}

func hasJSONTag(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if f.Tag != nil && strings.Contains(f.Tag.Value, `json:"`) {
			return true
		}
	}
	return false
}

// envelope maps an SDK answer type without JSON tags to its response
// schema: which wire members each exported field reads (the first present
// one wins), which members only wrap others, which fields the SDK fills
// from the request when the answer lacks their member, and which fields
// this answer never carries (newssearch.Page serves two answers): the SDK
// fills them from the request or leaves them empty.
type envelope struct {
	typ      reflect.Type
	schema   string
	fields   map[string][]string
	wrappers []string
	filled   []string
	notRead  []string
}

var envelopes = []envelope{
	{reflect.TypeFor[newssearch.Page](), "SearchAnswer", map[string][]string{
		"TotalResults": {"totalResults", "totalArticles"}, "Articles": {"articles"}, "State": {"state"},
	}, []string{"results"}, nil, []string{"QueryID", "Number", "Message"}},
	{reflect.TypeFor[newssearch.QueryJob](), "SubmitQueryAnswer", map[string][]string{
		"QueryID": {"query_id"}, "State": {"state"},
	}, nil, nil, nil},
	{reflect.TypeFor[newssearch.Page](), "GetResultsAnswer", map[string][]string{
		"QueryID": {"query_id"}, "Number": {"page"}, "TotalResults": {"totalResults", "totalArticles"},
		"Articles": {"articles"}, "State": {"state"}, "Message": {"message"},
	}, nil, []string{"QueryID", "Number"}, nil},
	{reflect.TypeFor[newssearch.HeadlinesResponse](), "HeadlinesAnswer", map[string][]string{
		"Headlines": {"headlines"}, "State": {"state"},
	}, nil, nil, nil},
}

// TestDriftEnvelopes checks the SDK's answer types that have no JSON tags
// against their response schemas: the table must cover every exported field
// and every property (including the inside of a wrapper), and a real mock
// answer decoded by the SDK must carry, in each field, the value of the
// member the table names.
func TestDriftEnvelopes(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	for _, env := range envelopes {
		var fields []string
		for _, f := range reflect.VisibleFields(env.typ) {
			if f.IsExported() {
				fields = append(fields, f.Name)
			}
		}
		if diff := cmp.Diff(append(slices.Sorted(maps.Keys(env.fields)), env.notRead...), fields, sortStrings); diff != "" {
			t.Errorf("newssearch.%s: the drift table's fields differ from the type's (-table +SDK):\n%s", env.typ.Name(), diff)
		}
		s := c.componentSchema(t, env.schema)
		props := propertyNames(s)
		for _, w := range env.wrappers {
			for _, b := range flatten(s) {
				if p := get(b.Properties, w); p != nil {
					props = append(props, propertyNames(p.Schema())...)
				}
			}
		}
		var members []string
		for _, ms := range env.fields {
			members = append(members, ms...)
		}
		members = append(members, env.wrappers...)
		if diff := cmp.Diff(dedupe(props), dedupe(members)); diff != "" {
			t.Errorf("newssearch.%s: the members its fields read differ from components/schemas/%s (-document +SDK):\n%s",
				env.typ.Name(), env.schema, diff)
		}
	}

	srv := newMock(t)
	chk := newChecker(t, c, srv.Transport(), true)
	client := sdkClient(srv, chk)
	ctx := context.Background()
	compare := func(sdkValue any, schema string) {
		t.Helper()
		raw := chk.last(t).decoded()
		if inner, ok := raw["results"].(map[string]any); ok {
			for k, v := range inner { // the wrapper's members are read as the top level's
				raw[k] = v
			}
		}
		for _, env := range envelopes {
			if env.schema == schema {
				compareEnvelope(t, env, reflect.ValueOf(sdkValue).Elem(), raw)
			}
		}
	}
	search, err := client.Search(ctx, newssearch.SearchParams{Query: "million"})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	compare(search, "SearchAnswer")
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{SearchParams: newssearch.SearchParams{Query: "million"}})
	if err != nil {
		t.Fatalf("SubmitQuery: %v", err)
	}
	compare(job, "SubmitQueryAnswer")
	for _, page := range []int{1, 1, 2} { // pending, then done
		res, err := client.GetResults(ctx, job.QueryID, page)
		if err != nil {
			t.Fatalf("GetResults: %v", err)
		}
		compare(res, "GetResultsAnswer")
	}
	heads, err := client.Headlines(ctx)
	if err != nil {
		t.Fatalf("Headlines: %v", err)
	}
	compare(heads, "HeadlinesAnswer")
}

var sortStrings = cmp.Transformer("sort", func(in []string) []string { return slices.Sorted(slices.Values(in)) })

func dedupe(s []string) []string { return slices.Compact(slices.Sorted(slices.Values(s))) }

// compareEnvelope checks each mapped field of v against the raw member.
// Lists are compared by length and, for articles, by _id in order.
func compareEnvelope(t *testing.T, env envelope, v reflect.Value, raw map[string]any) {
	t.Helper()
	for field, members := range env.fields {
		fv := v.FieldByName(field)
		var rv any
		present := false
		for _, m := range members {
			if x, ok := raw[m]; ok {
				rv, present = x, true
				break
			}
		}
		where := fmt.Sprintf("newssearch.%s.%s", env.typ.Name(), field)
		if !present {
			if !fv.IsZero() && !slices.Contains(env.filled, field) {
				t.Errorf("%s = %v, but the answer has none of %v", where, fv.Interface(), members)
			}
			continue
		}
		switch rv := rv.(type) {
		case string:
			if got := fv.String(); got != rv {
				t.Errorf("%s = %q, want %q from the answer's %v", where, got, rv, members)
			}
		case float64:
			if got := float64(fv.Int()); got != rv {
				t.Errorf("%s = %v, want %v from the answer's %v", where, got, rv, members)
			}
		case []any:
			if fv.Len() != len(rv) {
				t.Errorf("%s has %d elements, the answer's %v has %d", where, fv.Len(), members, len(rv))
				continue
			}
			for i, e := range rv {
				obj, _ := e.(map[string]any)
				if a, ok := fv.Index(i).Interface().(newssearch.Article); ok && obj["_id"] != a.ID {
					t.Errorf("%s[%d].ID = %q, want %v", where, i, a.ID, obj["_id"])
				}
			}
		default:
			t.Errorf("%s: the answer's %v holds %T, which the drift check does not compare", where, members, rv)
		}
	}
}

// TestDriftMockEnums checks that the mock agrees with the document's
// enumerations: it accepts every value (the SDK table sends each one), and
// the 400 answer to any other value lists exactly the document's values.
// It also checks the date formats wire.md pins for each answer.
func TestDriftMockEnums(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	srv := newMock(t)
	chk := newChecker(t, c, srv.Transport(), false)
	hc := &http.Client{Transport: chk}
	quoted := regexp.MustCompile(`"([^"]*)"`)
	for _, tc := range []struct{ path, field, schema string }{
		{pathQuery, "toggle_state", "ToggleState"},
		{pathQueryAsync, "toggle_state", "ToggleState"},
		{pathQueryAsync, "sort_order", "SortOrder"},
	} {
		body := fmt.Sprintf(`{"api_key":"k","query":"million",%q:"no such value"}`, tc.field)
		resp, err := hc.Post(srv.URL()+tc.path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatalf("POST %s: %v", tc.path, err)
		}
		_ = resp.Body.Close()
		x := chk.last(t)
		msg, _ := x.decoded()["message"].(string)
		if x.status != http.StatusBadRequest {
			t.Errorf("POST %s with %s %q: status %d, want 400", tc.path, tc.field, "no such value", x.status)
			continue
		}
		_, allowed, ok := strings.Cut(msg, "use ")
		var got []string
		for _, m := range quoted.FindAllStringSubmatch(allowed, -1) {
			got = append(got, m[1])
		}
		want := enumValues(t, c.componentSchema(t, tc.schema))
		if diff := cmp.Diff(want, got, sortStrings); !ok || diff != "" {
			t.Errorf("POST %s: the mock's message %q lists other %s values than components/schemas/%s (-document +mock):\n%s",
				tc.path, msg, tc.field, tc.schema, diff)
		}
	}

	rfc1123 := regexp.MustCompile(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$`)
	spaced := regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)
	for _, tc := range []struct {
		path, body, list string
		format           *regexp.Regexp
	}{
		{pathQuery, `{"api_key":"k","query":"million"}`, "results.articles", rfc1123},
		{pathHeadlines, `{"api_key":"k"}`, "headlines.*.articles", spaced},
	} {
		resp, err := hc.Post(srv.URL()+tc.path, "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatalf("POST %s: %v", tc.path, err)
		}
		_ = resp.Body.Close()
		var doc any
		if err := json.Unmarshal(chk.last(t).respBody, &doc); err != nil {
			t.Fatalf("POST %s: the answer is not JSON: %v", tc.path, err)
		}
		dates := collect(doc, strings.Split(tc.list+".*.datePublished", "."))
		if len(dates) == 0 {
			t.Errorf("POST %s: no datePublished found under %s", tc.path, tc.list)
		}
		for _, d := range dates {
			if s, _ := d.(string); !tc.format.MatchString(s) {
				t.Errorf("POST %s: datePublished %v is not in the form wire.md pins (%s)", tc.path, d, tc.format)
			}
		}
	}
}

// collect returns the values at path in v; "*" walks every array element.
func collect(v any, path []string) []any {
	if len(path) == 0 {
		return []any{v}
	}
	var out []any
	switch v := v.(type) {
	case map[string]any:
		if x, ok := v[path[0]]; ok {
			out = collect(x, path[1:])
		}
	case []any:
		if path[0] == "*" {
			for _, e := range v {
				out = append(out, collect(e, path[1:])...)
			}
		}
	}
	return out
}
