package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/lint"
	"toolscope/core/report"
)

// section is one part of the tool pane.
type section int

const (
	secFindings section = iota
	secDeclarations
	secSchema
	sectionCount
)

var sectionNames = [...]string{"Findings", "Declarations", "Schema"}

// sectionColumnMin is the least width one section gets when the pane is
// wide enough to show all three side by side.
const sectionColumnMin = 34

// toolPane shows the selected tool: its description, then its findings,
// declarations and schema, side by side when the pane is wide enough, else
// one under the other with keys to jump between them.
type toolPane struct {
	paneBase

	// rules finds a rule's teaching text by id.
	rules map[string]lint.Rule
	// why shows each rule's teaching text under its findings.
	why bool
	// tokens are the catalog's token counts, nil until measured.
	tokens *tokenCounts
	// hideTriaged leaves out the findings the project config ignores.
	hideTriaged bool
	// picking numbers the findings the triage prompt picks from: the
	// ones in force (pickInForce) or the ignored ones (pickIgnored).
	picking pickMode

	snap   *snapshot
	tool   int
	scroll int
	// lines caches the rendered content for the current size and state;
	// starts holds where each section's heading is in it.
	lines  []string
	starts [sectionCount]int
	// find searches the lines.
	find finder
	// overview puts the catalog's first-to-fix list above the tool, on the
	// first screen, until another tool is picked or the pane is focused.
	overview bool
}

func newToolPane(keys *KeyMap, styles *Styles, rules []lint.Rule) *toolPane {
	p := &toolPane{paneBase: paneBase{keys: keys, styles: styles}, tool: -1, rules: map[string]lint.Rule{}, find: newFinder(), overview: true}
	for _, r := range rules {
		p.rules[r.ID] = r
	}
	return p
}

// pickMode says which findings the triage prompt numbers.
type pickMode int

const (
	pickNone pickMode = iota
	pickInForce
	pickIgnored
)

// setPicking numbers the findings the triage prompt picks from, or stops.
func (p *toolPane) setPicking(mode pickMode) {
	if p.picking != mode {
		p.picking = mode
		p.rebuild()
	}
}

// show switches to another tool (or a new snapshot of the same one, which
// keeps the scroll position).
func (p *toolPane) show(s *snapshot, tool int) {
	if p.name() != nameAt(s, tool) {
		p.scroll = 0
		if p.name() != "" {
			p.overview = false
		}
	}
	p.snap, p.tool = s, tool
	p.rebuild()
}

// name is the shown tool's name, "" for none.
func (p *toolPane) name() string { return nameAt(p.snap, p.tool) }

func nameAt(s *snapshot, tool int) string {
	if s == nil || tool < 0 || tool >= len(s.cat.Tools) {
		return ""
	}
	return s.cat.Tools[tool].Name
}

func (p *toolPane) setSize(w, h int) {
	p.w, p.h = w, h
	p.rebuild()
}

// columns reports whether the three sections fit side by side.
func (p *toolPane) columns() bool { return p.w >= 3*sectionColumnMin+2 }

// current is the section at the top of the view.
func (p *toolPane) current() section {
	cur := secFindings
	for s := range sectionCount {
		if p.starts[s] <= p.scroll {
			cur = s
		}
	}
	return cur
}

func (p *toolPane) title() string {
	name := p.name()
	if name == "" {
		return "Detail"
	}
	name = shown(name)
	if p.columns() {
		return name
	}
	cur := p.current()
	tabs := make([]string, sectionCount)
	for s := range sectionCount {
		tabs[s] = sectionNames[s]
		if s == cur {
			tabs[s] = "[" + tabs[s] + "]"
		}
	}
	// The name is what the title is for: the section tabs give way
	// first (to the current section alone, then to nothing), and the
	// name is cut only when it does not fit by itself.
	room := p.w - 3 // the frame's border, its corner rule and the spaces around the title
	for _, rest := range []string{" ── " + strings.Join(tabs, " │ "), " ── " + tabs[cur]} {
		if ansi.StringWidth(name)+ansi.StringWidth(rest) <= room {
			return name + rest
		}
	}
	return clipMiddle(name, max(room, 12))
}

