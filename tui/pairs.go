package tui

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	chat "toolscope/core/judge"
	"toolscope/core/report"
	"toolscope/core/similarity"
)

// pairsDetailMin is the least pane height that keeps a detail area for the
// selected pair's full hint under the list.
const pairsDetailMin = 12

// pairsPane lists similarity pairs: the selected tool's nearest neighbours,
// or the catalog's global ranking, with verdict marks, scores and hints.
type pairsPane struct {
	paneBase

	snap   *snapshot
	tool   int
	global bool
	// hideTriaged leaves out the pairs the project config accepts.
	hideTriaged bool
	// only, when set, keeps the ranking to the pairs with a tool it marks
	// (by catalog index): the tool filter's.
	only []bool
	// pending says why there are no pairs yet (running, off, failed);
	// thresholds says which are in force and where they come from.
	pending    string
	thresholds string

	rows   []similarity.Pair
	cursor int
	offset int
	// heights caches each row's height (1 + its wrapped hint) for the
	// width heightsW; 0 is not measured yet. Rows, verdicts and the width
	// change only through show and setSize, which drop it.
	heights  []int
	heightsW int

	// judgments are the chat model's answers so far, shared with the root;
	// recorded finds the recorded ones (nil for none).
	judgments map[[2]string]chat.Judgment
	// fixes are the fix trials so far, shared with the root.
	fixes    map[[2]string]chat.FixTrial
	recorded RecordedFunc
	// probe is the recorded probe's measure of each pair, shown beside
	// the score; its column is absent without a record.
	probe *probeRates
}

func newPairsPane(keys *KeyMap, styles *Styles) *pairsPane {
	return &pairsPane{paneBase: paneBase{keys: keys, styles: styles}, tool: -1, probe: newProbeRates(nil)}
}

// show follows the snapshot and the selected tool; pending says what the
// similarity is doing while there are no verdicts.
func (p *pairsPane) show(s *snapshot, tool int, pending, thresholds string) {
	keep, had := p.selected()
	sameTool := nameAt(p.snap, p.tool) == nameAt(s, tool)
	p.snap, p.tool, p.pending, p.thresholds = s, tool, pending, thresholds
	p.probe.follow(s.cat)
	p.heights = p.heights[:0]
	p.rows = p.rows[:0]
	if s.sim != nil {
		switch {
		case p.global:
			p.rows = s.sim.Ranked
		case tool >= 0 && tool < len(s.sim.Neighbours):
			p.rows = s.sim.Neighbours[tool]
		}
	}
	if p.hideTriaged || p.global && p.only != nil {
		p.rows = slices.DeleteFunc(slices.Clone(p.rows), func(pr similarity.Pair) bool {
			if v := s.verdict(pr); p.hideTriaged && v != nil && v.Suppression != "" {
				return true
			}
			return p.global && p.only != nil && !p.keeps(pr.I) && !p.keeps(pr.J)
		})
	}
	if !sameTool && !p.global {
		p.cursor, p.offset = 0, 0
	} else if had {
		p.cursor = 0
		for i, r := range p.rows {
			if r.A == keep.A && r.B == keep.B {
				p.cursor = i
			}
		}
	}
	p.cursor = clampInt(p.cursor, 0, max(len(p.rows)-1, 0))
	p.scroll()
}

// keeps reports whether the tool filter keeps catalog tool i.
func (p *pairsPane) keeps(i int) bool { return i >= 0 && i < len(p.only) && p.only[i] }

// selected is the pair under the cursor.
func (p *pairsPane) selected() (similarity.Pair, bool) {
	if p.cursor < 0 || p.cursor >= len(p.rows) {
		return similarity.Pair{}, false
	}
	return p.rows[p.cursor], true
}

func (p *pairsPane) setSize(w, h int) {
	p.w, p.h = w, h
	p.scroll()
}

func (p *pairsPane) title() string {
	if p.global && p.only != nil && p.snap != nil && p.snap.sim != nil {
		return fmt.Sprintf("Ranking · filtered %d/%d", len(p.rows), len(p.snap.sim.Ranked))
	}
	if p.global {
		return "Ranking"
	}
	if name := nameAt(p.snap, p.tool); name != "" {
		return "Neighbours of " + shown(name)
	}
	return "Pairs"
}

func (p *pairsPane) Typing() bool { return false }

func (p *pairsPane) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if d, ok := p.keys.movement(km, p.listHeight(), len(p.rows)); ok {
		p.move(d)
	} else if key.Matches(km, p.keys.Scope) {
		p.global = !p.global
		// Either list starts at its top, the worst pairs: no pair is
		// carried over from the other (-1 selects none, show clamps).
		p.cursor, p.offset = -1, 0
		p.show(p.snap, p.tool, p.pending, p.thresholds)
	}
	return nil
}

