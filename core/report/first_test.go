package report

import (
	"bytes"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/tokens"
)

// passingWithWarnings is a report that passes the gate with warnings and
// one review pair: the case where a page once opened on advisory pairs
// and hid its warnings.
func passingWithWarnings(t *testing.T) (*lint.Report, *catalog.Catalog) {
	t.Helper()
	cat, err := catalog.Parse("cat.json", []byte(`{"tools": [
 {"name": "get_volume_status", "description": "Get the live status of one volume."},
 {"name": "hist_volume_status", "description": "Get the recorded status of one volume."},
 {"name": "list_pools", "description": "List the storage pools."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	findings := []lint.Finding{
		{Rule: lint.RuleEnumInProse, Tool: "get_volume_status", ToolIndex: 0, Severity: lint.SeverityWarn, Param: "pool", Message: "parameter 'pool' lists its legal values in prose"},
		{Rule: lint.RuleOptionalParam, Tool: "get_volume_status", ToolIndex: 0, Severity: lint.SeverityWarn, Param: "limit", Message: "optional parameter 'limit' has no description"},
		{Rule: lint.RuleDescription, Tool: "list_pools", ToolIndex: 2, Severity: lint.SeverityWarn, Message: "the description says nothing the name does not"},
		{Rule: lint.RuleCatalogTokens, Tool: "list_pools", ToolIndex: 2, Severity: lint.SeverityWarn, Message: "the catalog's 3 tool definitions take 250,000 tokens (o200k_base), 2.0× a 128,000-token context"},
	}
	risk := 0.3
	sim := similarity.Result{Analyzed: true, Scoring: similarity.ScoringRisk, Thresholds: similarity.Thresholds{Confusability: 0.44, WatchBand: 0.37},
		Watch: []similarity.PairFinding{{Kind: similarity.Watch, Pair: similarity.Pair{A: "get_volume_status", B: "hist_volume_status", I: 0, J: 1, Similarity: risk, Risk: &risk}, Hint: "say in each description when to pick it over the other"}}}
	r := lint.NewReport(cat, findings, sim, lint.Gate{FailOn: lint.SeverityError})
	if !r.OK {
		t.Fatal("the fixture fails the gate")
	}
	return r, cat
}

// Every report starts with what to fix first, in order: the gate, the
// worst tools with their findings, the catalog-wide facts; advisory
// pairs after. The text and Markdown reports show the warnings before
// any review pair.
func TestFirstToFixLeadsTheReports(t *testing.T) {
	r, cat := passingWithWarnings(t)
	items := FirstToFix(r)
	var texts []string
	for _, it := range items {
		texts = append(texts, it.Text)
	}
	want := []string{
		"Passes the gate; 4 warnings below are worth fixing",
		"Tool get_volume_status (2 warnings): enum-in-prose (pool), optional-param-undocumented (limit)",
		"Tool list_pools (1 warning): description-missing-or-short",
		"Catalog: the catalog's 3 tool definitions take 250,000 tokens (o200k_base), 2.0× a 128,000-token context",
		"Advisory: 1 pair on the review list (related, maybe confusable; they do not fail the gate), listed after the findings",
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Errorf("first to fix:\n%s\nwant\n%s", strings.Join(texts, "\n"), strings.Join(want, "\n"))
	}
	// Measured tokens are said as a share or a multiple of the window.
	m := tokens.Measure(cat, 0, false)
	withTokens := *r
	withTokens.Tokens = &m
	if got := FirstToFix(&withTokens); !strings.Contains(got[3].Text, "of a 128,000-token context") || !strings.HasPrefix(got[3].Text, "Catalog: the 3 tool definitions take ") {
		t.Errorf("the token fact: %q", got[3].Text)
	}

	var text, md, page bytes.Buffer
	if err := WriteText(&text, r, DefaultTextOptions(cat.Source)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r, MarkdownOptions{Source: cat.Source}); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&page, r, HTMLOptions{Catalog: cat, Source: cat.Source}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, out string
		order     []string // each before the next
	}{
		{"text", text.String(), []string{"First to fix:", "1. ✓ Passes the gate", "2. ~ Tool get_volume_status", "[enum-in-prose] get_volume_status.pool", "~ review", "get_volume_status <> hist_volume_status"}},
		{"markdown", md.String(), []string{"#### First to fix", "1. ✓ Passes the gate", "#### Structural findings", "enum-in-prose", "Review pairs (advisory)", "hist_volume_status"}},
		{"html", page.String(), []string{`id="first"`, "Passes the gate", `id="findings"`, "enum-in-prose", `id="pairs"`, "hist_volume_status"}},
	} {
		at := 0
		for _, w := range c.order {
			i := strings.Index(c.out[at:], w)
			if i < 0 {
				t.Errorf("%s: %q is missing or out of order (after %d):\n%s", c.name, w, at, c.out)
				break
			}
			at += i + len(w)
		}
	}
	// ⇄ is for confusable pairs only: the tool list counts the review pair
	// as ≈.
	if strings.Contains(page.String(), "⇄ 1") || !strings.Contains(page.String(), "≈ 1") {
		t.Error("the HTML tool list counts a review pair with ⇄")
	}
}

// A failing gate is the first item, naming what fails it.
func TestFirstToFixNamesWhatFailsTheGate(t *testing.T) {
	r, cat := passingWithWarnings(t)
	r.Structural = append(r.Structural, lint.Finding{Rule: lint.RuleNameLimits, Tool: "list_pools", ToolIndex: 2, Severity: lint.SeverityError, Message: "bad name"})
	sim := r.Similarity
	sim.Confusable = []similarity.PairFinding{{Kind: similarity.Confusable, Pair: similarity.Pair{A: "get_volume_status", B: "hist_volume_status", I: 0, J: 1}}}
	sim.Watch = nil
	r = lint.NewReport(cat, r.Structural, sim, r.Gate)
	items := FirstToFix(r)
	if items[0].Severity != "error" || items[0].Text != "Fails the gate (1 confusable pair, 1 error): confusable: get_volume_status ⇄ hist_volume_status; findings: name-provider-limits on list_pools" {
		t.Errorf("first item %+v", items[0])
	}
	if !strings.HasPrefix(items[1].Text, "Tool list_pools (1 error, 1 warning)") {
		t.Errorf("the worst tool is not the one with the error: %+v", items[1])
	}
}
