package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"toolscope/core/catalog"
	"toolscope/core/report"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
	"toolscope/embed"
)

// whatIfView is the what-if field: the selected tool's description in a
// text field and, on every change, the tool's pairs scored again with the
// edited description (similarity.Scores.WhatIfExplained, in the background): the
// risk before and after, its band and main reasons. A pair with a tool
// that has a draft of its own is scored with both drafts. Nothing is written:
// esc leaves and the catalog stays as it was (E edits the real file).
type whatIfView struct {
	paneBase
	layerBase

	tool     int // catalog index
	name     string
	original string
	field    textarea.Model
	// score runs one what-if off the UI goroutine; th are the thresholds
	// in force, for the bands.
	score func(id int, text string, others map[int]string) tea.Cmd
	th    similarity.Thresholds
	// others are the other tools' drafts, by catalog index, taken when
	// the field opened: the after of a pair with one of them is scored
	// with both drafts, the before with neither.
	others map[int]string

	// reqID numbers the texts asked for; one run is in flight at a time
	// and again asks for the latest text when it ends, so a held key never
	// queues up runs and a superseded answer is dropped. The numbers come
	// from ids, shared by every what-if the explorer opens, so an answer
	// for an earlier field (another tool's, perhaps) is told by its number
	// being under firstID.
	ids      *int
	firstID  int
	reqID    int
	inFlight bool
	again    bool
	// before is each other tool's risk with the description as it is, by
	// catalog index; nil until the first run answers.
	before map[int]float64
	rows   []whatIfRow
	err    string
	lines  []string
	// proposedText and proposedOthers are the texts with the sentences the
	// tool's flagged pairs propose (whatif_proposed.go); proposed is each
	// such pair's risk with them, by the other tool's index, once scored.
	proposedText   string
	proposedOthers map[int]string
	proposedID     int
	proposed       map[int]float64
}

// whatIfRow is one pair of the what-if.
type whatIfRow struct {
	other   string
	j       int
	before  float64
	after   float64
	reasons []similarity.Reason
	// drafted: the other tool has a draft, and the after is scored with it.
	drafted bool
}

// whatIfMsg answers a what-if run.
type whatIfMsg struct {
	id    int
	pairs []similarity.WhatIfPair
	err   error
}

// whatIfRunner scores description for the catalog tool against the others
// (with their drafts, others) with scores and e, in the background; the
// reply carries id.
func whatIfRunner(scores *similarity.Scores, e embed.Embedder, tool int) func(id int, text string, others map[int]string) tea.Cmd {
	return func(id int, text string, others map[int]string) tea.Cmd {
		return safeID("what-if", id, func() tea.Msg {
			pairs, err := scores.WhatIfExplained(context.Background(), e, tool, text, others)
			return whatIfMsg{id: id, pairs: pairs, err: err}
		})
	}
}

// newWhatIfView opens the what-if on the catalog tool t; ids numbers the
// runs of every what-if, th are the thresholds its verdicts are read
// against and score runs a text in the background.
func newWhatIfView(keys *KeyMap, styles *Styles, ids *int, t *catalog.Tool, th similarity.Thresholds, score func(int, string, map[int]string) tea.Cmd) *whatIfView {
	f := textarea.New()
	f.ShowLineNumbers = false
	f.Prompt = ""
	f.CharLimit = 0
	f.Placeholder = "the tool's description"
	f.Cursor.SetMode(cursor.CursorStatic)
	f.FocusedStyle.CursorLine = lipgloss.NewStyle()
	// Escaped, not dropped: the field would strip an ESC without a word,
	// and the text scored would not be the text shown.
	f.SetValue(termsafe.Block(t.Description))
	f.Focus()
	return &whatIfView{paneBase: paneBase{keys: keys, styles: styles}, ids: ids, firstID: *ids + 1, tool: t.Index, name: t.Name, original: t.Description, field: f, score: score, th: th}
}

// start asks for the description as it is, the before of every pair;
// a draft reopened in the field runs next.
func (v *whatIfView) start() tea.Cmd {
	*v.ids++
	v.reqID = *v.ids
	v.inFlight = true
	v.again = v.edited()
	return tea.Batch(v.score(v.reqID, v.original, nil), v.startProposed())
}

