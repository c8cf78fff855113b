package redact

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func TestString(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		keys []string
		in   string
		want string
	}{
		{"plain", []string{"sk-live-123"}, "key=sk-live-123&x=1", "key=[redacted]&x=1"},
		{"whole text", []string{"secret"}, "secret", "[redacted]"},
		{"every occurrence", []string{"secret"}, "secret, secret; (secret)", "[redacted], [redacted]; ([redacted])"},
		{"JSON string", []string{"secret"}, `{"api_key":"secret","q":"x"}`, `{"api_key":"[redacted]","q":"x"}`},

		// Never inside other words.
		{"inside a word", []string{"test"}, "the latest tests", "the latest tests"},
		{"glued to digits", []string{"test"}, "test1 2test", "test1 2test"},
		{"twice glued", []string{"test"}, "testtest", "testtest"},
		{"a word on its own", []string{"test"}, "a test.", "a [redacted]."},
		{"underscore separates", []string{"test"}, "x_test_y", "x_[redacted]_y"},
		{"non-ASCII letters glue", []string{"test"}, "étest testé", "étest testé"},
		{"a key's non-word edge needs no boundary", []string{"-secret-"}, "x-secret-y", "x[redacted]y"},

		// JSON escapes, any mix.
		{"one escape", []string{"secret"}, `"\u0073ecret"`, `"[redacted]"`},
		{"all escaped", []string{"secret"}, `"\u0073\u0065\u0063\u0072\u0065\u0074"`, `"[redacted]"`},
		{"upper-case hex", []string{"Secret"}, `"\u0053ecr\u0045t"`, `"\u0053ecr\u0045t"`}, // \u0045 is E, not e
		{"upper-case hex digits", []string{"secret"}, `"s\u0065\u0063RET"`, `"s\u0065\u0063RET"`},
		{"hex digits in either case", []string{"secret"}, `"\u0073\u0065\u0063\u0072\u0065\u0074" "\u0073\u0065\u0063\u0072\u0065\u0074"`, `"[redacted]" "[redacted]"`},
		{"escaped slash", []string{"a/b/c9"}, `"a\/b\/c9"`, `"[redacted]"`},
		{"escaped quote and backslash", []string{`k"e\y9`}, `"k\"e\\y9"`, `"[redacted]"`},
		{"HTML-safe escapes", []string{"k<e>&y9"}, `"k\u003ce\u003e\u0026y9"`, `"[redacted]"`},
		{"surrogate pair", []string{"ab😀cd"}, `"ab\ud83d\ude00cd"`, `"[redacted]"`},
		{"escaped non-ASCII", []string{"clé9"}, `"cl\u00e9" "cl\u00e99"`, `"cl\u00e9" "[redacted]"`},
		{"escape before the key", []string{"secret"}, `"line\nsecret\tend"`, `"line\n[redacted]\tend"`},
		{"escaped letter before the key", []string{"test"}, `"la\u0074est" "\u0061test"`, `"la\u0074est" "\u0061test"`},

		// URL encoding, any mix.
		{"percent", []string{"secret"}, "k=s%65cret", "k=[redacted]"},
		{"all percent", []string{"secret"}, "k=%73%65%63%72%65%74&", "k=[redacted]&"},
		{"lower-case percent", []string{"a/b9"}, "p=a%2fb9", "p=[redacted]"},
		{"plus for space", []string{"my key"}, "q=my+key&r=my%20key", "q=[redacted]&r=[redacted]"},
		{"encoded separator before", []string{"secret"}, "x%20secret%2C", "x%20[redacted]%2C"},
		{"encoded letter before", []string{"secret"}, "x%41secret", "x%41secret"},
		{"multi-byte percent", []string{"clé9"}, "cl%C3%A99 cl%c3%a99", "[redacted] [redacted]"},
		{"percent in the key", []string{"50%off9"}, "a 50%off9 b 50%25off9", "a [redacted] b [redacted]"},
		{"plus in the key", []string{"a+b9"}, "a+b9 a%2Bb9", "[redacted] [redacted]"},

		// Mixed forms.
		{"JSON and percent", []string{"secret"}, `s%65\u0063ret`, "[redacted]"},

		// Several keys.
		{"overlapping keys become one mark", []string{"abc-def", "def-ghi"}, "x abc-def-ghi y", "x [redacted] y"},
		{"two keys", []string{"one-key", "two-key"}, "one-key two-key", "[redacted] [redacted]"},
		{"repeated and empty keys", []string{"", "k-1", "k-1"}, "k-1", "[redacted]"},

		// Nothing to do.
		{"no key", []string{"secret"}, "nothing to see here", "nothing to see here"},
		{"no keys", nil, "secret", "secret"},
		{"a stray escape", []string{"secret"}, `\u00 % %zz \ \q`, `\u00 % %zz \ \q`},
		{"a lone low surrogate near the start", []string{"secret"}, `\udC00secret \ud83d\ude00secret`, `\udC00[redacted] \ud83d\ude00[redacted]`}, // found by the fuzzer: it read before the text
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := New(tt.keys...)
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := string(r.Bytes([]byte(tt.in))); got != tt.want {
				t.Errorf("Bytes(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got, want := r.Contains(tt.in), tt.in != tt.want; got != want {
				t.Errorf("Contains(%q) = %v, want %v", tt.in, got, want)
			}
		})
	}
}

