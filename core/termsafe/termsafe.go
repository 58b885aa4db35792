// Package termsafe makes text from catalogs, servers and users safe to
// print on a terminal.
//
// A tool's name, description or a server's stderr is untrusted: an ESC
// byte in it can clear the screen, retitle the window, write the
// clipboard (OSC 52) or hide text, and a bidi override can make a
// description read differently from what the model sees. Every
// human-facing output passes such text through Line or Block, which
// spell each control character as a visible escape (`\x1b`, `\u202e`)
// so the reader sees that it is there and nothing acts on it. Invisible
// characters are escaped the same way: a Unicode tag (U+E0000–E007F), a
// zero-width space or a run of variation selectors prints as nothing, yet
// the model reads it, so a hidden order or two names that differ only by
// one would otherwise print as the same text.
//
// Machine outputs (JSON, SARIF) are encoded by encoding/json, which
// escapes C0 controls but writes DEL, C1 controls and bidi overrides as
// themselves; JSON wraps their writer to escape those too, so the report
// can be printed (cat, a CI log) as safely as it can be parsed.
package termsafe

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Line returns s with every control character escaped, newlines and
// tabs included: for names, paths and one-line messages.
func Line(s string) string { return clean(s, false) }

// Block returns s with every control character escaped except newline
// and tab: for descriptions and other multi-line text.
func Block(s string) string { return clean(s, true) }

// Safe reports whether s prints as itself under Block.
func Safe(s string) bool {
	prev := rune(-1)
	for _, r := range s {
		if unsafe(r, prev, true) {
			return false
		}
		prev = r
	}
	return utf8.ValidString(s)
}

func clean(s string, keepLines bool) string {
	// Fast path: most text has nothing to escape.
	i, prev := 0, rune(-1)
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafe(r, prev, keepLines) {
			break
		}
		i += size
		prev = r
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case unsafe(r, prev, keepLines):
			b.WriteString(escape(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
		prev = r
	}
	return b.String()
}

// unsafe reports whether r, after prev (-1 at the start), must not reach
// a terminal as itself: C0 and C1 controls, DEL, the line and paragraph
// separators some terminals treat as newlines, and every Hidden
// character (bidi controls among them).
func unsafe(r, prev rune, keepLines bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !keepLines
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return Hidden(r, prev)
}

// Invisible reports whether r prints as nothing, or as a blank a reader
// cannot tell from none, while a model still reads it: the Unicode format
// characters (zero-width spaces and joiners, the word joiner, bidi
// embeddings, overrides, isolates and marks, the byte-order mark, the soft
// hyphen, the tags U+E0000–E007F that spell hidden ASCII), the other
// default-ignorable characters a font draws as nothing though they are no
// format characters (the combining grapheme joiner U+034F, the Khmer
// inherent vowels U+17B4–17B5, the Hangul fillers), and the supplementary
// variation selectors (U+E0100–E01EF), whose runs can carry bytes after a
// single visible character.
func Invisible(r rune) bool {
	switch {
	case r < 0xad:
		return false
	case r >= 0xe0100 && r <= 0xe01ef:
		return true
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
		// U+034F, U+115F–1160, U+17B4–17B5, U+2065, U+3164, U+FFA0,
		// U+FFF0–FFF8 and the unassigned tag-plane code points.
		return true
	case r >= 0x600 && r <= 0x605, r == 0x6dd, r == 0x70f, r == 0x890, r == 0x891, r == 0x8e2, r == 0x110bd, r == 0x110cd:
		// Prepended concatenation marks (the Arabic number sign ...) are
		// format characters that are drawn.
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// Hidden reports whether r, following prev (-1 at the start of the text),
// hides text: an Invisible character, or a variation selector
// (U+FE00–FE0F) that does not directly follow a visible symbol. One
// selector after an emoji or a symbol picks how it is drawn (the ⚠️ of a
// warning); a selector anywhere else changes nothing on screen, and a run
// of them is how bytes are smuggled after one character. The Mongolian
// free variation selectors (U+180B–180D, U+180F) likewise hide text
// anywhere but after a Mongolian letter.
func Hidden(r, prev rune) bool {
	switch {
	case r >= 0xfe00 && r <= 0xfe0f:
		return prev < 0x2000 || prev >= 0xfe00 && prev <= 0xfe0f || Invisible(prev)
	case r >= 0x180b && r <= 0x180d, r == 0x180f:
		return prev < 0x1820 || prev > 0x18aa
	}
	return Invisible(r)
}

// appendJSONEscape appends r as a JSON \u escape: a surrogate pair
// beyond the Basic Multilingual Plane (a tag character), as JSON spells it.
func appendJSONEscape(out []byte, r rune) []byte {
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return appendJSONEscape(appendJSONEscape(out, hi), lo)
	}
	return append(out, '\\', 'u', hex2(byte(r >> 8))[0], hex2(byte(r >> 8))[1], hex2(byte(r))[0], hex2(byte(r))[1])
}

func escape(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if r < 0x100 {
		return `\x` + hex2(byte(r))
	}
	q := strconv.QuoteRuneToASCII(r) // '\u202e'
	return q[1 : len(q)-1]
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// JSON returns w with every Write's JSON text made safe to print: the
// characters encoding/json leaves as themselves but a terminal may act on
// (DEL, C1 controls, bidi overrides and isolates, line and paragraph
// separators) become \u escapes, which decode to the same string. JSON
// text holds such characters only inside strings, where the escape is
// valid; each Write must be whole JSON text or split between characters
// (a json.Encoder writes each value in one Write).
func JSON(w io.Writer) io.Writer { return jsonWriter{w} }

type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(EscapeJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// EscapeJSON returns JSON text p with the characters a terminal may act
// on, or that hide text, spelled as \u escapes (see JSON): a file written
// so (a record, a cache) holds the same strings and no raw bidi override,
// C1 control or tag character. p itself is returned when it has none.
func EscapeJSON(p []byte) []byte {
	i, prev := 0, rune(-1)
	for i < len(p) {
		// Printable ASCII, newlines and tabs are safe, whatever precedes.
		if c := p[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f || c == '\n' || c == '\t' {
				i++
				prev = rune(c)
				continue
			}
		}
		r, size := utf8.DecodeRune(p[i:])
		if r != utf8.RuneError && unsafe(r, prev, true) {
			break
		}
		i += size
		prev = r
	}
	if i == len(p) {
		return p
	}
	out := make([]byte, 0, len(p)+16)
	out = append(out, p[:i]...)
	for i < len(p) {
		r, size := utf8.DecodeRune(p[i:])
		if r != utf8.RuneError && unsafe(r, prev, true) && r != '\n' && r != '\t' {
			out = appendJSONEscape(out, r)
		} else {
			out = append(out, p[i:i+size]...)
		}
		i += size
		prev = r
	}
	return out
}
