package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"toolscope/core/similarity"

	"github.com/charmbracelet/x/ansi"
)

// progressWidth is the width of the header's progress bar.
const progressWidth = 14

// header is the status line: the catalog, the gate's counts and verdict,
// and the similarity's state (progress while it runs). It drops detail to
// fit narrow screens rather than cutting the verdict off.
func (m *Model) header() string {
	st := m.styles
	s := m.snap
	r := s.report
	source := m.opts.Origin
	if source == "" {
		source = filepath.Base(s.cat.Source)
	}
	source = shown(source)
	if start := m.start(); start != nil {
		// No catalog yet: no counts, no verdict, nothing checked.
		state := "reaching the source"
		if start.err != nil {
			state = st.Error.Render("not reached")
		}
		return st.Header.Render(clip(" toolscope · "+source+" · "+state, m.layout.Width))
	}
	sim := m.similarityStatus()
	verdict := m.verdict()
	long := []string{"toolscope", source, plural(len(s.cat.Tools), "tool"), sim,
		count(fmt.Sprintf("%d confusable", r.Summary.Confusable), r.Summary.Confusable, st.Confusable.Render),
		count(fmt.Sprintf("%d review", r.Summary.Watch), r.Summary.Watch, st.Watch.Render),
		count(plural(r.Summary.Errors, "error"), r.Summary.Errors, st.Error.Render),
		count(plural(r.Summary.Warnings, "warning"), r.Summary.Warnings, st.Warn.Render)}
	var tail []string
	if sc := m.scoreStatus(); sc != "" {
		tail = append(tail, sc)
	}
	tail = append(tail, verdict)
	line := m.longHeader(long, tail, m.suppressedText())
	// The form follows the width, not the content: under the wide layout
	// the short form always, so the header does not switch as a progress
	// label or a count grows.
	if m.layout.Width < WideMinWidth || ansi.StringWidth(line) > m.layout.Width {
		short := fmt.Sprintf("⇄%d ≈%d ✗%d ~%d", r.Summary.Confusable, r.Summary.Watch, r.Summary.Errors, r.Summary.Warnings)
		if sc := m.score(); sc != nil {
			short += fmt.Sprintf(" · %d/100", sc.Catalog)
			if m.eng.departed() != "" {
				short += " (not the gate's)"
			}
		}
		line = " " + strings.Join([]string{verdict, short, source, sim}, " · ")
	}
	return st.Header.Render(clip(line, m.layout.Width))
}

// verdict is the header's word on the gate: PASS or FAIL once the rules
// and the pairs are in, else what is still running.
func (m *Model) verdict() string {
	st := m.styles
	switch {
	case !m.snap.analysed:
		return st.Muted.Render("checking the rules…")
	case !m.snap.report.OK:
		return st.Error.Render("FAIL")
	case m.eng.verdictsPending(m.snap.sim != nil):
		// The pairs can still fail the gate: no PASS before they are in.
		return st.Muted.Render("scoring…")
	}
	return st.OK.Render("PASS")
}

// suppressedText counts what the project config accepted and ignored,
// "" when nothing.
func (m *Model) suppressedText() string {
	sup := m.snap.report.Suppressed
	if sup == nil || len(sup.Findings)+len(sup.Pairs) == 0 {
		return ""
	}
	// Only the counts there are: "1 accepted", not "1 accepted, 0
	// ignored".
	var parts []string
	if n := len(sup.Pairs); n > 0 {
		parts = append(parts, fmt.Sprintf("%d accepted", n))
	}
	if n := len(sup.Findings); n > 0 {
		parts = append(parts, fmt.Sprintf("%d ignored", n))
	}
	return m.styles.Muted.Render(strings.Join(parts, ", "))
}

