package diff

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"toolscope/core/catalog"
)

// benchCatalog is n tools with three parameters each, one nested; edit
// changes every tenth tool (a description, an enum value, a bound) and
// renames every hundredth.
func benchCatalog(b *testing.B, n int, edit bool) *catalog.Catalog {
	var tools []map[string]any
	for i := range n {
		name, desc, max, enum := fmt.Sprintf("get_thing_%d", i), fmt.Sprintf("Gets thing %d; use when the request names it.", i), 100, []string{"a", "b", "c"}
		if edit && i%10 == 0 {
			desc, max, enum = desc+" Now faster.", 50, []string{"a", "b"}
		}
		if edit && i%100 == 0 {
			name = fmt.Sprintf("fetch_thing_%d", i)
		}
		tools = append(tools, map[string]any{"name": name, "description": desc, "inputSchema": map[string]any{
			"type": "object", "required": []string{"id"},
			"properties": map[string]any{
				"id":    map[string]any{"type": "string", "pattern": "^[a-z0-9]+$"},
				"limit": map[string]any{"type": "integer", "maximum": max},
				"filter": map[string]any{"type": "object", "properties": map[string]any{
					"kind": map[string]any{"enum": enum}, "tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}},
			}}})
	}
	data, _ := json.Marshal(tools)
	c, err := catalog.Parse("c.json", data)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkCompare diffs two 2,000-tool catalogs, a tenth of the tools
// changed.
func BenchmarkCompare(b *testing.B) {
	old, new := benchCatalog(b, 2000, false), benchCatalog(b, 2000, true)
	b.ResetTimer()
	for b.Loop() {
		if r := Compare(old, new); r.Summary.Breaking == 0 {
			b.Fatal("no breaking change found")
		}
	}
}

// BenchmarkLargeEnum diffs one parameter whose 20,000-value enum lost one
// value and gained one.
func BenchmarkLargeEnum(b *testing.B) {
	enum := func(extra string) string {
		var vals []string
		for i := range 20_000 {
			vals = append(vals, fmt.Sprintf(`"v%d"`, i))
		}
		vals[5] = extra
		return "[" + strings.Join(vals, ",") + "]"
	}
	parse := func(e string) *catalog.Catalog {
		c, err := catalog.Parse("c.json", []byte(`[{"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"k": {"enum": `+e+`}}}}]`))
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	old, new := parse(enum(`"v5"`)), parse(enum(`"w"`))
	b.ResetTimer()
	for b.Loop() {
		if r := Compare(old, new); r.Summary.Breaking != 1 {
			b.Fatal("the removed value is not found")
		}
	}
}
