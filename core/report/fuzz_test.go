package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
	"toolscope/embed"
	"toolscope/fixtures"
)

// FuzzLint: whatever catalog loads, the rules, the similarity, the hints
// and every rendering run without panicking, and the report adds up.
func FuzzLint(f *testing.F) {
	f.Add(fixtures.Demo())
	if data, err := os.ReadFile("../similarity/testdata/catalogs/server-everything.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(renderCatalog))
	f.Add([]byte(`[{"name":"a"},{"name":"a"},{"name":"b","description":"x | y","inputSchema":{"properties":{"p":{"enum":[1]}},"required":["q"]}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cat, err := catalog.Parse("fuzz.json", data)
		if err != nil || len(cat.Tools) > 64 {
			return
		}
		for _, scoring := range []similarity.Scoring{similarity.ScoringCosine, similarity.ScoringAdaptive} {
			opts := lint.DefaultOptions()
			opts.Embedder = embed.Mock{}
			opts.Scoring = scoring
			r, err := lint.Analyze(context.Background(), cat, opts)
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
				WriteSARIF(&buf, r, cat, SARIFOptions{Rules: lint.DefaultRules(), SrcRoot: "/repo"}),
			} {
				if err != nil {
					t.Fatal(err)
				}
			}
			// The JUnit document parses back whatever the catalog says.
			var junit bytes.Buffer
			if err := WriteJUnit(&junit, []JUnitRun{{Report: r, Catalog: cat}}); err != nil {
				t.Fatal(err)
			}
			var doc junitSuites
			if err := xml.Unmarshal(junit.Bytes(), &doc); err != nil || len(doc.Suites) != 1 {
				t.Fatalf("JUnit does not parse back: %v\n%s", err, junit.Bytes())
			}
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
