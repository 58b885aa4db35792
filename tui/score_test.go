package tui

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/report"
)

// The header shows the catalog's score once the rules, the verdicts and
// the token counts are in, and h in the export prompt writes the HTML
// page, its report carrying that score.
func TestScoreInHeaderAndHTMLExport(t *testing.T) {
	dir := t.TempDir()
	opts := mockOptions(t)
	opts.ExportDir = dir
	var exported *lint.Report
	opts.Export = func(w io.Writer, format string, r *lint.Report, cat *catalog.Catalog) error {
		exported = r
		return report.WriteHTML(w, r, report.HTMLOptions{Source: cat.Source, Catalog: cat})
	}
	m := scoredModel(t, opts, 160, 45)
	drain(m, measureTokens(m.snap.cat, 0))
	sc := m.score()
	if sc == nil {
		t.Fatal("no score with the rules, the verdicts and the tokens in")
	}
	header := ansi.Strip(m.header())
	if want := "score " + strconv.Itoa(sc.Catalog) + "/100"; !strings.Contains(header, want) {
		t.Fatalf("the header lacks %q: %s", want, header)
	}
	press(m, "e")
	if !strings.Contains(ansi.Strip(m.View()), "h HTML page") {
		t.Fatalf("the export prompt does not offer the page:\n%s", ansi.Strip(m.View()))
	}
	press(m, "h")
	want := filepath.Join(dir, "ops.toolscope.html")
	drain(m, press(m, "enter"))
	page, err := os.ReadFile(want)
	if err != nil {
		t.Fatalf("no page at %s: %v", want, err)
	}
	if exported == nil || exported.Score == nil || exported.Score.Catalog != sc.Catalog {
		t.Fatalf("the exported report's score is %+v, want the header's %d", exported.Score, sc.Catalog)
	}
	if !strings.Contains(string(page), "<!DOCTYPE html>") || !strings.Contains(string(page), strconv.Itoa(sc.Catalog)+"/100") {
		t.Errorf("the page lacks the doctype or the score:\n%.300s", page)
	}
}
