package lint

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"toolscope/core/catalog"
	"toolscope/core/termsafe"
	"toolscope/embed"
	"toolscope/fixtures"
)

// FuzzLint: whatever catalog loads, the rules, the similarity, the hints
// and every rendering run without panicking, and the report adds up.
func FuzzLint(f *testing.F) {
	f.Add(fixtures.Demo())
	if data, err := os.ReadFile("testdata/catalogs/server-everything.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(renderCatalog))
	f.Add([]byte(`[{"name":"a"},{"name":"a"},{"name":"b","description":"x | y","inputSchema":{"properties":{"p":{"enum":[1]}},"required":["q"]}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cat, err := catalog.Parse("fuzz.json", data)
		if err != nil || len(cat.Tools) > 64 {
			return
		}
		for _, scoring := range []Scoring{ScoringCosine, ScoringAdaptive} {
			opts := DefaultOptions()
			opts.Embedder = embed.Mock{}
			opts.Scoring = scoring
			r, err := Analyze(context.Background(), cat, opts)
			if err != nil {
				t.Fatalf("the mock cannot fail, yet: %v", err)
			}
			if r.Summary.Errors+r.Summary.Warnings != len(r.Structural) || r.ToolCount != len(cat.Tools) {
				t.Fatalf("summary %+v for %d findings, %d tools", r.Summary, len(r.Structural), len(cat.Tools))
			}
			var buf bytes.Buffer
			for _, err := range []error{
				WriteJSON(&buf, r),
				WriteText(&buf, r, DefaultTextOptions(cat.Source)),
				WriteMarkdown(&buf, r, MarkdownOptions{Source: cat.Source, MaxRows: 5, Top: 5}),
				WriteSARIF(&buf, r, cat, SARIFOptions{Rules: DefaultRules()}),
			} {
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// FuzzSchemaRules puts any JSON in a tool's input schema and descriptions:
// rules must never panic on weird schemas.
func FuzzSchemaRules(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string","description":"one of x, y | z","pattern":"(?<=a)b"}},"required":["a","b"]}`,
		`{"properties":[],"required":{"x":1},"items":[{"enum":null}]}`,
		`{"type":["integer",7],"enum":[1.5,"x",{"a":[]},null]}`,
		`{"type":"object","properties":{"n":{"type":"array","items":{"type":"object","patternProperties":{"^x":true},"required":["x1"]}}}}`,
		`"not an object"`, `[1,2]`, `null`, `{"pattern":"[","properties":{"p":{"pattern":"(?P<x>"}}}`,
	} {
		f.Add(s, "Use for one of: a, b.")
	}
	f.Fuzz(func(t *testing.T, schema, description string) {
		if !utf8.ValidString(description) {
			return
		}
		src := `[{"name": "t", "description": ` + jsonQuote(description) + `, "inputSchema": ` + schema + `}]`
		cat, err := catalog.Parse("fuzz.json", []byte(src))
		if err != nil {
			return
		}
		for _, f := range Structural(cat, DefaultOptions()) {
			if f.Rule == "" || f.Message == "" || (f.Severity != SeverityError && f.Severity != SeverityWarn) {
				t.Fatalf("malformed finding %+v", f)
			}
		}
	})
}

func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FuzzTexts: the text helpers never panic and keep their promises.
func FuzzTexts(f *testing.F) {
	for _, s := range []string{"get_volumeStatus--v2", "Use e.g. this. Then", "a\nb", "😀 x. y", "İK", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		first := FirstSentence(s)
		if !strings.HasPrefix(jsTrim(s), first) {
			t.Fatalf("FirstSentence(%q) = %q, not a prefix of the text", s, first)
		}
		if strings.ContainsAny(openName(s), "_-") {
			t.Fatalf("openName(%q) = %q keeps a separator", s, openName(s))
		}
		for _, w := range NameTokens(s) {
			if w == "" || strings.ContainsFunc(w, isJSSpace) {
				t.Fatalf("NameTokens(%q) has %q", s, w)
			}
		}
		for _, w := range descriptionTerms(s) {
			if len(w) < 3 || stopWords[w] {
				t.Fatalf("descriptionTerms(%q) has %q", s, w)
			}
		}
		if s != "" && !hasWholeWord(s, s) && strings.ToLower(s) == s && isLowerOrDigit(s[0]) && isLowerOrDigit(s[len(s)-1]) {
			t.Fatalf("hasWholeWord(%q, itself) = false", s)
		}
	})
}

// FuzzMarkdownCell: whatever a catalog says, a markdown cell or code span
// built from it holds no raw control character, no pipe that ends the cell
// (a backslash escapes the next character, as GitHub reads a table), and
// a cell no unescaped backtick, bracket or HTML.
func FuzzMarkdownCell(f *testing.F) {
	for _, s := range []string{"a|b", `a\|b`, `a\`, "`x`", "[x](http://e/i.png)", "<b>", "\x1b[2J\u202e\r\n\u009b", `\\|`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{mdCell(s), mdCode(s)} {
			if !termsafe.Safe(out) || strings.ContainsAny(out, "\n\t") {
				t.Fatalf("%q: raw control characters in %q", s, out)
			}
			for i := 0; i < len(out); i++ {
				switch out[i] {
				case '\\':
					i++
				case '|':
					t.Fatalf("%q: %q has a pipe that ends the cell", s, out)
				}
			}
		}
		cell := mdCell(s)
		for i := 0; i < len(cell); i++ {
			switch cell[i] {
			case '\\':
				i++
			case '`', '[', ']', '<', '>':
				t.Fatalf("%q: cell %q has an unescaped %c", s, cell, cell[i])
			}
		}
		if strings.Contains(mdCode(s), "`") {
			t.Fatalf("%q: code %q has a backtick", s, mdCode(s))
		}
	})
}
