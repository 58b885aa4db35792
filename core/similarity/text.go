package similarity

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"toolscope/core/catalog"
	"toolscope/core/textutil"
)

// The texts the similarity analysis embeds, and the word tokens hints and
// the adaptive scoring read.

// openName turns a tool name into words: runs of `_` and `-` become one
// space, and a lower-case letter or digit followed by a capital gets a space
// between them ("getVolume_status" -> "get Volume status").
func openName(name string) string {
	var b strings.Builder
	b.Grow(len(name) + 8)
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-':
			for i+1 < len(name) && (name[i+1] == '_' || name[i+1] == '-') {
				i++
			}
			b.WriteByte(' ')
		case textutil.IsLowerOrDigit(c) && i+1 < len(name) && textutil.IsUpper(name[i+1]):
			b.WriteByte(c)
			b.WriteByte(' ')
			b.WriteByte(name[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return textutil.JSTrim(b.String())
}

// CosineText is what the cosine scoring embeds for a tool: the opened name,
// then ": " and the trimmed description (just the name when there is none).
func CosineText(t *catalog.Tool) string {
	return joinNameText(openName(t.OwnName()), textutil.JSTrim(t.Description))
}

// FullText is the risk scoring's full text for a tool: CosineText with
// the description cut after its first words words, or after its first
// sentence when that is longer (words ≤ 0: whole). A description of one
// sentence is never cut, so its full text stays the first sentence's text
// and is embedded once. The cut keeps the description's own spacing up to
// the last word kept.
func FullText(t *catalog.Tool, words int) string {
	d := textutil.JSTrim(t.Description)
	if words > 0 {
		d = firstWords(d, max(words, len(strings.Fields(FirstSentence(d)))))
	}
	return joinNameText(openName(t.OwnName()), d)
}

// firstWords is s up to the end of its n-th run of non-space characters.
func firstWords(s string, n int) string {
	in := false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if in && space {
			if n--; n == 0 {
				return s[:i]
			}
		}
		in = !space
	}
	return s
}

// AdaptiveText is what the adaptive scoring embeds: the opened name, then
// ": " and the description's first sentence, the line that says what the
// tool is (the rest is mostly usage notes that would drown it).
func AdaptiveText(t *catalog.Tool) string {
	return joinNameText(openName(t.OwnName()), FirstSentence(t.Description))
}

func joinNameText(name, text string) string {
	if text == "" {
		return name
	}
	return name + ": " + text
}

// abbreviations end in a full stop that does not end a sentence.
var abbreviations = []string{"e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "eg", "ie"}

// FirstSentence returns the trimmed text up to its first sentence end: a
// `.`, `!` or `?` followed by whitespace or the end, or a line break. Common
// abbreviations ("e.g.", "i.e.", "etc.") do not end a sentence.
func FirstSentence(s string) string {
	s = textutil.JSTrim(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r':
			return textutil.JSTrim(s[:i])
		case '.', '!', '?':
			if i+1 < len(s) {
				r, _ := utf8.DecodeRuneInString(s[i+1:])
				if !textutil.IsJSSpace(r) {
					continue
				}
			}
			if s[i] == '.' && endsWithAbbreviation(s[:i]) {
				continue
			}
			return s[:i+1]
		}
	}
	return s
}

func endsWithAbbreviation(s string) bool {
	lower := strings.ToLower(s)
	for _, a := range abbreviations {
		if strings.HasSuffix(lower, a) {
			before := len(lower) - len(a)
			if before == 0 || !textutil.IsLowerOrDigit(lower[before-1]) {
				return true
			}
		}
	}
	return false
}

// NameTokens splits a tool name into its lower-case words, in order,
// repeats kept ("get_volume_status" -> get, volume, status).
func NameTokens(name string) []string {
	return strings.FieldsFunc(strings.ToLower(openName(name)), textutil.IsJSSpace)
}

// descriptionTerms lists a description's distinct lower-case words of at
// least three characters that are not stop words, in first-seen order. A
// word is a run of ASCII letters, digits and `_`.
func descriptionTerms(description string) []string {
	lower := strings.ToLower(description)
	var terms []string
	seen := map[string]bool{}
	start := -1
	for i := 0; i <= len(lower); i++ {
		inWord := i < len(lower) && (textutil.IsLowerOrDigit(lower[i]) || lower[i] == '_')
		if inWord {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := lower[start:i]
			if len(w) >= 3 && !stopWords[w] && !seen[w] {
				seen[w] = true
				terms = append(terms, w)
			}
			start = -1
		}
	}
	return terms
}

// stopWords carry no choice condition, so hints never offer them as terms.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "by": true, "for": true,
	"from": true, "get": true, "in": true, "into": true, "is": true, "its": true,
	"of": true, "on": true, "or": true, "the": true, "to": true, "which": true,
	"with": true,
}
