package tui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/live"
)

// liveChangeMsg is news from a live source: its tools changed, or (Err
// set) its server was lost.
type liveChangeMsg struct{ change live.Change }

// waitChange waits for the live source's next news; nil once it is closed.
func waitChange(ch <-chan live.Change) tea.Cmd {
	return func() tea.Msg {
		c, ok := <-ch
		if !ok {
			return nil
		}
		return liveChangeMsg{c}
	}
}

// liveChanged re-lists the tools when the server says they changed (a
// flood of notifications costs one re-list running and one waiting), and
// shows a lost server in the banner, keeping the last catalog on screen
// (the next reload starts the server again).
func (m *Model) liveChanged(msg liveChangeMsg) tea.Cmd {
	next := waitChange(m.opts.Changes)
	if err := msg.change.Err; err != nil {
		m.fail("server", err)
		return next
	}
	m.notice = "the server's tools changed: listing them again"
	return tea.Batch(m.eng.relist(m.snap.cat), next)
}

// sameTools reports whether two catalogs list the same tools, entry for
// entry as the source wrote them: a re-list or a save that changed nothing
// needs no new analysis.
func sameTools(a, b *catalog.Catalog) bool {
	return slices.EqualFunc(a.Tools, b.Tools, func(x, y *catalog.Tool) bool {
		return x.Raw.JSON() == y.Raw.JSON()
	})
}
