package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/lint"
)

// The fix key applies the selected tool's findings' fixes (JSON Patch,
// docs/lint.md#fixes) to the catalog file, as lint --fix does, after a
// question; the file's save then reloads the explorer.

// lintFixedMsg answers a fix written to the catalog file.
type lintFixedMsg struct {
	tool string
	n    int
	err  error
}

// toolFixes are the selected tool's findings that carry a fix; none
// outside the Tool pane or when the catalog is not a file.
func (m *Model) toolFixes() []lint.Finding {
	t := m.tools.selectedTool()
	if m.opts.Watch == "" || m.compare() != nil || m.focus != paneTool || t < 0 || t >= len(m.snap.byTool) {
		return nil
	}
	var out []lint.Finding
	for _, f := range m.snap.byTool[t] {
		if len(f.Fix) > 0 && f.Suppression == "" {
			out = append(out, f)
		}
	}
	return out
}

// applyFixes asks, then writes the selected tool's fixes.
func (m *Model) applyFixes() tea.Cmd {
	fs := m.toolFixes()
	if len(fs) == 0 {
		return nil
	}
	t := m.tools.selectedTool()
	name := nameAt(m.snap, t)
	what := fs[0].Suggestion
	if len(fs) > 1 {
		what = "the fixes of " + plural(len(fs), "finding")
	}
	cat, path := m.snap.cat, m.opts.Watch
	fixes := make([]catalog.ToolFix, len(fs))
	for i, f := range fs {
		fixes[i] = catalog.ToolFix{Tool: f.ToolIndex, Ops: f.Fix}
	}
	m.ask("write to "+shownPath(path)+" for "+shown(name)+": "+shown(what)+"?", func() tea.Cmd {
		return func() tea.Msg {
			return lintFixedMsg{tool: name, n: len(fixes), err: catalog.WriteFixes(path, cat, fixes)}
		}
	})
	return nil
}

// lintFixed takes the write's answer: the reload shows the fixed file.
func (m *Model) lintFixed(msg lintFixedMsg) tea.Cmd {
	if msg.err != nil {
		m.fail("fix", msg.err)
		return nil
	}
	delete(m.problems, "fix")
	m.notice = "fixed " + shown(msg.tool) + " in " + shownPath(m.opts.Watch) + " (" + plural(msg.n, "finding") + ")"
	m.fixedNote = m.notice
	if m.watcher != nil {
		// The watcher sees the save and reloads.
		return nil
	}
	return m.reload()
}
