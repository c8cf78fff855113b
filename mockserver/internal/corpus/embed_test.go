package corpus

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func cosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot
}

func TestEmbedSimilarity(t *testing.T) {
	t.Parallel()
	base := "Norvale Energy agrees to buy Kestrava Bank for $740 million in London"
	similar := "Kestrava Bank accepts $740 million takeover offer from Norvale Energy, London sources say"
	unrelated := []string{
		"Measles cases climb in Toronto as health officials urge vaccinations",
		"Marco Rossi vince la maratona di Roma davanti a un pubblico numeroso",
		"Wildfires force thousands from their homes near Sydney",
	}
	e := Embed(base)
	near := cosine(e, Embed(similar))
	for _, u := range unrelated {
		if far := cosine(e, Embed(u)); far >= near {
			t.Errorf("cosine with %q = %.3f, not below %.3f for the similar text", u, far, near)
		}
	}
	if near < 0.5 {
		t.Errorf("cosine of two takes on one deal = %.3f, want at least 0.5", near)
	}
}

func TestEmbedShape(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"Norvale Energy", "a", "Ünïcode wörds ÀND CAPITALS 2026", "one two three four five six"} {
		v := Embed(text)
		if len(v) != EmbeddingSize {
			t.Fatalf("Embed(%q) has %d dimensions, want %d", text, len(v), EmbeddingSize)
		}
		norm := math.Sqrt(cosine(v, v))
		if text == "a" { // no token: the zero vector
			if norm != 0 {
				t.Errorf("Embed(%q) norm = %v, want 0", text, norm)
			}
			continue
		}
		if math.Abs(norm-1) > 1e-5 {
			t.Errorf("Embed(%q) norm = %v, want 1", text, norm)
		}
	}
	if diff := cmp.Diff(Embed("Health officials in TORONTO"), Embed("health officials in toronto")); diff != "" {
		t.Errorf("Embed depends on case (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Embed("Health officials in Toronto"), Embed("Health officials in Toronto")); diff != "" {
		t.Errorf("Embed is not deterministic (-want +got):\n%s", diff)
	}
}

func TestScanWords(t *testing.T) {
	t.Parallel()
	type tok struct {
		Text     string
		Namelike bool
	}
	for _, tc := range []struct {
		text string
		want []tok
	}{
		{"The Central Bank's 4.2% rate in São Paulo", []tok{{"central", true}, {"bank", true}, {"rate", false}, {"são", true}, {"paulo", true}}},
		{"Whooping cough: Health officials in Toronto. Cases rise", []tok{{"whooping", false}, {"cough", false}, {"health", false}, {"officials", false}, {"toronto", true}, {"cases", false}, {"rise", false}}},
		{"7443 cases, rising 12%", []tok{{"7443", true}, {"cases", false}, {"rising", false}, {"12", true}}},
		{"Köln und Zürich: Ärger!", []tok{{"köln", false}, {"zürich", true}, {"ärger", false}}},
		{"", nil},
	} {
		var got []tok
		ScanWords(tc.text, func(b []byte, namelike bool) { got = append(got, tok{string(b), namelike}) })
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ScanWords(%q) (-want +got):\n%s", tc.text, diff)
		}
		var plain []string
		ScanTokens(tc.text, func(b []byte) { plain = append(plain, string(b)) })
		var wantPlain []string
		for _, w := range tc.want {
			wantPlain = append(wantPlain, w.Text)
		}
		if diff := cmp.Diff(wantPlain, plain); diff != "" {
			t.Errorf("ScanTokens(%q) (-want +got):\n%s", tc.text, diff)
		}
	}
}

func TestLanguages(t *testing.T) {
	t.Parallel()
	if name, ok := LanguageName("De"); name != "German" || !ok {
		t.Errorf(`LanguageName("De") = %q, %v, want "German", true`, name, ok)
	}
	if name, ok := LanguageName("German"); name != "" || ok {
		t.Errorf(`LanguageName("German") = %q, %v, want "", false (it takes codes only)`, name, ok)
	}
	if n := len(isoLanguages); n != 183 {
		t.Errorf("%d ISO 639-1 codes, want 183", n)
	}
}