func (p *pairsPane) move(d int) {
	p.cursor = clampInt(p.cursor+d, 0, max(len(p.rows)-1, 0))
	p.scroll()
}

// notesFullMin is the least pane height at which the caveats are shown
// whole; lower, each gets one line (help has them in full).
const notesFullMin = 30

// notes are the caveats shown above the list (the mock's honesty note, an
// uncalibrated embedder).
func (p *pairsPane) notes() []string {
	if p.snap == nil || p.snap.sim == nil {
		return nil
	}
	var out []string
	if cut := p.rankCut(); cut != "" {
		out = append(out, clip(cut, p.w))
	}
	for _, n := range p.snap.sim.Notes {
		if p.h >= notesFullMin {
			out = append(out, wrap(shown(oneLine("! "+n)), p.w)...)
		} else {
			out = append(out, clipWords(shown(oneLine("! "+n)), p.w))
		}
	}
	return out
}

// rankCut says, in the ranking, that it stops at the rank limit: how many
// pairs were compared and, when verdicts fall beyond it, how many.
func (p *pairsPane) rankCut() string {
	sim := p.snap.sim
	if !p.global || len(sim.Ranked) >= sim.PairCount {
		return ""
	}
	text := fmt.Sprintf("the top %d of %d pairs", len(sim.Ranked), sim.PairCount)
	if flagged := sim.ConfusableCount + sim.WatchCount; flagged > len(sim.Ranked) {
		text += fmt.Sprintf("; %d are flagged: --rank-limit lists more", flagged)
	}
	return text
}

// detailHeight is the height kept under the list for the selected pair.
func (p *pairsPane) detailHeight() int {
	if p.h < pairsDetailMin {
		return 0
	}
	return clampInt(p.h/3, 4, 9)
}

func (p *pairsPane) listHeight() int {
	return max(p.h-len(p.notes())-p.detailHeight()-1, 1)
}

// rowHeight is one pair's lines: a flagged neighbour carries its hint;
// in the ranking, one line a pair (the detail area has the selected
// pair's hint whole), so a screen holds as many pairs as it has lines.
func (p *pairsPane) rowHeight(i int) int {
	if len(p.heights) != len(p.rows) || p.heightsW != p.w {
		p.heights = slices.Grow(p.heights[:0], len(p.rows))[:len(p.rows)]
		clear(p.heights)
		p.heightsW = p.w
	}
	if p.heights[i] == 0 {
		p.heights[i] = 1 + len(p.rowHint(i))
	}
	return p.heights[i]
}

// scroll keeps the cursor's row in view, moving the list no more than it
// must: the top row is found from the cursor back, so a jump to the end
// of a long ranking measures only the rows that end up on screen.
func (p *pairsPane) scroll() {
	if p.snap == nil || len(p.rows) == 0 {
		p.offset = 0
		return
	}
	if p.cursor < p.offset {
		p.offset = p.cursor
		return
	}
	listH := p.listHeight()
	top, h := p.cursor, 0
	for i := p.cursor; i >= p.offset; i-- {
		if h += p.rowHeight(i); h > listH {
			break
		}
		top = i
	}
	p.offset = top
}

func (p *pairsPane) View() string {
	if p.snap == nil {
		return ""
	}
	st := p.styles
	var lines []string
	for _, n := range p.notes() {
		lines = append(lines, st.Warn.Render(n))
	}
	if p.snap.sim == nil || len(p.rows) == 0 {
		msg := p.pending
		if p.snap.sim != nil {
			msg = "no pairs: the catalog has fewer than two distinct tools"
		}
		return strings.Join(append(lines, st.Muted.Render(msg)), "\n")
	}
	listH := p.listHeight()
	used := 0
	for i := p.offset; i < len(p.rows) && (i == p.offset || used+p.rowHeight(i) <= listH); i++ {
		row := p.row(i)
		// A row taller than the whole list (a tiny pane) shows its start.
		row = row[:min(len(row), listH)]
		lines = append(lines, row...)
		used += len(row)
	}
	for ; used < listH; used++ {
		lines = append(lines, "")
	}
	scope := "g global ranking"
	if p.global {
		scope = "g neighbours"
	}
	// The thresholds in force always show; the keys after them only when
	// there is room (the footer and help have them too).
	under := p.thresholds
	more := []string{" · " + scope, " · enter compare"}
	if p.probe.width > 0 {
		more = append([]string{" · N/M probed mix-ups"}, more...)
	}
	for _, more := range more {
		if ansi.StringWidth(under+more) > p.w {
			break
		}
		under += more
	}
	lines = append(lines, st.Muted.Render(clip(under, p.w)))
	if p.detailHeight() > 0 {
		lines = append(lines, p.detail()...)
	}
	return strings.Join(lines, "\n")
}

