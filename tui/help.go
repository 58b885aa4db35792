package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// helpView lists every key of the focused pane, then the global keys, in
// two columns of key and what it does.
func (m *Model) helpView(w, h int) string {
	var b strings.Builder
	b.WriteString(m.styles.Bold.Render(paneNames[m.focus]+" keys") + "\n")
	writeKeys(&b, m.panes[m.focus].Keys(), m.styles)
	b.WriteString("\n" + m.styles.Bold.Render("Everywhere (except while typing: then only ctrl+c and esc)") + "\n")
	writeKeys(&b, m.globalKeys(), m.styles)
	b.WriteString("\n" + m.styles.Muted.Render("any key closes this help"))
	return m.styles.frame("Help", b.String(), w, h, true)
}

func writeKeys(b *strings.Builder, keys []key.Binding, st Styles) {
	for _, k := range keys {
		if !k.Enabled() {
			continue
		}
		h := k.Help()
		b.WriteString("  " + st.KeyHint.Render(padRight(h.Key, 10)) + " " + h.Desc + "\n")
	}
}

func padRight(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
