package diff

import (
	"fmt"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/similarity"
)

func parse(t *testing.T, name, js string) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Parse(name, []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// one is a catalog of one tool with the given input schema.
func one(t *testing.T, schema string) *catalog.Catalog {
	return parse(t, "c.json", fmt.Sprintf(`[{"name": "t", "description": "d", "inputSchema": %s}]`, schema))
}

func kinds(r *Report) string {
	var out []string
	for _, c := range r.Changes {
		s := string(c.Kind)
		if c.Param != "" {
			s += "@" + c.Param
		}
		if c.Breaking {
			s += "!"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestSchemaChanges(t *testing.T) {
	obj := func(props, extra string) string {
		return `{"type": "object", "properties": {` + props + `}` + extra + `}`
	}
	cases := []struct{ name, old, new, want string }{
		{"unchanged, keys reordered", obj(`"a": {"type": "string", "maxLength": 3}`, `, "required": ["a"]`),
			`{"required": ["a"], "properties": {"a": {"maxLength": 3, "type": "string"}}, "type": "object"}`, ""},
		{"new required parameter", obj(`"a": {"type": "string"}`, ""), obj(`"a": {"type": "string"}, "b": {"type": "string"}`, `, "required": ["b"]`), "param-now-required@b!"},
		{"new optional parameter", obj(`"a": {"type": "string"}`, ""), obj(`"a": {"type": "string"}, "b": {"type": "string"}`, ""), "param-added@b"},
		{"optional made required", obj(`"a": {"type": "string"}`, ""), obj(`"a": {"type": "string"}`, `, "required": ["a"]`), "param-now-required@a!"},
		{"required made optional", obj(`"a": {"type": "string"}`, `, "required": ["a"]`), obj(`"a": {"type": "string"}`, ""), "param-now-optional@a"},
		{"parameter removed", obj(`"a": {"type": "string"}, "b": {}`, ""), obj(`"a": {"type": "string"}`, ""), "param-removed@b!"},
		{"enum value removed and added", obj(`"a": {"enum": ["x", "y"]}`, ""), obj(`"a": {"enum": ["x", "z"]}`, ""), "enum-value-removed@a! enum-value-added@a"},
		{"enum added", obj(`"a": {"type": "string"}`, ""), obj(`"a": {"type": "string", "enum": ["x"]}`, ""), "enum-added@a!"},
		{"enum dropped", obj(`"a": {"enum": ["x"]}`, ""), obj(`"a": {}`, ""), "enum-removed@a"},
		{"type narrowed", obj(`"a": {"type": ["string", "null"]}`, ""), obj(`"a": {"type": "string"}`, ""), "type-narrowed@a!"},
		{"number to integer is narrowed", obj(`"a": {"type": "number"}`, ""), obj(`"a": {"type": "integer"}`, ""), "type-narrowed@a!"},
		{"integer to number is widened", obj(`"a": {"type": "integer"}`, ""), obj(`"a": {"type": "number"}`, ""), "type-widened@a"},
		{"any to string is narrowed", obj(`"a": {}`, ""), obj(`"a": {"type": "string"}`, ""), "type-narrowed@a!"},
		{"pattern added", obj(`"a": {"type": "string"}`, ""), obj(`"a": {"type": "string", "pattern": "^x"}`, ""), "pattern-added@a!"},
		{"pattern changed", obj(`"a": {"pattern": "^x"}`, ""), obj(`"a": {"pattern": "^y"}`, ""), "pattern-changed@a!"},
		{"pattern removed", obj(`"a": {"pattern": "^x"}`, ""), obj(`"a": {}`, ""), "pattern-removed@a"},
		{"maximum lowered", obj(`"a": {"maximum": 10}`, ""), obj(`"a": {"maximum": 5}`, ""), "bound-tightened@a!"},
		{"maximum raised", obj(`"a": {"maximum": 10}`, ""), obj(`"a": {"maximum": 50}`, ""), "bound-loosened@a"},
		{"minLength added", obj(`"a": {}`, ""), obj(`"a": {"minLength": 2}`, ""), "bound-tightened@a!"},
		{"const changed", obj(`"a": {"const": 1}`, ""), obj(`"a": {"const": 2}`, ""), "const-changed@a!"},
		{"extra keys refused", obj(`"a": {}`, ""), obj(`"a": {}`, `, "additionalProperties": false`), "additional-properties-refused!"},
		{"nested", obj(`"f": {"type": "object", "properties": {"n": {"enum": [1, 2]}}}`, ""),
			obj(`"f": {"type": "object", "properties": {"n": {"enum": [1]}}, "required": ["n"]}`, ""),
			"param-now-required@f.n! enum-value-removed@f.n!"},
		{"items", obj(`"l": {"type": "array", "items": {"type": "string"}}`, ""), obj(`"l": {"type": "array", "items": {"type": "string", "maxLength": 4}}`, ""), "bound-tightened@l[]!"},
		{"items dropped", obj(`"l": {"type": "array", "items": {"type": "string"}}`, ""), obj(`"l": {"type": "array"}`, ""), "bound-loosened@l"},
		{"param description", obj(`"a": {"description": "one"}`, ""), obj(`"a": {"description": "two"}`, ""), "param-description-changed@a"},
		{"const dropped", obj(`"a": {"const": 1}`, ""), obj(`"a": {}`, ""), "const-removed@a"},
		{"format added", obj(`"a": {"type": "string"}`, ""), obj(`"a": {"type": "string", "format": "uuid"}`, ""), "format-added@a!"},
		{"format changed", obj(`"a": {"format": "date"}`, ""), obj(`"a": {"format": "date-time"}`, ""), "format-changed@a!"},
		{"format dropped", obj(`"a": {"format": "date"}`, ""), obj(`"a": {}`, ""), "format-removed@a"},
		{"multipleOf added", obj(`"a": {"type": "integer"}`, ""), obj(`"a": {"type": "integer", "multipleOf": 5}`, ""), "bound-tightened@a!"},
		{"multipleOf to a divisor", obj(`"a": {"multipleOf": 10}`, ""), obj(`"a": {"multipleOf": 5}`, ""), "bound-loosened@a"},
		{"multipleOf to another", obj(`"a": {"multipleOf": 5}`, ""), obj(`"a": {"multipleOf": 10}`, ""), "bound-tightened@a!"},
		{"uniqueItems", obj(`"l": {"type": "array"}`, ""), obj(`"l": {"type": "array", "uniqueItems": true}`, ""), "bound-tightened@l!"},
		{"nullable dropped", obj(`"a": {"type": "string", "nullable": true}`, ""), obj(`"a": {"type": "string"}`, ""), "type-narrowed@a!"},
		{"default changed", obj(`"a": {"type": "boolean", "default": false}`, ""), obj(`"a": {"type": "boolean", "default": true}`, ""), "default-changed@a"},
		{"anyOf added", obj(`"a": {}`, ""), obj(`"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}`, ""), "constraint-added@a!"},
		{"oneOf changed", obj(`"a": {"oneOf": [{"minLength": 1}]}`, ""), obj(`"a": {"oneOf": [{"minLength": 2}]}`, ""), "constraint-changed@a!"},
		{"allOf dropped", obj(`"a": {"allOf": [{"minLength": 1}]}`, ""), obj(`"a": {}`, ""), "constraint-removed@a"},
		{"$defs changed", obj(`"a": {"$ref": "#/$defs/x"}`, `, "$defs": {"x": {"type": "string"}}`), obj(`"a": {"$ref": "#/$defs/x"}`, `, "$defs": {"x": {"type": "integer"}}`), "constraint-changed!"},
		{"title and a vendor key", obj(`"a": {"title": "A"}`, ""), obj(`"a": {"title": "B", "x-order": 1}`, ""), "schema-changed@a schema-changed@a"},
		{"extra keys given a schema", obj(`"a": {}`, ""), obj(`"a": {}`, `, "additionalProperties": {"type": "string"}`), "additional-properties-refused!"},
		{"extra keys' schema narrowed", obj(`"a": {}`, `, "additionalProperties": {"type": ["string", "null"]}`), obj(`"a": {}`, `, "additionalProperties": {"type": "string"}`), "type-narrowed@*!"},
		{"extra keys' schema dropped", obj(`"a": {}`, `, "additionalProperties": {"type": "string"}`), obj(`"a": {}`, ""), "additional-properties-allowed"},
		{"items no longer unique, in a nested object", obj(`"f": {"type": "object", "properties": {"l": {"uniqueItems": true}}}`, ""), obj(`"f": {"type": "object", "properties": {"l": {}}}`, ""), "bound-loosened@f.l"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Compare(one(t, c.old), one(t, c.new))
			if got := kinds(r); got != c.want {
				t.Errorf("changes %q, want %q\n%+v", got, c.want, r.Changes)
			}
			breaking := strings.Count(c.want, "!")
			if r.Summary.Breaking != breaking {
				t.Errorf("summary breaking %d, want %d", r.Summary.Breaking, breaking)
			}
		})
	}
}

// For a caller that reads a tool's structured result, a field its output
// schema no longer declares is the break.
func TestOutputSchema(t *testing.T) {
	tool := func(out string) *catalog.Catalog {
		if out == "" {
			return parse(t, "c.json", `[{"name": "t", "description": "d"}]`)
		}
		return parse(t, "c.json", `[{"name": "t", "description": "d", "outputSchema": `+out+`}]`)
	}
	ab := `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "number"}}}`
	for _, c := range []struct{ name, old, new, want string }{
		{"unchanged", ab, ab, ""},
		{"a field dropped", ab, `{"type": "object", "properties": {"a": {"type": "string"}}}`, "output-field-removed@(output).b!"},
		{"a field added", `{"type": "object", "properties": {"a": {"type": "string"}}}`, ab, "output-schema-changed"},
		{"declared anew", "", ab, "output-schema-changed"},
		{"no longer declared", ab, "", "output-field-removed@(output).a! output-field-removed@(output).b!"},
	} {
		if got := kinds(Compare(tool(c.old), tool(c.new))); got != c.want {
			t.Errorf("%s: changes %q, want %q", c.name, got, c.want)
		}
	}
}

// A tool that declares no input schema takes any arguments: giving it one
// narrows what it takes, and dropping it widens.
func TestNoInputSchema(t *testing.T) {
	none := `[{"name": "t", "description": "d"}]`
	some := `[{"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}]`
	empty := `[{"name": "t", "description": "d", "inputSchema": {}}]`
	for _, c := range []struct{ name, old, new, want string }{
		{"schema added", none, some, "type-narrowed! param-now-required@a!"},
		{"schema dropped", some, none, "type-widened param-removed@a!"},
		{"none and empty alike", none, empty, ""},
		{"none and none", none, none, ""},
	} {
		r := Compare(parse(t, "old.json", c.old), parse(t, "new.json", c.new))
		if got := kinds(r); got != c.want {
			t.Errorf("%s: changes %q, want %q", c.name, got, c.want)
		}
	}
}

func TestToolsAddedRemovedRenamed(t *testing.T) {
	old := parse(t, "old.json", `[
	 {"name": "keep", "description": "Kept as it is, for tests."},
	 {"name": "old_name", "description": "Renamed, same words."},
	 {"name": "old_schema", "description": "one", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
	 {"name": "gone", "description": "Removed."},
	 {"name": "list_stations", "description": "a", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]`)
	new := parse(t, "new.json", `[
	 {"name": "fresh", "description": "Added."},
	 {"name": "keep", "description": "Kept as it is, for tests."},
	 {"name": "new_name", "description": "Renamed, same words."},
	 {"name": "new_schema", "description": "two", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
	 {"name": "get_forecast", "description": "b", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]`)
	r := Compare(old, new)
	// list_stations and get_forecast share a schema but no word: not a
	// rename.
	want := "tool-removed! tool-removed! tool-added tool-renamed! tool-renamed! description-changed tool-added"
	if got := kinds(r); got != want {
		t.Errorf("changes %q, want %q", got, want)
	}
	s := r.Summary
	if s.Added != 2 || s.Removed != 2 || s.Renamed != 2 || s.Descriptions != 1 || s.Breaking != 4 {
		t.Errorf("summary %+v", s)
	}
	if c := r.Changes[3]; c.Old != "old_name" || c.New != "new_name" {
		t.Errorf("rename %+v", c)
	}
}

// A tool's title and MCP annotations (what a host confirms a call by) are
// compared too: a tool turned destructive is a change to review.
func TestTitleAndAnnotations(t *testing.T) {
	old := parse(t, "old.json", `[{"name": "t", "title": "Drop", "description": "d", "annotations": {"readOnlyHint": true, "title": "x"}}]`)
	new := parse(t, "new.json", `[{"name": "t", "title": "Drop it", "description": "d", "annotations": {"readOnlyHint": false, "destructiveHint": true, "title": "x"}}]`)
	r := Compare(old, new)
	if got := kinds(r); got != "title-changed annotations-changed" {
		t.Fatalf("changes %q", got)
	}
	if msg := r.Changes[1].Message; msg != "annotations changed: destructiveHint none → true, readOnlyHint true → false" {
		t.Errorf("message %q", msg)
	}
	if r.Summary.Other != 2 || r.Summary.Breaking != 0 {
		t.Errorf("summary %+v", r.Summary)
	}
}

func TestPairsAndGate(t *testing.T) {
	old := parse(t, "old.json", `[{"name": "a_old", "description": "x"}, {"name": "b", "description": "y"}, {"name": "c", "description": "z"}]`)
	new := parse(t, "new.json", `[{"name": "a_new", "description": "x"}, {"name": "b", "description": "y"}, {"name": "c", "description": "z"}]`)
	r := Compare(old, new)
	pair := func(a, b string) similarity.PairFinding {
		return similarity.PairFinding{Kind: similarity.Confusable, Pair: similarity.Pair{A: a, B: b}}
	}
	// a_old <> b was flagged before: a_new <> b is the same pair renamed.
	r.SetPairs([]similarity.PairFinding{pair("a_old", "b")}, []similarity.PairFinding{pair("b", "a_new"), pair("b", "c")})
	if len(r.NewPairs) != 1 || r.NewPairs[0].B != "c" || r.Summary.NewPairs != 1 {
		t.Errorf("new pairs %+v", r.NewPairs)
	}
	for _, c := range []struct {
		fail Fail
		ok   bool
	}{
		{Fail{}, true}, {Fail{Breaking: true}, false}, {Fail{Pairs: true}, false}, {Fail{Descriptions: true}, true},
	} {
		r.Gate(c.fail)
		if r.OK != c.ok {
			t.Errorf("%+v: ok %v", c.fail, r.OK)
		}
	}
}
