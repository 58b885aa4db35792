package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/jsonv"
)

// FuzzParse: any bytes load or fail with one *Error line; a loaded catalog's
// tools have names, entries and positions.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"../../fixtures/broken", "../../fixtures/shapes"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && len(data) < 4096 {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`[{"name":"a","inputSchema":{"properties":{"p":{}}},"_meta":{"period":{}}},{"functionDeclarations":[{"name":"g"}]},{"type":"function","function":{"name":"c"}}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","result":{"tools":[{"name":"a","name":"b"}]}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","error":{"message":"line one\nline two"}}`))
	f.Add([]byte("\ufeff[{\"name\":\"a\"},\n{\"name\":\"b\",}]"))
	f.Add([]byte(`[{"name":"a","input_schema":{},"input_examples":[{"q":1},{"q":[2]}]},{"name":"b","input_schema":{},"input_examples":[3]}]`))
	// YAML, which a catalog is not: the error says so, still in one line.
	for _, y := range []string{"tools:\n  - name: a\n", "---\ntools: []\n", "# tools\n- name: a\n", "\ufeff  key-1: v\r\n"} {
		f.Add([]byte(y))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.json", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || strings.ContainsAny(err.Error(), "\n\r") || !strings.HasPrefix(err.Error(), "f.json") {
				t.Fatalf("not one *Error line: %q", err)
			}
			return
		}
		for i, tool := range c.Tools {
			if tool.Index != i || tool.Entry == "" || tool.Pos.Line < 1 || tool.Raw == nil {
				t.Fatalf("tool %d: %+v", i, tool)
			}
			for _, ex := range tool.InputExamples {
				if !ex.Is(jsonv.Object) {
					t.Fatalf("tool %d: an input example that is not an object: %s", i, ex.JSON())
				}
			}
		}
	})
}
