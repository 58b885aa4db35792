package tui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// The screen: the root's rendering of the layout, done once per Update
// (View only returns it).

// render draws the whole screen into m.frame.
func (m *Model) render() {
	l := m.layout
	if l.Width <= 0 || l.Height <= 0 {
		m.frame = ""
		return
	}
	if m.quitting {
		m.frame = ""
		return
	}
	rows := make([]string, 0, 4)
	if !l.Header.Empty() {
		rows = append(rows, m.header())
	}
	if !l.Banner.Empty() {
		rows = append(rows, m.styles.Error.Render(clip(" ✗ "+m.problemText(), l.Width)))
	}
	if !l.TabBar.Empty() {
		if m.start() != nil {
			// No pane to go to before the catalog is there.
			rows = append(rows, "")
		} else {
			rows = append(rows, m.tabBar())
		}
	}
	footer := ""
	if !l.Footer.Empty() {
		footer = m.footer()
	}
	if !l.Body.Empty() {
		body := m.body()
		// A prompt of several lines takes the body's last ones.
		if extra := strings.Count(footer, "\n"); extra > 0 {
			lines := strings.Split(body, "\n")
			keep := max(len(lines)-extra, 0)
			body = strings.Join(lines[:keep], "\n")
			if keep == 0 {
				footer = strings.Join(strings.Split(footer, "\n")[extra-len(lines):], "\n")
			}
		}
		if body != "" {
			rows = append(rows, body)
		}
	}
	if !l.Footer.Empty() {
		rows = append(rows, footer)
	}
	m.frame = fit(strings.Join(rows, "\n"), l.Width, l.Height)
}

// bodyInner is the content size of a view framed over the whole body.
func (m *Model) bodyInner() (w, h int) {
	fw, fh := m.styles.frameSize()
	return max(m.layout.Body.W-fw, 0), max(m.layout.Body.H-fh, 0)
}

func (m *Model) body() string {
	l := m.layout
	// The topmost layer that covers the body draws it.
	for i := len(m.stack) - 1; i >= 0; i-- {
		if body, ok := m.stack[i].cover(m, l.Body.W, l.Body.H); ok {
			return body
		}
	}
	if l.Mode == ModeTabs || m.zoomed {
		return m.paneView(m.focus, l.Body)
	}
	var top string
	if l.Mode == ModeWide {
		top = lipgloss.JoinHorizontal(lipgloss.Top, m.paneView(paneTools, l.Tools), m.paneView(paneTool, l.Tool), m.paneView(panePairs, l.Pairs))
	} else {
		right := lipgloss.JoinVertical(lipgloss.Left, m.paneView(paneTool, l.Tool), m.paneView(panePairs, l.Pairs))
		top = lipgloss.JoinHorizontal(lipgloss.Top, m.paneView(paneTools, l.Tools), right)
	}
	if m.drawerOpen() {
		return top + "\n" + m.paneView(paneArgs, l.Drawer)
	}
	return top
}

func (m *Model) paneView(id paneID, r Rect) string {
	p := m.panes[id]
	return m.styles.frameWith(p.title(), positionOf(p), p.View(), r.W, r.H, id == m.focus)
}

// positioned is a pane that says where in its content it is.
type positioned interface{ position() string }

func positionOf(p any) string {
	if pp, ok := p.(positioned); ok {
		return pp.position()
	}
	return ""
}

func (m *Model) tabBar() string {
	var tabs []string
	for id := range paneCount {
		label := string('1'+rune(id)) + " " + paneNames[id]
		if id == m.focus {
			// Brackets too, so the tab shows without colour.
			tabs = append(tabs, m.styles.TabOn.Render("["+label+"]"))
		} else {
			tabs = append(tabs, m.styles.Tab.Render(label))
		}
	}
	return " " + strings.Join(tabs, m.styles.Muted.Render(" · "))
}

// footerPaneKeys is how many of the focused pane's keys the footer shows
// before the global ones.
const footerPaneKeys = 3

