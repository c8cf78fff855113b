package jsonscan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSkip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		at   int
		want int
	}{
		{`"abc",1`, 0, 5},
		{`"a\"b"`, 0, 6},
		{`"a\\"x`, 0, 5},
		{`{"a":[1,{"b":"}"}]} ,`, 0, 19},
		{`[1, 2]]`, 0, 6},
		{`123 ,`, 0, 3},
		{`true}`, 0, 4},
		{`  null`, SkipSpace([]byte(`  null`), 0), 6},
		{`"open`, 0, 6},       // Unterminated: len+1
		{`{"a":[1,2}`, 0, 11}, // Unterminated: len+1
		{``, 0, 0},
	}
	for _, tc := range tests {
		if got := SkipValue([]byte(tc.in), tc.at); got != tc.want {
			t.Errorf("SkipValue(%q, %d) = %d, want %d", tc.in, tc.at, got, tc.want)
		}
	}
	if got := SkipSpace([]byte(" \t\r\n"), 0); got != 4 {
		t.Errorf("SkipSpace over only spaces = %d, want 4", got)
	}
}

// TestMembers: the members of an object, in order, duplicates kept, with
// names decoded and the ranges of the name and the value.
func TestMembers(t *testing.T) {
	t.Parallel()
	body := []byte(` { "a" : 1 ,"b\u0062":{"x":[1,"}]\"",{"y":null}]}, "c":"s\"t",` + "\n" + `"d":[] ,"a":true, "e": -1.5e3 } `)
	type m struct{ Name, Whole, Value string }
	var got []m
	for _, x := range Members(body) {
		got = append(got, m{x.Name, string(body[x.NameStart:x.End]), string(body[x.Start:x.End])})
	}
	want := []m{{"a", `"a" : 1`, "1"}, {"bb", `"b\u0062":{"x":[1,"}]\"",{"y":null}]}`, `{"x":[1,"}]\"",{"y":null}]}`},
		{"c", `"c":"s\"t"`, `"s\"t"`}, {"d", `"d":[]`, "[]"}, {"a", `"a":true`, "true"}, {"e", `"e": -1.5e3`, "-1.5e3"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if got := Members([]byte(`{}`)); len(got) != 0 {
		t.Fatalf("empty object: %v", got)
	}
}

// TestAppendMembersKnownNames: names found in the known set come from it,
// without an allocation; anything else (an escaped spelling of a known
// name, an unknown name) decodes as Members decodes it; the result is
// Members' appended to what was there.
func TestAppendMembersKnownNames(t *testing.T) { // not parallel: AllocsPerRun
	known := map[string]string{"api_key": "api_key", "query": "query"}
	body := []byte(`{"api_key":"k","query":"q","api\u005fkey":1,"page":2,"query":3}`)
	prefix := []Member{{Name: "before"}}
	got := AppendMembers(prefix, body, known)
	want := append([]Member{{Name: "before"}}, Members(body)...)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	var names []string
	for _, m := range got[1:] {
		names = append(names, m.Name)
	}
	if diff := cmp.Diff([]string{"api_key", "query", "api_key", "page", "query"}, names); diff != "" {
		t.Fatalf("names (-want +got):\n%s", diff)
	}
	dst := make([]Member, 0, 8)
	plain := []byte(`{"api_key":"k","query":"q"}`)
	if allocs := testing.AllocsPerRun(100, func() { dst = AppendMembers(dst[:0], plain, known) }); allocs != 0 {
		t.Fatalf("AppendMembers of known names allocated %v times per call, want 0", allocs)
	}
}

// TestMembersTolerant: on input that is not a valid object Members keeps
// the members before the first it cannot follow, and never panics.
func TestMembersTolerant(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string // names
	}{
		{`[1,2]`, nil},
		{`"{"`, nil},
		{``, nil},
		{`   `, nil},
		{`{`, nil},
		{`{"a":1,"b`, []string{"a"}},
		{`{"a":1,"b":"open`, []string{"a"}},
		{`{"a":1,"b":[1,2`, []string{"a"}},
		{`{"a":1,b:2}`, []string{"a"}},
		{`{"a":1,"b" 2}`, []string{"a"}},
		{`{"a":1,"b":}`, []string{"a"}},
		{`{"a":1,"b\x":2}`, []string{"a"}}, // a bad escape
		{"{\"k\xffk\":1}", []string{"k\ufffdk"}},
		{`{"a":1`, []string{"a"}},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range Members([]byte(tt.in)) {
			got = append(got, m.Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Members(%q) names (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestElements: the values of an array, in order; on input that is not a
// valid array, the values before the first that cannot be followed.
func TestElements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{` [ 1, "a]" ,{"b":[2]}, [] ,null ] `, []string{"1", `"a]"`, `{"b":[2]}`, "[]", "null"}},
		{`[]`, nil},
		{`{"a":1}`, nil},
		{``, nil},
		{`[1,"open`, []string{"1"}},
		{`[1,]`, []string{"1"}},
		{`[1,[2`, []string{"1"}},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range Elements([]byte(tt.in)) {
			got = append(got, tt.in[e[0]:e[1]])
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Elements(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