// edited reports whether the field differs from the file's description.
func (v *whatIfView) edited() bool { return v.field.Value() != v.original }

// ask scores the field's text, or notes that it should be scored when
// the run in flight ends.
func (v *whatIfView) ask() tea.Cmd {
	*v.ids++
	v.reqID = *v.ids
	if v.inFlight {
		v.again = true
		return nil
	}
	v.inFlight = true
	return v.score(v.reqID, v.field.Value(), v.others)
}

// answered takes a run's answer. The first run is the description as it
// is (it always runs first: one run at a time), so its answer is kept as
// the before even when the text changed meanwhile; a later answer is
// dropped when superseded. When the text changed while the run went, the
// latest text runs now.
func (v *whatIfView) answered(msg whatIfMsg) tea.Cmd {
	if msg.id == v.proposedID && v.proposedID != 0 {
		v.takeProposed(msg)
		v.render()
		return nil
	}
	if msg.id < v.firstID {
		return nil // an earlier field's run: this one's is still going
	}
	v.inFlight = false
	first := v.before == nil
	switch {
	case msg.id != v.reqID && !first:
	case msg.err != nil:
		v.err = msg.err.Error()
	default:
		v.err = ""
		v.take(msg.pairs, first)
	}
	var cmd tea.Cmd
	if v.again {
		v.inFlight, v.again = true, false
		cmd = v.score(v.reqID, v.field.Value(), v.others)
	}
	v.render()
	return cmd
}

