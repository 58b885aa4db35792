package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
)

// periodCatalog has one tool whose period argument's choices carry said
// phrases, and one whose rule only assumes.
const periodCatalog = `[
 {"name": "metrics_history", "description": "Read metrics of the past, for a window back from now.",
  "inputSchema": {"type": "object", "properties": {"window": {"type": "string"}}},
  "askOrAssume": {"window": {"ask": "How far back?", "choices": ["24h", {"value": "7d", "said": ["last week", "past week"]}]}},
  "period": {"argument": "window", "spelling": "lookback"}},
 {"name": "metrics_assumed", "description": "Read metrics of the past, for a window back from now.",
  "inputSchema": {"type": "object", "properties": {"window": {"type": "string"}}},
  "askOrAssume": {"window": {"assume": "24h"}},
  "period": {"argument": "window", "spelling": "lookback"}}
]`

// TestDrawerPeriods pins what the drawer shows for a period value: the
// window to the second, the declaration's own phrases read as their
// choice (and only where declared), and a suggestion for a near miss.
func TestDrawerPeriods(t *testing.T) {
	cat, err := catalog.Parse("periods.json", []byte(periodCatalog))
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 3, 10, 12, 0, 0, 987654321, time.UTC)
	cases := []struct {
		name    string
		down    int // tools below the first
		window  string
		want    []string
		notWant []string
	}{
		{"the window to the second", 0, "24h",
			[]string{"✓ valid", `window "24h" (lookback): ok`, "covers 2026-03-09T12:00:00Z .. 2026-03-10T12:00:00Z (1d)"},
			[]string{".987"}},
		{"the declaration's own phrase", 0, "Last Week",
			[]string{"✓ valid", `window "Last Week": read as 7d, the declaration's own phrase for that choice`, "covers 2026-03-03T12:00:00Z .. 2026-03-10T12:00:00Z (7d)"},
			[]string{"not a lookback"}},
		{"a phrase not declared stays refused", 1, "last week",
			[]string{"the declarations refuse a value", `window "last week" (lookback): not a lookback`},
			[]string{"read as", "did you mean", "✓ valid"}},
		{"a suggestion for a near miss", 1, "7 days",
			[]string{`window "7 days" (lookback): not a lookback`, `window: did you mean "7d"? a whole count and one unit letter`},
			[]string{"covers"}},
		{"a slip of a phrase", 0, "past weeek",
			[]string{`window: did you mean "past week"? the declaration's own phrase for 7d`},
			[]string{"covers"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := settledModel(Options{Catalog: cat, Now: func() time.Time { return clock }}, 160, 45)
			for range c.down {
				press(m, "down")
			}
			press(m, "a")
			send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"window": "` + c.window + `"}`), Paste: true})
			view := ansi.Strip(m.View())
			for _, w := range c.want {
				if !strings.Contains(view, w) {
					t.Errorf("drawer lacks %q:\n%s", w, view)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(view, w) {
					t.Errorf("drawer shows %q:\n%s", w, view)
				}
			}
		})
	}
}
