package report

import (
	"bytes"
	"encoding/json"
	"io"
)

// writeIndented writes v as encoding/json's Encoder with SetIndent("",
// "  ") and SetEscapeHTML(false) writes it, byte for byte and in one
// Write, but indents the compact text in one pass that copies each
// string whole: a 5,000-tool report is megabytes, and the encoder's
// indenting reads them byte by byte through its scanner.
func writeIndented(w io.Writer, v any) error {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out := indentCompact(make([]byte, 0, compact.Len()*2), compact.Bytes())
	_, err := w.Write(out)
	return err
}

// indentCompact appends src, JSON text with no space between its tokens
// (as encoding/json writes it, a final newline allowed), indented by two
// spaces as json.Indent(dst, src, "", "  ") indents it: an empty object
// or array stays "{}" or "[]", a colon is followed by one space.
func indentCompact(dst, src []byte) []byte {
	depth := 0
	open := false // after { or [, the newline waits for the first member
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = newlineIndent(dst, depth)
		}
		switch c {
		case '"':
			j := i + 1
			for j < len(src) {
				k := bytes.IndexAny(src[j:], `"\`)
				if k < 0 {
					j = len(src)
					break
				}
				j += k
				if src[j] == '"' {
					break
				}
				j += 2 // an escape: its next byte is never the end
			}
			end := min(j+1, len(src))
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			dst = append(dst, c)
			open = true
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = newlineIndent(dst, depth)
			}
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = newlineIndent(dst, depth)
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func newlineIndent(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}
