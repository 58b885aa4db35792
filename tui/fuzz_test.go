package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"toolscope/core/catalog"
)

// fits fails the test when the screen is larger than the terminal.
func fits(t *testing.T, m *Model, w, h int) {
	t.Helper()
	view := m.View()
	if lipgloss.Width(view) > w || (view != "" && lipgloss.Height(view) > h) {
		t.Fatalf("screen %dx%d in a %dx%d terminal", lipgloss.Width(view), lipgloss.Height(view), w, h)
	}
}

// FuzzDrawer pastes anything into the arguments drawer of a test tool
// (which one depends on the input, so every schema and declaration gets
// its share): no panic, and the screen keeps its size.
func FuzzDrawer(f *testing.F) {
	for _, s := range []string{typical, `{"volume_id": "vol-0a1b2c3d"}`, `{"window": "-24h"}`, `[1, 2`, "\x00\xff", `{"a": {"b": [null, true, 1e999]}}`, "{\n\t\"metric\": \"é😀\"\n}"} {
		f.Add(s)
	}
	m := scoredModel(f, mockOptions(f), 100, 30)
	f.Fuzz(func(t *testing.T, text string) {
		m.tools.cursor = len(text) % len(m.snap.cat.Tools)
		m.selectionChanged()
		press(m, "a", "x", "a")
		send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
		fits(t, m, 100, 30)
	})
}

// FuzzExplorer opens any catalog the loader accepts and walks its screens
// at a wide and a narrow size: whatever the names, descriptions and
// schemas, nothing panics and nothing overflows the terminal.
func FuzzExplorer(f *testing.F) {
	for _, s := range []string{
		`[{"name": "a"}]`,
		`{"tools": [{"name": "x\ty\u0000", "description": "é😀\u202e", "inputSchema": {"type": ["string", 1], "properties": {"p": {"enum": [[], {}], "pattern": "(?<=a)b"}}}}]}`,
		`[{"name": "a", "askOrAssume": {"p": {"ask": ""}}, "inputSchema": {"properties": {"p": {"type": "string"}}}}, {"name": "a"}]`,
		`[{"type": "function", "function": {"name": "f", "parameters": {"properties": {"q": {"properties": {"r": {"items": {"properties": {}}}}}}}}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cat, err := catalog.Parse("fuzz.json", data)
		if err != nil {
			return
		}
		opts := mockOptions(t)
		opts.Catalog = cat
		m := settledModel(opts, 160, 45)
		for _, size := range [][2]int{{160, 45}, {40, 12}} {
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			for _, k := range []string{"2", "w", "end", "3", "g", "enter", "esc", "a", "{", "esc", "/", "a", "esc", "down"} {
				send(m, keyMsg(k))
				fits(t, m, size[0], size[1])
			}
		}
	})
}