// row renders pair i: mark, score, and the other tool (neighbours) or both
// (ranking); a flagged pair's hint follows on its own line.
func (p *pairsPane) row(i int) []string {
	st := p.styles
	pr := p.rows[i]
	v := p.snap.verdict(pr)
	mark := "  "
	switch {
	case v != nil && v.Suppression != "":
		mark = st.Muted.Render("○ ")
	case v != nil && v.Kind == similarity.Confusable:
		mark = st.Confusable.Render("⇄ ")
	case v != nil:
		mark = st.Watch.Render("≈ ")
	}
	score := p.score(pr.Similarity)
	if p.probe.width > 0 {
		// The probe's measure, beside the score: requests for either tool
		// that went to the other; a stale one dim with its mark.
		cell, stale := p.probe.cell(pr)
		if stale {
			cell = st.Muted.Render(cell)
		}
		score += " " + cell
	}
	room := max(p.w-4-ansi.StringWidth(score)-2, 1)
	var name string
	if p.global {
		name = pairNames(shown(pr.A), shown(pr.B), room)
	} else {
		other := pr.B
		if pr.B == nameAt(p.snap, p.tool) {
			other = pr.A
		}
		name = clipMiddle(shown(other), room)
	}
	cur := "  "
	if i == p.cursor {
		cur = "▸ "
		name = st.Selected.Render(name)
	}
	out := []string{cur + mark + score + "  " + name}
	for _, l := range p.rowHint(i) {
		out = append(out, "     "+st.Muted.Render(l))
	}
	return out
}

// rowHint is the hint under row i: a flagged neighbour's, or in the
// ranking only when there is no detail area to show it.
func (p *pairsPane) rowHint(i int) []string {
	if p.global && p.detailHeight() > 0 {
		return nil
	}
	return p.hintLines(p.snap.verdict(p.rows[i]))
}

// hintLines is a flagged pair's short hint under its row, wrapped whole.
func (p *pairsPane) hintLines(v *similarity.PairFinding) []string {
	if v == nil {
		return nil
	}
	if v.Suppression != "" {
		return wrap(shown(oneLine("accepted: "+v.Suppression)), max(p.w-5, 1))
	}
	return wrap(shown(oneLine(shortHint(v))), max(p.w-5, 1))
}

// shortHint is a verdict's hint in a few words, for the one line under a
// pair; the detail area and the comparison have it whole.
func shortHint(v *similarity.PairFinding) string {
	ax := v.Axis
	switch ax.Kind {
	case similarity.AxisQualifier:
		var words []string
		for _, q := range ax.Qualifiers {
			if strings.TrimSpace(q) != "" {
				words = append(words, q)
			}
		}
		if len(words) == 0 {
			// Merged catalogs: names alike but for the server's prefix.
			return "names alike: say WHEN to pick each"
		}
		return "names differ by " + quoted(words, " vs ") + ": say WHEN to pick each"
	case similarity.AxisTerms:
		// Words only one description uses are no condition: the hint in
		// full (enter) says what differs and proposes the sentences.
		return "say in each description when to pick it over the other"
	case similarity.AxisNearDuplicate:
		return "near-duplicate descriptions: say when each is the right call"
	}
	return v.Hint
}

// verdictText names a verdict, and says when the config accepted it.
func verdictText(v *similarity.PairFinding) string {
	if v.Suppression != "" {
		return v.Kind.Shown() + ", accepted"
	}
	return v.Kind.Shown()
}

func quoted(words []string, sep string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + w + "'"
	}
	return strings.Join(q, sep)
}

// score shows a pair's score under the snapshot's scoring.
func (p *pairsPane) score(v float64) string {
	if p.snap.sim == nil {
		return scoreText("", v)
	}
	return scoreText(p.snap.sim.Scoring, v)
}

// scoreText shows a score: signed under the adaptive scoring, whose scores
// go both ways around zero.
func scoreText(s similarity.Scoring, v float64) string {
	if s == similarity.ScoringAdaptive {
		return signed(v)
	}
	return fmt.Sprintf("%.3f", v)
}