// rebuild renders the pane's lines for the current tool and size.
func (p *toolPane) rebuild() {
	defer func() { p.find.refind(p.lines) }()
	p.lines = p.lines[:0]
	p.starts = [sectionCount]int{}
	if p.name() == "" || p.w <= 0 {
		if p.snap != nil && len(p.snap.cat.Tools) == 0 {
			p.lines = append(p.lines, p.styles.Muted.Render("the catalog has no tools"))
		}
		return
	}
	if p.overview {
		p.lines = append(p.lines, p.firstToFix()...)
	}
	t := p.snap.cat.Tools[p.tool]
	if t.Title != "" {
		p.lines = append(p.lines, p.styles.Bold.Render(shown(t.Title)))
	}
	if desc := shown(oneLine(t.Description)); desc == "" {
		p.lines = append(p.lines, p.styles.Error.Render("no description"))
	} else {
		p.lines = append(p.lines, wrap(desc, p.w)...)
	}
	where := shown(t.Entry)
	if t.Pos.Line > 0 {
		// A live server's tool has no line in any file.
		where += " · line " + strconv.Itoa(t.Pos.Line)
	}
	where += " · " + string(t.Format)
	if n, ok := toolTokens(p.tokens, p.snap, p.tool); ok {
		where += " · " + plural(n, "token") + " (o200k_base)"
	}
	p.lines = append(p.lines, p.styles.Muted.Render(where), "")
	if !p.columns() {
		for s := range sectionCount {
			p.starts[s] = len(p.lines)
			p.lines = append(p.lines, p.styles.Bold.Render("── "+sectionNames[s]))
			p.lines = append(p.lines, p.sectionLines(s, p.w)...)
			p.lines = append(p.lines, "")
		}
		return
	}
	colW := (p.w - 2) / 3
	cols := make([]string, sectionCount)
	colH := 0
	body := make([][]string, sectionCount)
	for s := range sectionCount {
		body[s] = p.sectionLines(s, colW)
		colH = max(colH, 1+len(body[s]))
	}
	for s := range sectionCount {
		head := p.styles.Bold.Render(sectionNames[s])
		cols[s] = fit(head+"\n"+strings.Join(body[s], "\n"), colW, colH)
		p.starts[s] = len(p.lines)
	}
	row := lipgloss.JoinHorizontal(lipgloss.Top, cols[0], " ", cols[1], " ", cols[2])
	p.lines = append(p.lines, strings.Split(row, "\n")...)
}

func (p *toolPane) sectionLines(s section, w int) []string {
	t := p.snap.cat.Tools[p.tool]
	if s != secSchema && !p.snap.analysed {
		return []string{p.styles.Muted.Render("checking…")}
	}
	switch s {
	case secFindings:
		return p.findingLines(w)
	case secDeclarations:
		return p.styles.declarationLines(p.snap.decls[p.tool], w)
	default:
		return p.styles.schemaLines(t.Schema, w)
	}
}

// findingLines lists the tool's structural findings: severity mark, rule
// and parameter, the message, the suggestion, and with why on, the rule's
// teaching text under its first finding.
func (p *toolPane) findingLines(w int) []string {
	st := p.styles
	fs := p.snap.byTool[p.tool]
	hidden := 0
	if p.hideTriaged {
		fs, hidden = untriaged(fs)
	}
	if len(fs) == 0 {
		out := []string{st.OK.Render("✓ no structural findings")}
		if hidden > 0 {
			out = append(out, st.Muted.Render(plural(hidden, "ignored finding")+" hidden ("+p.keys.HideTriaged.Help().Key+" shows)"))
		}
		return out
	}
	var out []string
	taught := map[string]bool{}
	picked := 0
	// number is the prompt's number for a finding it picks from: they
	// count in the order the prompt lists them, which is this one.
	number := func(f lint.Finding) string {
		if p.picking == pickNone || (f.Suppression != "") != (p.picking == pickIgnored) || picked >= 9 {
			return ""
		}
		picked++
		return st.KeyHint.Render(strconv.Itoa(picked)) + " "
	}
	for _, f := range fs {
		if f.Suppression != "" {
			// Ignored by the config: listed, muted, with the reason.
			out = append(out, number(f)+st.Muted.Render("○ "+shown(findingHead(f))))
			for _, l := range wrapIndented(shown(oneLine("ignored: "+f.Suppression)), "  ", w-2) {
				out = append(out, st.Muted.Render(l))
			}
			continue
		}
		mark := st.Warn.Render("~")
		if f.Severity == lint.SeverityError {
			mark = st.Error.Render("✗")
		}
		out = append(out, number(f)+mark+" "+st.Bold.Render(shown(findingHead(f))))
		out = append(out, wrapIndented(shown(oneLine(f.Message)), "  ", w-2)...)
		if f.Suggestion != "" {
			arrow := "→ "
			if len(f.Fix) > 0 {
				arrow = "→ fix (X writes it): "
			}
			out = append(out, wrapIndented(shown(oneLine(arrow+f.Suggestion)), "  ", w-2)...)
		}
		r, ok := p.rules[f.Rule]
		if !p.why || !ok || taught[f.Rule] {
			continue
		}
		taught[f.Rule] = true
		out = append(out, st.teachingLines(r.Teaching, w)...)
	}
	if hidden > 0 {
		out = append(out, st.Muted.Render(plural(hidden, "ignored finding")+" hidden ("+p.keys.HideTriaged.Help().Key+" shows)"))
	}
	if !p.why {
		out = append(out, st.Muted.Render("w: why (each rule's teaching text)"))
	}
	return out
}

