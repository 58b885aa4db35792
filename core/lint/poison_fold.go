package lint

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// The guard reads a text as a model does, not as its bytes spell it: an
// order written with no-break or ideographic spaces between its words, in
// fullwidth or mathematical letters, or with Cyrillic and Greek letters
// that look like Latin ones reads as the same order, and must match as
// one. foldForOrders spells such text in the ASCII the patterns are
// written in; it is only matched, never shown.

// foldForOrders returns s with compatibility forms decomposed (fullwidth
// and mathematical letters, ligatures: NFKD), combining marks dropped,
// every space character a plain space and every line separator a newline,
// and the letters that look like Latin ones (homoglyphs) spelled as those.
// An identifier (ident: a tool's or a property's name) also has its word
// separators (_ - .) and camelCase humps spelled as spaces, so that
// "ignore_all_previous_instructions" reads as words. ASCII text that is
// no identifier is returned as it is.
func foldForOrders(s string, ident bool) string {
	if isASCII(s) {
		if ident {
			return splitIdentifier(s)
		}
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFKD.String(s) {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// A mark over a letter leaves the letter as the model reads it.
		case r == 0x2028 || r == 0x2029 || r == 0x85:
			b.WriteByte('\n')
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			b.WriteByte(' ')
		default:
			if a, ok := homoglyphs[r]; ok {
				b.WriteByte(a)
			} else {
				b.WriteRune(r)
			}
		}
	}
	if ident {
		return splitIdentifier(b.String())
	}
	return b.String()
}

// splitIdentifier spells an identifier's word breaks as spaces: _ - and .
// between words, and a capital after a small letter.
func splitIdentifier(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		brk := c == '_' || c == '-' || c == '.'
		hump := i > 0 && 'A' <= c && c <= 'Z' && 'a' <= s[i-1] && s[i-1] <= 'z'
		if (brk || hump) && b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
		switch {
		case b == nil:
		case brk:
			b = append(b, ' ')
		case hump:
			b = append(b, ' ', c)
		default:
			b = append(b, c)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// homoglyphs maps letters of other scripts that are drawn like a Latin
// letter (Unicode's confusables for the letters the patterns use) to it;
// the patterns match case-insensitively, so case is kept only loosely.
var homoglyphs = map[rune]byte{
	// Cyrillic
	'а': 'a', 'А': 'A', 'в': 'b', 'В': 'B', 'с': 'c', 'С': 'C', 'ԁ': 'd', 'е': 'e', 'Е': 'E', 'ё': 'e',
	'һ': 'h', 'Н': 'H', 'і': 'i', 'І': 'I', 'ї': 'i', 'ј': 'j', 'Ј': 'J', 'к': 'k', 'К': 'K', 'ӏ': 'l', 'Ӏ': 'I',
	'м': 'm', 'М': 'M', 'п': 'n', 'о': 'o', 'О': 'O', 'р': 'p', 'Р': 'P', 'ԛ': 'q', 'г': 'r', 'ѕ': 's', 'Ѕ': 'S',
	'т': 't', 'Т': 'T', 'ц': 'u', 'ѵ': 'v', 'ԝ': 'w', 'Ԝ': 'W', 'х': 'x', 'Х': 'X', 'у': 'y', 'У': 'Y', 'ү': 'y',
	// Greek
	'α': 'a', 'Α': 'A', 'Β': 'B', 'ϲ': 'c', 'Ϲ': 'C', 'ε': 'e', 'Ε': 'E', 'Η': 'H', 'ι': 'i', 'Ι': 'I', 'ϳ': 'j',
	'κ': 'k', 'Κ': 'K', 'Μ': 'M', 'ν': 'v', 'Ν': 'N', 'ο': 'o', 'Ο': 'O', 'ρ': 'p', 'Ρ': 'P', 'τ': 't', 'Τ': 'T',
	'υ': 'u', 'Υ': 'Y', 'χ': 'x', 'Χ': 'X', 'Ζ': 'Z',
	// Armenian
	'ո': 'n', 'ս': 'u', 'օ': 'o', 'զ': 'q', 'ց': 'g',
	// Latin letters beyond ASCII that NFKD leaves alone
	'ı': 'i', 'ȷ': 'j', 'ɑ': 'a', 'ɡ': 'g', 'ɩ': 'i', 'ʏ': 'y', 'ɪ': 'i', 'ʀ': 'r', 'ᴄ': 'c', 'ᴏ': 'o', 'ᴠ': 'v',
	'ᴡ': 'w', 'ᴢ': 'z', 'ꜱ': 's', 'ß': 's', 'ł': 'l', 'ø': 'o', 'đ': 'd', 'ħ': 'h',
}
