package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// lintScore lints a catalog file with the default embedder and returns
// the JSON report's score.
func lintScore(t *testing.T, path string) (catalogScore int, tools map[string]int) {
	t.Helper()
	code, out, errb := runCmd("", "lint", "--no-config", "--format", "json", path)
	if code == 2 {
		t.Fatalf("lint %s: exit 2: %s", path, errb)
	}
	var r struct {
		Score *struct {
			Catalog *int           `json:"catalog"`
			Tools   map[string]int `json:"tools"`
		} `json:"score"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Score == nil || r.Score.Catalog == nil {
		t.Fatalf("the JSON report has no score.catalog:\n%.400s", out)
	}
	return *r.Score.Catalog, r.Score.Tools
}

// The JSON report carries the score, every tool's and the catalog's
// within 0 to 100; blanking any one tool's description lowers that tool's
// score and the catalog's.
func TestLintScoreFallsWithABlankDescription(t *testing.T) {
	data, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	base, tools := lintScore(t, demoPath)
	if base < 0 || base > 100 || len(tools) != len(doc.Tools) {
		t.Fatalf("catalog score %d, %d tools scored of %d", base, len(tools), len(doc.Tools))
	}
	for name, s := range tools {
		if s < 0 || s > 100 {
			t.Errorf("%s scores %d", name, s)
		}
	}
	dir := t.TempDir()
	for i, tool := range doc.Tools {
		name := tool["name"].(string)
		t.Run(name, func(t *testing.T) {
			saved := tool["description"]
			tool["description"] = ""
			blank, _ := json.Marshal(doc)
			tool["description"] = saved
			path := filepath.Join(dir, "blank.json")
			if err := os.WriteFile(path, blank, 0o644); err != nil {
				t.Fatal(err)
			}
			got, gotTools := lintScore(t, path)
			if gotTools[name] >= tools[name] {
				t.Errorf("tools[%d] %s blanked: its score %d -> %d, want lower", i, name, tools[name], gotTools[name])
			}
			if got >= base {
				t.Errorf("tools[%d] %s blanked: the catalog's score %d -> %d, want lower", i, name, base, got)
			}
		})
	}
}
