package report

import "toolscope/core/lint"

// A model's finding (rule model-review) is marked as a model's wherever
// findings show: its rule is named with the problem's category and the
// reviewer, so no reader takes it for a rule's measured verdict.

// ruleLabel is the rule as a report names a finding's: the rule id, and
// for a review's finding its category and reviewer
// ("model-review (unit, by openai:gpt-4.1-mini)").
func ruleLabel(f lint.Finding) string {
	if f.By == "" {
		return f.Rule
	}
	return f.Rule + " (" + f.Category + ", by " + f.By + ")"
}

// modelSays prefixes a review finding's message with who said it, for the
// formats whose message stands alone (SARIF, JUnit's failure message).
func modelSays(f lint.Finding, msg string) string {
	if f.By == "" {
		return msg
	}
	return "review by " + f.By + " (" + f.Category + "): " + msg
}

// modelRuleSummary describes the model-review rule where a log lists its
// rules (SARIF).
const modelRuleSummary = "A chat model's review of the tool found a problem a capable model would trip on (lint --review; docs/judge.md). A model's reading, not a rule's measured check."
