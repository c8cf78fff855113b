package jsonscan

import "testing"

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
