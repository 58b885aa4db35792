package report

import (
	"bufio"
	"fmt"

	"toolscope/core/lint"
)

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

// reviewedHeadline sums up a report's review section in one line.
func reviewedHeadline(v *lint.Reviewed) string {
	by := "recorded reviews"
	if v.Model != "" {
		by = v.Model
	}
	s := fmt.Sprintf("Reviewed (%s: %d asked, %d replayed", by, v.Asked, v.Replayed)
	if v.File != "" {
		s += ", file " + v.File
	}
	return s + fmt.Sprintf("): %s, %d tools unreviewed", plural(v.Problems, "problem"), len(v.Unreviewed))
}

// reviewed writes the review section: the headline, the error that
// stopped the review, and the tools left unreviewed (a stale review says
// so here); the problems are among the findings.
func (t textWriter) reviewed(v *lint.Reviewed, max int) {
	fmt.Fprintf(t, "\n%s\n", safe(reviewedHeadline(v)))
	if v.Error != "" {
		fmt.Fprintln(t, t.style(ansiYellow, "  review stopped: "+safe(v.Error)))
	}
	for i, u := range v.Unreviewed {
		if max > 0 && i == max {
			fmt.Fprintf(t, "  … and %d more unreviewed tools\n", len(v.Unreviewed)-i)
			break
		}
		fmt.Fprintf(t, "  %s %s: %s\n", t.style(ansiYellow, "? unreviewed"), safe(u.Tool), safe(u.Why))
	}
}

// mdReviewed writes the review section for a pull-request comment.
func mdReviewed(b *bufio.Writer, v *lint.Reviewed, max int) {
	fmt.Fprintf(b, "\n%s\n", mdCell(reviewedHeadline(v)))
	if v.Error != "" {
		fmt.Fprintf(b, "\n> review stopped: %s\n", mdCell(v.Error))
	}
	if len(v.Unreviewed) == 0 {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>Unreviewed tools</summary>\n\n| tool | why |\n|---|---|\n")
	for i, u := range v.Unreviewed {
		if max > 0 && i == max {
			break
		}
		fmt.Fprintf(b, "| `%s` | %s |\n", mdCode(u.Tool), mdCell(u.Why))
	}
	fmt.Fprintln(b, "\n</details>")
}
