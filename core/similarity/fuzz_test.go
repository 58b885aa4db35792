package similarity

import (
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/textutil"
)

// FuzzTexts: the text helpers never panic and keep their promises.
func FuzzTexts(f *testing.F) {
	for _, s := range []string{"get_volumeStatus--v2", "Use e.g. this. Then", "a\nb", "😀 x. y", "İK", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		first := FirstSentence(s)
		if !strings.HasPrefix(textutil.JSTrim(s), first) {
			t.Fatalf("FirstSentence(%q) = %q, not a prefix of the text", s, first)
		}
		if strings.ContainsAny(openName(s), "_-") {
			t.Fatalf("openName(%q) = %q keeps a separator", s, openName(s))
		}
		for _, w := range NameTokens(s) {
			if w == "" || strings.ContainsFunc(w, textutil.IsJSSpace) {
				t.Fatalf("NameTokens(%q) has %q", s, w)
			}
		}
		for _, w := range descriptionTerms(s) {
			if len(w) < 3 || stopWords[w] {
				t.Fatalf("descriptionTerms(%q) has %q", s, w)
			}
		}
		for _, w := range bagWords(s, nil) {
			if len(w) < 2 || w[0] < 'a' || w[0] > 'z' || bagStopWords[w] || strings.TrimFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }) != "" {
				t.Fatalf("bagWords(%q) has %q", s, w)
			}
		}
		// The full text's cut keeps a prefix of the whole text that holds
		// the first sentence's text.
		tool := &catalog.Tool{Name: "get_x", Description: s}
		for _, words := range []int{1, 3, 24} {
			full := FullText(tool, words)
			if !strings.HasPrefix(CosineText(tool), full) || !strings.HasPrefix(full, AdaptiveText(tool)) {
				t.Fatalf("FullText(%q, %d) = %q: not between %q and %q", s, words, full, AdaptiveText(tool), CosineText(tool))
			}
		}
		if s != "" && !textutil.HasWholeWord(s, s) && strings.ToLower(s) == s && textutil.IsLowerOrDigit(s[0]) && textutil.IsLowerOrDigit(s[len(s)-1]) {
			t.Fatalf("textutil.HasWholeWord(%q, itself) = false", s)
		}
	})
}
