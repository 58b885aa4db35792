package tui

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

// Copy, zoom, the editor and the mouse: what a reviewer does with the
// screen beyond reading it.

// copyText is what c copies from the focused view, with what it is for the
// footer; "" when there is nothing to copy.
func (m *Model) copyText() (text, what string) {
	if c := m.compare(); c != nil {
		if v := c.verdict; v != nil {
			return v.Hint, "the hint"
		}
		return "", "no hint: the pair is " + similarity.LowShown
	}
	switch m.focus {
	case paneTools, paneTool:
		t := m.tools.selectedTool()
		if t < 0 {
			return "", "no tool selected"
		}
		return toolJSON(m.snap.cat.Tools[t]), "the tool's JSON"
	case panePairs:
		pr, ok := m.pairs.selected()
		if !ok {
			return "", "no pair selected"
		}
		if v := m.snap.verdict(pr); v != nil {
			return v.Hint, "the hint"
		}
		return "", "no hint: the pair is " + similarity.LowShown
	case paneArgs:
		if m.drawer.modelText == "" {
			return "", "nothing: the call is not rejected, the model gets the tool's result"
		}
		return m.drawer.modelText, "the text the model would get"
	}
	return "", "nothing to copy here"
}

// copySelection copies the focused view's text to the clipboard with OSC
// 52, which terminals (and tmux) pass to the system clipboard; the text
// goes base64-encoded, so nothing in it can act on the terminal.
func (m *Model) copySelection() {
	text, what := m.copyText()
	if text == "" {
		m.notice = "copied " + what
		if !strings.HasPrefix(what, "the ") {
			m.notice = "nothing copied: " + what
		}
		return
	}
	m.copyOut(text, what)
}

// copyOut puts text on the clipboard (OSC 52) and says what was copied.
func (m *Model) copyOut(text, what string) {
	w := m.opts.Clipboard
	if w == nil {
		w = os.Stderr
	}
	if err := writeOSC52(w, text, os.Getenv("TMUX") != ""); err != nil {
		m.fail("copy", err)
		return
	}
	delete(m.problems, "copy")
	// OSC 52 asks the terminal to set its clipboard; whether it did, the
	// program cannot see (some terminals need it allowed).
	m.notice = "sent " + what + " to the terminal's clipboard (" + plural(len(text), "byte") + ")"
}

// writeOSC52 writes the OSC 52 sequence that sets the clipboard to text,
// its control characters escaped first (termsafe.Block: ESC as \x1b,
// newlines and tabs kept). Base64 keeps the terminal safe, not the shell
// the text is pasted into: a raw ESC[201~ ends bracketed paste early and
// the lines after it would run as typed (paste-jacking).
// Inside tmux it goes twice: as it is, which tmux takes into its buffer
// and the outer terminal's clipboard with set-clipboard on, and wrapped,
// which tmux passes through with allow-passthrough on; tmux drops the
// form its options refuse, so either setting works.
func writeOSC52(w io.Writer, text string, tmux bool) error {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(termsafe.Block(text))) + "\x07"
	if tmux {
		seq += "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	_, err := io.WriteString(w, seq)
	return err
}

// toolJSON is a tool as an MCP tools/list entry, indented: what a reviewer
// pastes into an issue or another catalog, hidden characters escaped.
func toolJSON(t *catalog.Tool) string {
	var b strings.Builder
	b.WriteString("{\n  \"name\": " + jsonv.Quote(t.Name))
	if t.Title != "" {
		b.WriteString(",\n  \"title\": " + jsonv.Quote(t.Title))
	}
	if t.HasDescription {
		b.WriteString(",\n  \"description\": " + jsonv.Quote(t.Description))
	}
	for _, f := range []struct {
		key string
		v   *jsonv.Value
	}{{"inputSchema", t.Schema}, {"outputSchema", t.OutputSchema}, {"annotations", t.Annotations}, {"_meta", t.Meta}} {
		if f.v != nil {
			b.WriteString(",\n  " + jsonv.Quote(f.key) + ": " + strings.ReplaceAll(f.v.Indent("  "), "\n", "\n  "))
		}
	}
	b.WriteString("\n}")
	// Hidden text (a bidi override, tag characters) is pasted as \u
	// escapes: the same JSON, and nothing a reader cannot see.
	return string(termsafe.EscapeJSON([]byte(b.String())))
}

// editedMsg answers the editor's end.
type editedMsg struct{ err error }

// editCatalog opens $VISUAL or $EDITOR (vi when neither is set) on the
// catalog file at the selected tool's line; when it exits, the catalog is
// read again (the watch would see the save too, but an editor that saves
// in place and exits fast should not wait for it).
func (m *Model) editCatalog() tea.Cmd {
	file := m.opts.Watch
	t := m.tools.selectedTool()
	if file == "" || t < 0 {
		return nil
	}
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	args := editorArgs(editor, file, m.snap.cat.Tools[t].Pos.Line)
	c := exec.Command(args[0], args[1:]...)
	return tea.ExecProcess(c, func(err error) tea.Msg { return editedMsg{err} })
}

