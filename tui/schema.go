package tui

import (
	"fmt"
	"strings"

	"toolscope/core/jsonv"
	"toolscope/core/validate"
)

// schemaMaxDepth bounds how deep nested properties are drawn; deeper
// levels are summarised, so a hostile schema cannot flood the pane.
const schemaMaxDepth = 6

// schemaLines renders an input schema's parameters in file order: name,
// type, required or optional, then enum, pattern, default and description
// on indented lines, nested objects and array items below their parent.
func (s *Styles) schemaLines(schema *jsonv.Value, w int) []string {
	if schema == nil {
		return []string{s.Muted.Render("no input schema: the tool takes no arguments")}
	}
	if !schema.Is(jsonv.Object) {
		return []string{s.Error.Render("the input schema is " + schema.TypeName() + ", not an object")}
	}
	var out []string
	if t := typeText(schema); t != "object" {
		out = append(out, s.Warn.Render("root type: "+shown(t)+" (providers want an object)"))
	}
	props := schema.Get("properties")
	if !props.Is(jsonv.Object) || len(props.Members) == 0 {
		return append(out, s.Muted.Render("no parameters"))
	}
	s.properties(&out, schema, 0, w)
	return out
}

func (s *Styles) properties(out *[]string, schema *jsonv.Value, depth, w int) {
	props := schema.Get("properties")
	if !props.Is(jsonv.Object) {
		return
	}
	indent := strings.Repeat("  ", depth)
	if depth >= schemaMaxDepth {
		*out = append(*out, indent+s.Muted.Render(fmt.Sprintf("… %d nested parameters", len(props.Members))))
		return
	}
	required := map[string]bool{}
	if req := schema.Get("required"); req.Is(jsonv.Array) {
		for _, r := range req.Items {
			if name, ok := r.Str(); ok {
				required[name] = true
			}
		}
	}
	for _, m := range props.Members {
		need := s.Muted.Render("optional")
		if required[m.Key] {
			need = s.Bold.Render("required")
		}
		*out = append(*out, indent+s.Bold.Render(shown(m.Key))+"  "+shown(typeText(m.Value))+"  "+need)
		detail := indent + "    "
		dw := max(w-len(detail), 10)
		if e := m.Value.Get("enum"); e.Is(jsonv.Array) {
			*out = append(*out, wrapIndented(shown("enum "+enumText(e)), detail, dw)...)
		}
		if p, ok := m.Value.Get("pattern").Str(); ok {
			*out = append(*out, wrapIndented(shown("pattern "+validate.QuotePattern(p)), detail, dw)...)
		}
		if d := m.Value.Get("default"); d != nil {
			*out = append(*out, wrapIndented(shown("default "+d.JSON()), detail, dw)...)
		}
		if d, ok := m.Value.Get("description").Str(); ok && strings.TrimSpace(d) != "" {
			for _, l := range wrapIndented(shown(oneLine(d)), detail, dw) {
				*out = append(*out, s.Muted.Render(l))
			}
		}
		s.properties(out, m.Value, depth+1, w)
		if items := m.Value.Get("items"); items.Is(jsonv.Object) && items.Has("properties") {
			*out = append(*out, indent+"  "+s.Muted.Render("each item:"))
			s.properties(out, items, depth+2, w)
		}
	}
}

// typeText names a schema's type: a union joined with |, an array's item
// type, "any" when none is declared.
func typeText(v *jsonv.Value) string {
	t := v.Get("type")
	var name string
	switch {
	case t.Is(jsonv.String):
		name = t.Text
	case t.Is(jsonv.Array):
		var parts []string
		for _, it := range t.Items {
			if s, ok := it.Str(); ok {
				parts = append(parts, s)
			}
		}
		name = strings.Join(parts, "|")
	}
	if name == "" {
		name = "any"
	}
	if name == "array" {
		if items := v.Get("items"); items.Is(jsonv.Object) {
			return "array of " + typeText(items)
		}
	}
	return name
}

func enumText(e *jsonv.Value) string {
	parts := make([]string, len(e.Items))
	for i, it := range e.Items {
		parts[i] = it.JSON()
	}
	return strings.Join(parts, " | ")
}

// wrapIndented wraps text to w cells and puts indent before every line.
func wrapIndented(text, indent string, w int) []string {
	lines := wrap(oneLine(text), w)
	for i := range lines {
		lines[i] = indent + lines[i]
	}
	return lines
}
