package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// validCases are inputs on which Valid must agree with json.Valid: every
// rule of the grammar, each side of it, and the fuzz test's seeds.
var validCases = []string{
	``, ` `, `{}`, ` {} `, `[]`, `[ ]`, `{ }`, `{`, `}`, `[`, `]`, `{]`, `[}`, `{}}`, `[]]`, `{}{}`, `[][]`, `{} x`,
	`{"api_key":"k","query":"electric cars","page":2,"sort_by":"date"}`,
	`{"a":1,}`, `{"a":1,,"b":2}`, `{,"a":1}`, `{"a" 1}`, `{"a":}`, `{"a"::1}`, `{a:1}`, `{'a':1}`, `{"a":1 "b":2}`, `{1:2}`,
	`[1,]`, `[,1]`, `[1,,2]`, `[1 2]`, `[[[]]]`, `[[[]]`, `[{"a":[{"b":{}}]}]`, `{"a":{"b":{"c":[1,{"d":null}]}}}`,
	`"x"`, `""`, `"`, `"abc`, `"a\"b"`, `"a\\"`, `"a\\\"`, `"\u00e9"`, `"\u00E9"`, `"\u00g9"`, `"\u00e"`, `"\u00e9`, `"\uD83D\uDE00"`,
	`"\/\b\f\n\r\t"`, `"\a"`, `"\x41"`, `"\'"`, `"\0"`, "\"tab\there\"", "\"nl\nhere\"", "\"\x1f\"", "\"\x7f\"", "\"\xff\xfe\"", "\"é\"", "\"\xc3\"",
	`0`, `-0`, `1`, `-1`, `01`, `-01`, `00`, `1.`, `1.5`, `.5`, `-.5`, `1.5e3`, `1e3`, `1E+3`, `1e-3`, `1e`, `1e+`, `1ee3`, `1.5.3`, `+1`, `-`, `--1`,
	`1 2`, `123456789012345678901234567890`, `1e999999`, `0x10`, `NaN`, `Infinity`, `-Infinity`,
	`true`, `false`, `null`, `tru`, `truex`, `nul`, `nulll`, `True`, `NULL`, `[true,false,null]`, `[truefalse]`,
	" \t\r\n{\t\"a\"\r:\n1 } \n", "\v{}", "\f{}", "\u00a0{}", "{}\x00",
}

// TestValid: Valid agrees with json.Valid on every case, and on nesting at
// and past encoding/json's limit of 10,000 levels.
func TestValid(t *testing.T) {
	t.Parallel()
	for _, in := range validCases {
		if got, want := Valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%q) = %v; json.Valid says %v", in, got, want)
		}
	}
	for _, depth := range []int{63, 64, 65, 9999, 10000, 10001} {
		for _, open := range []string{"[", `{"a":`} {
			close := map[string]string{"[": "]", `{"a":`: "}"}[open]
			for _, inner := range []string{"1", "[]", "{}"} {
				in := []byte(strings.Repeat(open, depth-1) + inner + strings.Repeat(close, depth-1))
				if got, want := Valid(in), json.Valid(in); got != want {
					t.Errorf("Valid(%s ... %s nested %d deep) = %v; json.Valid says %v", open, inner, depth, got, want)
				}
			}
		}
	}
}

// TestValidAllocs: a request body is validated without an allocation.
func TestValidAllocs(t *testing.T) { // not parallel: AllocsPerRun
	body := []byte(`{"api_key":"k","query":"electric cars","categories":["Business","Tech"],"page":2,"nested":{"a":[1,2,{"b":null}]}}`)
	if n := testing.AllocsPerRun(100, func() { _ = Valid(body) }); n != 0 {
		t.Errorf("Valid allocated %v times a call, want 0", n)
	}
}

// FuzzValid: Valid agrees with json.Valid on any input (go test -fuzz
// FuzzValid ./internal/jsonscan to search beyond the seeds).
func FuzzValid(f *testing.F) {
	for _, in := range validCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := Valid(in), json.Valid(in); got != want {
			t.Errorf("Valid(%q) = %v; json.Valid says %v", in, got, want)
		}
	})
}
