package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/lint"
)

// exportExt is the file extension of each format `e` offers.
var exportExt = map[string]string{"json": "json", "sarif": "sarif", "markdown": "md"}

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
	m.exporting = true
	m.setExportKeys(true)
}

func (m *Model) setExportKeys(on bool) {
	for _, b := range []*key.Binding{&m.keys.FormatJSON, &m.keys.FormatSARIF, &m.keys.FormatMarkdown} {
		b.SetEnabled(on)
	}
}

func (m *Model) exportPrompt() string {
	k := m.keys
	return "export the report as: " + k.FormatJSON.Help().Key + " JSON · " + k.FormatSARIF.Help().Key + " SARIF · " +
		k.FormatMarkdown.Help().Key + " Markdown · esc cancel"
}

// exportKey takes the format (or esc) and writes the report in the
// background.
func (m *Model) exportKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	format := ""
	switch {
	case key.Matches(msg, k.FormatJSON):
		format = "json"
	case key.Matches(msg, k.FormatSARIF):
		format = "sarif"
	case key.Matches(msg, k.FormatMarkdown):
		format = "markdown"
	case key.Matches(msg, k.Back):
	default:
		return nil
	}
	m.exporting = false
	m.setExportKeys(false)
	if format == "" {
		return nil
	}
	path := exportPath(m.opts.ExportDir, m.snap.cat.Source, format)
	write, report, cat := m.opts.Export, m.snap.report, m.snap.cat
	return safe("export", func() tea.Msg {
		return exportedMsg{path: path, err: writeExport(path, format, report, cat, write)}
	})
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
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}