func TestNoKeyNoCopy(t *testing.T) { // not parallel: AllocsPerRun
	r := New("sk-live-0123456789")
	s := strings.Repeat(`{"title":"sk-live market \u00e9 50% off","url":"https://x.example/a%20b"} `, 50)
	if got := r.String(s); unsafe.StringData(got) != unsafe.StringData(s) {
		t.Error("String copied text without a key")
	}
	b := []byte(s)
	if got := r.Bytes(b); &got[0] != &b[0] {
		t.Error("Bytes copied text without a key")
	}
	if n := testing.AllocsPerRun(100, func() { _ = r.String(s); _ = r.Bytes(b) }); n != 0 {
		t.Errorf("%v allocations per call on text without a key; want 0", n)
	}
	var nilR *Redactor
	if got := nilR.String(s); got != s || !nilR.Empty() || nilR.Contains("x") {
		t.Error("the nil Redactor changed text")
	}
}

func TestBytesLeavesItsInputAlone(t *testing.T) {
	t.Parallel()
	in := []byte("a secret b")
	out := New("secret").Bytes(in)
	if string(in) != "a secret b" || string(out) != "a [redacted] b" {
		t.Errorf("Bytes: input %q, output %q", in, out)
	}
}

func TestWithMark(t *testing.T) {
	t.Parallel()
	r := New("secret")
	up := r.WithMark("[REDACTED]")
	if got := up.String("a secret"); got != "a [REDACTED]" {
		t.Errorf("WithMark: %q", got)
	}
	if got := r.String("a secret"); got != "a [redacted]" {
		t.Errorf("WithMark changed the original: %q", got)
	}
	if got := (*Redactor)(nil).WithMark("x").String("secret"); got != "secret" {
		t.Errorf("nil WithMark: %q", got)
	}
}

