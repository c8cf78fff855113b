package textutil

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuoteShort(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", `""`},
		{"GET", `"GET"`},
		{"a\"b\n", `"a\"b\n"`},
		{"ok\xffok", `"okok"`},
		{strings.Repeat("é", 60), `"` + strings.Repeat("é", 60) + `"`},
		{strings.Repeat("é", 61), `"` + strings.Repeat("é", 60) + `"…`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, QuoteShort(tt.in)); diff != "" {
			t.Errorf("QuoteShort(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestJSONKind: the names error messages give a JSON value's type instead
// of quoting the value, judged by its first byte, one table for the SDK,
// the mock server and the corpus loader.
func TestJSONKind(t *testing.T) {
	t.Parallel()
	type names struct{ Type, Kind string }
	got := map[string]names{}
	for _, in := range []string{`"k"`, `{}`, `[]`, `true`, `false`, `null`, `-1`, `0.5`, `7`, ``, `x`, `}`, `nul`} {
		got[in] = names{JSONType([]byte(in)), JSONKind([]byte(in))}
	}
	want := map[string]names{
		`"k"`: {"string", "a string"}, `{}`: {"object", "an object"}, `[]`: {"array", "an array"},
		`true`: {"boolean", "a boolean"}, `false`: {"boolean", "a boolean"}, `null`: {"null", "null"},
		`-1`: {"number", "a number"}, `0.5`: {"number", "a number"}, `7`: {"number", "a number"},
		``: {"", "nothing"}, `x`: {"", "invalid JSON"}, `}`: {"", "invalid JSON"},
		`nul`: {"null", "null"}, // by the first byte: validate first
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSONType, JSONKind (-want +got):\n%s", diff)
	}
}

// TestJSONKindOf: the JSON value a Go kind decodes from, as a message
// names it.
func TestJSONKindOf(t *testing.T) {
	t.Parallel()
	got := map[reflect.Kind]string{}
	for _, k := range []reflect.Kind{reflect.String, reflect.Int, reflect.Int64, reflect.Float32, reflect.Float64,
		reflect.Slice, reflect.Array, reflect.Bool, reflect.Struct, reflect.Map} {
		got[k] = JSONKindOf(k)
	}
	want := map[reflect.Kind]string{reflect.String: "a string", reflect.Int: "an integer", reflect.Int64: "an integer",
		reflect.Float32: "a number", reflect.Float64: "a number", reflect.Slice: "an array", reflect.Array: "an array",
		reflect.Bool: "a boolean", reflect.Struct: "an object", reflect.Map: "an object"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSONKindOf (-want +got):\n%s", diff)
	}
}
