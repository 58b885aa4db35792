// Package termsafe makes text from catalogs, servers and users safe to
// print on a terminal.
//
// A tool's name, description or a server's stderr is untrusted: an ESC
// byte in it can clear the screen, retitle the window, write the
// clipboard (OSC 52) or hide text, and a bidi override can make a
// description read differently from what the model sees. Every
// human-facing output passes such text through Line or Block, which
// spell each control character as a visible escape (`\x1b`, `\u202e`)
// so the reader sees that it is there and nothing acts on it.
//
// Machine outputs (JSON, SARIF) are encoded by encoding/json, which
// escapes C0 controls but writes DEL, C1 controls and bidi overrides as
// themselves; JSON wraps their writer to escape those too, so the report
// can be printed (cat, a CI log) as safely as it can be parsed.
package termsafe

import (
	"fmt"
	"io"
	"strconv"
	"strings"
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
	for _, r := range s {
		if unsafe(r, true) {
			return false
		}
	}
	return utf8.ValidString(s)
}

func clean(s string, keepLines bool) string {
	// Fast path: most text has nothing to escape.
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafe(r, keepLines) {
			break
		}
		i += size
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
		case unsafe(r, keepLines):
			b.WriteString(escape(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafe reports whether r must not reach a terminal as itself: C0
// and C1 controls, DEL, and the Unicode format characters that reorder
// or hide text (bidi embeddings, overrides and isolates, and the line
// and paragraph separators some terminals treat as newlines).
func unsafe(r rune, keepLines bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !keepLines
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028 || r == 0x2029 || r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	}
	return false
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
	i := 0
	for i < len(p) {
		r, size := utf8.DecodeRune(p[i:])
		if r != utf8.RuneError && unsafe(r, true) {
			break
		}
		i += size
	}
	if i == len(p) {
		return j.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	out = append(out, p[:i]...)
	for i < len(p) {
		r, size := utf8.DecodeRune(p[i:])
		if r != utf8.RuneError && unsafe(r, true) && r != '\n' && r != '\t' {
			out = append(out, fmt.Sprintf(`\u%04x`, r)...)
		} else {
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
