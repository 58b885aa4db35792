package lint

import (
	"strings"

	"toolscope/core/jsonv"
)

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
