package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzJSON: whatever string a report holds, the JSON written through the
// JSON writer, whole or split between characters, is valid, decodes to
// the same string, and holds no character a terminal acts on or hides.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{"", "a\u202eb", "\u009b[2J\x7f\u2028", "\U000E0041\u200b", "é😀", "\x1b]52;c;eA==\x07", "\xff"} {
		f.Add(s, uint8(3))
	}
	for _, s := range []string{"\xff\xfe", "a\xc3"} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, cut uint8) {
		text, err := json.Marshal(map[string]string{"v": s})
		if err != nil {
			t.Fatal(err)
		}
		// One Write, and two split at a character boundary.
		i := int(cut) % (len(text) + 1)
		for i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
			i--
		}
		for _, parts := range [][][]byte{{text}, {text[:i], text[i:]}} {
			var buf bytes.Buffer
			w := JSON(&buf)
			for _, p := range parts {
				if n, err := w.Write(p); err != nil || n != len(p) {
					t.Fatalf("Write: %d, %v", n, err)
				}
			}
			var back map[string]string
			if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
				t.Fatalf("invalid JSON %q: %v", buf.Bytes(), err)
			}
			want := strings.Map(func(r rune) rune { return r }, s) // each bad byte a U+FFFD, as encoding/json writes it
			if back["v"] != want {
				t.Fatalf("decodes to %q, want %q (via %q)", back["v"], want, buf.Bytes())
			}
			prev := rune(-1)
			for _, r := range buf.String() {
				if r != '\n' && r != '\t' && unsafe(r, prev, true) {
					t.Fatalf("raw %U in %q", r, buf.Bytes())
				}
				prev = r
			}
		}
	})
}

// jsonWriteByRunes is the JSON writer's scan as first written, a rune at a
// time: the reference for the ASCII fast path.
func jsonWriteByRunes(p []byte) []byte {
	var out []byte
	prev := rune(-1)
	for i := 0; i < len(p); {
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

func FuzzJSONFastPath(f *testing.F) {
	for _, s := range []string{"", "plain", "a\x1b[31m", "x\ufe0fy", "\u200b\ufe0f", "\ufe0f", "tab\tnl\n\x7f", "\xff\xfe", "日本\u2028"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		var b bytes.Buffer
		if _, err := JSON(&b).Write(p); err != nil {
			t.Fatal(err)
		}
		if want := jsonWriteByRunes(p); !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("JSON(%q) wrote %q, want %q", p, b.Bytes(), want)
		}
	})
}
