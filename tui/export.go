package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
)

// exportExt is the file extension of each format `e` offers.
var exportExt = map[string]string{"json": "json", "sarif": "sarif", "markdown": "md", "html": "html"}

// exportedMsg answers an export: where the report went, or why not.
type exportedMsg struct {
	path string
	err  error
}

// startExport asks for a format in the footer.
func (m *Model) startExport() {
	if m.opts.Export == nil {
		return
	}
	m.push(&exportLayer{})
	m.setExportKeys(true)
}

func (m *Model) setExportKeys(on bool) {
	for _, b := range []*key.Binding{&m.keys.FormatJSON, &m.keys.FormatSARIF, &m.keys.FormatMarkdown, &m.keys.FormatHTML} {
		b.SetEnabled(on)
	}
}

// exportPrompt is the footer's export prompt in w cells: the format keys,
// then the file name's field with its keys kept in view.
func (m *Model) exportPrompt(w int) string {
	if e := m.export(); e.format != "" {
		before, after := m.exportNameParts()
		return promptLine(before, &e.name, after, w)
	}
	k := m.keys
	return clip("export the report as: "+k.FormatJSON.Help().Key+" JSON · "+k.FormatSARIF.Help().Key+" SARIF · "+
		k.FormatMarkdown.Help().Key+" Markdown · "+k.FormatHTML.Help().Key+" HTML page · esc cancel", w)
}

// exportNameParts are the words around the file name's field.
func (m *Model) exportNameParts() (before, after string) {
	after = " · enter write · esc cancel"
	e := m.export()
	if _, err := os.Stat(e.name.Value()); err == nil {
		after = "  (exists: enter replaces it)" + after
	}
	return "write the " + exportNames[e.format] + " report to ", after
}

var exportNames = map[string]string{"json": "JSON", "sarif": "SARIF", "markdown": "Markdown", "html": "HTML"}

// exportKey takes the format (or esc), then the file name, prefilled
// beside the catalog, and writes the report in the background.
func (m *Model) exportKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	e := m.export()
	if e.format != "" {
		switch msg.Type {
		case tea.KeyEsc:
			m.pop(e)
			return nil
		case tea.KeyEnter:
			path := strings.TrimSpace(e.name.Value())
			if path == "" {
				return nil
			}
			format := e.format
			m.pop(e)
			write, cat, probe := m.opts.Export, m.snap.cat, m.opts.Probe
			report := *m.snap.report
			report.Score = m.score()
			return safe("export", func() tea.Msg {
				if report.Score == nil {
					// Scored here, off the Update path, before the token
					// counts are in.
					report.Score = lint.ScoreOf(&report, cat, probe.Measured(cat, &report))
				}
				return exportedMsg{path: path, err: writeExport(path, format, &report, cat, write)}
			})
		}
		var cmd tea.Cmd
		e.name, cmd = e.name.Update(msg)
		return cmd
	}
	format := ""
	switch {
	case key.Matches(msg, k.FormatJSON):
		format = "json"
	case key.Matches(msg, k.FormatSARIF):
		format = "sarif"
	case key.Matches(msg, k.FormatMarkdown):
		format = "markdown"
	case key.Matches(msg, k.FormatHTML):
		format = "html"
	case key.Matches(msg, k.Back):
	default:
		return nil
	}
	m.setExportKeys(false)
	if format == "" {
		m.pop(e)
		return nil
	}
	e.format = format
	e.name = textinput.New()
	e.name.Prompt = ""
	// The name escaped, not stripped: the field drops control characters
	// silently, and the file written must be the one shown.
	e.name.SetValue(termsafe.Line(exportPath(m.opts.ExportDir, m.snap.cat.Source, format)))
	e.name.CursorEnd()
	return e.name.Focus()
}

// exportPath names the report file: the catalog's name with a
// .toolscope.<ext> suffix, in dir.
func exportPath(dir, source, format string) string {
	base := filepath.Base(source)
	if base == "." || base == string(filepath.Separator) || base == "-" || base == "stdin" || strings.Contains(source, "://") || strings.HasPrefix(source, "mcp:") {
		base = "catalog"
	}
	base = strings.TrimSuffix(base, filepath.Ext(base))
	return filepath.Join(dir, base+".toolscope."+exportExt[format])
}

// writeExport renders the report whole before touching the file, so a
// failed rendering never leaves half a report behind.
func writeExport(path, format string, r *lint.Report, cat *catalog.Catalog, write ExportFunc) error {
	var buf bytes.Buffer
	if err := write(&buf, format, r, cat); err != nil {
		return fmt.Errorf("rendering the %s report: %w", format, err)
	}
	// Whole or not at all, and never through a symlink planted at the
	// report's name.
	if err := safefile.Write(path, buf.Bytes()); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}
