package lint

import (
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// locate sets where a finding points: where its rule put it (an enum
// member, a string in the schema), else at its parameter's key, else at
// the tool's entry, so a code-scanning UI shows it on the line it is
// about. A tool without a position (a live server's) gives none.
func locate(f *Finding, t *catalog.Tool) {
	switch {
	case t.Pos.Line == 0:
		f.Line, f.Column = 0, 0
	case f.Line > 0:
	default:
		f.Line, f.Column = t.Pos.Line, t.Pos.Col
		if f.Param != "" {
			if pos, ok := paramPos(t.Schema, f.Param); ok {
				f.Line, f.Column = pos.Line, pos.Col
			}
		}
	}
}

// paramPos is where a parameter stands in the source: the position of
// its key under "properties", for a path as findings name it ("filter",
// "filter.name", "tags[]", "rows[].id"). ok is false when the schema does
// not hold the path (a parameter only required, or a tool with no
// positions, such as a live server's).
func paramPos(schema *jsonv.Value, param string) (pos jsonv.Pos, ok bool) {
	node := schema
	for _, seg := range strings.Split(param, ".") {
		name := strings.TrimRight(seg, "[]")
		items := (len(seg) - len(name)) / 2
		member, found := propertyMember(node, name)
		if !found {
			return jsonv.Pos{}, false
		}
		pos, node = member.Pos, member.Value
		for range items {
			if node = node.Get("items"); node == nil {
				return pos, pos.Line > 0
			}
		}
	}
	return pos, pos.Line > 0
}

// propertyMember is the member declaring name under the schema's
// properties.
func propertyMember(schema *jsonv.Value, name string) (jsonv.Member, bool) {
	props := schema.Get("properties")
	if !props.Is(jsonv.Object) {
		return jsonv.Member{}, false
	}
	for _, m := range props.Members {
		if m.Key == name {
			return m, true
		}
	}
	return jsonv.Member{}, false
}
