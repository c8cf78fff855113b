package mockserver

import (
	"errors"
	"strconv"
	"testing"
)

// TestParseInt: parseInt agrees with strconv.ParseInt (value, and whether
// and why it fails) on the numbers a body's integer members can hold.
func TestParseInt(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"0", "-0", "1", "-1", "25", "007", "999999999999999999", "-999999999999999999",
		"1000000000000000000", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"99999999999999999999999", "", "-", "1.5", "1e3", "+1", "--1", "1-", "١"} {
		got, gerr := parseInt([]byte(in))
		want, werr := strconv.ParseInt(in, 10, 64)
		if got != want || (gerr == nil) != (werr == nil) || errors.Is(gerr, strconv.ErrRange) != errors.Is(werr, strconv.ErrRange) {
			t.Errorf("parseInt(%q) = %d, %v; strconv.ParseInt gives %d, %v", in, got, gerr, want, werr)
		}
	}
}