// teachingLines are a rule's teaching text under its first finding, in
// w cells: why and how to fix, then the before and after examples.
func (s Styles) teachingLines(t lint.Teaching, w int) []string {
	var out []string
	for _, part := range []struct{ label, text string }{{"why", t.Why}, {"fix", t.Fix}} {
		if part.text != "" {
			for _, l := range wrapIndented(part.label+": "+part.text, "  │ ", w-4) {
				out = append(out, s.Muted.Render(l))
			}
		}
	}
	for _, part := range []struct{ label, text string }{{"before", t.Before}, {"after", t.After}} {
		if part.text == "" {
			continue
		}
		out = append(out, s.Muted.Render("  │ "+part.label+":"))
		// The example is wrapped, never cut: its end is often the point
		// (the sentence the fix adds). A wrapped line's rest is indented
		// under it.
		for _, l := range strings.Split(part.text, "\n") {
			for i, piece := range wrap(l, max(w-8, 1)) {
				indent := "  │   "
				if i > 0 {
					indent = "  │     "
				}
				out = append(out, s.Muted.Render(indent)+piece)
			}
		}
	}
	return out
}

// findingHead names a finding in a line: its rule and parameter.
func findingHead(f lint.Finding) string {
	head := f.Rule
	if f.Param != "" {
		head += " · " + f.Param
	}
	if f.By != "" {
		// A model's review, not a rule's check: say whose.
		head += " · " + f.Category + " · by " + f.By
	}
	return head
}

// untriaged is fs without the findings the config ignores, and how many
// those were.
func untriaged(fs []lint.Finding) ([]lint.Finding, int) {
	var out []lint.Finding
	for _, f := range fs {
		if f.Suppression == "" {
			out = append(out, f)
		}
	}
	return out, len(fs) - len(out)
}

func (p *toolPane) Typing() bool { return p.find.typing }

// searching reports whether n and N move between matches here.
func (p *toolPane) searching() bool { return p.find.active() }

func (p *toolPane) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if p.find.typing {
		jump, cmd := p.find.key(km, p.lines, p.scroll)
		if jump >= 0 {
			p.scrollTo(jump)
		}
		return cmd
	}
	k := p.keys
	switch {
	case key.Matches(km, k.Find):
		return p.find.start()
	case key.Matches(km, k.NextMatch) && p.find.active():
		if i := p.find.step(1); i >= 0 {
			p.scrollTo(i)
		}
	case key.Matches(km, k.PrevMatch) && p.find.active():
		if i := p.find.step(-1); i >= 0 {
			p.scrollTo(i)
		}
	case key.Matches(km, k.Back) && p.find.active():
		p.find.clear()
	case key.Matches(km, k.NextSection):
		if cur := p.current(); cur+1 < sectionCount {
			p.scrollTo(p.starts[cur+1])
		}
	case key.Matches(km, k.PrevSection):
		cur := p.current()
		if p.scroll == p.starts[cur] && cur > 0 {
			cur--
		}
		p.scrollTo(p.starts[cur])
	case key.Matches(km, k.Why):
		p.why = !p.why
		p.rebuild()
	default:
		if d, ok := k.movement(km, p.h, len(p.lines)); ok {
			p.scrollBy(d)
		}
	}
	return nil
}

// scrollBy moves the view, stopping at the last page (or where a section
// jump left it, past the last page).
func (p *toolPane) scrollBy(d int) {
	last := max(len(p.lines)-p.h, 0, min(p.scroll, len(p.lines)-1))
	p.scroll = clampInt(p.scroll+d, 0, last)
}

// scrollTo puts line i at the top; a section heading may scroll past the
// last page so that jumping to it always lands on it.
func (p *toolPane) scrollTo(i int) {
	p.scroll = clampInt(i, 0, max(len(p.lines)-1, 0))
}

func (p *toolPane) View() string {
	return findView(&p.find, p.lines, p.scroll, p.h, p.styles)
}

func (p *toolPane) Keys() []key.Binding {
	k := p.keys
	if p.find.typing {
		return []key.Binding{k.Back}
	}
	return append([]key.Binding{k.Why, k.Ignore, k.ApplyFix, k.Undo, k.NextSection, k.PrevSection, k.Find, k.NextMatch, k.PrevMatch}, k.movementKeys()...)
}

func (p *toolPane) position() string {
	return joinNonEmpty(p.find.status(), viewPosition(p.scroll, p.h, len(p.lines)))
}

// firstToFix is the catalog's ordered list of what to fix first, as the
// reports start with it, and a line that leads to the selected tool; none
// until the rules have run.
func (p *toolPane) firstToFix() []string {
	if p.snap == nil || p.snap.report == nil || !p.snap.analysed {
		return nil
	}
	st := p.styles
	r := p.snap.report
	if r.Tokens == nil && p.tokens != nil && p.tokens.cat == p.snap.cat {
		// The explorer counts the tokens beside the report: the list
		// states them as the reports do.
		withTokens := *r
		withTokens.Tokens = &p.tokens.Catalog
		r = &withTokens
	}
	out := []string{st.Bold.Render("── First to fix")}
	for k, it := range report.FirstToFix(r) {
		mark := map[string]string{"error": "✗", "warn": "~", "ok": "✓"}[it.Severity]
		if mark == "" {
			mark = "·"
		}
		for i, l := range wrap(shown(oneLine(strconv.Itoa(k+1)+". "+mark+" "+it.Text)), max(p.w-3, 1)) {
			if i > 0 {
				l = "   " + l
			}
			out = append(out, l)
		}
	}
	return append(out, st.Muted.Render("(picking a tool or opening this pane hides it)"), "")
}
