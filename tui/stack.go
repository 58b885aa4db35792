package tui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// The explorer's modes are layers on a stack over the panes: a question,
// the start screen, the what-if, help, the export and triage prompts, a
// comparison and the arguments drawer. The top layer gets a key first and
// draws over what is under it; a key it passes goes to the layer under it,
// then to the global keys and the focused pane. Closing a layer pops it.

// layer is one mode on the stack.
type layer interface {
	// keyed takes a key; pass reports that the key goes on down (the
	// layer under it, the global keys, the focused pane).
	keyed(m *Model, msg tea.KeyMsg) (cmd tea.Cmd, pass bool)
	// takesText reports whether a key now goes to a text field, the
	// layer's or, for a layer that passes keys, the focused pane's.
	takesText(m *Model) bool
	// clicked takes a mouse event; pass reports that it goes on down.
	clicked(m *Model, msg tea.MouseMsg) (cmd tea.Cmd, pass bool)
	// cover draws the layer over the whole body, w by h cells; ok is
	// false when the layer leaves the body to what is under it.
	cover(m *Model, w, h int) (body string, ok bool)
	// footerLine is the layer's footer in w cells (a prompt, a
	// question); ok is false when the layer leaves the footer to the
	// keys that work now.
	footerLine(m *Model, w int) (line string, ok bool)
	// setSize gives the layer the body's content size.
	setSize(w, h int)
	// holdsQuit reports whether the layer answers ctrl+c itself (a
	// question says no, the start screen cancels) rather than the
	// explorer quitting.
	holdsQuit() bool
}

// layerBase is what most layers share: they take every click, have no
// footer line, cover nothing, need no size and answer ctrl+c by quitting.
type layerBase struct{}

func (layerBase) clicked(*Model, tea.MouseMsg) (tea.Cmd, bool) { return nil, false }
func (layerBase) cover(*Model, int, int) (string, bool)        { return "", false }
func (layerBase) footerLine(*Model, int) (string, bool)        { return "", false }
func (layerBase) setSize(int, int)                             {}
func (layerBase) holdsQuit() bool                              { return false }

// push puts a layer on top of the stack, sized to the body.
func (m *Model) push(l layer) {
	m.stack = append(m.stack, l)
	l.setSize(m.bodyInner())
}

// pop takes l off the stack; popping a layer that is not there (a
// triage prompt never opened) does nothing.
func (m *Model) pop(l layer) {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if m.stack[i] == l {
			m.stack = slices.Delete(m.stack, i, i+1)
			return
		}
	}
}

// top is the layer that gets keys first, nil when the panes do.
func (m *Model) top() layer {
	if len(m.stack) == 0 {
		return nil
	}
	return m.stack[len(m.stack)-1]
}

// layerOf is the topmost layer of type T on m's stack, the zero T (nil)
// when there is none.
func layerOf[T layer](m *Model) T {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if l, ok := m.stack[i].(T); ok {
			return l
		}
	}
	var none T
	return none
}

// The stack's layers by kind, nil when not open.

func (m *Model) asking() *question         { return layerOf[*question](m) }
func (m *Model) start() *starting          { return layerOf[*starting](m) }
func (m *Model) whatIf() *whatIfView       { return layerOf[*whatIfView](m) }
func (m *Model) compare() *compareView     { return layerOf[*compareView](m) }
func (m *Model) triage() *triagePrompt     { return layerOf[*triagePrompt](m) }
func (m *Model) export() *exportLayer      { return layerOf[*exportLayer](m) }
func (m *Model) help() *helpLayer          { return layerOf[*helpLayer](m) }
func (m *Model) drawerLayer() *drawerLayer { return layerOf[*drawerLayer](m) }
func (m *Model) helpOpen() bool            { return m.help() != nil }
func (m *Model) drawerOpen() bool          { return m.drawerLayer() != nil }

