package newssearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// members collects what eachMember yields, values compacted, keys
// unescaped; later duplicates win, as in encoding/json.
func members(t testing.TB, in []byte) (map[string]string, error) {
	t.Helper()
	out := map[string]string{}
	err := eachMember(in, func(key, val []byte) error {
		var k string
		if err := json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &k); err != nil {
			t.Fatalf("key %q does not unquote: %v", key, err)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, val); err != nil {
			t.Fatalf("value %q of %q is not JSON: %v", val, k, err)
		}
		out[k] = b.String()
		return nil
	})
	return out, err
}

func TestEachMember(t *testing.T) {
	t.Parallel()
	in := []byte(` { "a" : 1 , "b\"c":"x\\",  "d":[1,{"e":"]}"}],"f":{"g":[]},"h":null,"i":true,"j":-1.5e3, "k":"\\\"" } `)
	got, err := members(t, in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "1", `b"c`: `"x\\"`, "d": `[1,{"e":"]}"}]`, "f": `{"g":[]}`, "h": "null",
		"i": "true", "j": "-1.5e3", "k": `"\\\""`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("members mismatch (-want +got):\n%s", diff)
	}
	var n int
	if err := eachElement([]byte(` [ 1 , "]" , [2,[3]] , {"a":[]} ] `), func(i int, elem []byte) error {
		if i != n {
			t.Errorf("index %d, want %d", i, n)
		}
		n++
		return nil
	}); err != nil || n != 4 {
		t.Errorf("eachElement: %d elements, %v; want 4, nil", n, err)
	}
	stop := errors.New("stop")
	if err := eachMember([]byte(`{"a":1,"b":2}`), func(key, val []byte) error { return stop }); err != stop {
		t.Errorf("callback error not returned: %v", err)
	}
	if err := eachElement([]byte(`[1]`), func(int, []byte) error { return stop }); err != stop {
		t.Errorf("callback error not returned: %v", err)
	}
}

// TestWalkNested walks into a member and its elements the way
// attachExtras does and checks what is visited and where each walk ends.
func TestWalkNested(t *testing.T) {
	t.Parallel()
	d := []byte(` {"s":"}]","a" : [ {"k":1} , null , {"k":"x\"}"} ] ,"z":{}} tail`)
	var got []string
	end, err := walkObject(d, 0, func(key []byte, v int) (int, error) {
		if string(key) != "a" {
			got = append(got, "skip "+string(key))
			return valueEnd(d, v)
		}
		return walkArray(d, v, func(n, e int) (int, error) {
			if d[e] != '{' {
				got = append(got, "element "+string(d[e:e+4]))
				return valueEnd(d, e)
			}
			return walkObject(d, e, func(key []byte, v int) (int, error) {
				end, err := valueEnd(d, v)
				got = append(got, string(key)+"="+string(d[v:end]))
				return end, err
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"skip s", "k=1", "element null", `k="x\"}"`, "skip z"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("visits mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(len(d)-len(" tail"), end); diff != "" {
		t.Errorf("end mismatch (-want +got):\n%s", diff)
	}

	stop := errors.New("stop")
	for _, tt := range []struct {
		name string
		walk func() (int, error)
		want error
	}{
		{"object callback error", func() (int, error) {
			return walkObject([]byte(`{"a":1}`), 0, func([]byte, int) (int, error) { return 0, stop })
		}, stop},
		{"array callback error", func() (int, error) {
			return walkArray([]byte(`[1]`), 0, func(int, int) (int, error) { return 0, stop })
		}, stop},
		{"object callback goes back", func() (int, error) {
			return walkObject([]byte(`{"a":1}`), 0, func(_ []byte, v int) (int, error) { return v, nil })
		}, errMalformed},
		{"array callback goes past the end", func() (int, error) {
			return walkArray([]byte(`[1]`), 0, func(int, int) (int, error) { return 9, nil })
		}, errMalformed},
		{"object without value", func() (int, error) {
			return walkObject([]byte(`{"a":`), 0, func(_ []byte, v int) (int, error) { return v + 1, nil })
		}, errMalformed},
		{"unterminated nested value", func() (int, error) {
			d := []byte(`{"a":[1,{"b":2]`)
			return walkObject(d, 0, func(_ []byte, v int) (int, error) { return valueEnd(d, v) })
		}, errMalformed},
	} {
		if _, err := tt.walk(); !errors.Is(err, tt.want) {
			t.Errorf("%s: error = %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestScannerMalformed(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", " ", "[]", "{", `{"a"`, `{"a":`, `{"a" 1}`, `{1:2}`, `{"a":1`, `{"a":"x`, `{"`, `{"a":}`} {
		if _, err := members(t, []byte(in)); !errors.Is(err, errMalformed) {
			t.Errorf("eachMember(%q) error = %v, want errMalformed", in, err)
		}
	}
	for _, in := range []string{"", "{}", "[", "[1", `["x`, `[1,`} {
		if err := eachElement([]byte(in), func(int, []byte) error { return nil }); !errors.Is(err, errMalformed) {
			t.Errorf("eachElement(%q) error = %v, want errMalformed", in, err)
		}
	}
}

// FuzzEachMember checks the walker against encoding/json on every valid
// JSON object.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a\"":["\\",{"b":"}"}]}`, `{"x":"\u00e9","x":2}`, wireArticle(0)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var want map[string]json.RawMessage
		if !json.Valid([]byte(in)) || json.Unmarshal([]byte(in), &want) != nil || want == nil {
			return
		}
		got, err := members(t, []byte(in))
		if err != nil {
			t.Fatalf("eachMember(%q): %v", in, err)
		}
		wantc := map[string]string{}
		for k, v := range want {
			var b bytes.Buffer
			json.Compact(&b, v)
			wantc[k] = b.String()
		}
		if diff := cmp.Diff(wantc, got); diff != "" {
			t.Errorf("eachMember(%q) mismatch (-want +got):\n%s", in, diff)
		}
	})
}

func TestPooledBody(t *testing.T) {
	t.Parallel()
	resp := &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader([]byte("hello"))), ContentLength: 5}
	if err := bufferBody(resp); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	if err != nil || string(got) != "hello" {
		t.Errorf("ReadAll = %q, %v", got, err)
	}
	resp.Body.Close()
	if err := resp.Body.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if n, err := resp.Body.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("Read after Close = %d, %v; want 0, EOF", n, err)
	}
}

func TestAPIErrorIsOther(t *testing.T) {
	t.Parallel()
	e := &APIError{StatusCode: 500}
	if errors.Is(e, io.EOF) || e.Unwrap() != nil {
		t.Error("APIError matches an unrelated error")
	}
}
