package tui

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/report"
)

// The triage save and the export never write through a symlink planted
// at their file's name: the write is refused, the banner or notice says
// so, and the file the symlink points at is untouched.
func TestWritesRefuseAPlantedSymlink(t *testing.T) {
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("triage", func(t *testing.T) {
		opts, _ := triageFixture(t, false)
		os.Symlink(victim, opts.ConfigPath)
		m := scoredModel(t, opts, 160, 45)
		selectPair(t, m, "get_volume_status", "hist_volume_status")
		press(m, "A")
		triage(m, "only the audit agent")
		if p := m.problems["config"]; !strings.Contains(p, "not a regular file (a symlink)") {
			t.Errorf("the banner: %q", p)
		}
	})
	t.Run("export", func(t *testing.T) {
		dir := t.TempDir()
		opts := mockOptions(t)
		opts.ExportDir = dir
		opts.Export = func(w io.Writer, _ string, r *lint.Report, _ *catalog.Catalog) error { return report.WriteJSON(w, r) }
		os.Symlink(victim, filepath.Join(dir, "ops.toolscope.md"))
		m := scoredModel(t, opts, 160, 45)
		press(m, "e", "m")
		drain(m, press(m, "enter"))
		if view := ansi.Strip(m.View()); !strings.Contains(view, "not a regular file") {
			t.Errorf("the refusal is not shown:\n%s", view)
		}
	})
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("written through a symlink: %q", b)
	}
}

// Ignoring a finding from the explorer writes the tool's name escaped:
// the entry for a tool named get_* hides none of get_bad's findings.
func TestIgnoreWritesTheToolNameEscaped(t *testing.T) {
	m := newTestModel(t, 120, 30)
	m.pickFinding(lint.Finding{Rule: "description-missing-or-short", Tool: "get_*"}, false)
	if m.triage == nil {
		t.Fatal("no reason prompt")
	}
	g := m.triage.edit.ignore
	if g.Tool != `get_\*` {
		t.Errorf("the entry's tool is %q, want get_\\*", g.Tool)
	}
	if g.Matches(lint.Finding{Rule: "description-missing-or-short", Tool: "get_bad name!"}) {
		t.Error("the entry hides another tool's finding")
	}
}
