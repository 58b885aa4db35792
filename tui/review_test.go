package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/lint"
)

// TestFindingsTabMarksAModelsFinding: a model review's finding (replayed
// by the command line as a source finding) shows in the tool's findings
// marked with its category and the model, its untrusted text spelled out.
func TestFindingsTabMarksAModelsFinding(t *testing.T) {
	opts := mockOptions(t)
	opts.SourceFindings = func(cat *catalog.Catalog) []lint.Finding {
		return []lint.Finding{{Rule: lint.RuleModelReview, Tool: cat.Tools[0].Name, ToolIndex: 0, Severity: lint.SeverityWarn,
			Message: "which volume id? \x1b[2J\u202e", By: "openai:rev\x1b[31m", Category: "param"}}
	}
	m := settledModel(opts, 160, 45)
	raw := m.View()
	view := ansi.Strip(raw)
	if !strings.Contains(view, "model-review · param · by openai:rev") || !strings.Contains(view, "which volume id?") {
		t.Errorf("the model's finding is not shown marked as the model's:\n%s", view)
	}
	if strings.Contains(raw, "\x1b[2J") || strings.Contains(raw, "\u202e") || strings.Contains(raw, "\x1b[31m") {
		t.Error("the model's text reached the screen raw")
	}
}
