// Package realcat builds large catalogs out of real ones, for benchmarks
// and output comparisons that run the binary as a user does: several
// catalog files merged into one MCP tools/list result of distinct tools.
package realcat

import (
	"encoding/json"
	"fmt"
	"os"
)

// Tool is one tool in MCP form.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// Read reads a catalog file's tools: an MCP tools/list result, an OpenAI
// list ({"type":"function","function":{...}}) or an Anthropic list
// ({name, description, input_schema}).
func Read(path string) ([]Tool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads the tools of a catalog file's contents; path names it in
// errors.
func Parse(path string, data []byte) ([]Tool, error) {
	var list []json.RawMessage
	var mcp struct{ Tools []json.RawMessage }
	if json.Unmarshal(data, &mcp) == nil && mcp.Tools != nil {
		list = mcp.Tools
	} else if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: neither a tools/list result nor a list of tools: %v", path, err)
	}
	out := make([]Tool, 0, len(list))
	for i, raw := range list {
		var e struct {
			Tool
			InputSchemaAnthropic json.RawMessage `json:"input_schema"`
			Function             *struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("%s: tool %d: %v", path, i, err)
		}
		t := e.Tool
		if e.Function != nil {
			t = Tool{e.Function.Name, e.Function.Description, e.Function.Parameters}
		}
		if t.InputSchema == nil {
			t.InputSchema = e.InputSchemaAnthropic
		}
		out = append(out, t)
	}
	return out, nil
}

// Merge takes n tools of distinct names from the catalogs, one from each
// in turn (a catalog's tools in its order; a name already taken is passed
// over), as a host given all of them sees a mix. It fails when the
// catalogs hold fewer than n distinct names.
func Merge(catalogs [][]Tool, n int) ([]Tool, error) {
	out := make([]Tool, 0, n)
	seen := make(map[string]bool, n)
	next := make([]int, len(catalogs))
	for len(out) < n {
		took := false
		for c := range catalogs {
			for len(out) < n && next[c] < len(catalogs[c]) {
				t := catalogs[c][next[c]]
				next[c]++
				if !seen[t.Name] {
					seen[t.Name] = true
					out = append(out, t)
					took = true
					break
				}
			}
		}
		if !took {
			return nil, fmt.Errorf("the catalogs hold %d distinct names, not %d", len(out), n)
		}
	}
	return out, nil
}

// MergeFiles reads the files and merges n distinct tools out of them into
// one tools/list result.
func MergeFiles(files []string, n int) ([]byte, error) {
	var cats [][]Tool
	for _, f := range files {
		tools, err := Read(f)
		if err != nil {
			return nil, err
		}
		cats = append(cats, tools)
	}
	tools, err := Merge(cats, n)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string][]Tool{"tools": tools})
}
