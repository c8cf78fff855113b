package journal

import "testing"

// TestRedactScrubsTheKeyElsewhere: a key repeated outside its api_key
// member (in the query, JSON-escaped) is redacted there too, and a word
// that merely contains it is left alone.
func TestRedactScrubsTheKeyElsewhere(t *testing.T) {
	t.Parallel()
	body := []byte(`{"api_key":"s3cret-key","query":"s3cret-key OR \u0073\u0033cret-key","q2":"nots3cret-keyword"}`)
	got := Redact(body, 1<<10)
	want := `{"api_key":"[redacted]","query":"[redacted] OR [redacted]","q2":"nots3cret-keyword"}`
	if got != want {
		t.Errorf("Redact:\n got %s\nwant %s", got, want)
	}
}
