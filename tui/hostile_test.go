package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"toolscope/core/catalog"
)

// hostileCatalog puts terminal control sequences in every text a catalog
// carries: names, titles, descriptions, parameter names, enums, patterns,
// defaults, extra keys and declarations. OSC 52 writes the clipboard, ED
// clears the screen, SGR 8 hides text, CSI in its C1 form, a bidi
// override.
const hostileCatalog = `[
 {"name": "wipe\u001b[2J\u001b[H", "title": "T\u001b]0;pwned\u0007",
  "description": "Deletes a volume.\u001b]52;c;ZWNobyBoaQ==\u0007 Hidden \u001b[8mtext\u001b[0m and \u009b31m red and \u202eesrever.",
  "x-\u001b[2Jextra": 1,
  "inputSchema": {"type": "object", "required": ["vol\u001b[1Kume"],
   "properties": {
    "vol\u001b[1Kume": {"type": "string\u001b[5m", "description": "The \u001b[2Jvolume", "pattern": "^v\u001b[2J$", "enum": ["a\u009b2J", "b"], "default": "a\u009b2J"},
    "when": {"type": "string", "description": "A period, like last week.", "x-\u0007bell": true}
   }},
  "askOrAssume": {"when": {"ask": "Which\u001b[2J period?"}}
 },
 {"name": "wipe_\u001b]52;c;aGk=\u0007all", "description": "Deletes every volume.\u001b[2J Careful \u001b[?1049l."}
]`

// TestHostileCatalogNeverReachesTheTerminalRaw renders a hostile catalog,
// colour off so the explorer itself emits no escape, at several sizes on
// every screen: no ESC, no C0 or C1 control but newline, no bidi control
// may appear in the frame.
func TestHostileCatalogNeverReachesTheTerminalRaw(t *testing.T) {
	profile := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.Ascii)
	defer lipgloss.SetColorProfile(profile)
	cat, err := catalog.Parse("evil\u001b[2J.json", []byte(hostileCatalog))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {250, 70}} {
		opts := mockOptions(t)
		opts.Catalog = cat
		opts.Origin = "live srv\u001b]52;c;aGk=\u0007"
		m := scoredModel(t, opts, size[0], size[1])
		m.fail("server", errors.New("server said: \u001b[2J\u001b]0;title\u0007 gone"))
		m.notice = "wrote \u001b[2Jx"
		steps := [][]string{nil, {"2"}, {"w"}, {"3"}, {"g"}, {"enter"}, {"esc", "g", "1", "down"}, {"?"}, {"esc", "a"}}
		for i, keys := range steps {
			press(m, keys...)
			if i == len(steps)-1 {
				send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("{\"vol\u001b[1Kume\": \"\u001b[2J\", \"x\u009b\": 1}"), Paste: true})
			}
			if bad := rawControl(m.View()); bad != "" {
				t.Errorf("%dx%d after %v: %s", size[0], size[1], keys, bad)
			}
		}
	}
}

// rawControl names the first control character in s other than newline,
// or "" when there is none.
func rawControl(s string) string {
	for i, line := range strings.Split(s, "\n") {
		for _, r := range line {
			switch {
			case r == utf8.RuneError:
				return fmt.Sprintf("line %d: invalid UTF-8 in %q", i, line)
			case r < 0x20 || r >= 0x7f && r < 0xa0:
				return fmt.Sprintf("line %d: control %U in %q", i, r, line)
			case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
				return fmt.Sprintf("line %d: bidi control %U in %q", i, r, line)
			}
		}
	}
	return ""
}
