//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// On a terminal, p in the arguments drawer loads the probed model's own
// call to the selected tool from the probe record beside the catalog,
// and the boundary's verdict on it shows.
func TestExplorerLoadsTheModelsArgumentsOnATerminal(t *testing.T) {
	_, url := newStandIn(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	os.WriteFile(cat, []byte(standInCatalog), 0o644)
	ex := writeFile(t, "examples.jsonl", standInExamples)
	if code, _, errb := runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--record", cat); code != 0 {
		t.Fatalf("probe: exit %d: %s", code, errb)
	}
	tm := startTerm(t, runOpts{w: 160, h: 45, args: []string{"--embedder", "mock", cat}})
	tm.waitText("tools.json", "search_files")
	tm.send("a")
	tm.waitText("Arguments · search_files")
	tm.send("\x1b")
	tm.waitText("enter/i edit")
	tm.send("p")
	tm.waitText(`"query": "report"`, "valid: the call runs")
	tm.send("p")
	tm.waitText("'query' is required but missing", "the model would get")
	// Cleared, the draft asks nothing on the way out.
	tm.send("x")
	tm.waitText("No arguments yet")
	tm.send("q")
	tm.end()
}