func TestIndex(t *testing.T) {
	t.Parallel()
	r := New("abc-def", "def-ghi")
	if i, j := r.Index("xx abc-def-ghi abc-def"); i != 3 || j != 14 {
		t.Errorf("Index = %d, %d; want 3, 14", i, j)
	}
	if i, j := r.Index("nothing"); i != -1 || j != -1 {
		t.Errorf("Index of nothing = %d, %d", i, j)
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	r := New("secret")
	for _, tt := range []struct {
		in      string
		limit   int
		kept    string
		dropped int
	}{
		{"abc secret", 100, "abc [redacted]", 0},
		{"abc secret", 6, "abc ", 10},                // the cut would split the mark: it goes whole
		{"abc secret xyz", 15, "abc [redacted] ", 3}, // the key is redacted before the cut, never cut in two
		{"abc secretxyz", 7, "abc sec", 6},           // not a token: no key there
		{"abc secretxyz", 10, "abc ", 9},             // the cut would leave the key standing alone: cut before it
		{"héllo", 2, "h", 5},
		{"x", -1, "", 1},
	} {
		kept, dropped := r.Clip(tt.in, tt.limit)
		if kept != tt.kept || dropped != tt.dropped {
			t.Errorf("Clip(%q, %d) = %q, %d; want %q, %d", tt.in, tt.limit, kept, dropped, tt.kept, tt.dropped)
		}
	}
}

// TestGlued: a key of at least the given length is redacted glued to
// letters or digits, in every form; a shorter one keeps the token rule.
func TestGlued(t *testing.T) {
	t.Parallel()
	r := New("sk-canary-0123", "test").WithMark("[R]").Glued(8)
	for in, want := range map[string]string{
		"rrrsk-canary-0123zz":                "rrr[R]zz",
		`id9\u0073k-canary-0123\u0041`:       `id9[R]\u0041`,
		"q=ab%73k-canary-0123cd":             "q=ab[R]cd",
		"the latest tests, a test":           "the latest tests, a [R]",
		"sk-canary-0123sk-canary-0123":       "[R]",
		"sk-canary-012 is not the whole key": "sk-canary-012 is not the whole key",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	if got := (*Redactor)(nil).Glued(8).String("x"); got != "x" {
		t.Errorf("a nil Redactor, glued: %q", got)
	}
}

func TestPrintingShowsNoKey(t *testing.T) {
	t.Parallel()
	r := New("secret-key-1")
	var nilR *Redactor
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		for _, v := range []any{r, *r, nilR, []*Redactor{r}, struct{ R Redactor }{*r}} {
			if got := fmt.Sprintf(verb, v); strings.Contains(got, "secret") || strings.Contains(got, fmt.Sprintf("%x", "secret")) {
				t.Errorf("%s of %T shows the key: %s", verb, v, got)
			}
		}
	}
}

// TestAmbiguousKeyIsLinear: a key made of bytes that also begin escapes,
// against text that can be read both ways at every step, is matched in
// polynomial time (the states tried are remembered).
func TestAmbiguousKeyIsLinear(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("%25", 40) + "x"
	text := strings.Repeat("%25", 200)
	r := New(key)
	if r.String(text) != text {
		t.Error("a key that is not there was redacted")
	}
	if got := r.String(strings.Repeat("%2525", 40) + "x"); got != "[redacted]" {
		t.Errorf("escaped ambiguous key: %q", got)
	}
}

func BenchmarkStringNoKey(b *testing.B) {
	r := New("sk-live-0123456789abcdef")
	s := strings.Repeat(`{"title":"Markets \u00e9 rally","url":"https://x.example/a%20b","score":0.5} `, 64)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(s)
	}
}

func BenchmarkStringWithKey(b *testing.B) {
	r := New("sk-live-0123456789abcdef")
	s := strings.Repeat(`{"title":"Markets rally","echo":"sk-live-0123456789abcdef"} `, 64)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(s)
	}
}

// TestBackslashKeyIsQuick: a long key of backslashes against a long run
// of them, where every step reads two ways (a plain backslash or the
// escape \\), takes time linear in the text times the key.
func TestBackslashKeyIsQuick(t *testing.T) {
	t.Parallel()
	key := strings.Repeat(`\`, 200) + "x"
	text := strings.Repeat(`\`, 2048)
	start := time.Now()
	if New(key).String(text) != text {
		t.Error("a key that is not there was redacted")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestOccurrencesBesideARedactedOne: an occurrence glued to one that is
// redacted is redacted too, since the mark would otherwise leave it
// standing alone.
func TestOccurrencesBesideARedactedOne(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"abc%64ef x":      "[redacted] x", // abc ends at a '%', which separates; def then follows the mark
		"abc%61bc%61bc x": "[redacted] x", // the same key, over and over
		"abcdef":          "abcdef",       // glued, neither stands alone
	} {
		if got := New("abc", "def").String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
