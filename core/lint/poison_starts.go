package lint

import "strings"

// Most texts that hold a pattern's words hold no order, and Go's matcher
// reads such a text slowly: at every byte it starts the pattern afresh.
// When every match of a pattern begins a word with one of a few words
// ("do", "never", "without" for conceal), the pattern is first tried only
// where such a word begins, anchored there: a handful of short attempts
// instead of a pass over the whole text. The letters of the start words
// other than k and s fold to ASCII letters only, so this holds for any
// text that spells no k or s beyond ASCII.

// mayMatch reports whether text may hold a match of p: false only when
// it holds none. A pattern with start words is tried where they begin;
// any other pattern, or a text that spells a letter of them beyond ASCII
// (the long s and the Kelvin sign fold to s and k), is read whole.
func (p *poisonPattern) mayMatch(text string) bool {
	return p.mayMatchIn(text, spellsFoldedLetter(text))
}

// spellsFoldedLetter reports whether text holds the long s or the Kelvin
// sign, which a case-insensitive expression reads as s and k: asked once
// a text, not once a pattern.
func spellsFoldedLetter(text string) bool {
	return !isASCII(text) && strings.ContainsAny(text, "\u017f\u212a")
}

// mayMatchIn is mayMatch for a text whose folded letters (see
// spellsFoldedLetter) are known.
func (p *poisonPattern) mayMatchIn(text string, folded bool) bool {
	if p.anchored == nil || folded {
		return p.re.MatchString(text)
	}
	for i := 0; i < len(text); i++ {
		// A word starts at i: an ASCII word byte after none (a byte of
		// a character beyond ASCII is no word byte, as that character
		// is no word character to \b).
		if i > 0 && isWordByte(text[i-1]) || !isWordByte(text[i]) {
			continue
		}
		for _, w := range p.startsBy[lowerASCII(text[i])] {
			// Anchored at i, the slice reads as the text does: \b at its
			// start holds as in the text, and ^, which the text holds
			// only at 0, holds at the slice's start too, so the slice
			// may match where the text does not, never the other way
			// round.
			if hasPrefixFold(text[i:], w) && p.anchored.MatchString(text[i:]) {
				return true
			}
		}
	}
	return false
}

// startIndex files words by their first byte, so that a word start is
// compared only with the start words it can begin.
func startIndex(words []string) *[256][]string {
	var by [256][]string
	for _, w := range words {
		by[w[0]] = append(by[w[0]], w)
	}
	return &by
}

// isWordByte reports whether c is a word character as \b reads it.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// startWords returns the words (lower case) that every match of expr
// begins with, each at a word boundary: every top-level alternative of
// expr must be \b followed by a word, or by a group whose alternatives
// each begin with a word. ok is false otherwise.
func startWords(expr string) (words []string, ok bool) {
	for _, alt := range topAlternatives(expr) {
		rest, found := strings.CutPrefix(alt, `\b`)
		if !found {
			return nil, false
		}
		heads := []string{rest}
		if inner, found := strings.CutPrefix(rest, "(?:"); found {
			end := groupEnd(inner)
			if end < 0 {
				return nil, false
			}
			heads = topAlternatives(inner[:end])
		}
		for _, h := range heads {
			w := leadingWord(h)
			if w == "" {
				return nil, false
			}
			if !strings.Contains(strings.Join(words, "\x00")+"\x00", w+"\x00") {
				words = append(words, w)
			}
		}
	}
	return words, len(words) > 0
}

// leadingWord is the run of letters and apostrophes expr begins with,
// lowered: the literal text every match of expr begins with.
func leadingWord(expr string) string {
	n := 0
	for n < len(expr) && ('a' <= lowerASCII(expr[n]) && lowerASCII(expr[n]) <= 'z' || expr[n] == '\'') {
		n++
	}
	if n < len(expr) && strings.ContainsRune("?*{", rune(expr[n])) {
		n-- // a quantifier makes the last letter optional
	}
	if n <= 0 {
		return ""
	}
	return strings.ToLower(expr[:n])
}

// groupEnd is the index in s of the ) that closes a group opened just
// before s, -1 if none.
func groupEnd(s string) int {
	depth, class := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
			if i+1 < len(s) && s[i+1] == '^' {
				i++
			}
			if i+1 < len(s) && s[i+1] == ']' {
				i++
			}
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// topAlternatives splits expr at its top-level bars: outside any group,
// class or escape.
func topAlternatives(expr string) []string {
	var out []string
	depth, start, class := 0, 0, false
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
			if i+1 < len(expr) && expr[i+1] == '^' {
				i++
			}
			if i+1 < len(expr) && expr[i+1] == ']' {
				i++
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, expr[start:i])
			start = i + 1
		}
	}
	return append(out, expr[start:])
}