// key routes a key: ctrl+c first (unless the top layer answers it), then
// down the stack, then a focused pane that takes typed text (which gets
// every other key, so typed text is never taken for a command), then the
// global keys, then the focused pane.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	m.notice = ""
	if key.Matches(msg, m.keys.ForceQuit) && (m.top() == nil || !m.top().holdsQuit()) {
		m.quit()
		return nil
	}
	for i := len(m.stack) - 1; i >= 0; i-- {
		if cmd, pass := m.stack[i].keyed(m, msg); !pass {
			return cmd
		}
	}
	if m.panes[m.focus].Typing() {
		return m.typed(msg)
	}
	return m.global(msg)
}

// takesText reports whether a key now goes to a text field (the filter,
// a search, the editor, a prompt's field), as key routes it.
func (m *Model) takesText() bool {
	if top := m.top(); top != nil {
		return top.takesText(m)
	}
	return m.panes[m.focus].Typing()
}

// typed hands a key to the focused pane while it takes text. enter ends
// the filter and opens the tool it leaves selected, as enter on the list
// does: the Detail keys (w, I, f) then act at once. ↓ ends it and stays in
// the list.
func (m *Model) typed(msg tea.KeyMsg) tea.Cmd {
	cmd := m.toPane(msg)
	if m.focus == paneTools && msg.Type == tea.KeyEnter && !m.tools.Typing() && m.tools.selectedTool() >= 0 {
		m.setFocus(paneTool)
	}
	return cmd
}

// The question: only its answers work, ctrl+c and esc say no.

func (q *question) keyed(m *Model, msg tea.KeyMsg) (tea.Cmd, bool) { return m.answer(msg), false }
func (q *question) takesText(*Model) bool                          { return false }
func (q *question) holdsQuit() bool                                { return true }

// footerLine asks the question, over the lines above the footer when it
// is too long for one.
func (q *question) footerLine(m *Model, w int) (string, bool) {
	k := m.keys
	if q.confirm != "" {
		// What is typed shows escaped, like every other text field.
		answers := ": " + shown(q.typed) + "▏ · enter confirm · esc no"
		return m.styles.Warn.Render(promptLines(q.text, answers+q.waiting(), w)), true
	}
	answers := " " + hintText(k.Yes) + " · " + hintText(k.No)
	if a := q.alt; a != nil {
		answers = " " + hintText(k.Yes) + " · " + a.key + " " + a.hint + " · " + hintText(k.No)
	}
	// A question too long for the line takes the lines above it, cut
	// between words, never in one.
	return m.styles.Warn.Render(promptLines(q.text, answers+q.waiting(), w)), true
}

// The start screen: it covers the body until the catalog is there.

func (s *starting) keyed(m *Model, msg tea.KeyMsg) (tea.Cmd, bool) { return m.startKey(msg), false }
func (s *starting) takesText(*Model) bool                          { return false }
func (s *starting) holdsQuit() bool                                { return true }
func (s *starting) cover(m *Model, w, h int) (string, bool)        { return m.startView(w, h), true }

func (s *starting) footerLine(m *Model, w int) (string, bool) {
	if s.err != nil {
		return m.styles.Footer.Render(clip(" r try again · q quit", w)), true
	}
	return m.styles.Footer.Render(clip(" esc cancel · q quit", w)), true
}

// The what-if: its field takes every printable key.

func (v *whatIfView) keyed(m *Model, msg tea.KeyMsg) (tea.Cmd, bool) { return m.whatIfKey(msg), false }
func (v *whatIfView) takesText(*Model) bool                          { return v.Typing() }

func (v *whatIfView) cover(m *Model, w, h int) (string, bool) {
	return m.styles.frameWith(v.title(), "", v.View(), w, h, true), true
}

// helpLayer is the help over the body, scrolled to scroll.
type helpLayer struct {
	layerBase
	scroll int
}

func (h *helpLayer) keyed(m *Model, msg tea.KeyMsg) (tea.Cmd, bool) { return m.helpKey(msg), false }
func (h *helpLayer) takesText(*Model) bool                          { return false }
func (h *helpLayer) cover(m *Model, w, ht int) (string, bool)       { return m.helpView(w, ht), true }