// footer is the topmost layer's prompt or question, else the keys that
// work now.
func (m *Model) footer() string {
	w := m.layout.Width
	for i := len(m.stack) - 1; i >= 0; i-- {
		if line, ok := m.stack[i].footerLine(m, w); ok {
			return line
		}
	}
	return m.keyFooter(w)
}

// keyFooter shows a passing notice, then the keys that work now, as many
// as fit in w cells; help and quit are always kept, at the end.
func (m *Model) keyFooter(w int) string {
	items, end := m.footerItems(w)
	line, all := fitFooter(items, len(items), w, end)
	if !all && m.layout.Mode == ModeWide {
		// As many in words as leave room for the keys of the rest.
		for words := len(items) - 1; words >= 0; words-- {
			if l, fits := fitFooter(items, words, w, end); fits {
				line = l
				break
			}
		}
	}
	if line != "" {
		line += " · "
	}
	return m.styles.Footer.Render(clip(" "+line+end, w))
}

// footerItems are the footer's entries, first to last (the notice, the
// way to the worst pairs and the zoom, the focused view's first keys, then
// what works everywhere), and end, the keys always kept at its end.
func (m *Model) footerItems(w int) (items []footItem, end string) {
	k := m.keys
	if m.notice != "" {
		// What just happened is said first and never dropped: cut in its
		// middle (a path's) to the room the help and quit keys leave.
		room := w - 1 - ansi.StringWidth(" · "+hintText(k.Help)+" · "+hintText(k.Quit))
		items = append(items, footItem{text: m.styles.Warn.Render(clipMiddle(shown(m.notice), max(room, 1))), must: true})
	}
	p := m.focused()
	help, compared := m.helpOpen(), m.compare() != nil
	if !help && !p.Typing() && !compared {
		// The way to the worst pairs and the zoom come first, from the
		// first screen on.
		if k.Scope.Enabled() && m.focus != panePairs {
			items = append(items, footItem{text: "g worst pairs", key: "g"})
		}
		if k.Zoom.Enabled() {
			items = append(items, footItem{text: "z zoom", key: "z"})
		}
	}
	n := 0
	for _, b := range p.Keys() {
		if b.Enabled() && n < footerPaneKeys && !help {
			items = append(items, keyItem(b, shortKeyHint(b)))
			n++
		}
	}
	tail := []string{hintText(k.Help), hintText(k.Quit)}
	switch {
	case help:
		// In help only the movement keys scroll; the pane's keys close it.
		items = append(items, footItem{text: "↑/↓ pgup/pgdn scroll"})
		tail = []string{hintText(k.ForceQuit), "q or any other key closes help"}
	case p.Typing():
		tail = []string{hintText(k.ForceQuit)}
	case compared:
	default:
		items = m.globalItems(items)
	}
	return items, strings.Join(tail, " · ")
}

// globalItems appends to items the footer's entries for the keys that
// work everywhere now.
func (m *Model) globalItems(items []footItem) []footItem {
	k := m.keys
	items = append(items, keyItem(k.NextPane, hintText(k.NextPane)), keyItem(k.Filter, hintText(k.Filter)), keyItem(k.Arguments, hintText(k.Arguments)))
	if k.Raise.Enabled() {
		items = append(items, footItem{text: "+/- threshold", key: "+-"}, footItem{text: "]/[ review band", key: "]["})
	}
	// Every other key that works now: a wide footer names the keys whose
	// words do not fit after "also" (? says what each does).
	for _, b := range []key.Binding{k.Scoring, k.Embedder, k.Export, k.Reload, k.WhatIf, k.NextMatch, k.Copy, k.EditFile, k.HideTriaged} {
		if b.Enabled() {
			text := hintText(b)
			switch b.Help().Key {
			case k.WhatIf.Help().Key:
				text = "d what-if"
			case k.Copy.Help().Key:
				text = "c copy"
			case k.NextMatch.Help().Key:
				text = "n next flagged"
			}
			items = append(items, keyItem(b, text))
		}
	}
	return items
}

// footItem is a footer entry: its words, and its key alone for the
// "also" list ("" when it cannot go there: a notice, a movement key).
type footItem struct {
	text, key string
	// must is a notice: in words, or the line does not fit.
	must bool
}

