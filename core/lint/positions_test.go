package lint

import (
	"testing"

	"toolscope/core/jsonv"
)

func TestParamPos(t *testing.T) {
	src := `{"type": "object", "properties": {
  "filter": {"type": "object", "properties": {
    "name": {"type": "string"}}},
  "tags": {"type": "array", "items": {"type": "string"}},
  "rows": {"type": "array", "items": {"type": "object", "properties": {
      "id": {"type": "integer"}}}}},
 "required": ["ghost"]}`
	schema, err := jsonv.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		param     string
		line, col int
		ok        bool
	}{
		{"filter", 2, 3, true},
		{"filter.name", 3, 5, true},
		{"tags", 4, 3, true},
		{"tags[]", 4, 3, true},
		{"rows[].id", 6, 7, true},
		{"ghost", 0, 0, false},
		{"filter.nope", 0, 0, false},
	}
	for _, c := range cases {
		pos, ok := paramPos(schema, c.param)
		if ok != c.ok || pos.Line != c.line || pos.Col != c.col {
			t.Errorf("paramPos(%q) = %d:%d %v, want %d:%d %v", c.param, pos.Line, pos.Col, ok, c.line, c.col, c.ok)
		}
	}
	if _, ok := paramPos(nil, "x"); ok {
		t.Error("a tool without a schema has no parameter position")
	}
}
