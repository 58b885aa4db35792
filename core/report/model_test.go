package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// withModelFinding is the render report with a model review's finding on
// its first tool and the review section.
func withModelFinding(t *testing.T) (*lint.Report, string) {
	r, _ := renderReport(t, similarity.ScoringAdaptive)
	f := lint.Finding{Rule: lint.RuleModelReview, Tool: "get_volume_status", Param: "pool", ToolIndex: 0, Severity: lint.SeverityWarn,
		Message: "gold or silver: which does a model pick for a new volume?", By: "openai:rev", Category: "param", Line: 3, Column: 50}
	r.Structural = append(r.Structural, f)
	r.Summary.Warnings++
	r.Reviewed = &lint.Reviewed{Model: "openai:rev", Asked: 4, Problems: 1, Unreviewed: []lint.UnreviewedTool{{Tool: "list_pools", Why: "its texts changed since it was reviewed"}}}
	return r, "model-review (param, by openai:rev)"
}

// TestModelFindingsAreMarkedInEveryFormat: a model's finding is named
// with its category and model in text, Markdown, GitHub and JUnit, its
// SARIF result carries them as properties (and the log stays valid), and
// the review section's stale tool is said in text and Markdown.
func TestModelFindingsAreMarkedInEveryFormat(t *testing.T) {
	r, label := withModelFinding(t)
	_, cat := renderReport(t, similarity.ScoringAdaptive)
	var text, md, gh, junit bytes.Buffer
	if err := WriteText(&text, r, DefaultTextOptions(cat.Source)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r, MarkdownOptions{Source: cat.Source}); err != nil {
		t.Fatal(err)
	}
	if err := WriteGitHub(&gh, r, cat); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(&junit, []JUnitRun{{Report: r, Catalog: cat}}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "junit": junit.String()} {
		if !strings.Contains(out, label) {
			t.Errorf("%s does not mark the finding %q:\n%s", name, label, out)
		}
	}
	if !strings.Contains(gh.String(), "title=toolscope model-review (param%2C by openai%3Arev)") {
		t.Errorf("github:\n%s", gh.String())
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if !strings.Contains(out, "list_pools") || !strings.Contains(out, "its texts changed since it was reviewed") || !strings.Contains(out, "Reviewed (openai:rev: 4 asked") {
			t.Errorf("%s does not give the review section:\n%s", name, out)
		}
	}

	var sarif bytes.Buffer
	if err := WriteSARIF(&sarif, r, cat, SARIFOptions{Rules: lint.DefaultRules(), Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string
						ShortDescription struct{ Text string }
					}
				}
			}
			Results []struct {
				RuleID     string
				Message    struct{ Text string }
				Properties map[string]string
			}
		}
	}
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, res := range log.Runs[0].Results {
		if res.RuleID == lint.RuleModelReview {
			found = true
			if res.Properties["by"] != "openai:rev" || res.Properties["category"] != "param" || !strings.HasPrefix(res.Message.Text, "review by openai:rev (param): ") {
				t.Errorf("SARIF result %+v not marked as the model's", res)
			}
		}
	}
	described := false
	for _, rule := range log.Runs[0].Tool.Driver.Rules {
		described = described || (rule.ID == lint.RuleModelReview && strings.Contains(rule.ShortDescription.Text, "chat model"))
	}
	if !found || !described {
		t.Errorf("SARIF: result %v, rule described %v", found, described)
	}
	schema := compiledSARIFSchema(t)
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(sarif.Bytes()))
	if err := schema.Validate(inst); err != nil {
		t.Errorf("SARIF with a model's finding does not validate: %v", err)
	}
}
