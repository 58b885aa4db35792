package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"toolscope/core/lint"
)

// Every report starts with what to fix first, in order: what fails the
// gate, then the worst tools with their findings, then what holds for the
// whole catalog (its size against the context window, tools past a
// provider's limit). Advisory pairs come after, and only as a count here.

// maxWorstTools is how many tools the list names.
const maxWorstTools = 3

// catalogWide are the rules whose finding is about the whole catalog,
// though it sits on one tool.
var catalogWide = map[string]bool{lint.RuleCatalogTokens: true, lint.RuleTooManyTools: true}

// FirstItem is one line of the list: what, and the severity it carries
// ("error", "warn", "ok", "note") for a renderer's mark.
type FirstItem struct {
	Text, Severity string
}

// FirstToFix is the report's ordered list of what to fix first. The texts
// are plain: each renderer escapes them.
func FirstToFix(r *lint.Report) []FirstItem {
	var out []FirstItem
	out = append(out, gateItem(r))
	out = append(out, worstTools(r)...)
	out = append(out, catalogFacts(r)...)
	if n := r.Summary.Watch; n > 0 && !r.Review {
		out = append(out, FirstItem{Severity: "note", Text: fmt.Sprintf("Advisory: %s on the review list (related, maybe confusable; they do not fail the gate), listed after the findings", plural(n, "pair"))})
	}
	return out
}

// gateItem says whether the gate passes and, when it fails, what fails it
// by name.
func gateItem(r *lint.Report) FirstItem {
	if r.OK {
		text := "Passes the gate"
		if w := r.Summary.Warnings; w > 0 {
			text += "; " + plural(w, "warning") + " below are worth fixing"
		}
		return FirstItem{Severity: "ok", Text: text}
	}
	var what []string
	if pairs := r.Similarity.Confusable; len(pairs) > 0 {
		var names []string
		for _, p := range pairs[:min(3, len(pairs))] {
			names = append(names, p.A+" ⇄ "+p.B)
		}
		more := ""
		if n := max(r.Summary.Confusable, len(pairs)) - len(names); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		what = append(what, "confusable: "+strings.Join(names, ", ")+more)
	}
	var failing []lint.Finding
	for _, f := range r.Structural {
		if f.Severity == lint.SeverityError || r.FailOn == lint.SeverityWarn {
			failing = append(failing, f)
		}
	}
	if len(failing) > 0 {
		what = append(what, "findings: "+ruleCounts(failing, 3))
	}
	if r.Review && len(r.Similarity.Watch) > 0 {
		what = append(what, fmt.Sprintf("review pairs (--fail-on review): %s", plural(max(r.Summary.Watch, len(r.Similarity.Watch)), "pair")))
	}
	text := "Fails the gate (" + failReasons(r) + ")"
	if len(what) > 0 {
		text += ": " + strings.Join(what, "; ")
	}
	return FirstItem{Severity: "error", Text: text}
}

