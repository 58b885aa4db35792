package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run whose every report is text details only the pairs the text shows;
// its text must be the one a run that details every pair (here, one that
// also writes JSON) prints, on a catalog with more flagged pairs than the
// text lists.
func TestTextOnlyRunPrintsTheFullRunsText(t *testing.T) {
	dir := t.TempDir()
	var tools []map[string]any
	for i := range 40 {
		tools = append(tools, map[string]any{
			"name":        fmt.Sprintf("list_store_items_%d", i),
			"description": fmt.Sprintf("Lists the items of store number %d, newest first.", i),
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"limit": map[string]any{"type": "integer", "description": "How many items to return (default 20)."}}},
		})
	}
	data, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	cat := filepath.Join(dir, "stores.json")
	if err := os.WriteFile(cat, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"lint", "--no-config", "--no-cache", "--embedder", "mock", cat}
	code, text, errOut := runCmd("", args...)
	if code != 1 {
		t.Fatalf("text only: exit %d, want 1 (the gate fails)\n%s%s", code, text, errOut)
	}
	jsonPath := filepath.Join(dir, "report.json")
	code2, text2, errOut2 := runCmd("", append(args[:len(args)-1:len(args)-1], "--format", "text", "--format", "json="+jsonPath, cat)...)
	if code2 != code {
		t.Fatalf("text and JSON: exit %d, want %d\n%s", code2, code, errOut2)
	}
	if text != text2 {
		t.Errorf("the text-only run prints\n%s\nthe fully detailed run\n%s", text, text2)
	}
	if !strings.Contains(text, "more review pairs") && !strings.Contains(text, "more confusable pairs") {
		t.Fatalf("the text lists every pair: nothing left undetailed to test\n%s", text)
	}
	var r struct {
		Similarity struct {
			Confusable, Watch []struct{ Hint string }
		}
	}
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	for _, p := range append(r.Similarity.Confusable, r.Similarity.Watch...) {
		if p.Hint == "" {
			t.Fatalf("a pair of the JSON report has no hint: the JSON must detail every pair")
		}
	}
	if n := len(r.Similarity.Confusable) + len(r.Similarity.Watch); n <= 20 {
		t.Fatalf("%d flagged pairs: want more than the text lists", n)
	}
}
