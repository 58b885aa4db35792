package lint

import (
	"strings"
	"testing"

	"toolscope/core/catalog"
)

// type-not-a-name flags each entry of a type union that is not a string,
// and a type that is neither a name nor a list; names, known or not, pass.
func TestTypeNotANameRule(t *testing.T) {
	tests := []struct {
		schema string
		want   []string // "param: message start"
	}{
		{`{"type": "object", "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "strng"}}}`, nil},
		{`{"type": "object", "properties": {"a": {"type": [1, "string"]}}}`, []string{`a: type [1,"string"] holds 1, which is no type name`}},
		{`{"type": "object", "properties": {"a": {"type": [{}, "string", true]}}}`, []string{`a: type [{},"string",true] holds {}`, `a: type [{},"string",true] holds true`}},
		{`{"type": "object", "properties": {"a": {"type": 3}}}`, []string{`a: type 3 is a number, not a type name`}},
		{`{"type": "object", "properties": {"a": {"type": "array", "items": {"type": [null]}}}}`, []string{`a[]: type [null] holds null`}},
	}
	for _, tt := range tests {
		cat, err := catalog.Parse("c.json", []byte(`[{"name": "t", "description": "d", "inputSchema": `+tt.schema+`}]`))
		if err != nil {
			t.Fatal(err)
		}
		got := TypeNotANameRule().Check(cat.Tools[0], nil)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %d findings, want %d: %+v", tt.schema, len(got), len(tt.want), got)
			continue
		}
		for i, f := range got {
			if s := f.Param + ": " + f.Message; !strings.HasPrefix(s, tt.want[i]) {
				t.Errorf("%s: finding %q, want it to start %q", tt.schema, s, tt.want[i])
			}
		}
	}
}
