package tui

import (
	"strings"

	"toolscope/core/jsonv"
)

// skeleton is a tool's required arguments as a JSON object to fill in:
// each required parameter in file order with its default, else its first
// enum value, else an empty value of its type ("" for a string, 0, false,
// [], and a nested object's own skeleton). A schema with no required
// parameters gives {}.
func skeleton(schema *jsonv.Value) string {
	var b strings.Builder
	writeSkeleton(&b, schema, "", 0)
	return b.String()
}

func writeSkeleton(b *strings.Builder, schema *jsonv.Value, indent string, depth int) {
	props := schema.Get("properties")
	req := schema.Get("required")
	var names []string
	if props.Is(jsonv.Object) && req.Is(jsonv.Array) {
		required := map[string]bool{}
		for _, r := range req.Items {
			if s, ok := r.Str(); ok {
				required[s] = true
			}
		}
		for _, m := range props.Members {
			if required[m.Key] && !contains(names, m.Key) {
				names = append(names, m.Key)
			}
		}
	}
	if len(names) == 0 || depth > schemaMaxDepth {
		b.WriteString("{}")
		return
	}
	b.WriteString("{\n")
	for i, name := range names {
		b.WriteString(indent + "  " + jsonv.Quote(name) + ": ")
		writeValue(b, props.Get(name), indent+"  ", depth+1)
		if i < len(names)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "}")
}

func writeValue(b *strings.Builder, s *jsonv.Value, indent string, depth int) {
	if d := s.Get("default"); d != nil {
		b.WriteString(d.JSON())
		return
	}
	if e := s.Get("enum"); e.Is(jsonv.Array) && len(e.Items) > 0 {
		b.WriteString(e.Items[0].JSON())
		return
	}
	if c := s.Get("const"); c != nil {
		b.WriteString(c.JSON())
		return
	}
	t := s.Get("type")
	name, _ := t.Str()
	if t.Is(jsonv.Array) && len(t.Items) > 0 {
		name, _ = t.Items[0].Str()
	}
	switch name {
	case "string":
		b.WriteString(`""`)
	case "integer", "number":
		b.WriteString("0")
	case "boolean":
		b.WriteString("false")
	case "array":
		b.WriteString("[]")
	case "null":
		b.WriteString("null")
	case "object":
		writeSkeleton(b, s, indent, depth)
	default:
		if s.Has("properties") {
			writeSkeleton(b, s, indent, depth)
			return
		}
		b.WriteString("null")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
