package tui

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/config"
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
	if m.triage() == nil {
		t.Fatal("no reason prompt")
	}
	g := m.triage().edit.ignore
	if g.Tool != `get_\*` {
		t.Errorf("the entry's tool is %q, want get_\\*", g.Tool)
	}
	if g.Matches(lint.Finding{Rule: "description-missing-or-short", Tool: "get_bad name!"}) {
		t.Error("the entry hides another tool's finding")
	}
}

// bidiIn names the first bidi or format character in s, "" when none.
func bidiIn(s string) string {
	for _, r := range s {
		if isBidi(r) {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// The explorer's text fields show bidi characters escaped, typed or
// prefilled: the arguments editor, the what-if field, the export's file
// name, the triage reason. A prefilled value keeps its ESC, escaped,
// instead of losing it silently: the export writes to the name shown.
func TestTextFieldsShowBidiEscapedAndKeepESC(t *testing.T) {
	const hostile = "a\u202eb\u2066c\u200fd\u061ce"
	cat, err := catalog.Parse("x\x1b[2Jy.json", []byte(`[
	 {"name": "get_volume", "description": "Gets one volume \u001b[2J by id `+hostile+`.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
	 {"name": "list_volumes", "description": "Lists the volumes of a pool."}]`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	opts := mockOptions(t)
	opts.Catalog = cat
	opts.ConfigPath = filepath.Join(dir, "toolscope.yaml")
	opts.ExportDir = dir
	opts.Export = func(w io.Writer, _ string, r *lint.Report, _ *catalog.Catalog) error { return report.WriteJSON(w, r) }
	m := scoredModel(t, opts, 160, 45)
	check := func(what string) {
		t.Helper()
		view := ansi.Strip(m.View())
		if r := bidiIn(view); r != "" {
			t.Errorf("%s: %s reaches the screen", what, r)
		}
		if !strings.Contains(view, `\u202e`) {
			t.Errorf("%s: the escape does not show:\n%s", what, view)
		}
	}
	press(m, "a")
	send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"id": "` + hostile + `"}`), Paste: true})
	check("the arguments editor")
	press(m, "esc", "esc", "1", "d")
	if m.whatIf() == nil {
		t.Fatal("d opened no what-if")
	}
	check("the what-if field")
	if v := m.whatIf().field.Value(); !strings.Contains(v, `\x1b[2J`) {
		t.Errorf("the what-if field lost the description's ESC: %q", v)
	}
	press(m, "esc", "e", "m")
	want := filepath.Join(dir, `x\x1b[2Jy.toolscope.md`)
	if got := m.export().name.Value(); got != want {
		t.Errorf("the export's name is %q, want %q", got, want)
	}
	typeKeys(m, "\u202e")
	check("the export's name")
	drain(m, press(m, "enter"))
	if _, err := os.Stat(want + "\u202e"); err != nil {
		t.Errorf("the export did not go to the name shown: %v", err)
	}
}

// A reason read from the config starts the triage prompt with its control
// characters escaped, not dropped.
func TestTriageReasonPrefillKeepsESC(t *testing.T) {
	opts, _ := triageFixture(t, false)
	if err := os.WriteFile(opts.ConfigPath, []byte("accepted-pairs:\n  - tools: [get_volume_status, hist_volume_status]\n    reason: \"audit \\e[2J only \\u202e\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(opts.ConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	opts.Config = c
	m := scoredModel(t, opts, 160, 45)
	selectPair(t, m, "get_volume_status", "hist_volume_status")
	press(m, "A")
	if m.triage() == nil {
		t.Fatal("A opened no prompt")
	}
	if got := m.triage().reason.Value(); got != `audit \x1b[2J only \u202e` {
		t.Errorf("the prefilled reason is %q", got)
	}
}