// take shows a run's pairs; the first run, on the description as it is,
// gives the before.
func (v *whatIfView) take(pairs []similarity.WhatIfPair, first bool) {
	if first {
		v.before = make(map[int]float64, len(pairs))
		for _, p := range pairs {
			v.before[p.J] = p.Similarity
		}
	}
	v.rows = v.rows[:0]
	for _, p := range pairs {
		_, drafted := v.others[p.J]
		v.rows = append(v.rows, whatIfRow{other: p.B, j: p.J, before: v.before[p.J], after: p.Similarity, reasons: p.Reasons, drafted: drafted})
	}
	// The pairs that were or are riskiest first, so a pair the edit
	// clears stays in sight.
	slices.SortStableFunc(v.rows, func(a, b whatIfRow) int {
		switch x, y := max(a.before, a.after), max(b.before, b.after); {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
}

func (v *whatIfView) setSize(w, h int) {
	v.w, v.h = w, h
	fh := v.fieldHeight()
	v.field.SetWidth(max(w, 1))
	v.field.SetHeight(max(fh, 1))
	v.render()
}

// fieldHeight is the field's share of the view: a third, at least 3 lines.
func (v *whatIfView) fieldHeight() int { return min(max(v.h/3, 3), max(v.h-2, 1)) }

func (v *whatIfView) title() string {
	t := "What if · " + shown(v.name) + " · risk"
	if v.inFlight {
		t += " · scoring…"
	}
	return t
}

func (v *whatIfView) Typing() bool { return true }

func (v *whatIfView) Update(msg tea.Msg) tea.Cmd {
	before := v.field.Value()
	var cmd tea.Cmd
	v.field, cmd = v.field.Update(msg)
	if v.field.Value() != before {
		return tea.Batch(cmd, v.ask())
	}
	return cmd
}

// band names the verdict a risk would get at the thresholds in force.
func (v *whatIfView) band(risk float64) (mark, name string) {
	th := v.th
	switch {
	case th.ReportOnly():
		return "  ", ""
	case risk >= th.Confusability:
		return v.styles.Confusable.Render("⇄ "), "confusable"
	case risk >= th.ReviewStart():
		return v.styles.Watch.Render("≈ "), "review"
	}
	return "  ", similarity.LowShown
}

// risk writes a risk as the pairs pane does: more digits where two would
// put it on a band's start it is under.
func (v *whatIfView) risk(r float64) string {
	if v.th.ReportOnly() {
		return similarity.RiskText(r, nil)
	}
	return similarity.RiskText(r, &v.th)
}

// render lays out the results under the field for the current width.
func (v *whatIfView) render() {
	v.lines = v.lines[:0]
	if v.w <= 0 {
		return
	}
	st := v.styles
	add := func(s lipgloss.Style, text string) {
		for _, l := range wrap(text, v.w) {
			v.lines = append(v.lines, s.Render(l))
		}
	}
	k := v.keys
	add(st.Muted, "Nothing is written: esc leaves and keeps the draft (d reopens it); "+
		k.WhatIfOther.Help().Key+" edits the other tool of the riskiest pair; "+
		k.WhatIfEdit.Help().Key+" edits the real file; "+k.WhatIfCopy.Help().Key+" copies the text; "+
		k.WhatIfReset.Help().Key+" starts again from the file; "+k.WhatIfFix.Help().Key+" adds the judge's proposed sentence.")
	switch {
	case v.err != "":
		add(st.Error, "the what-if could not be scored: "+shown(oneLine(v.err)))
	case v.before == nil:
		add(st.Muted, "scoring the description as it is…")
	}
	lastWhy := ""
	for _, r := range v.rows {
		bm, bn := v.band(r.before)
		am, an := v.band(r.after)
		line := fmt.Sprintf("%s%s %-10s → %s%s %-10s  %s", bm, v.risk(r.before), bn, am, v.risk(r.after), an, shown(r.other))
		if r.drafted {
			line += " (with its draft)"
		}
		v.lines = append(v.lines, clip(line, v.w))
		if p := v.proposedLine(r.j); p != "" {
			for _, l := range wrap(p, v.w) {
				v.lines = append(v.lines, st.Muted.Render(l))
			}
		}
		// The reasons are for a pair that is or was flagged: a pair
		// clear before and after has nothing to explain, and a sentence
		// the row above gave is not said again.
		if len(r.reasons) == 0 || bn == similarity.LowShown && an == similarity.LowShown {
			continue
		}
		why := "why: " + shown(report.ReasonsText(r.reasons))
		if why == lastWhy {
			why = "why: as above"
		}
		lastWhy = "why: " + shown(report.ReasonsText(r.reasons))
		for _, l := range wrap(why, max(v.w-4, 1)) {
			v.lines = append(v.lines, st.Muted.Render("    "+l))
		}
	}
}

func (v *whatIfView) View() string {
	if v.w <= 0 || v.h <= 0 {
		return ""
	}
	fh := v.fieldHeight()
	field := fit(fieldView(v.field.View()), v.w, fh)
	rest := max(v.h-fh-1, 0)
	res := fit(strings.Join(v.lines[:min(len(v.lines), rest)], "\n"), v.w, rest)
	if rest == 0 {
		return field
	}
	return field + "\n" + v.styles.Muted.Render(strings.Repeat("─", v.w)) + "\n" + res
}

func (v *whatIfView) Keys() []key.Binding {
	k := v.keys
	return []key.Binding{k.Back, k.WhatIfOther, k.WhatIfFix, k.WhatIfEdit, k.WhatIfCopy, k.WhatIfReset}
}

// canWhatIf reports whether the what-if field can open: a tool selected
// and its risks scored, with the embedder that scored them at hand.
func (m *Model) canWhatIf() bool {
	e := &m.eng
	return m.tools.selectedTool() >= 0 && e.scores != nil && m.snap.sim != nil &&
		m.snap.sim.Scoring == similarity.ScoringRisk && e.embedders[e.spec] != nil
}

// openWhatIf opens the what-if field on the selected tool and scores its
// description as it is, for the before of every pair.
func (m *Model) openWhatIf() tea.Cmd {
	if !m.canWhatIf() {
		return nil
	}
	i := m.tools.selectedTool()
	t := m.snap.cat.Tools[i]
	run := whatIfRunner(m.eng.scores, m.eng.embedders[m.eng.spec], t.Index)
	v := newWhatIfView(&m.keys, &m.styles, &m.whatIfIDs, t, m.eng.thresholds(), run)
	v.proposedText, v.proposedOthers = proposedTexts(m.snap.sim, t.Index, t.Description, func(j int) string { return m.snap.cat.Tools[j].Description })
	for _, o := range m.snap.cat.Tools {
		if d, ok := m.whatIfDrafts[o.Name]; ok && o.Name != t.Name {
			if v.others == nil {
				v.others = map[int]string{}
			}
			v.others[o.Index] = d
		}
	}
	if d, ok := m.whatIfDrafts[t.Name]; ok {
		v.field.SetValue(d)
	}
	m.push(v)
	return v.start()
}

// whatIfKey takes a key in the what-if: esc leaves, keeping an edited
// description as the tool's draft; the what-if's own keys; the rest is
// the field's.
func (m *Model) whatIfKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	v := m.whatIf()
	switch {
	case key.Matches(msg, k.Back):
		m.leaveWhatIf()
	case key.Matches(msg, k.WhatIfEdit):
		if m.opts.Watch == "" {
			m.notice = "no catalog file to edit (stdin, the demo or a live server)"
			return nil
		}
		m.leaveWhatIf()
		return m.editCatalog()
	case key.Matches(msg, k.WhatIfOther):
		// The hint proposes a sentence for each side: the other side is
		// one key away, each tool keeping its own draft.
		if len(v.rows) == 0 {
			m.notice = "no pair scored yet"
			return nil
		}
		other := v.rows[0].j
		m.leaveWhatIf()
		m.tools.clearFilter()
		m.tools.selectWhere(func(t int) bool { return m.snap.cat.Tools[t].Index == other })
		m.selectionChanged()
		return m.openWhatIf()
	case key.Matches(msg, k.WhatIfFix):
		sentence, why := m.judgedFix(v.name)
		if sentence == "" {
			m.notice = why
			return nil
		}
		text := v.field.Value()
		if strings.Contains(text, sentence) {
			m.notice = "the judge's sentence is in the text already"
			return nil
		}
		if text != "" && strings.TrimRight(text, " \t\n") == text {
			text += " "
		}
		v.field.SetValue(text + sentence)
		m.notice = "added the judge's proposed sentence for " + shown(v.name)
		return v.ask()
	case key.Matches(msg, k.WhatIfCopy):
		m.copyOut(v.field.Value(), "the edited description")
	case key.Matches(msg, k.WhatIfReset):
		if !v.edited() {
			return nil
		}
		m.ask("drop the edited description of "+shown(v.name)+" and start again from the file?", func() tea.Cmd {
			delete(m.whatIfDrafts, v.name)
			v.field.SetValue(v.original)
			return v.ask()
		})
	default:
		return v.Update(msg)
	}
	return nil
}

// leaveWhatIf closes the what-if; an edited description stays as the
// tool's draft, as the drawer keeps each tool's arguments.
func (m *Model) leaveWhatIf() {
	v := m.whatIf()
	m.pop(v)
	if !v.edited() {
		delete(m.whatIfDrafts, v.name)
		return
	}
	if m.whatIfDrafts == nil {
		m.whatIfDrafts = map[string]string{}
	}
	m.whatIfDrafts[v.name] = v.field.Value()
	m.notice = "the edited description of " + shown(v.name) + " is kept: d reopens it"
}

// judgedFix is the sentence the judge proposed for the tool named name in
// the judgment of the Pairs pane's selected pair (one made in this
// session, else a recorded one), escaped as the field shows text; "" and
// why when there is none.
func (m *Model) judgedFix(name string) (sentence, why string) {
	pr, ok := m.pairs.selected()
	switch {
	case !ok:
		return "", "no pair selected in the Pairs pane, so no judgment to take a sentence from"
	case pr.A != name && pr.B != name:
		return "", "the selected pair (" + shown(pr.A+" ⇄ "+pr.B) + ") is not about " + shown(name)
	}
	j, ok := m.judgments[pairKey(pr)]
	if !ok && m.opts.Recorded != nil && pr.I >= 0 && pr.J >= 0 && pr.I < len(m.snap.cat.Tools) && pr.J < len(m.snap.cat.Tools) {
		j, ok = m.opts.Recorded(m.snap.cat.Tools[pr.I], m.snap.cat.Tools[pr.J])
	}
	if !ok {
		return "", "the selected pair has no judgment (J in the Pairs pane judges it)"
	}
	if j.Fix != nil {
		switch name {
		case j.A:
			sentence = j.Fix.A
		case j.B:
			sentence = j.Fix.B
		}
	}
	sentence = strings.TrimSpace(termsafe.Block(sentence))
	if sentence == "" {
		return "", "the judgment of " + shown(j.A+" ⇄ "+j.B) + " proposes no sentence for " + shown(name)
	}
	return sentence, ""
}