// longHeader is the header's long form: long (its third part the tool
// count), accepted, then tail. The catalog's tokens go beside its tool
// count where they fit (the count alone when its share does not): the
// long form is not given up for them, but the accepted count is, as an
// accept must not take the tokens away.
func (m *Model) longHeader(long, tail []string, accepted string) string {
	tools := long[2]
	form := func(tok, acc string) string {
		parts := slices.Clone(long)
		if tok != "" {
			parts[2] = tools + ", " + tok
		}
		if acc != "" {
			parts = append(parts, acc)
		}
		return " " + strings.Join(append(parts, tail...), " · ")
	}
	line := form("", accepted)
	tok, short := m.tokensStatus(), m.tokensShort()
	for _, c := range [][2]string{{tok, accepted}, {short, accepted}, {tok, ""}, {short, ""}} {
		if c[0] == "" {
			continue
		}
		if with := form(c[0], c[1]); ansi.StringWidth(with) <= m.layout.Width {
			return with
		}
	}
	return line
}

// count colours a count's text when the count is not zero.
func count(text string, n int, render func(...string) string) string {
	if n == 0 {
		return text
	}
	return render(text)
}

// similarityStatus says what the similarity is doing: off, running (with
// progress), or which embedder and scoring produced the verdicts.
func (m *Model) similarityStatus() string {
	switch {
	case m.eng.spec == "":
		return "similarity off"
	case m.eng.job != nil:
		p := m.eng.job.last
		label := "opening " + shown(m.eng.spec)
		frac := 0.0
		switch {
		case p.Total > 0:
			frac = float64(p.Done) / float64(p.Total)
			label = string(p.Stage) + " " + fmt.Sprintf("%d/%d", p.Done, p.Total)
		case p.Stage != "":
			// A stage without a count (the features, the verdicts) is
			// named; the label never goes back to "opening".
			frac = 1
			label = string(p.Stage) + "…"
		}
		return label + " " + m.styles.bar(frac, progressWidth)
	case m.eng.scores == nil:
		return shown(m.eng.spec) + " " + string(m.eng.scoring) + " (no verdicts)"
	case m.snap.sim == nil:
		// Scored, the verdicts on their way.
		return shown(m.eng.spec) + " " + string(m.eng.scoring) + " · verdicts…"
	}
	return shown(m.snap.report.Similarity.Embedder) + " " + string(m.eng.scoring)
}

// thresholdText shows thresholds as the pairs pane lists them, in the
// reports' words and digits (similarity.StartText): under the risk
// scoring where each verdict starts (a risk is a chance, never negative);
// under the others the threshold, signed as the adaptive scores go both
// ways, and the review band below it.
func thresholdText(th similarity.Thresholds, s similarity.Scoring) string {
	switch {
	case th.ReportOnly():
		return "report only"
	case s == similarity.ScoringRisk && th.CrossServer > 0:
		return "confusable from " + similarity.StartText(th.Confusability) + " · review from " + similarity.StartText(th.ReviewStart()) +
			" · across servers from " + similarity.StartText(th.CrossServer)
	case s == similarity.ScoringRisk:
		return "confusable from " + similarity.StartText(th.Confusability) + " · review from " + similarity.StartText(th.ReviewStart())
	}
	at := similarity.StartText(th.Confusability)
	if s == similarity.ScoringAdaptive {
		at = signed(th.Confusability)
	}
	return "confusable from " + at + " · review band " + similarity.StartText(th.WatchBand)
}

// thresholdStatus is the thresholds in force and, unless they are the
// scoring's defaults, where they come from: moved here, given as flags, or
// the embedder's calibration for the scoring.
func (m *Model) thresholdStatus() string {
	th := thresholdText(m.eng.thresholds(), m.eng.scoring)
	switch src := m.eng.thresholdSource(); {
	case src != "":
		return th + " (" + src + ")"
	case m.snap.sim != nil && m.snap.sim.Calibrated:
		return th + " (" + shown(m.snap.sim.Embedder) + " calibration)"
	}
	return th
}

// signed shows a score with its sign, as the adaptive scoring's scores go
// both ways.
func signed(v float64) string { return fmt.Sprintf("%+.2f", v) }

// bar draws a progress bar of w cells, frac of it filled.
func (s Styles) bar(frac float64, w int) string {
	n := clampInt(int(frac*float64(w)+0.5), 0, w)
	return s.KeyHint.Render(strings.Repeat("█", n)) + s.Muted.Render(strings.Repeat("░", w-n))
}
