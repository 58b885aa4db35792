package judge

import (
	"fmt"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// ApplyReviewsOptions say where the reviews ApplyReviews adds came from,
// and what the project config ignores.
type ApplyReviewsOptions struct {
	// Model is the model asked in this run, "" when only replaying.
	Model string
	// File is the judgments file read, as it is shown.
	File string
	// Err is what stopped the run early, nil when nothing did.
	Err error
	// Ignore, when set, is the project config's: a finding it covers goes
	// to the report's Suppressed list with the reason, and counts nowhere.
	Ignore func(lint.Finding) (string, bool)
}

// ApplyReviews turns the reviews that hold into findings (rule
// model-review, severity warn, the problem's category and param, the note
// as the message, the reviewer in By) and adds them to a copy of the
// report, with its Reviewed section (described by o); the warnings and
// the gate are counted again. Where a rule already reports a finding at
// the same tool and parameter, the first of the model's findings there
// names it (Also, and "also reported by" in the message), once.
func ApplyReviews(r *lint.Report, cat *catalog.Catalog, results []ReviewResult, o ApplyReviewsOptions) *lint.Report {
	out := *r
	out.Structural = slices.Clone(r.Structural)
	if out.Suppressed != nil {
		sup := *out.Suppressed
		sup.Findings = slices.Clone(sup.Findings)
		out.Suppressed = &sup
	}
	sec := &lint.Reviewed{Model: o.Model, File: o.File, Unreviewed: []lint.UnreviewedTool{}}
	if o.Err != nil {
		sec.Error = oneLine(o.Err.Error())
	}
	told := map[string]bool{}
	added := 0
	for _, res := range results {
		switch res.Status {
		case Asked:
			sec.Asked++
		case Replayed:
			sec.Replayed++
		default:
			sec.Unreviewed = append(sec.Unreviewed, lint.UnreviewedTool{Tool: res.Tool.Name, Why: res.Why})
			continue
		}
		// A recorded review is checked as an answer is: a hand-edited
		// record naming a parameter the tool lacks does not hold.
		bad := false
		for _, p := range res.Review.Problems {
			bad = bad || res.Tool.checkParam(p.Param) != nil
		}
		if bad {
			sec.Replayed--
			sec.Unreviewed = append(sec.Unreviewed, lint.UnreviewedTool{Tool: res.Tool.Name, Why: WhyReviewRecordParam})
			continue
		}
		t := cat.Tools[res.Tool.Index]
		for _, p := range res.Review.Problems {
			f := reviewFinding(t, res.Review.By, p)
			place := fmt.Sprint(t.Index, "\x00", samePlace(p.Param))
			if !told[place] {
				told[place] = true
				f.Also = alsoReported(r.Structural, t.Index, p.Param)
				if len(f.Also) > 0 {
					f.Message += " (also reported by " + strings.Join(f.Also, ", ") + ")"
				}
			}
			if o.Ignore != nil {
				if reason, ok := o.Ignore(f); ok {
					f.Suppression = reason
					if out.Suppressed == nil {
						out.Suppressed = &lint.Suppressed{Findings: []lint.Finding{}, Pairs: []similarity.PairFinding{}}
					}
					out.Suppressed.Findings = append(out.Suppressed.Findings, f)
					continue
				}
			}
			out.Structural = append(out.Structural, f)
			added++
		}
	}
	sec.Problems = added
	out.Reviewed = sec
	out.Summary.Warnings += added
	if added > 0 && out.Gate.FailOn == lint.SeverityWarn {
		out.OK = false
	}
	return &out
}

// reviewFinding is a review's problem with tool t as a finding, at the
// parameter's line when the catalog places it, else at the tool's.
func reviewFinding(t *catalog.Tool, by string, p Problem) lint.Finding {
	f := lint.Finding{Rule: lint.RuleModelReview, Tool: t.Name, Severity: lint.SeverityWarn, Message: p.Note,
		Param: p.Param, ToolIndex: t.Index, By: by, Category: p.Category}
	if t.Pos.Line > 0 {
		f.Line, f.Column = t.Pos.Line, t.Pos.Col
		if pos, ok := ParamPos(t.Schema, p.Param); ok && p.Param != "" && pos.Line > 0 {
			f.Line, f.Column = pos.Line, pos.Col
		}
	}
	return f
}

// samePlace is a parameter's path with the steps into array items taken
// out, so that "rows[].id" and "rows.id" are one place.
func samePlace(param string) string { return strings.ReplaceAll(param, "[]", "") }

// alsoReported is the rules that report a finding at the tool and
// parameter (the tool itself for ""), each once, in the report's order.
func alsoReported(findings []lint.Finding, tool int, param string) []string {
	var out []string
	for _, f := range findings {
		if f.ToolIndex == tool && f.Rule != lint.RuleModelReview && samePlace(f.Param) == samePlace(param) && !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	return out
}
