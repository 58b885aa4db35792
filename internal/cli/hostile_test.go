package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is what a catalog, a server or a caller can put in a name, a
// description, a key or a value to drive the reader's terminal: clear the
// screen, write the clipboard (OSC 52), a C1 CSI, a bidi override, a
// carriage return that hides what came before, a DEL. Spelled as JSON
// escapes, so the catalog file itself is valid JSON.
const hostile = `\u001b[2J\u001b]52;c;SGVsbG8=\u0007\u009b31m\u202eevil\rok\u007f`

// hostileCatalog carries the hostile text in every place a report quotes:
// tool names (twice alike, so the similarity pairs name them), a
// description, parameter names, a pattern (in a .NET syntax that is
// refused, so its warning quotes it), a hint, an enum, and markdown that
// would break a table or load an image.
const hostileCatalog = `[
 {"name": "evil_` + hostile + `", "description": "Deletes ` + hostile + ` all the volumes in the account.\nSecond line ` + hostile + `",
  "inputSchema": {"type": "object", "additionalProperties": false, "required": ["need_` + hostile + `"],
   "properties": {
    "p_` + hostile + `": {"type": "string", "pattern": "^(?i)x` + hostile + `$", "description": "hint ` + hostile + `"},
    "q": {"type": "string", "pattern": "^a$", "description": "Only a. ` + hostile + `"},
    "e": {"type": "string", "enum": ["` + hostile + `"]},
    "need_` + hostile + `": {"type": "string"}}}},
 {"name": "evil2_` + hostile + `", "description": "Deletes ` + hostile + ` all the volumes in the account.",
  "inputSchema": {"type": "object"}},
 {"name": "md|cell` + "`" + `[x](https://e.example/i.png)\\|", "description": "![img](https://e.example/track.png) | <b>bold</b> ` + "`" + `code",
  "inputSchema": {"type": "object", "properties": {"a|b": {"type": "string"}}}}
]`

// assertTerminalSafe fails when out holds a byte or character that a
// terminal acts on: C0 controls but newline, DEL, C1 controls (raw or
// UTF-8), bidi overrides and isolates, invalid UTF-8.
func assertTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		bad := ""
		switch {
		case r == utf8.RuneError && size == 1:
			bad = "an invalid UTF-8 byte"
		case r == '\n':
		case r < 0x20, r == 0x7f:
			bad = "a control character"
		case r >= 0x80 && r < 0xa0:
			bad = "a C1 control"
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c, r == 0x2028, r == 0x2029:
			bad = "a bidi or separator character"
		}
		if bad != "" {
			lo, hi := max(0, i-30), min(len(out), i+30)
			t.Errorf("%s: %s (%q) at byte %d: …%q…", what, bad, r, i, out[lo:hi])
			return
		}
		i += size
	}
}