// keyItem is b's footer entry with text as its words.
func keyItem(b key.Binding, text string) footItem {
	k := b.Help().Key
	if strings.ContainsAny(k, "↑↓←→") || strings.Contains(k, "pg") || k == "home" || k == "end" {
		// A movement key: its words or nothing.
		k = ""
	}
	return footItem{text: text, key: k}
}

// fitFooter joins the first words items in words and the keys of the rest
// after "also", each once, before end in w cells. fits reports whether
// every item is on the line; when words is len(items) and they do not all
// fit, line holds as many as do.
func fitFooter(items []footItem, words, w int, end string) (line string, fits bool) {
	seen := map[string]bool{}
	var also []string
	for i, f := range items {
		if i >= words {
			if f.must {
				return line, false
			}
			if f.key == "" {
				// A movement key, help's scroll: they go without saying.
				continue
			}
			if !seen[f.text] && !slices.Contains(also, f.key) {
				also = append(also, f.key)
			}
			continue
		}
		if seen[f.text] {
			continue
		}
		seen[f.text] = true
		next := f.text
		if line != "" {
			next = line + " · " + f.text
		}
		if 1+ansi.StringWidth(next)+ansi.StringWidth(" · "+end) > w {
			return line, false
		}
		line = next
	}
	if len(also) > 0 {
		next := "also " + strings.Join(also, " ")
		if line != "" {
			next = line + " · " + next
		}
		if 1+ansi.StringWidth(next)+ansi.StringWidth(" · "+end) > w {
			return line, false
		}
		line = next
	}
	return line, true
}

// promptFieldMin is the least room a footer prompt's text field gets.
const promptFieldMin = 12

// fitPrompts gives the footer prompt's text field (an export's file name,
// a triage's reason) the room its words leave on the line.
func (m *Model) fitPrompts() {
	w := m.layout.Width - 1
	fit := func(before, after string, field *textinput.Model) {
		if fw := max(w-ansi.StringWidth(before)-ansi.StringWidth(after)-1, promptFieldMin); fw != field.Width {
			field.Width = fw
			// The field scrolls its text to the cursor for its new width.
			field.SetCursor(field.Position())
		}
	}
	if e := m.export(); e != nil && e.format != "" {
		before, after := m.exportNameParts()
		fit(before, after, &e.name)
	}
	if t := m.triage(); t != nil && t.choices == nil {
		before, after := m.triageReasonParts()
		fit(before, after, &t.reason)
	}
}

// promptLine lays a prompt with a text field out in w cells: the words
// after the field (its keys) always show, the field has the width
// fitPrompts gave it, and the words before it are cut in the middle when
// the rest does not leave them room.
func promptLine(before string, field *textinput.Model, after string, w int) string {
	line := fieldView(field.View()) + after
	if ansi.StringWidth(before+line) <= w {
		return before + line
	}
	// Too long for one line: the words before the field take the lines
	// above it, whole.
	return strings.Join(wrap(strings.TrimRight(before, " "), max(w-1, 1)), "\n ") + "\n " + clip(line, max(w-1, 1))
}

// promptLines is a question and its answers in lines of w cells, each
// starting with a space: one line when it fits, else the question's words
// wrapped over the lines above the answers (never cut in a word).
func promptLines(text, answers string, w int) string {
	if ansi.StringWidth(" "+text+answers) <= w {
		return " " + text + answers
	}
	// The answers end the last line; when they do not fit beside the
	// question's last words, they wrap too, word by word.
	lines := wrap(text+answers, max(w-1, 1))
	for i, l := range lines {
		lines[i] = clip(" "+l, w)
	}
	return strings.Join(lines, "\n")
}

// hintText is a key and what it does, as the footer lists it.
func hintText(k key.Binding) string { return k.Help().Key + " " + k.Help().Desc }

// shortKeyHint is a pane key's footer hint without its parenthesis: "I
// ignore a finding".
func shortKeyHint(b key.Binding) string {
	desc, _, _ := strings.Cut(b.Help().Desc, " (")
	return b.Help().Key + " " + desc
}
