package textutil

import (
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
