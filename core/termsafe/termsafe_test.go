package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineAndBlock(t *testing.T) {
	cases := []struct {
		name, in, line, block string
	}{
		{"plain", "search_files", "search_files", "search_files"},
		{"unicode kept", "café 東京 🙂", "café 東京 🙂", "café 東京 🙂"},
		{"clear screen", "a\x1b[2Jb", `a\x1b[2Jb`, `a\x1b[2Jb`},
		{"osc52 clipboard", "\x1b]52;c;ZWNobyBoaQ==\x07", `\x1b]52;c;ZWNobyBoaQ==\x07`, `\x1b]52;c;ZWNobyBoaQ==\x07`},
		{"c1 csi", "x\u009b31m", `x\x9b31m`, `x\x9b31m`},
		{"newline and tab", "a\nb\tc", `a\nb\tc`, "a\nb\tc"},
		{"carriage return", "ok\rFAIL", `ok\rFAIL`, `ok\rFAIL`},
		{"del and nul", "a\x7fb\x00", `a\x7fb\x00`, `a\x7fb\x00`},
		{"bidi override", "abc\u202edef", `abc\u202edef`, `abc\u202edef`},
		{"isolate", "\u2066x\u2069", `\u2066x\u2069`, `\u2066x\u2069`},
		{"line separator", "a\u2028b", `a\u2028b`, `a\u2028b`},
		{"invalid utf-8", "a\xffb", `a\xffb`, `a\xffb`},
		{"unicode tags", "add\U000E0049\U000E0047", `add\U000e0049\U000e0047`, `add\U000e0049\U000e0047`},
		{"zero-width space", "read\u200bfile", `read\u200bfile`, `read\u200bfile`},
		{"zero-width joiner", "a\u200db", `a\u200db`, `a\u200db`},
		{"byte-order mark", "\ufeffname", `\ufeffname`, `\ufeffname`},
		{"soft hyphen", "pre\u00adupload", `pre\xadupload`, `pre\xadupload`},
		{"hangul filler", "a\u3164b", `a\u3164b`, `a\u3164b`},
		{"supplementary selector", "x\U000E0100", `x\U000e0100`, `x\U000e0100`},
		{"emoji selector kept", "\u26a0\ufe0f careful", "\u26a0\ufe0f careful", "\u26a0\ufe0f careful"},
		{"arabic number sign kept", "\u0600\u0661\u0662", "\u0600\u0661\u0662", "\u0600\u0661\u0662"},
		{"selector after a letter", "a\ufe0f", `a\ufe0f`, `a\ufe0f`},
		{"selector run", "\u26a0\ufe0f\ufe01", "\u26a0\ufe0f\\ufe01", "\u26a0\ufe0f\\ufe01"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in); got != c.line {
				t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
			}
			if got := Block(c.in); got != c.block {
				t.Errorf("Block(%q) = %q, want %q", c.in, got, c.block)
			}
			if Safe(c.in) != (c.in == c.block) {
				t.Errorf("Safe(%q) = %v", c.in, Safe(c.in))
			}
		})
	}
}

func TestPlainTextIsNotCopied(t *testing.T) {
	s := "a perfectly ordinary description.\nWith two lines."
	if allocs := testing.AllocsPerRun(100, func() { _ = Block(s) }); allocs != 0 {
		t.Fatalf("Block allocated %v times on clean text", allocs)
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "a\x1b[31m", "\u202e", "\xff\xfe", "\n\t\r", "\u009d0;title\u009c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Block(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("output is not UTF-8: %q", out)
			}
			prev := rune(-1)
			for _, r := range out {
				if r != '\n' && r != '\t' && unsafe(r, prev, true) {
					t.Fatalf("control %U survived in %q", r, out)
				}
				prev = r
			}
		}
		if strings.ContainsAny(Line(s), "\n\t") {
			t.Fatalf("Line kept a newline or tab: %q", Line(s))
		}
		if Safe(s) && Block(s) != s {
			t.Fatalf("safe text changed: %q", s)
		}
	})
}

// TestJSON: the JSON writer escapes what encoding/json leaves raw, and the
// text decodes to the same value.
func TestJSON(t *testing.T) {
	in := map[string]string{"name": "a\u202eb\u009b[2J\x7f\u2028c\x1b]52;c;eA==\x07 é 😀 \U000E0041\u200b", "plain": "ok"}
	var buf bytes.Buffer
	enc := json.NewEncoder(JSON(&buf))
	enc.SetIndent("", "  ")
	if err := enc.Encode(in); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	prev := rune(-1)
	for _, r := range out {
		if r != '\n' && unsafe(r, prev, true) {
			t.Errorf("%U reached the output: %s", r, out)
		}
		prev = r
	}
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back["name"] != in["name"] || back["plain"] != "ok" {
		t.Errorf("decoded %q (%v), want %q", back, err, in)
	}
	if !strings.Contains(out, `\u202e`) || !strings.Contains(out, `\u009b`) || !strings.Contains(out, "é 😀") ||
		!strings.Contains(out, `\udb40\udc41`) || !strings.Contains(out, `\u200b`) {
		t.Errorf("escapes or plain text missing: %s", out)
	}
}

// TestInvisibleOutsideCf: characters a font draws as nothing that are
// not format characters (Mn, Lo) are escaped too, so two strings that
// differ by one never print alike; a Mongolian variation selector after a
// Mongolian letter is drawn and kept.
func TestInvisibleOutsideCf(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"a\u034fdd", `a\u034fdd`},
		{"a\u17b4dd", `a\u17b4dd`},
		{"a\u17b5dd", `a\u17b5dd`},
		{"a\u180bdd", `a\u180bdd`},
		{"a\u180ddd", `a\u180ddd`},
		{"a\u180fdd", `a\u180fdd`},
		{"a\u115fdd", `a\u115fdd`},
		{"a\u2065dd", `a\u2065dd`},
		{"\u1820\u180b", "\u1820\u180b"}, // a Mongolian letter's variant
		{"café", "café"},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
		if Safe(c.in) != (c.in == c.want) {
			t.Errorf("Safe(%q) = %v", c.in, Safe(c.in))
		}
	}
	if Line("add") == Line("a\u034fdd") {
		t.Error("two different names print alike")
	}
}