// ruleCounts names findings by rule, the commonest first: "name-provider-
// limits ×859, duplicate-name on get_x".
func ruleCounts(fs []lint.Finding, most int) string {
	count := map[string]int{}
	first := map[string]lint.Finding{}
	var rules []string
	for _, f := range fs {
		if count[f.Rule] == 0 {
			rules = append(rules, f.Rule)
			first[f.Rule] = f
		}
		count[f.Rule]++
	}
	slices.SortStableFunc(rules, func(a, b string) int { return cmp.Compare(count[b], count[a]) })
	var parts []string
	for _, id := range rules[:min(most, len(rules))] {
		if count[id] == 1 {
			parts = append(parts, id+" on "+findingWhere(first[id]))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", id, count[id]))
	}
	if n := len(rules) - len(parts); n > 0 {
		parts = append(parts, fmt.Sprintf("%d more %s", n, pluralWord(n, "rule")))
	}
	return strings.Join(parts, ", ")
}

// worstTools names the tools with the most weighty findings of their own,
// each with its findings.
func worstTools(r *lint.Report) []FirstItem {
	type toolFindings struct {
		name          string
		errors, warns int
		score, first  int
		findings      []lint.Finding
		hasScore      bool
	}
	byTool := map[string]*toolFindings{}
	var order []*toolFindings
	for k, f := range r.Structural {
		if catalogWide[f.Rule] {
			continue
		}
		t := byTool[f.Tool]
		if t == nil {
			t = &toolFindings{name: f.Tool, first: k}
			if r.Score != nil {
				t.score, t.hasScore = r.Score.Tools[f.Tool]
			}
			byTool[f.Tool] = t
			order = append(order, t)
		}
		if f.Severity == lint.SeverityError {
			t.errors++
		} else {
			t.warns++
		}
		t.findings = append(t.findings, f)
	}
	slices.SortStableFunc(order, func(a, b *toolFindings) int {
		if c := cmp.Compare(b.errors, a.errors); c != 0 {
			return c
		}
		if a.hasScore && b.hasScore && a.score != b.score {
			return cmp.Compare(a.score, b.score)
		}
		return cmp.Compare(b.warns, a.warns)
	})
	var out []FirstItem
	for _, t := range order[:min(maxWorstTools, len(order))] {
		var counts []string
		sev := "warn"
		if t.errors > 0 {
			counts = append(counts, plural(t.errors, "error"))
			sev = "error"
		}
		if t.warns > 0 {
			counts = append(counts, plural(t.warns, "warning"))
		}
		score := ""
		if t.hasScore {
			score = fmt.Sprintf(", score %d", t.score)
		}
		out = append(out, FirstItem{Severity: sev, Text: fmt.Sprintf("Tool %s (%s%s): %s", t.name, strings.Join(counts, ", "), score, toolRuleList(t.findings))})
	}
	if n := len(order) - len(out); n > 0 && len(out) > 0 {
		out[len(out)-1].Text += fmt.Sprintf("; %d more %s with findings below", n, pluralWord(n, "tool"))
	}
	return out
}

// toolRuleList names a tool's findings by rule and parameter.
func toolRuleList(fs []lint.Finding) string {
	var parts []string
	for _, f := range fs[:min(4, len(fs))] {
		s := f.Rule
		if f.Param != "" {
			s += " (" + f.Param + ")"
		}
		parts = append(parts, s)
	}
	if n := len(fs) - len(parts); n > 0 {
		parts = append(parts, fmt.Sprintf("%d more", n))
	}
	return strings.Join(parts, ", ")
}

// catalogFacts are what holds for the whole catalog: its definitions'
// size against the context window, and tools past a provider's limit.
func catalogFacts(r *lint.Report) []FirstItem {
	var out []FirstItem
	tokensSaid := false
	if t := r.Tokens; t != nil && t.Context > 0 {
		out = append(out, FirstItem{Severity: "note", Text: fmt.Sprintf("Catalog: the %s take %s tokens (o200k_base), %s a %s-token context",
			plural(r.ToolCount, "tool definition"), thousands(t.Total.O200k), lint.ContextShare(t.Total.O200k, t.Context), thousands(t.Context))})
		tokensSaid = true
	}
	for _, f := range r.Structural {
		if !catalogWide[f.Rule] || f.Rule == lint.RuleCatalogTokens && tokensSaid {
			continue
		}
		sev := "warn"
		if f.Severity == lint.SeverityError {
			sev = "error"
		}
		out = append(out, FirstItem{Severity: sev, Text: "Catalog: " + f.Message})
	}
	if r.Tokens != nil {
		for _, f := range r.Structural {
			if f.Rule == lint.RuleCatalogTokens {
				out[0].Severity = "warn"
			}
		}
	}
	return out
}

// thousands writes n with comma-separated thousands.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// firstMark is an item's mark in the text and Markdown lists.
func firstMark(sev string) string {
	switch sev {
	case "error":
		return "✗"
	case "warn":
		return "~"
	case "ok":
		return "✓"
	}
	return "·"
}

// suggestionLabel introduces a finding's suggestion in a one-line
// message: a fix lint --fix applies is said to be one.
func suggestionLabel(f lint.Finding) string {
	if len(f.Fix) > 0 {
		return " Fix (lint --fix applies it): "
	}
	return " Suggestion: "
}
