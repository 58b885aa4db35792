package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

// WriteJSON writes the whole report as indented JSON (stable field names).
func WriteJSON(w io.Writer, r *lint.Report) error { return writeJSON(w, r) }

// writeJSON writes v as indented JSON, safe to print: catalog text in it
// is escaped.
func writeJSON(w io.Writer, v any) error {
	return writeIndented(termsafe.JSON(w), v)
}

// TextOptions shape the text report.
type TextOptions struct {
	// Source names the catalog in the heading.
	Source string
	// Color adds ANSI colour (for a terminal).
	Color bool
	// Top is how many ranked pairs to list; 0 hides them.
	Top int
	// MaxPairs caps each verdict list; 0 lists them all.
	MaxPairs int
}

// DefaultTextOptions are the command line's.
func DefaultTextOptions(source string) TextOptions {
	return TextOptions{Source: source, Top: 10, MaxPairs: 20}
}

// ANSI styles for the text report on a terminal.
const (
	ansiRed    = "\x1b[31;1m"
	ansiYellow = "\x1b[33m"
	ansiGreen  = "\x1b[32;1m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

type textWriter struct {
	*bufio.Writer
	color bool
}

func (t textWriter) style(code, s string) string {
	if !t.color {
		return s
	}
	return code + s + ansiReset
}

// WriteText writes the report for a person: the headline, the verdicts
// with their hints, the top of the ranking, the structural findings with
// the tool's line, and the gate's result.
func WriteText(w io.Writer, r *lint.Report, o TextOptions) error {
	t := textWriter{bufio.NewWriter(w), o.Color}
	fmt.Fprintln(t, t.style(ansiBold, headline(r, o.Source)))
	if r.Score != nil {
		fmt.Fprintln(t, ScoreLine(r.Score))
	}
	if sup := r.Suppressed; sup != nil {
		fmt.Fprintln(t, suppressedText(sup))
		for _, u := range sup.Unused {
			fmt.Fprintln(t, t.style(ansiDim, "  note: "+safe(u)))
		}
	}
	if b := r.Baseline; b != nil {
		fmt.Fprintln(t, baselineText(b))
	}
	t.servers(r.Servers)
	t.firstToFix(r)
	sim := r.Similarity
	t.WriteString("\n")
	if !sim.Analyzed {
		fmt.Fprintf(t, "Similarity: skipped (%s); structural rules only\n", skippedWhy(sim, r.ToolCount))
	} else {
		fmt.Fprintf(t, "Similarity (%s embedder, %s scoring; %s; %s compared)\n", safe(sim.Embedder), sim.Scoring, thresholdText(sim), plural(sim.PairCount, "pair"))
		for _, n := range sim.Notes {
			fmt.Fprintln(t, t.style(ansiDim, "  note: "+safe(n)))
		}
		if len(sim.Confusable) == 0 && len(sim.Watch) == 0 {
			if sim.Thresholds.ReportOnly() {
				fmt.Fprintln(t, "  report-only: no verdicts, the ranking below is the relative view")
			} else {
				fmt.Fprintln(t, "  no pair at or near the threshold")
			}
		}
		t.verdicts(sim.Confusable, o.MaxPairs, &sim)
		// The review list gates only under --fail-on review; otherwise it
		// is advisory and comes after the findings.
		if r.Review {
			t.verdicts(sim.Watch, o.MaxPairs, &sim)
		} else if len(sim.Watch) > 0 {
			fmt.Fprintf(t, "  %s on the review list: advisory, after the findings\n", plural(max(r.Summary.Watch, len(sim.Watch)), "pair"))
		}
	}
	if r.Judged != nil {
		t.judged(r.Judged, o.MaxPairs)
	}
	if r.Reviewed != nil {
		t.reviewed(r.Reviewed, o.MaxPairs)
	}
	t.WriteString("\n")
	t.structural(r)
	if sim.Analyzed && (!r.Review && len(sim.Watch) > 0 || o.Top > 0 && len(sim.Ranked) > 0) {
		t.WriteString("\n")
		if !r.Review && len(sim.Watch) > 0 {
			fmt.Fprintf(t, "Review pairs (advisory: related, maybe confusable; they do not fail the gate)\n")
			t.verdicts(sim.Watch, o.MaxPairs, &sim)
		}
		if o.Top > 0 && len(sim.Ranked) > 0 {
			if !r.Review && len(sim.Watch) > 0 {
				t.WriteString("\n")
			}
			fmt.Fprintf(t, "  Most similar pairs (top %d of %d):\n", min(o.Top, len(sim.Ranked)), sim.PairCount)
			accepted := acceptedPairs(r)
			for _, p := range sim.Ranked[:min(o.Top, len(sim.Ranked))] {
				mark := ""
				if accepted[lint.PairKey(p.A, p.B)] {
					mark = "  [accepted]"
				}
				fmt.Fprintf(t, "    %s  %s <> %s%s\n", scoreText(p.Similarity, p.Affinity, &sim), safe(p.A), safe(p.B), mark)
			}
		}
	}
	t.WriteString("\n")
	if r.OK {
		fmt.Fprintln(t, t.style(ansiGreen, "RESULT: ok"))
	} else {
		fmt.Fprintln(t, t.style(ansiRed, "RESULT: FAIL ("+failReasons(r)+")"))
	}
	return t.Flush()
}

// firstToFix writes the report's ordered list of what to fix first.
func (t textWriter) firstToFix(r *lint.Report) {
	items := FirstToFix(r)
	fmt.Fprintln(t, "\nFirst to fix:")
	for k, it := range items {
		mark := firstMark(it.Severity)
		switch it.Severity {
		case "error":
			mark = t.style(ansiRed, mark)
		case "warn":
			mark = t.style(ansiYellow, mark)
		case "ok":
			mark = t.style(ansiGreen, mark)
		}
		fmt.Fprintf(t, "  %d. %s %s\n", k+1, mark, safe(it.Text))
	}
}

// structural writes the structural findings.
func (t textWriter) structural(r *lint.Report) {
	if len(r.Structural) == 0 {
		fmt.Fprintln(t, "Structural findings: none")
	} else {
		fmt.Fprintf(t, "Structural findings (%s, %s)\n", plural(r.Summary.Errors, "error"), plural(r.Summary.Warnings, "warning"))
	}
	for _, f := range r.Structural {
		mark := t.style(ansiYellow, "~ warn ")
		if f.Severity == lint.SeverityError {
			mark = t.style(ansiRed, "✗ error")
		}
		fmt.Fprintf(t, "  %s [%s] %s%s%s\n", mark, safe(ruleLabel(f)), safe(findingWhere(f)), lineText(f), stateText(f.BaselineState))
		fmt.Fprintf(t, "      %s\n", safe(f.Message))
		if f.Suggestion != "" {
			how := "suggest"
			if len(f.Fix) > 0 {
				how = "fix (lint --fix applies it)"
			}
			fmt.Fprintf(t, "      %s: %s\n", how, safe(f.Suggestion))
		}
	}
}

func (t textWriter) verdicts(list []similarity.PairFinding, max int, sim *similarity.Result) {
	shown := list
	if max > 0 && len(list) > max {
		shown = list[:max]
	}
	for _, p := range shown {
		mark := t.style(ansiYellow, "~ review    ")
		if p.Kind == similarity.Confusable {
			mark = t.style(ansiRed, "✗ confusable")
		}
		fmt.Fprintf(t, "  %s %s%s  %s <> %s%s\n", mark, scoreText(p.Similarity, p.Affinity, sim), bandNote(p), safe(p.A), safe(p.B), stateText(p.BaselineState))
		if len(p.Reasons) > 0 {
			fmt.Fprintln(t, t.style(ansiDim, "      why: "+safe(ReasonsText(p.Reasons))))
		}
		fmt.Fprintln(t, t.style(ansiDim, "      hint: "+safe(p.Hint)))
	}
	if len(shown) < len(list) {
		fmt.Fprintf(t, "  … and %d more %s pairs (--format json lists them all)\n", len(list)-len(shown), list[0].Kind.Shown())
	}
}

// ReasonsText joins a pair's reasons, each marked + (raises the risk) or
// − (lowers it).
func ReasonsText(rs []similarity.Reason) string {
	parts := make([]string, len(rs))
	for k, r := range rs {
		sign := "+"
		if r.Effect < 0 {
			sign = "−"
		}
		parts[k] = sign + " " + r.Text
	}
	return strings.Join(parts, "; ")
}

// headline is the report's first line.
func headline(r *lint.Report, source string) string {
	parts := []string{"toolscope lint"}
	if source != "" {
		parts = append(parts, safe(source))
	}
	parts = append(parts, plural(r.ToolCount, "tool"))
	if r.Similarity.Analyzed {
		parts = append(parts, safe(r.Similarity.Embedder)+" "+string(r.Similarity.Scoring))
	}
	s := r.Summary
	parts = append(parts, fmt.Sprintf("%d confusable", s.Confusable), fmt.Sprintf("%d review", s.Watch),
		plural(s.Errors, "error"), plural(s.Warnings, "warning"))
	return strings.Join(parts, " · ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// thresholdText says where verdicts start.
func thresholdText(sim similarity.Result) string {
	th := sim.Thresholds
	if th.ReportOnly() {
		return "report-only, no threshold"
	}
	if sim.Scoring == similarity.ScoringRisk {
		return "confusable from risk " + similarity.StartText(th.Confusability) + ", review (advisory) from " + similarity.StartText(th.ReviewStart()) + crossServerText(th)
	}
	s := "confusable from " + similarity.StartText(th.Confusability) + ", review band " + similarity.StartText(th.WatchBand)
	if sim.Scoring == similarity.ScoringAdaptive {
		s += ", affinity floor " + similarity.StartText(th.AffinityFloor)
	}
	return s
}

// scoreText shows a score: the risk to two places (more where two would
// read as on a threshold it is under, or under one it reaches), the
// cosine to four, or the adaptive score signed with its affinity beside
// it.
func scoreText(s float64, affinity *float64, sim *similarity.Result) string {
	if sim.Scoring == similarity.ScoringRisk {
		if sim.Thresholds.ReportOnly() {
			return "risk " + similarity.RiskText(s, nil)
		}
		return "risk " + similarity.RiskText(s, &sim.Thresholds)
	}
	if sim.Scoring == similarity.ScoringAdaptive && affinity != nil {
		return fmt.Sprintf("%+.3f (affinity %.3f)", s, *affinity)
	}
	return fmt.Sprintf("%.4f", s)
}

// scoredAs names a pair's score with its scoring for a sentence: "risk
// 0.19", "cosine 0.9100", "adaptive +0.566 (affinity 0.984)".
func scoredAs(sim *similarity.Result, p similarity.Pair) string {
	text := scoreText(p.Similarity, p.Affinity, sim)
	if sim.Scoring == similarity.ScoringRisk {
		return text
	}
	return string(sim.Scoring) + " " + text
}

func findingWhere(f lint.Finding) string {
	if f.Param != "" {
		return f.Tool + "." + f.Param
	}
	return f.Tool
}

func lineText(f lint.Finding) string {
	if f.Line == 0 {
		return ""
	}
	return fmt.Sprintf("  (line %d)", f.Line)
}

// baselineText says how the run compares with its baseline.
func baselineText(b *lint.BaselineSummary) string {
	return fmt.Sprintf("Baseline %s: %d new (%d failing), %d unchanged, %d updated, %d absent",
		safe(b.File), b.New, b.NewFailing, b.Unchanged, b.Updated, b.Absent)
}

// suppressedText says what the project config accepted.
func suppressedText(s *lint.Suppressed) string {
	return fmt.Sprintf("Config %s: %s ignored, %s accepted", safe(s.Config), plural(len(s.Findings), "finding"), plural(len(s.Pairs), "pair"))
}

// stateText marks a result that a baseline does not cover.
func stateText(s similarity.BaselineState) string {
	if s == similarity.BaselineNew || s == similarity.BaselineUpdated {
		return "  [" + string(s) + "]"
	}
	return ""
}

// failReasons says what failed the gate.
func failReasons(r *lint.Report) string {
	var why []string
	if b := r.Baseline; b != nil {
		if b.NewFailing > 0 || len(r.FailedOn) == 0 {
			why = append(why, plural(b.NewFailing, "new failing result")+" against the baseline")
		}
		return strings.Join(append(why, r.FailedOn...), ", ")
	}
	if r.Summary.Confusable > 0 {
		why = append(why, plural(r.Summary.Confusable, "confusable pair"))
	}
	if r.Summary.Errors > 0 {
		why = append(why, plural(r.Summary.Errors, "error"))
	}
	if r.FailOn == lint.SeverityWarn && r.Summary.Warnings > 0 {
		why = append(why, plural(r.Summary.Warnings, "warning")+" (strict)")
	}
	if r.Review && r.Summary.Watch > 0 {
		why = append(why, plural(r.Summary.Watch, "review pair")+" (--fail-on review)")
	}
	return strings.Join(append(why, r.FailedOn...), ", ")
}

// MarkdownOptions shape the Markdown report.
type MarkdownOptions struct {
	Source string
	// MaxRows caps each table; 0 lists everything.
	MaxRows int
	// Top is how many ranked pairs to list; 0 hides them.
	Top int
}

// WriteMarkdown writes the report as a pull-request comment: the result,
// the verdicts and the findings as tables, long lists folded.
func WriteMarkdown(w io.Writer, r *lint.Report, o MarkdownOptions) error {
	b := bufio.NewWriter(w)
	sim := r.Similarity
	mdHeadline(b, r, o.Source)
	fmt.Fprintf(b, "\n#### First to fix\n\n")
	for k, it := range FirstToFix(r) {
		fmt.Fprintf(b, "%d. %s %s\n", k+1, firstMark(it.Severity), mdCell(it.Text))
	}
	mdServers(b, r.Servers)
	for _, n := range sim.Notes {
		fmt.Fprintf(b, "\n> %s\n", mdCell(n))
	}
	mdPairs(b, "Confusable pairs", sim.Confusable, o.MaxRows, &sim, false)
	if r.Review {
		mdPairs(b, "Review pairs (fail the gate under --fail-on review)", sim.Watch, o.MaxRows, &sim, false)
	}
	if r.Judged != nil {
		mdJudged(b, r.Judged, o.MaxRows)
	}
	if r.Reviewed != nil {
		mdReviewed(b, r.Reviewed, o.MaxRows)
	}
	mdStructural(b, r.Structural, o.MaxRows)
	if !r.Review {
		// Advisory: after the findings.
		mdPairs(b, "Review pairs (advisory)", sim.Watch, o.MaxRows, &sim, true)
	}
	if o.Top > 0 && len(sim.Ranked) > 0 {
		mdMostSimilar(b, r, &sim, o.Top)
	}
	if sup := r.Suppressed; sup != nil && len(sup.Findings)+len(sup.Pairs) > 0 {
		mdAccepted(b, sup, o.MaxRows)
	}
	return b.Flush()
}

// mdHeadline is the result, one line of what was linted and how, and the
// score, suppression and baseline lines when there are any.
func mdHeadline(b *bufio.Writer, r *lint.Report, source string) {
	result := "✅ ok"
	if !r.OK {
		result = "❌ FAIL (" + failReasons(r) + ")"
	}
	fmt.Fprintf(b, "### toolscope lint: %s\n\n", result)
	s, sim := r.Summary, &r.Similarity
	what := []string{}
	if source != "" {
		what = append(what, "`"+mdCode(source)+"`")
	}
	what = append(what, plural(r.ToolCount, "tool"))
	if sim.Analyzed {
		what = append(what, fmt.Sprintf("%s embedder, %s scoring (%s)", mdCell(sim.Embedder), sim.Scoring, thresholdText(*sim)))
	} else {
		what = append(what, "similarity skipped")
	}
	what = append(what, fmt.Sprintf("**%d confusable**", s.Confusable), fmt.Sprintf("%d review", s.Watch),
		plural(s.Errors, "error"), plural(s.Warnings, "warning"))
	fmt.Fprintln(b, strings.Join(what, " · "))
	if r.Score != nil {
		fmt.Fprintf(b, "\n**%s**\n", mdCell(ScoreLine(r.Score)))
	}
	if r.Suppressed != nil {
		fmt.Fprintf(b, "\n%s\n", mdCell(suppressedText(r.Suppressed)))
	}
	if r.Baseline != nil {
		fmt.Fprintf(b, "\n%s\n", mdCell(baselineText(r.Baseline)))
	}
}

// mdStructural is the table of structural findings, capped at max rows
// (0 for all) with a line saying how many more there are.
func mdStructural(b *bufio.Writer, findings []lint.Finding, max int) {
	if len(findings) == 0 {
		return
	}
	fmt.Fprintf(b, "\n#### Structural findings\n\n| | rule | tool | line | finding |\n|---|---|---|---:|---|\n")
	rows := findings
	if max > 0 && len(rows) > max {
		rows = rows[:max]
	}
	for _, f := range rows {
		mark := "⚠️ warn"
		if f.Severity == lint.SeverityError {
			mark = "❌ error"
		}
		msg := mdCell(f.Message)
		if f.Suggestion != "" {
			how := " Suggest: `"
			if len(f.Fix) > 0 {
				how = " Fix (`lint --fix`): `"
			}
			msg += how + mdCode(f.Suggestion) + "`"
		}
		line := ""
		if f.Line > 0 {
			line = fmt.Sprint(f.Line)
		}
		fmt.Fprintf(b, "| %s%s | `%s` | `%s` | %s | %s |\n", mark, stateText(f.BaselineState), mdCode(ruleLabel(f)), mdCode(findingWhere(f)), line, msg)
	}
	if len(rows) < len(findings) {
		fmt.Fprintf(b, "\n… and %d more findings (run `toolscope lint --format json` for all).\n", len(findings)-len(rows))
	}
}

// mdMostSimilar is the folded list of the top ranked pairs, those the
// config accepts marked.
func mdMostSimilar(b *bufio.Writer, r *lint.Report, sim *similarity.Result, n int) {
	top := sim.Ranked[:min(n, len(sim.Ranked))]
	fmt.Fprintf(b, "\n<details><summary>Most similar pairs (top %d of %d)</summary>\n\n| score | tools |\n|---:|---|\n", len(top), sim.PairCount)
	accepted := acceptedPairs(r)
	for _, p := range top {
		mark := ""
		if accepted[lint.PairKey(p.A, p.B)] {
			mark = " (accepted)"
		}
		fmt.Fprintf(b, "| %s | `%s` ↔ `%s`%s |\n", scoreText(p.Similarity, p.Affinity, sim), mdCode(p.A), mdCode(p.B), mark)
	}
	fmt.Fprintln(b, "\n</details>")
}

// mdAccepted is what the config waives, with its reasons, for the
// reviewer: folded, capped at max rows (0 for all).
func mdAccepted(b *bufio.Writer, sup *lint.Suppressed, max int) {
	fmt.Fprintf(b, "\n<details><summary>Accepted by the config (%d)</summary>\n\n| accepted | reason |\n|---|---|\n", len(sup.Findings)+len(sup.Pairs))
	var rows []string
	for _, p := range sup.Pairs {
		rows = append(rows, fmt.Sprintf("| %s `%s` ↔ `%s` | %s |", p.Kind, mdCode(p.A), mdCode(p.B), mdCell(p.Suppression)))
	}
	for _, f := range sup.Findings {
		rows = append(rows, fmt.Sprintf("| `%s` on `%s` | %s |", f.Rule, mdCode(findingWhere(f)), mdCell(f.Suppression)))
	}
	shown := rows
	if max > 0 && len(shown) > max {
		shown = shown[:max]
	}
	fmt.Fprintln(b, strings.Join(shown, "\n"))
	if len(shown) < len(rows) {
		fmt.Fprintf(b, "\n… and %d more.\n", len(rows)-len(shown))
	}
	fmt.Fprintln(b, "\n</details>")
}

// acceptedPairs are the keys of the pairs the config accepted.
func acceptedPairs(r *lint.Report) map[string]bool {
	accepted := map[string]bool{}
	if r.Suppressed != nil {
		for _, p := range r.Suppressed.Pairs {
			accepted[lint.PairKey(p.A, p.B)] = true
		}
	}
	return accepted
}

func mdPairs(b *bufio.Writer, title string, list []similarity.PairFinding, max int, sim *similarity.Result, fold bool) {
	if len(list) == 0 {
		return
	}
	mdSectionStart(b, title, len(list), fold)
	fmt.Fprintln(b, "| score | tools | hint |\n|---:|---|---|")
	rows := list
	if max > 0 && len(rows) > max {
		rows = rows[:max]
	}
	for _, p := range rows {
		hint := mdCell(p.Hint)
		if len(p.Reasons) > 0 {
			hint = "Why: " + mdCell(ReasonsText(p.Reasons)) + ". Hint: " + hint
		}
		fmt.Fprintf(b, "| %s%s%s | `%s` ↔ `%s` | %s |\n", scoreText(p.Similarity, p.Affinity, sim), bandNote(p), stateText(p.BaselineState), mdCode(p.A), mdCode(p.B), hint)
	}
	if len(rows) < len(list) {
		fmt.Fprintf(b, "\n… and %d more.\n", len(list)-len(rows))
	}
	mdSectionEnd(b, fold)
}

// mdSectionStart opens a section of n rows: a heading, or when fold a
// <details> block that GitHub shows closed; mdSectionEnd closes it.
func mdSectionStart(b *bufio.Writer, title string, n int, fold bool) {
	if fold {
		fmt.Fprintf(b, "\n<details><summary>%s (%d)</summary>\n\n", title, n)
	} else {
		fmt.Fprintf(b, "\n#### %s (%d)\n\n", title, n)
	}
}

func mdSectionEnd(b *bufio.Writer, fold bool) {
	if fold {
		fmt.Fprintln(b, "\n</details>")
	}
}

// MarkdownCell and MarkdownCode make text safe inside a Markdown table
// cell, as prose and as `code`.
var MarkdownCell, MarkdownCode = mdCell, mdCode

// safe makes catalog text fit to print on one line of a terminal: control
// characters and bidi overrides are spelled as escapes (termsafe.Line).
func safe(s string) string { return termsafe.Line(s) }

// mdCell makes text safe inside a table cell: one line, control characters
// spelled out, HTML left inert, and the characters that would end the cell
// or make markup escaped: a pipe, a backslash (which could escape the
// pipe's own escape), a backtick (a code span swallowing the rest), and
// square brackets (a link or an image, which a pull-request comment would
// load).
func mdCell(s string) string {
	s = termsafe.Line(strings.Join(strings.Fields(s), " "))
	return mdCellEscaper.Replace(s)
}

var mdCellEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "`", "\\`", "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;")

// mdCode makes text safe inside `code` in a table cell: one line, control
// characters spelled out, backticks (which would end the span) made
// quotes, pipes escaped, and backslashes right before a pipe doubled, since
// a table reads `\\|` as an escaped backslash and a cell's end.
func mdCode(s string) string {
	s = termsafe.Line(strings.Join(strings.Fields(s), " "))
	if !strings.ContainsAny(s, "`|") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '`':
			b.WriteByte('\'')
		case c == '|':
			b.WriteString(`\|`)
		case c == '\\':
			// A run of backslashes before a pipe is doubled, so that the
			// table reads escaped backslashes and then the escaped pipe.
			j := i
			for j < len(s) && s[j] == '\\' {
				j++
			}
			run := s[i:j]
			if j < len(s) && s[j] == '|' {
				run += run
			}
			b.WriteString(run)
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// WriteRulesText lists rules with their teaching text, for a person.
func WriteRulesText(w io.Writer, rules []lint.Rule) error {
	b := bufio.NewWriter(w)
	for k, r := range rules {
		if k > 0 {
			b.WriteString("\n")
		}
		tier := ""
		if r.Tier != "" {
			tier = ", " + string(r.Tier)
		}
		fmt.Fprintf(b, "%s (%s%s)\n  %s\n\n", safe(r.ID), r.Severity, tier, safe(r.Summary))
		fmt.Fprintf(b, "  Why: %s\n  Fix: %s\n", safe(r.Teaching.Why), safe(r.Teaching.Fix))
		fmt.Fprintf(b, "  Before:\n%s\n  After:\n%s\n", indent(termsafe.Block(r.Teaching.Before), "    "), indent(termsafe.Block(r.Teaching.After), "    "))
	}
	b.WriteString("\nSimilarity (not a rule: pairs of tools a model could mix up)\n")
	for _, s := range similarity.Scorings {
		fmt.Fprintf(b, "  %s: %s\n", s, s.Explain())
	}
	return b.Flush()
}

// WriteRulesJSON lists rules as JSON: id, severity, summary, teaching;
// then what each scoring's score means.
func WriteRulesJSON(w io.Writer, rules []lint.Rule) error {
	enc := json.NewEncoder(termsafe.JSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	type scoring struct {
		Name    similarity.Scoring `json:"name"`
		Meaning string             `json:"meaning"`
	}
	var scorings []scoring
	for _, s := range similarity.Scorings {
		scorings = append(scorings, scoring{s, s.Explain()})
	}
	return enc.Encode(struct {
		Rules    []lint.Rule `json:"rules"`
		Scorings []scoring   `json:"scorings"`
	}{rules, scorings})
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// skippedWhy says why similarity was not scored: no embedder was asked
// for, or the catalog has fewer than two distinct tools to compare.
func skippedWhy(sim similarity.Result, tools int) string {
	switch {
	case sim.Embedder == "":
		return "no embedder: --no-similarity"
	case tools == 1:
		return "one tool: nothing to compare it with"
	case tools == 0:
		return "no tools"
	default:
		return fmt.Sprintf("fewer than two distinct tools: the %d share one name", tools)
	}
}