// TestHostileCatalogReachesNoTerminal feeds the hostile catalog, and
// hostile arguments and values, through every output a person reads (and
// the JSON ones, which people print too) and finds no raw control
// character in any of them, standard error included.
func TestHostileCatalogReachesNoTerminal(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "hostile.json")
	if err := os.WriteFile(cat, []byte(hostileCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	h := strings.NewReplacer(`\u001b`, "\x1b", `\u0007`, "\x07", `\u009b`, "\u009b", `\u202e`, "\u202e", `\r`, "\r", `\u007f`, "\x7f").Replace(hostile)
	evil := "evil_" + h
	// Hostile arguments: extra keys, a value that misses the pattern, a
	// nested path, all carrying the hostile text.
	args := `{"p_` + hostile + `": "y` + hostile + `", "q": "b` + hostile + `", "x_` + hostile + `": {"` + hostile + `": 1}, "e": "no"}`
	// The same catalog with one description changed and a required
	// parameter dropped, for diff.
	changed := filepath.Join(dir, "changed"+h+".json")
	if err := os.WriteFile(changed, []byte(strings.Replace(strings.Replace(hostileCatalog, "Deletes ", "Erases ", 1), `"required": ["need_`+hostile+`"],`, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	diff := func(format, old, new string) []string {
		return []string{"diff", "--embedder", "mock", "--no-cache", "--threshold", "0.5", "--format", format, old, new}
	}
	baselineFile := filepath.Join(dir, "baseline.json")
	lint := func(format string) []string {
		return []string{"lint", "--embedder", "mock", "--no-cache", "--threshold", "0.5", "--format", format, cat}
	}
	cases := []struct {
		name string
		args []string
		file string // a file the command writes, read as output too
	}{
		{"lint text", lint("text"), ""},
		{"lint markdown", lint("markdown"), ""},
		{"lint github", lint("github"), ""},
		{"lint json", lint("json"), ""},
		{"lint sarif", lint("sarif"), ""},
		{"lint html", lint("html"), ""},
		{"lint --write-baseline", append([]string{"lint", "--embedder", "mock", "--no-cache", "--threshold", "0.5", "--write-baseline", baselineFile, "--format", "json"}, cat), baselineFile},
		{"diff text", diff("text", cat, changed), ""},
		{"diff markdown", diff("markdown", cat, changed), ""},
		{"diff json", diff("json", cat, changed), ""},
		{"diff github", diff("github", cat, changed), ""},
		{"diff text, tools removed", diff("text", cat, empty), ""},
		{"diff json, tools added", diff("json", empty, cat), ""},
		{"report when stdout is not a terminal", []string{"--embedder", "mock", "--no-cache", cat}, ""},
		{"check-args text", []string{"check-args", cat, evil, args}, ""},
		{"check-args text, warn", []string{"check-args", "--mode", "warn", cat, evil, args}, ""},
		{"check-args json", []string{"check-args", "--format", "json", cat, evil, args}, ""},
		{"check-args, unknown tool", []string{"check-args", cat, "evil" + h, "{}"}, ""},
		{"check-args, broken arguments", []string{"check-args", cat, evil, `{"a` + h}, ""},
		{"check-args, unreadable ARGS file", []string{"check-args", cat, evil, "no_such_file" + h}, ""},
		{"period text", []string{"period", "lookback", "24" + h}, ""},
		{"period text, range", []string{"period", "iso-range", "2026-03-01T00:00:00Z.." + h}, ""},
		{"period json", []string{"period", "--format", "json", "lookback", "24" + h}, ""},
		{"rules text", []string{"rules"}, ""},
		{"rules json", []string{"rules", "--format", "json"}, ""},
		{"usage error", []string{"lint", "--" + h, cat}, ""},
		{"unknown format", []string{"lint", "--format", h, cat}, ""},
		{"catalog that does not exist", []string{"lint", filepath.Join(dir, "no"+h+".json")}, ""},
		// A live server that writes the hostile text on stderr and exits:
		// the error quotes its stderr.
		{"live server's stderr", []string{"lint", `mcp:sh -c "printf 'boom\033[2J\033]52;c;SGk=\007\302\233\342\200\256\r' >&2; exit 3"`}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			run(c.args, stdio{in: strings.NewReader(""), out: &out, err: &errb})
			if out.Len()+errb.Len() == 0 {
				t.Fatal("no output at all")
			}
			assertTerminalSafe(t, "stdout", out.String())
			assertTerminalSafe(t, "stderr", errb.String())
			if c.file != "" {
				written, err := os.ReadFile(c.file)
				if err != nil {
					t.Fatal(err)
				}
				assertTerminalSafe(t, c.file, string(written))
			}
			if strings.Contains(c.name, "markdown") {
				assertMarkdownTables(t, out.String())
			}
			// The hostile text is shown, spelled out, not dropped.
			if all := out.String() + errb.String(); !strings.Contains(all, `\x1b[2J`) && !strings.Contains(all, `\u001b[2J`) && !strings.HasPrefix(c.name, "rules") {
				t.Errorf("the hostile text is not shown spelled out:\n%s", all)
			}
		})
	}
}

// assertMarkdownTables checks that no catalog text broke a table (every
// row has its header's number of cell separators, as GitHub counts them:
// a backslash escapes the next character) or made a link or an image.
func assertMarkdownTables(t *testing.T, md string) {
	t.Helper()
	separators := func(line string) int {
		n := 0
		for i := 0; i < len(line); i++ {
			switch line[i] {
			case '\\':
				i++
			case '|':
				n++
			}
		}
		return n
	}
	want := -1
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			want = -1
			continue
		}
		if want < 0 {
			want = separators(line)
		} else if got := separators(line); got != want {
			t.Errorf("a table row has %d cell separators, its header %d:\n%s", got, want, line)
		}
	}
	// Outside code spans (which show their text as it is), no "](" may
	// stand unescaped.
	var prose strings.Builder
	inCode := false
	for i := 0; i < len(md); i++ {
		switch {
		case md[i] == '\\' && !inCode && i+1 < len(md):
			prose.WriteString(md[i : i+2])
			i++
		case md[i] == '`':
			inCode = !inCode
		case !inCode:
			prose.WriteByte(md[i])
		}
	}
	md = prose.String()
	for i := 0; ; {
		j := strings.Index(md[i:], "](")
		if j < 0 {
			break
		}
		if at := i + j; at == 0 || md[at-1] != '\\' {
			t.Errorf("catalog text made a link: …%s…", md[max(0, at-40):min(len(md), at+40)])
		}
		i += j + 2
	}
	if strings.Contains(md, "<b>") {
		t.Error("catalog HTML reached the markdown")
	}
}