// detail is the selected pair in full: names, score, affinity, verdict and
// the whole hint.
func (p *pairsPane) detail() []string {
	pr, ok := p.selected()
	if !ok {
		return nil
	}
	st := p.styles
	names := shown(pr.A) + " ↔ " + shown(pr.B)
	facts := p.score(pr.Similarity)
	var th *similarity.Thresholds
	if p.snap.sim != nil && !p.snap.sim.Thresholds.ReportOnly() && p.snap.sim.Scoring == similarity.ScoringRisk {
		th = &p.snap.sim.Thresholds
	}
	if pr.Risk != nil {
		facts = "risk " + similarity.RiskText(*pr.Risk, th)
	} else if pr.Affinity != nil {
		facts += fmt.Sprintf(" · affinity %.2f", *pr.Affinity)
	}
	v := p.snap.verdict(pr)
	if v != nil {
		facts += " · " + verdictText(v)
	} else {
		facts += " · " + similarity.LowShown
	}
	if pr.Risk != nil && th != nil {
		facts += bandNote(*pr.Risk, *th, v, p.judgmentText(pr) != "")
	}
	// The facts go under the names rather than lose the verdict at the
	// end of a line too narrow for both; the hint has the rest of the room.
	out := []string{st.Bold.Render(names + "  " + facts)}
	if ansi.StringWidth(names+"  "+facts) > p.w {
		out = []string{st.Bold.Render(pairNames(shown(pr.A), shown(pr.B), p.w)), st.Bold.Render(clip(facts, p.w))}
	}
	if pt := p.probe.text(pr); pt != "" {
		out = append(out, wholeSentences(shown(oneLine(pt)), p.w, max(p.detailHeight()-len(out)-1, 1), "(more: enter compares)")...)
	}
	jt := p.judgmentText(pr)
	if jt != "" {
		out = append(out, wholeSentences(shown(oneLine(jt)), p.w, max(p.detailHeight()-len(out)-1, 1), "(more: enter compares)")...)
	}
	if ft := p.fixText(pr); ft != "" {
		out = append(out, wholeSentences(shown(oneLine(ft)), p.w, max(p.detailHeight()-len(out)-1, 1), "(more: enter compares)")...)
	}
	// A verdict the judgment set says again what its line just said.
	if v != nil && !(jt != "" && strings.HasPrefix(v.Hint, chat.JudgedHint) && len(v.Reasons) == 0 && v.Suppression == "") {
		text := v.Hint
		if len(v.Reasons) > 0 {
			text = "why: " + report.ReasonsText(v.Reasons) + ". hint: " + text
		}
		if v.Suppression != "" {
			text = "accepted: " + v.Suppression + ". " + text
		}
		out = append(out, wholeSentences(shown(oneLine(text)), p.w, p.detailHeight()-len(out), "(the rest: enter compares)")...)
	}
	return out
}

func (p *pairsPane) Keys() []key.Binding {
	k := p.keys
	return append([]key.Binding{k.Scope, k.Compare, k.Accept, k.Undo, k.Judge, k.FixPair}, k.movementKeys()...)
}

// shownRows is how many rows from offset the list has room for.
func (p *pairsPane) shownRows() int {
	listH, used, n := p.listHeight(), 0, 0
	for i := p.offset; i < len(p.rows) && (i == p.offset || used+p.rowHeight(i) <= listH); i++ {
		used += p.rowHeight(i)
		n++
	}
	return n
}

func (p *pairsPane) position() string {
	if p.snap == nil || p.snap.sim == nil {
		return ""
	}
	return listPosition(p.cursor, len(p.rows), p.offset, p.shownRows())
}

// clickRow selects the pair drawn on content row row (a pair's hint lines
// belong to it).
func (p *pairsPane) clickRow(row int) {
	if p.snap == nil || p.snap.sim == nil {
		return
	}
	y := len(p.notes())
	for i := p.offset; i < p.offset+p.shownRows(); i++ {
		h := p.rowHeight(i)
		if row >= y && row < y+h {
			p.cursor = i
			p.scroll()
			return
		}
		y += h
	}
}

// bandNote says, after a pair's verdict, what the thresholds shown above
// it would not: that its risk is just under a band's start (the bar with
// the digits that tell them apart), or why its verdict is not its band's
// (a judgment, an accept).
func bandNote(r float64, th similarity.Thresholds, v *similarity.PairFinding, judged bool) string {
	review := th.ReviewStart()
	band := similarity.Verdict("")
	switch {
	case r >= th.Confusability:
		band = similarity.Confusable
	case r >= review:
		band = similarity.Watch
	}
	got := similarity.Verdict("")
	if v != nil {
		got = v.Kind
	}
	if got != band {
		bandName := similarity.LowShown
		if band != "" {
			bandName = band.Shown()
		}
		if judged {
			return " (judged; the risk alone: " + bandName + ")"
		}
		return " (the risk alone: " + bandName + ")"
	}
	// Just under a start the two-decimal thresholds would hide.
	for _, b := range []struct {
		at   float64
		name string
	}{{th.Confusability, "confusable"}, {review, "review"}} {
		if r < b.at && fmt.Sprintf("%.2f", r) == similarity.StartText(b.at) {
			return fmt.Sprintf(" (just under %s, from %s)", b.name, strconv.FormatFloat(math.Round(b.at*1e5)/1e5, 'f', -1, 64))
		}
	}
	return ""
}
