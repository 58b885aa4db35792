package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/lint"
)

// X in the Tool pane asks, then writes the selected tool's fixes to the
// catalog file as lint --fix does; the reload shows the fixed tool.
func TestApplyFixKeyWritesTheToolsFixes(t *testing.T) {
	src := `{"tools": [
  {"name": "get_volume_status", "description": "Get the live status of one storage volume by its id.",
   "inputSchema": {"type": "object", "properties": {"pool": {"type": "string", "description": "one of gold | silver"}}, "required": ["pool"]}},
  {"name": "list_pools", "description": "Lists the storage pools of the account with their sizes."}
]}`
	path := filepath.Join(t.TempDir(), "cat.json")
	writeCatalog(t, path, src)
	cat, err := catalog.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := mockOptions(t)
	opts.Catalog = cat
	opts.Reload = func(context.Context) (*catalog.Catalog, error) { return catalog.Load(path, nil) }
	m := scoredModel(t, opts, 160, 45)
	press(m, "2")
	if m.keys.ApplyFix.Enabled() {
		t.Fatal("X is on with no catalog file to write")
	}
	m.opts.Watch = path
	m.enableKeys()
	if !m.keys.ApplyFix.Enabled() {
		t.Fatal("X is off on a tool with a fix")
	}
	if !strings.Contains(m.tool.View(), "fix (X writes it)") {
		t.Errorf("the Tool pane does not say X writes the fix:\n%s", m.tool.View())
	}
	press(m, "X")
	if f := footerLine(m); !strings.Contains(f, "write to ") || !strings.Contains(f, `"enum": ["gold","silver"]`) {
		t.Fatalf("the question: %q", f)
	}
	drain(m, press(m, "y"))
	data, _ := os.ReadFile(path)
	if want := strings.Replace(src, `"description": "one of gold | silver"}`, `"description": "one of gold | silver", "enum": ["gold","silver"]}`, 1); string(data) != want {
		t.Errorf("the file after X:\n%s\nwant\n%s", data, want)
	}
	for _, f := range m.snap.byTool[0] {
		if f.Rule == lint.RuleEnumInProse {
			t.Errorf("after the reload the finding is still shown: %+v", f)
		}
	}
	if len(m.problems) > 0 || !strings.Contains(footerLine(m), "fixed get_volume_status") {
		t.Errorf("problems %v, footer %q", m.problems, footerLine(m))
	}
}

// The explorer's first screen starts, as the reports do, with the list of
// what to fix first above the selected tool; picking another tool or
// opening the Tool pane hides it.
func TestFirstScreenStartsWithWhatToFixFirst(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	view := m.tool.View()
	first, tool := strings.Index(view, "First to fix"), strings.Index(view, "Get the live status of one storage volume")
	if first < 0 || tool < 0 || first > tool || !strings.Contains(view, "1. ✗ Fails the gate") {
		t.Fatalf("the first screen's Tool pane does not start with the list:\n%s", view)
	}
	press(m, "down")
	if strings.Contains(m.tool.View(), "First to fix") {
		t.Error("the list stays after another tool is picked")
	}
	m = scoredModel(t, mockOptions(t), 160, 45)
	press(m, "2")
	if strings.Contains(m.tool.View(), "First to fix") {
		t.Error("the list stays once the Tool pane is opened")
	}
}
