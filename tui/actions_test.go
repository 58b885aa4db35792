package tui

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
)

// clipboard decodes the OSC 52 sequences written to w.
func clipboard(t *testing.T, w *bytes.Buffer) []string {
	t.Helper()
	var out []string
	for _, seq := range strings.Split(w.String(), "\x07") {
		if seq == "" {
			continue
		}
		payload, ok := strings.CutPrefix(seq, "\x1b]52;c;")
		if !ok {
			t.Fatalf("not an OSC 52 sequence: %q", seq)
		}
		data, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(data))
	}
	w.Reset()
	return out
}

// c copies the tool's JSON, the pair's hint or the model's text with OSC
// 52.
func TestCopyWritesOSC52(t *testing.T) {
	var clip bytes.Buffer
	opts := mockOptions(t)
	opts.Clipboard = &clip
	m := scoredModel(t, opts, 160, 45)
	press(m, "c")
	got := clipboard(t, &clip)
	if len(got) != 1 {
		t.Fatalf("copied %d times", len(got))
	}
	var tool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal([]byte(got[0]), &tool); err != nil || tool.Name != "get_volume_status" || len(tool.InputSchema) == 0 {
		t.Fatalf("the tool's JSON: %v %+v\n%s", err, tool, got[0])
	}
	if !strings.Contains(footerLine(m), "sent the tool's JSON to the terminal's clipboard") {
		t.Errorf("footer %q", footerLine(m))
	}
	press(m, "3", "c")
	pr, _ := m.pairs.selected()
	if got := clipboard(t, &clip); len(got) != 1 || got[0] != m.snap.verdict(pr).Hint {
		t.Errorf("the hint: %q", got)
	}
	press(m, "1", "a")
	send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"volume_id": 7}`), Paste: true})
	press(m, "esc", "c")
	if got := clipboard(t, &clip); len(got) != 1 || !strings.Contains(got[0], "volume_id") || got[0] != m.drawer.modelText {
		t.Errorf("the model's text: %q", got)
	}
	press(m, "x", "enter")
	send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"volume_id": "vol-0a1b2c3d"}`), Paste: true})
	press(m, "esc", "c")
	if got := clipboard(t, &clip); len(got) != 0 || !strings.Contains(footerLine(m), "nothing copied") {
		t.Errorf("a valid call copied %q; footer %q", got, footerLine(m))
	}
}