// editorArgs is the command that opens file at line in editor (a command
// with its own arguments, as $EDITOR may be): `+LINE -- FILE` for the
// editors known to end their options at `--` (vi, vim, nvim, nano, emacs),
// `+LINE FILE` for the others that take +LINE (micro, helix, kakoune), or
// `--goto FILE:LINE` for VS Code-like editors. A catalog's name is not to
// be read as an option or a command: `+!touch x.json` runs a shell command
// in vim. So besides `--`, a relative name starting with - or + gets ./ in
// front, which every editor reads as a file.
func editorArgs(editor, file string, line int) []string {
	args := strings.Fields(editor)
	if len(args) == 0 {
		args = []string{"vi"}
	}
	if strings.HasPrefix(file, "-") || strings.HasPrefix(file, "+") {
		file = "." + string(filepath.Separator) + file
	}
	line = max(line, 1)
	switch strings.TrimSuffix(filepath.Base(args[0]), ".exe") {
	case "code", "code-insiders", "codium", "cursor", "windsurf":
		return append(args, "--goto", file+":"+strconv.Itoa(line))
	case "subl", "zed":
		return append(args, file+":"+strconv.Itoa(line))
	case "vi", "vim", "nvim", "view", "gvim", "vim.basic", "vim.tiny", "nano", "emacs", "emacsclient":
		return append(args, "+"+strconv.Itoa(line), "--", file)
	}
	return append(args, "+"+strconv.Itoa(line), file)
}

// edited takes the editor's end: lint again, or say why it failed.
func (m *Model) edited(msg editedMsg) tea.Cmd {
	if msg.err != nil {
		m.fail("editor", fmt.Errorf("%w (set $EDITOR)", msg.err))
		return nil
	}
	delete(m.problems, "editor")
	return m.reload()
}

// toggleZoom gives the focused pane the whole body, or gives the others
// back their room.
func (m *Model) toggleZoom() {
	m.zoomed = !m.zoomed
	m.resize(m.layout.Width, m.layout.Height)
}

// mouseWheelLines is how far one wheel notch moves.
const mouseWheelLines = 3

// wheelOf is a wheel notch's direction, up -1 and down 1; 0 for any other
// mouse event.
func wheelOf(msg tea.MouseMsg) int {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		return -1
	case tea.MouseButtonWheelDown:
		return 1
	}
	return 0
}

// mouse takes the wheel and the left button: the wheel scrolls the view
// under the pointer, a click focuses the pane under it and selects the row
// clicked (a tool, a pair) or the tab.
func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	wheel := wheelOf(msg)
	if m.quitting || wheel == 0 && (msg.Button != tea.MouseButtonLeft || msg.Action != tea.MouseActionPress) {
		return nil
	}
	// A prompt waits for its answer, and the what-if, the help and the
	// comparison cover the panes: the layers take the mouse first.
	for i := len(m.stack) - 1; i >= 0; i-- {
		if cmd, pass := m.stack[i].clicked(m, msg); !pass {
			return cmd
		}
	}
	l := m.layout
	if wheel == 0 && l.Mode == ModeTabs && !l.TabBar.Empty() && msg.Y == l.TabBar.Y {
		if id, ok := m.tabAt(msg.X); ok {
			m.setFocus(id)
		}
		return nil
	}
	id, r, ok := m.paneAt(msg.X, msg.Y)
	if !ok {
		return nil
	}
	if wheel != 0 {
		before := m.tools.selectedTool()
		for range mouseWheelLines {
			m.panes[id].Update(wheelKey(wheel))
		}
		if m.tools.selectedTool() != before {
			m.selectionChanged()
		}
		return nil
	}
	m.setFocus(id)
	// The row under the pointer, inside the frame's top border.
	row := msg.Y - r.Y - 1
	switch id {
	case paneTools:
		if m.tools.clickRow(row) {
			m.selectionChanged()
		}
	case panePairs:
		m.pairs.clickRow(row)
	}
	return nil
}

// wheelKey is the movement key a wheel notch stands for.
func wheelKey(d int) tea.KeyMsg {
	if d < 0 {
		return tea.KeyMsg{Type: tea.KeyUp}
	}
	return tea.KeyMsg{Type: tea.KeyDown}
}

// paneAt is the pane drawn at x, y and its rect.
func (m *Model) paneAt(x, y int) (paneID, Rect, bool) {
	l := m.layout
	if l.Mode == ModeTabs || m.zoomed {
		return m.focus, l.Body, inRect(l.Body, x, y)
	}
	for _, c := range []struct {
		id paneID
		r  Rect
	}{{paneTools, l.Tools}, {paneTool, l.Tool}, {panePairs, l.Pairs}, {paneArgs, l.Drawer}} {
		if (c.id != paneArgs || m.drawerOpen()) && inRect(c.r, x, y) {
			return c.id, c.r, true
		}
	}
	return 0, Rect{}, false
}

func inRect(r Rect, x, y int) bool {
	return !r.Empty() && x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// tabAt is the tab drawn at column x of the tab bar.
func (m *Model) tabAt(x int) (paneID, bool) {
	at := 1 // the bar's leading space
	for id := range paneCount {
		label := "1 " + paneNames[id]
		if id == m.focus {
			label = "[" + label + "]"
		}
		w := len([]rune(label))
		if x >= at && x < at+w {
			return id, true
		}
		at += w + 3 // " · "
	}
	return 0, false
}