// clicked scrolls the help with the wheel; a click does nothing.
func (h *helpLayer) clicked(m *Model, msg tea.MouseMsg) (tea.Cmd, bool) {
	if wheel := wheelOf(msg); wheel != 0 {
		_, ih := m.bodyInner()
		h.scroll = clampInt(h.scroll+wheel*mouseWheelLines, 0, max(len(m.helpLines())-ih, 0))
	}
	return nil, false
}

// exportLayer is the footer's export prompt: the format, then (format
// set) the file name.
type exportLayer struct {
	layerBase
	format string
	name   textinput.Model
}

func (e *exportLayer) keyed(m *Model, msg tea.KeyMsg) (tea.Cmd, bool) { return m.exportKey(msg), false }
func (e *exportLayer) takesText(*Model) bool                          { return e.format != "" }

func (e *exportLayer) footerLine(m *Model, w int) (string, bool) {
	return m.styles.Footer.Render(" " + m.exportPrompt(w-1)), true
}

// The triage prompt: a finding's number, then the reason.

func (t *triagePrompt) keyed(m *Model, msg tea.KeyMsg) (tea.Cmd, bool) {
	return m.triagePromptKey(msg), false
}
func (t *triagePrompt) takesText(*Model) bool { return t.choices == nil }

func (t *triagePrompt) footerLine(m *Model, w int) (string, bool) {
	return m.styles.Footer.Render(" " + m.triagePromptText(w-1)), true
}

// The comparison covers the panes; the keys that go somewhere close it
// and go on, and a few global ones (quit, help, copy, triage) work over
// it.

func (c *compareView) keyed(m *Model, msg tea.KeyMsg) (tea.Cmd, bool) {
	k := &m.keys
	switch {
	case m.panes[m.focus].Typing():
		return nil, true
	case c.Typing():
		return c.Update(msg), false
	case key.Matches(msg, k.Back) && c.searching():
		c.find.clear()
		return nil, false
	case key.Matches(msg, k.Back):
		m.pop(c)
		return nil, false
	case key.Matches(msg, k.GoTools, k.GoTool, k.GoPairs, k.GoArgs, k.Filter, k.Arguments, k.NextPane, k.PrevPane):
		m.pop(c)
		return nil, true
	case key.Matches(msg, k.Quit, k.Help, k.Copy, k.Accept, k.Undo, k.HideTriaged):
		return nil, true
	case key.Matches(msg, k.NextMatch, k.PrevMatch) && !c.searching():
		m.pop(c)
		return nil, true
	}
	return c.Update(msg), false
}

func (c *compareView) takesText(m *Model) bool {
	return m.panes[m.focus].Typing() || c.Typing()
}

// clicked scrolls the comparison with the wheel; a click does nothing.
func (c *compareView) clicked(_ *Model, msg tea.MouseMsg) (tea.Cmd, bool) {
	if wheel := wheelOf(msg); wheel != 0 {
		for range mouseWheelLines {
			c.Update(wheelKey(wheel))
		}
	}
	return nil, false
}

func (c *compareView) cover(m *Model, w, h int) (string, bool) {
	return m.styles.frameWith(c.title(), positionOf(c), c.View(), w, h, true), true
}

// drawerLayer is the arguments drawer while it is open. The drawer itself
// is a pane, laid out beside the others; its layer takes the keys that
// close it and call the tool, while it has focus and is not typing.
type drawerLayer struct {
	layerBase
	// from is the pane that had focus when the drawer opened: closing
	// the drawer gives focus back to it.
	from paneID
}

func (d *drawerLayer) keyed(m *Model, msg tea.KeyMsg) (tea.Cmd, bool) {
	k := &m.keys
	if m.focus != paneArgs || m.panes[paneArgs].Typing() {
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Arguments), key.Matches(msg, k.Back) && m.calling == nil:
		m.closeDrawer()
		return nil, false
	case key.Matches(msg, k.CallTool):
		return m.callTool(), false
	}
	return nil, true
}

func (d *drawerLayer) takesText(m *Model) bool { return m.panes[m.focus].Typing() }

func (d *drawerLayer) clicked(*Model, tea.MouseMsg) (tea.Cmd, bool) { return nil, true }
