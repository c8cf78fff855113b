package corpus

import (
	"strings"
	"testing"
	"time"
)

// TestLoadJSONLReplaces: a line with _replaces takes the place of an
// earlier article, which is not loaded; _replaces must name an earlier
// line's _id.
func TestLoadJSONLReplaces(t *testing.T) {
	t.Parallel()
	stub := line(t, id1, map[string]any{"title": "From a headline"})
	full := line(t, id2, map[string]any{"_replaces": strings.ToUpper(id1)})
	c, err := LoadJSONL(strings.NewReader(stub + "\n" + line(t, id3, nil) + "\n" + full + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range c.Articles {
		ids = append(ids, a.ID)
	}
	if strings.Join(ids, ",") != id2+","+id3 && strings.Join(ids, ",") != id3+","+id2 {
		t.Errorf("loaded %v; want %s and %s, not the replaced %s", ids, id2, id3, id1)
	}

	for _, tc := range []struct{ name, input, want string }{
		{"names no earlier line", full + "\n" + stub + "\n",
			`corpus line 1: _replaces "5f1c0a9e3b2d4c6e8f7a1b2c" names no article above; name the _id of an earlier line, whose article this one replaces, or remove _replaces`},
		{"names itself", line(t, id1, map[string]any{"_replaces": id1}),
			`corpus line 1: _replaces "5f1c0a9e3b2d4c6e8f7a1b2c" is not the _id of another article; name the 24-hexadecimal _id of the earlier line this one replaces`},
		{"not an id", stub + "\n" + line(t, id2, map[string]any{"_replaces": "stub"}),
			`corpus line 2: _replaces "stub" is not the _id of another article; name the 24-hexadecimal _id of the earlier line this one replaces`},
		{"replaced id taken again", stub + "\n" + full + "\n" + line(t, id1, nil),
			`corpus line 3: duplicate _id "5f1c0a9e3b2d4c6e8f7a1b2c" (first used on line 1); give every article its own _id`},
	} {
		if _, err := LoadJSONL(strings.NewReader(tc.input)); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v\nwant %s", tc.name, err, tc.want)
		}
	}

	ch := NewChecker()
	if _, err := ch.Check([]byte(full)); err == nil {
		t.Error("Checker accepted a _replaces naming no earlier line")
	}
	if _, err := ch.Check([]byte(stub)); err != nil {
		t.Fatal(err)
	}
	if _, err := ch.Check([]byte(full)); err != nil {
		t.Errorf("Checker refused a line replacing an earlier one: %v", err)
	}
}

// TestLoadJSONLSkipsATornLastLine: the last line of a file cut short by a
// write stopped mid-way is skipped; the lines before it load. A bad last
// line that is not cut short, or a cut line followed by others, is still
// an error, and Add (articles sent to a running server) skips nothing.
func TestLoadJSONLSkipsATornLastLine(t *testing.T) {
	t.Parallel()
	ok1, ok2 := line(t, id1, nil), line(t, id2, nil)
	for cut := 1; cut < len(ok2); cut += 7 {
		c, err := LoadJSONL(strings.NewReader(ok1 + "\n" + ok2[:cut]))
		if err != nil || len(c.Articles) != 1 {
			t.Fatalf("cut after %d bytes: %v; want the first article", cut, err)
		}
	}
	if c, err := LoadJSONL(strings.NewReader(ok1 + "\n" + ok2)); err != nil || len(c.Articles) != 2 {
		t.Errorf("a whole last line without a line ending: %v", err)
	}
	for _, tc := range []struct{ name, input, want string }{
		{"malformed, not cut", ok1 + "\n" + `{"_id": }`, "corpus line 2: invalid JSON at byte 9; write each article as one JSON object on its own line"},
		{"cut, then more lines", ok1 + "\n" + ok2[:30] + "\n" + line(t, id3, nil) + "\n", "corpus line 2: invalid JSON at byte 30; write each article as one JSON object on its own line"},
		{"only a cut line", ok1[:40], "corpus: the input holds no articles; write one JSON object per line"},
	} {
		if _, err := LoadJSONL(strings.NewReader(tc.input)); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v\nwant %s", tc.name, err, tc.want)
		}
	}
	base, err := LoadJSONL(strings.NewReader(line(t, id3, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := add(base, strings.NewReader(ok1+"\n"+ok2[:30]), time.Duration(0)); err == nil {
		t.Error("Add skipped a cut last line")
	}
	for text, want := range map[string]bool{`{"a":`: true, `{"a":"x`: true, `{"a":1}`: false, `{"a":}`: false, ``: false, `  `: false, `[1,`: true} {
		if got := TornLine([]byte(text)); got != want {
			t.Errorf("TornLine(%q) = %v, want %v", text, got, want)
		}
	}
}
