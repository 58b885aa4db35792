package realcat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func names(tools []Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

func TestMerge(t *testing.T) {
	a := []Tool{{Name: "a1"}, {Name: "a2"}, {Name: "shared"}, {Name: "a3"}}
	b := []Tool{{Name: "shared"}, {Name: "b1"}}
	c := []Tool{{Name: "c1"}}
	for _, tc := range []struct {
		name string
		cats [][]Tool
		n    int
		want []string
		err  string
	}{
		{"in turn", [][]Tool{a, b, c}, 5, []string{"a1", "shared", "c1", "a2", "b1"}, ""},
		{"a taken name passed over", [][]Tool{a, b, c}, 6, []string{"a1", "shared", "c1", "a2", "b1", "a3"}, ""},
		{"fewer than asked", [][]Tool{a, b, c}, 7, nil, "6 distinct names, not 7"},
		{"none asked", [][]Tool{a}, 0, []string{}, ""},
		{"one catalog", [][]Tool{c}, 1, []string{"c1"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Merge(tc.cats, tc.n)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(got), tc.want) {
				t.Errorf("merged %v, want %v", names(got), tc.want)
			}
		})
	}
}

func TestReadForms(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, content string
		want          Tool
		err           string
	}{
		{"mcp", `{"tools":[{"name":"m","description":"d","inputSchema":{"type":"object"}}]}`, Tool{"m", "d", json.RawMessage(`{"type":"object"}`)}, ""},
		{"openai", `[{"type":"function","function":{"name":"o","description":"d","parameters":{"type":"object"}}}]`, Tool{"o", "d", json.RawMessage(`{"type":"object"}`)}, ""},
		{"anthropic", `[{"name":"a","description":"d","input_schema":{"type":"object"}}]`, Tool{"a", "d", json.RawMessage(`{"type":"object"}`)}, ""},
		{"not a catalog", `"text"`, Tool{}, "neither a tools/list result nor a list of tools"},
		{"a bad tool", `[{"name":3}]`, Tool{}, "tool 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tools, err := Read(write(tc.name+".json", tc.content))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(tools) != 1 || tools[0].Name != tc.want.Name || tools[0].Description != tc.want.Description || string(tools[0].InputSchema) != string(tc.want.InputSchema) {
				t.Errorf("read %+v, want %+v", tools, tc.want)
			}
		})
	}
	if _, err := Read(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file read without error")
	}
}

func TestMergeFilesOnSharedCatalogs(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/catalogs/*/*.json")
	if len(files) == 0 {
		t.Skip("../shared/catalogs is absent")
	}
	data, err := MergeFiles(files, 5000)
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Tools []Tool }
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tool := range out.Tools {
		if seen[tool.Name] {
			t.Fatalf("%s twice", tool.Name)
		}
		seen[tool.Name] = true
	}
	if len(seen) != 5000 {
		t.Errorf("%d distinct tools, want 5000", len(seen))
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"m","inputSchema":{}}]}`))
	f.Add([]byte(`[{"type":"function","function":{"name":"o"}}]`))
	f.Add([]byte(`[{"name":"a","input_schema":null}]`))
	f.Add([]byte(`{"tools":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tools, err := Parse("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json: ") {
				t.Fatalf("error does not say where: %v", err)
			}
			return
		}
		if _, err := Merge([][]Tool{tools, tools}, 0); err != nil {
			t.Fatal(err)
		}
	})
}