func TestOSC52InsideTmux(t *testing.T) {
	var b bytes.Buffer
	if err := writeOSC52(&b, "hi", true); err != nil {
		t.Fatal(err)
	}
	if want := "\x1b]52;c;aGk=\x07\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// z gives the focused pane the whole body and back; focus moves the zoom.
func TestZoom(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	press(m, "2", "z")
	if m.tool.w != 160-2 || m.tool.h != m.layout.Body.H-2 {
		t.Fatalf("zoomed tool pane is %dx%d", m.tool.w, m.tool.h)
	}
	view := ansi.Strip(m.View())
	if strings.Contains(view, "Tools 6") || !strings.Contains(view, "get_volume_status ──") {
		t.Errorf("zoom shows other panes:\n%s", view)
	}
	press(m, "3")
	if m.pairs.w != 158 || m.tool.w == 158 {
		t.Errorf("focus did not move the zoom: pairs %d tool %d", m.pairs.w, m.tool.w)
	}
	press(m, "z")
	if m.zoomed || m.pairs.w == 158 {
		t.Error("z did not unzoom")
	}
	fits(t, m, 160, 45)
}

// The wheel scrolls the pane under the pointer; a click focuses it and
// selects the row; a tab click in the tabs layout focuses that tab.
func TestMouse(t *testing.T) {
	m := scoredModel(t, seedOptions(t), 160, 20)
	if len(m.tool.lines) <= m.tool.h+mouseWheelLines {
		t.Fatalf("the tool pane does not scroll at 160x20: %d lines in %d", len(m.tool.lines), m.tool.h)
	}
	l := m.layout
	m.Update(tea.MouseMsg{X: l.Tool.X + 5, Y: l.Tool.Y + 5, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if m.tool.scroll != mouseWheelLines || m.focus != paneTools {
		t.Errorf("wheel over the tool pane: scroll %d, focus %v", m.tool.scroll, m.focus)
	}
	// The third tool's row: border, filter line, then the rows.
	m.Update(tea.MouseMsg{X: l.Tools.X + 3, Y: l.Tools.Y + 1 + 1 + 2, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if selectedName(m) != "list_volumes" || m.focus != paneTools {
		t.Errorf("click on the third row: %q, focus %v", selectedName(m), m.focus)
	}
	m.Update(tea.MouseMsg{X: l.Pairs.X + 5, Y: l.Pairs.Y + 5, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.focus != panePairs {
		t.Errorf("click on the pairs: focus %v", m.focus)
	}
	// The what-if covers the panes: a click or the wheel there reaches
	// none of them.
	press(m, "1", "home")
	drain(m, press(m, "d"))
	if m.whatIf() == nil {
		t.Fatal("d did not open the what-if")
	}
	m.Update(tea.MouseMsg{X: l.Tools.X + 3, Y: l.Tools.Y + 1 + 1 + 2, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	m.Update(tea.MouseMsg{X: l.Tools.X + 3, Y: l.Tools.Y + 3, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if selectedName(m) != "get_volume_status" || m.whatIf() == nil || m.whatIf().tool != 0 {
		t.Errorf("the mouse under the what-if selected %q", selectedName(m))
	}
	press(m, "esc")
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(tea.MouseMsg{X: 3, Y: m.layout.TabBar.Y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.focus != paneTools {
		t.Errorf("click on the first tab: focus %v", m.focus)
	}
}

// When the editor exits the catalog is read and linted again; an editor
// that failed says so in the banner.
func TestEditorExitLintsAgain(t *testing.T) {
	opts, path, data := reloadableCatalog(t)
	m := scoredModel(t, opts, 160, 45)
	m.opts.Watch = path // E works; no watch started
	press(m, "down", "down", "down")
	if selectedName(m) != "resize_volume" || m.snap.tools[3].warnings == 0 {
		t.Fatalf("selected %q with %d warnings", selectedName(m), m.snap.tools[3].warnings)
	}
	// The editor saves a description that says when to use the tool.
	writeCatalog(t, path, strings.Replace(string(data), `"Resize a volume."`, `"Resize a volume to a new size in GiB; use only after list_volumes found it."`, 1))
	drain(m, func() tea.Msg { return editedMsg{} })
	if d := m.snap.cat.Tools[3].Description; !strings.HasPrefix(d, "Resize a volume to a new size") || selectedName(m) != "resize_volume" {
		t.Fatalf("after the editor: %q, selected %q", d, selectedName(m))
	}
	if !strings.Contains(ansi.Strip(m.View()), "Resize a volume to a new size") {
		t.Error("the tool pane does not show the saved description")
	}
	drain(m, func() tea.Msg {
		return editedMsg{err: errors.New("exec: \"nope\": executable file not found in $PATH")}
	})
	if view := ansi.Strip(m.View()); !strings.Contains(view, "editor: exec") || !strings.Contains(view, "(set $EDITOR)") {
		t.Errorf("a failed editor is not in the banner:\n%s", view)
	}
}

func TestEditorArgs(t *testing.T) {
	tests := []struct {
		editor, file string
		want         []string
	}{
		{"", "cat.json", []string{"vi", "+12", "--", "cat.json"}},
		{"nvim", "cat.json", []string{"nvim", "+12", "--", "cat.json"}},
		{"emacs -nw", "cat.json", []string{"emacs", "-nw", "+12", "--", "cat.json"}},
		{"/usr/bin/code -w", "cat.json", []string{"/usr/bin/code", "-w", "--goto", "cat.json:12"}},
		{"subl", "cat.json", []string{"subl", "cat.json:12"}},
		{"micro", "cat.json", []string{"micro", "+12", "cat.json"}},
		// A name an editor would read as a command or an option.
		{"vim", "+!touch pwned.json", []string{"vim", "+12", "--", "./+!touch pwned.json"}},
		{"micro", "-version.json", []string{"micro", "+12", "./-version.json"}},
		{"code", "--help.json", []string{"code", "--goto", "./--help.json:12"}},
		{"vim", "/abs/+x.json", []string{"vim", "+12", "--", "/abs/+x.json"}},
	}
	for _, tt := range tests {
		if got := editorArgs(tt.editor, tt.file, 12); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("editorArgs(%q, %q) = %q, want %q", tt.editor, tt.file, got, tt.want)
		}
	}
	m := newTestModel(t, 160, 45)
	if m.keys.EditFile.Enabled() || press(m, "E") != nil {
		t.Error("E works without a catalog file")
	}
	opts := mockOptions(t)
	opts.Watch = "testdata/ops.json"
	m = New(opts) // no Init: no watch started
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	if !m.keys.EditFile.Enabled() || m.editCatalog() == nil {
		t.Error("E does not open the editor on a catalog file")
	}
}

// What goes to the clipboard has its control characters escaped, so a
// paste into a shell cannot end bracketed paste early (ESC[201~, or its
// 8-bit form) and run the lines after it; newlines and tabs stay.
func TestClipboardEscapesControlCharacters(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n\tindented", "plain text\n\tindented"},
		{"hint\x1b[201~\ntouch pwned\n", `hint\x1b[201~` + "\ntouch pwned\n"},
		{"\x9b201~rm -rf ~\r", `\x9b201~rm -rf ~\r`},
		{"a\x1b]52;c;aGk=\x07b", `a\x1b]52;c;aGk=\x07b`},
		{"abc\u202edef", `abc\u202edef`},
	}
	for _, tt := range tests {
		for _, tmux := range []bool{false, true} {
			var b bytes.Buffer
			if err := writeOSC52(&b, tt.in, tmux); err != nil {
				t.Fatal(err)
			}
			seq := b.String()
			if tmux {
				seq, _, _ = strings.Cut(seq, "\x1bPtmux;")
			}
			got := clipboard(t, bytes.NewBufferString(seq))
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("%q (tmux %v) copied as %q, want %q", tt.in, tmux, got, tt.want)
			}
		}
	}
}

// TestToolJSONEscapesHiddenText: the copied tool holds a description's
// bidi override and tag characters as \u escapes, never raw, and reads
// back as the same strings.
func TestToolJSONEscapesHiddenText(t *testing.T) {
	desc := "Lists files.\u202e evil \U000E0049\U000E0067 end"
	src := `{"tools": [{"name": "list_files", "description": ` + jsonQuote(desc) + `, "inputSchema": {"type": "object", "properties": {"p": {"type": "string", "description": "x\u2066y"}}}}]}`
	cat, err := catalog.Parse("hidden.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := toolJSON(cat.Tools[0])
	for _, r := range []rune{'\u202e', '\U000E0049', '\U000E0067', '\u2066'} {
		if strings.ContainsRune(got, r) {
			t.Errorf("the copy holds %U raw:\n%s", r, got)
		}
	}
	var back struct {
		Description string `json:"description"`
		InputSchema struct {
			Properties struct {
				P struct {
					Description string `json:"description"`
				} `json:"p"`
			} `json:"properties"`
		} `json:"inputSchema"`
	}
	if err := json.Unmarshal([]byte(got), &back); err != nil {
		t.Fatalf("the copy is not JSON: %v\n%s", err, got)
	}
	if back.Description != desc || back.InputSchema.Properties.P.Description != "x\u2066y" {
		t.Errorf("the copy reads back as %q / %q", back.Description, back.InputSchema.Properties.P.Description)
	}
}

func jsonQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
