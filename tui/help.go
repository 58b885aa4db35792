package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// paneHelp says what each pane shows, above its keys in the help.
var paneHelp = map[string]string{
	"Tools": "Badges: ✗ errors, ~ warnings, ⇄ confusable pairs, ?N arguments with an ask or assume rule, ⏱ a declared period. " +
		"/ filters by a fuzzy match on the name; o sorts by file order, name, findings or confusable pairs, and groups a merged catalog by server.",
	"Detail": "Findings come from the structural rules; w shows each rule's teaching text (why, how to fix, before and after). " +
		"Declarations are judged against the schema at load: a refused one is shown in red with its sentence and counts as an error. " +
		"The schema lists the parameters in file order.",
	"Pairs": "⇄ confusable (fails the gate), ≈ review (advisory: related, maybe confusable; read the two side by side), ○ accepted in toolscope.yaml; a ↔ b is a pair. " +
		"+/- move the threshold and ]/[ the review band; the verdicts follow without embedding again. " +
		"s switches the scoring (risk, cosine, adaptive), m the embedder. The mock embedder counts characters: trust its order, not its verdicts. " +
		"With a recorded probe (toolscope probe --record), N/M beside the score: of the M requests written for either tool, N went to the other (the detail says it per direction); " +
		"N/M* (dim) was measured on texts that changed since; nothing when the probe did not cover both tools.",
	"Arguments": "Type or paste the arguments a model would send, as JSON. Every keystroke judges them again: validation issues, " +
		"the text the model would get back, each ruled argument (model's own, assumed, asked) and the period with its window and advice. " +
		"v cycles enforce, warn and off; esc stops typing; each tool keeps its own draft.",
	"Compare": "Both tools' texts side by side: the terms they share and the terms only one uses are marked. " +
		"'embedded as' is the text the scoring reads.",
}

// openHelp opens the help for the focused pane, at its top.
func (m *Model) openHelp() { m.push(&helpLayer{}) }

// helpKey scrolls the help with the movement keys; any other key closes
// it, and the keys that go somewhere (1-4, /, a, tab) go there too. q
// closes the help only, as in k9s and lazygit; ctrl+c still quits.
func (m *Model) helpKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	hl := m.help()
	_, h := m.bodyInner()
	lines := m.helpLines()
	if d, ok := k.movement(msg, h, len(lines)); ok {
		hl.scroll = clampInt(hl.scroll+d, 0, max(len(lines)-h, 0))
		return nil
	}
	m.pop(hl)
	if key.Matches(msg, k.GoTools, k.GoTool, k.GoPairs, k.GoArgs, k.Filter, k.Arguments, k.NextPane, k.PrevPane) {
		return m.key(msg)
	}
	return nil
}

// helpView frames the help's lines from the scroll position.
func (m *Model) helpView(w, h int) string {
	hl := m.help()
	lines := m.helpLines()
	_, ih := m.bodyInner()
	hl.scroll = clampInt(hl.scroll, 0, max(len(lines)-ih, 0))
	end := min(hl.scroll+ih, len(lines))
	return m.styles.frameWith("Help", viewPosition(hl.scroll, ih, len(lines)), strings.Join(lines[hl.scroll:end], "\n"), w, h, true)
}

// helpLines says what the focused pane shows, lists its keys, then every
// other key that works now, each from the key map, in two columns of key
// and what it does.
func (m *Model) helpLines() []string {
	w, _ := m.bodyInner()
	var b strings.Builder
	name := paneNames[m.focus]
	if m.compare() != nil {
		name = "Compare"
	}
	b.WriteString(m.styles.Bold.Render(name) + "\n")
	text := paneHelp[name]
	if name == "Pairs" || name == "Compare" {
		// What the score in use means, for the pairs on screen.
		text += " " + m.eng.scoring.Explain()
	}
	for _, l := range wrap(text, max(w-2, 10)) {
		b.WriteString(l + "\n")
	}
	if (name == "Pairs" || name == "Compare") && m.snap.sim != nil {
		// The caveats, which a short pairs pane cuts to a line each.
		for _, n := range m.snap.sim.Notes {
			for _, l := range wrap(shown(oneLine("! "+n)), max(w-2, 10)) {
				b.WriteString(m.styles.Warn.Render(l) + "\n")
			}
		}
	}
	b.WriteString("\n" + m.styles.Bold.Render(name+" keys") + "\n")
	writeKeys(&b, m.focused().Keys(), m.styles, w)
	b.WriteString("\n" + m.styles.Bold.Render("Everywhere (while typing, only ctrl+c and esc)") + "\n")
	writeKeys(&b, m.globalKeys(), m.styles, w)
	b.WriteString("\n" + m.styles.Bold.Render("Symbols (each means one thing, everywhere)") + "\n")
	for _, l := range symbolLegend {
		for _, wl := range wrap(l, max(w-2, 10)) {
			b.WriteString(wl + "\n")
		}
	}
	b.WriteString("\n" + m.styles.Muted.Render("↑/↓ pgup/pgdn scroll · q or any other key closes this help"))
	return strings.Split(b.String(), "\n")
}

// symbolLegend lists every mark the explorer draws, one meaning each.
var symbolLegend = []string{
	"✗  an error (a finding that fails the gate by default)",
	"~  a warning",
	"⇄  a confusable pair (a tool's ⇄N: how many it is in)",
	"≈  a review pair (the review band, just under the confusable threshold: advisory)",
	"○  accepted or ignored in toolscope.yaml",
	"✓  valid (the arguments drawer)",
	"↔  between the two tools of a pair",
	"?N arguments with an ask or assume rule",
	"⏱  a declared period",
	"!  a caveat about the similarity (an uncalibrated or mock embedder)",
	"▸  the selected row · ↑ ↓ more above or below · … text cut to fit",
	"+ − in a pair's why: what raises and what lowers its risk",
	"N/M in Pairs: the probe's requests for either tool that went to the other; N/M* measured on texts since changed",
}

// helpKeyWidth is the key column of the help; a description too long for
// the rest of the line wraps under itself.
const helpKeyWidth = 10

// writeKeys lists keys in w columns: the key, then what it does.
func writeKeys(b *strings.Builder, keys []key.Binding, st Styles, w int) {
	indent := strings.Repeat(" ", 2+helpKeyWidth+1)
	for _, k := range keys {
		if !k.Enabled() {
			continue
		}
		h := k.Help()
		for i, l := range wrap(h.Desc, max(w-len(indent), 10)) {
			if i == 0 {
				b.WriteString("  " + st.KeyHint.Render(padRight(h.Key, helpKeyWidth)) + " " + l + "\n")
			} else {
				b.WriteString(indent + l + "\n")
			}
		}
	}
}

func padRight(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
