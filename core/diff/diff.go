// Package diff compares two tool catalogs the way a reviewer of a change to
// one needs (docs/diff.md): tools added, removed and renamed; every change
// to text a model reads (a description changed is what a tool-pinning check
// looks for); the schema changes that break callers (a new required
// parameter, an enum value removed, a type narrowed, a pattern added ...);
// and the confusable pairs the change introduces.
package diff

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// Kind names a change.
type Kind string

// The kinds of change, by what they touch.
const (
	ToolAdded   Kind = "tool-added"
	ToolRemoved Kind = "tool-removed"
	ToolRenamed Kind = "tool-renamed"

	DescriptionChanged      Kind = "description-changed"
	ParamDescriptionChanged Kind = "param-description-changed"

	ParamAdded         Kind = "param-added"
	ParamRemoved       Kind = "param-removed"
	ParamRequired      Kind = "param-now-required"
	ParamOptional      Kind = "param-now-optional"
	TypeNarrowed       Kind = "type-narrowed"
	TypeWidened        Kind = "type-widened"
	EnumValueRemoved   Kind = "enum-value-removed"
	EnumValueAdded     Kind = "enum-value-added"
	EnumAdded          Kind = "enum-added"
	EnumRemoved        Kind = "enum-removed"
	ConstChanged       Kind = "const-changed"
	PatternAdded       Kind = "pattern-added"
	PatternChanged     Kind = "pattern-changed"
	PatternRemoved     Kind = "pattern-removed"
	BoundTightened     Kind = "bound-tightened"
	BoundLoosened      Kind = "bound-loosened"
	ExtraKeysRefused   Kind = "additional-properties-refused"
	ExtraKeysAllowed   Kind = "additional-properties-allowed"
	ConstRemoved       Kind = "const-removed"
	FormatAdded        Kind = "format-added"
	FormatChanged      Kind = "format-changed"
	FormatRemoved      Kind = "format-removed"
	DefaultChanged     Kind = "default-changed"
	ConstraintAdded    Kind = "constraint-added"
	ConstraintChanged  Kind = "constraint-changed"
	ConstraintRemoved  Kind = "constraint-removed"
	SchemaOtherChanged Kind = "schema-changed"

	TitleChanged        Kind = "title-changed"
	AnnotationsChanged  Kind = "annotations-changed"
	OutputFieldRemoved  Kind = "output-field-removed"
	OutputSchemaChanged Kind = "output-schema-changed"
)

// Change is one difference. Tool is the tool's name in the new catalog
// (the old one's for a removed tool); Param is a parameter path
// ("filter.name", "tags[]"), "" for the tool itself.
type Change struct {
	Kind  Kind   `json:"kind"`
	Tool  string `json:"tool"`
	Param string `json:"param,omitempty"`
	// Breaking is true when arguments a caller sent before may now fail
	// or call nothing.
	Breaking bool   `json:"breaking"`
	Message  string `json:"message"`
	// Old and New are the text before and after, for a text change and a
	// rename.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// Report is a catalog diff; its JSON field names are stable.
type Report struct {
	Old string `json:"old"`
	New string `json:"new"`
	// OldTools and NewTools count each catalog's tools.
	OldTools int      `json:"oldTools"`
	NewTools int      `json:"newTools"`
	Changes  []Change `json:"changes"`
	// NewPairs are confusable pairs of the new catalog that the old one
	// did not flag (a renamed tool counts under its new name); nil when
	// similarity did not run.
	NewPairs []similarity.PairFinding `json:"newConfusablePairs"`
	// PairsCompared is false when similarity did not run.
	PairsCompared bool    `json:"pairsCompared"`
	Summary       Summary `json:"summary"`
	// OK is the gate: nothing of what FailOn names.
	OK bool `json:"ok"`
}

// Summary counts a report's changes.
type Summary struct {
	Added        int `json:"added"`
	Removed      int `json:"removed"`
	Renamed      int `json:"renamed"`
	Descriptions int `json:"descriptionChanges"`
	Breaking     int `json:"breaking"`
	Other        int `json:"otherChanges"`
	NewPairs     int `json:"newConfusablePairs"`
}

// Compare diffs two catalogs. Tools are matched by name (the first of a
// repeated name); a removed tool and an added one are matched as a rename
// when their descriptions are equal (and not empty), or else when their
// input schemas are equal and declare parameters and their names share a
// word (fetch_user and get_user, not list_stations and get_forecast).
func Compare(old, new *catalog.Catalog) *Report {
	r := &Report{Old: old.Source, New: new.Source, OldTools: len(old.Tools), NewTools: len(new.Tools), Changes: []Change{}}
	oldBy, newBy := byName(old), byName(new)
	var removed, added []*catalog.Tool
	for _, t := range unique(old) {
		if newBy[t.Name] == nil {
			removed = append(removed, t)
		}
	}
	for _, t := range unique(new) {
		if oldBy[t.Name] == nil {
			added = append(added, t)
		}
	}
	renamedFrom := matchRenames(removed, added)
	renamedTo := map[string]bool{}
	for _, from := range renamedFrom {
		renamedTo[from.Name] = true
	}
	for _, t := range removed {
		if !renamedTo[t.Name] {
			r.add(Change{Kind: ToolRemoved, Tool: t.Name, Breaking: true, Message: "tool removed: a call to it now fails"})
		}
	}
	for _, t := range unique(new) {
		before := oldBy[t.Name]
		if from, ok := renamedFrom[t.Name]; ok {
			r.add(Change{Kind: ToolRenamed, Tool: t.Name, Breaking: true, Old: from.Name, New: t.Name,
				Message: fmt.Sprintf("renamed from %s: a call to the old name now fails", from.Name)})
			before = from
		}
		if before == nil {
			r.add(Change{Kind: ToolAdded, Tool: t.Name, Message: "tool added"})
			continue
		}
		if before.Description != t.Description {
			r.add(Change{Kind: DescriptionChanged, Tool: t.Name, Old: before.Description, New: t.Description,
				Message: textChanged("description changed: what a model reads of the tool is different", before.Description, t.Description)})
		}
		if before.Title != t.Title {
			r.add(Change{Kind: TitleChanged, Tool: t.Name, Old: before.Title, New: t.Title,
				Message: fmt.Sprintf("title changed from %q to %q", before.Title, t.Title)})
		}
		if msg := annotationChanges(before.Annotations, t.Annotations); msg != "" {
			r.add(Change{Kind: AnnotationsChanged, Tool: t.Name, Message: msg})
		}
		r.schema(t.Name, "", orAny(before.Schema), orAny(t.Schema))
		r.output(t.Name, before.OutputSchema, t.OutputSchema)
	}
	r.count()
	return r
}

// output compares a tool's output schema (MCP's outputSchema, what its
// structured result holds): for a caller that reads the result, a field
// no longer declared is the break; anything else is reported as changed.
func (r *Report) output(tool string, old, new *jsonv.Value) {
	if same(old, new) {
		return
	}
	var gone []string
	if props := old.Get("properties"); props != nil && props.Kind == jsonv.Object {
		np := new.Get("properties")
		for _, m := range props.Members {
			if np.Get(m.Key) == nil {
				gone = append(gone, m.Key)
			}
		}
	}
	for _, f := range gone {
		r.add(Change{Kind: OutputFieldRemoved, Tool: tool, Param: "(output)." + f, Breaking: true,
			Message: fmt.Sprintf("the result no longer declares %s: a caller that reads it may find nothing", f)})
	}
	if len(gone) == 0 {
		r.add(Change{Kind: OutputSchemaChanged, Tool: tool,
			Message: fmt.Sprintf("output schema changed from %s to %s", brief(old), brief(new))})
	}
}

// orAny is a tool's input schema, or the empty schema (any arguments) for
// a tool that declares none.
func orAny(v *jsonv.Value) *jsonv.Value {
	if v == nil {
		return &jsonv.Value{Kind: jsonv.Object}
	}
	return v
}

// annotationChanges says which of a tool's MCP annotations changed
// (readOnlyHint, destructiveHint ...: what a host decides to confirm by),
// "" when none did.
func annotationChanges(old, new *jsonv.Value) string {
	if same(old, new) {
		return ""
	}
	var keys []string
	for _, v := range []*jsonv.Value{old, new} {
		if v != nil && v.Kind == jsonv.Object {
			for _, m := range v.Members {
				keys = append(keys, m.Key)
			}
		}
	}
	var parts []string
	for _, k := range slices.Compact(slices.Sorted(slices.Values(keys))) {
		if o, n := old.Get(k), new.Get(k); !same(o, n) {
			parts = append(parts, fmt.Sprintf("%s %s → %s", k, describe(o), describe(n)))
		}
	}
	if len(parts) == 0 {
		return "annotations changed from " + describe(old) + " to " + describe(new)
	}
	return "annotations changed: " + strings.Join(parts, ", ")
}

// textChanged is msg, or says the change is in white space only when it
// is: invisible side by side, but a tool-pinning hash changes all the same.
func textChanged(msg, old, new string) string {
	if WhitespaceOnly(old, new) {
		return msg + " (in white space only)"
	}
	return msg
}

// WhitespaceOnly reports whether two different texts have the same words.
func WhitespaceOnly(old, new string) bool {
	return old != new && slices.Equal(strings.Fields(old), strings.Fields(new))
}

func (r *Report) add(c Change) { r.Changes = append(r.Changes, c) }

func (r *Report) count() {
	s := Summary{NewPairs: len(r.NewPairs)}
	for _, c := range r.Changes {
		switch {
		case c.Kind == ToolAdded:
			s.Added++
		case c.Kind == ToolRemoved:
			s.Removed++
		case c.Kind == ToolRenamed:
			s.Renamed++
		case c.Kind == DescriptionChanged || c.Kind == ParamDescriptionChanged:
			s.Descriptions++
		}
		if c.Breaking {
			s.Breaking++
		} else if !slices.Contains([]Kind{ToolAdded, DescriptionChanged, ParamDescriptionChanged}, c.Kind) {
			s.Other++
		}
	}
	r.Summary = s
}

// Fail names what fails the gate.
type Fail struct {
	Breaking, Descriptions, Pairs bool
}

// Gate sets OK by what fails.
func (r *Report) Gate(f Fail) {
	s := r.Summary
	r.OK = !(f.Breaking && s.Breaking > 0) && !(f.Descriptions && s.Descriptions > 0) && !(f.Pairs && s.NewPairs > 0)
}

// SetPairs records the confusable pairs the new catalog has and the old
// did not, given each catalog's confusable pairs; a pair of the old
// catalog counts under its renamed tools' new names.
func (r *Report) SetPairs(old, new []similarity.PairFinding) {
	rename := map[string]string{}
	for _, c := range r.Changes {
		if c.Kind == ToolRenamed {
			rename[c.Old] = c.New
		}
	}
	name := func(s string) string {
		if n, ok := rename[s]; ok {
			return n
		}
		return s
	}
	had := map[string]bool{}
	for _, p := range old {
		had[lint.PairKey(name(p.A), name(p.B))] = true
	}
	r.NewPairs = []similarity.PairFinding{}
	for _, p := range new {
		if !had[lint.PairKey(p.A, p.B)] {
			r.NewPairs = append(r.NewPairs, p)
		}
	}
	r.PairsCompared = true
	r.count()
}

func byName(c *catalog.Catalog) map[string]*catalog.Tool {
	m := make(map[string]*catalog.Tool, len(c.Tools))
	for _, t := range c.Tools {
		if m[t.Name] == nil {
			m[t.Name] = t
		}
	}
	return m
}

// unique is the catalog's tools without later repeats of a name.
func unique(c *catalog.Catalog) []*catalog.Tool {
	seen := map[string]bool{}
	var out []*catalog.Tool
	for _, t := range c.Tools {
		if !seen[t.Name] {
			seen[t.Name] = true
			out = append(out, t)
		}
	}
	return out
}

// matchRenames pairs removed and added tools that are one tool renamed,
// by the added tool's name.
func matchRenames(removed, added []*catalog.Tool) map[string]*catalog.Tool {
	out := map[string]*catalog.Tool{}
	taken := map[string]bool{}
	for _, pass := range []func(a, b *catalog.Tool) bool{
		func(a, b *catalog.Tool) bool { return a.Description != "" && a.Description == b.Description },
		func(a, b *catalog.Tool) bool {
			props := a.Schema.Get("properties")
			return props != nil && len(props.Members) > 0 && same(a.Schema, b.Schema) && shareWord(a.Name, b.Name)
		},
	} {
		for _, to := range added {
			if out[to.Name] != nil {
				continue
			}
			for _, from := range removed {
				if !taken[from.Name] && pass(from, to) {
					out[to.Name], taken[from.Name] = from, true
					break
				}
			}
		}
	}
	return out
}

// shareWord reports whether two names have a word in common (split at
// '_', '-', '.', and lower-to-upper case changes).
func shareWord(a, b string) bool {
	wa := words(a)
	for _, w := range words(b) {
		if slices.Contains(wa, w) {
			return true
		}
	}
	return false
}

func words(name string) []string {
	var out []string
	start := 0
	for i, r := range name {
		split := r == '_' || r == '-' || r == '.'
		if split || (i > 0 && r >= 'A' && r <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z') {
			if i > start {
				out = append(out, strings.ToLower(name[start:i]))
			}
			start = i
			if split {
				start = i + 1
			}
		}
	}
	if start < len(name) {
		out = append(out, strings.ToLower(name[start:]))
	}
	return out
}

// same is JSON equality with objects compared as sets of members.
func same(a, b *jsonv.Value) bool {
	if a == nil || b == nil || a.Kind != jsonv.Object || b.Kind != jsonv.Object {
		if a != nil && b != nil && a.Kind == jsonv.Array && b.Kind == jsonv.Array && len(a.Items) == len(b.Items) {
			for i := range a.Items {
				if !same(a.Items[i], b.Items[i]) {
					return false
				}
			}
			return true
		}
		return jsonv.Equal(a, b)
	}
	if len(a.Members) != len(b.Members) {
		return false
	}
	for _, m := range a.Members {
		if !same(m.Value, b.Get(m.Key)) {
			return false
		}
	}
	return true
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// schema compares one schema node of a tool (the input schema, a
// parameter, an item) and recurses into properties and items.
func (r *Report) schema(tool, path string, old, new *jsonv.Value) {
	if same(old, new) {
		return
	}
	where := "the input schema"
	if path != "" {
		where = "parameter " + path
	}
	change := func(k Kind, breaking bool, format string, args ...any) {
		r.add(Change{Kind: k, Tool: tool, Param: path, Breaking: breaking, Message: fmt.Sprintf(format, args...)})
	}
	if old == nil || new == nil || old.Kind != jsonv.Object || new.Kind != jsonv.Object {
		// A boolean schema or none: too coarse to say more than that.
		change(SchemaOtherChanged, false, "%s changed from %s to %s", where, describe(old), describe(new))
		return
	}
	if path != "" {
		od, _ := old.Get("description").Str()
		nd, _ := new.Get("description").Str()
		if od != nd {
			r.add(Change{Kind: ParamDescriptionChanged, Tool: tool, Param: path, Old: od, New: nd,
				Message: textChanged("parameter description changed: what a model reads of it is different", od, nd)})
		}
	}
	r.types(tool, path, where, old, new, change)
	r.enums(where, old, new, change)
	if oc, nc := old.Get("const"), new.Get("const"); nc != nil && !same(oc, nc) {
		change(ConstChanged, true, "%s must now be %s", where, nc.JSON())
	} else if oc != nil && nc == nil {
		change(ConstRemoved, false, "%s is no longer fixed to %s", where, oc.JSON())
	}
	op, _ := old.Get("pattern").Str()
	np, _ := new.Get("pattern").Str()
	switch {
	case op == "" && np != "":
		change(PatternAdded, true, "%s must now match /%s/", where, np)
	case op != "" && np == "":
		change(PatternRemoved, false, "%s no longer has a pattern (was /%s/)", where, op)
	case op != np:
		change(PatternChanged, true, "%s pattern changed from /%s/ to /%s/", where, op, np)
	}
	for _, b := range []struct {
		key   string
		lower bool // a lower bound: raising it narrows
	}{
		{"minimum", true}, {"exclusiveMinimum", true}, {"minLength", true}, {"minItems", true}, {"minProperties", true},
		{"maximum", false}, {"exclusiveMaximum", false}, {"maxLength", false}, {"maxItems", false}, {"maxProperties", false},
	} {
		ov, oHas := old.Get(b.key).Float()
		nv, nHas := new.Get(b.key).Float()
		switch {
		case !oHas && nHas:
			change(BoundTightened, true, "%s now has %s %s", where, b.key, new.Get(b.key).Text)
		case oHas && !nHas:
			change(BoundLoosened, false, "%s no longer has %s (was %s)", where, b.key, old.Get(b.key).Text)
		case oHas && nHas && ov != nv:
			if (nv > ov) == b.lower {
				change(BoundTightened, true, "%s %s tightened from %s to %s", where, b.key, old.Get(b.key).Text, new.Get(b.key).Text)
			} else {
				change(BoundLoosened, false, "%s %s loosened from %s to %s", where, b.key, old.Get(b.key).Text, new.Get(b.key).Text)
			}
		}
	}
	oa, na := old.Get("additionalProperties"), new.Get("additionalProperties")
	refuses := func(v *jsonv.Value) bool { return v != nil && v.Kind == jsonv.Bool && !v.Bool }
	isSchema := func(v *jsonv.Value) bool { return v != nil && v.Kind == jsonv.Object }
	switch {
	case !refuses(oa) && refuses(na):
		change(ExtraKeysRefused, true, "%s now refuses keys it does not declare", where)
	case refuses(oa) && !refuses(na):
		change(ExtraKeysAllowed, false, "%s now accepts keys it does not declare", where)
	case isSchema(oa) && isSchema(na):
		r.schema(tool, join(path, "*"), oa, na)
	case isSchema(na) && !same(na, &jsonv.Value{Kind: jsonv.Object}):
		change(ExtraKeysRefused, true, "%s now checks keys it does not declare against %s", where, na.JSON())
	case isSchema(oa):
		change(ExtraKeysAllowed, false, "%s no longer checks keys it does not declare against a schema", where)
	}
	r.keywords(where, old, new, change)
	r.properties(tool, path, old, new, change)
	if oi, ni := old.Get("items"), new.Get("items"); oi != nil && ni != nil {
		r.schema(tool, path+"[]", oi, ni)
	} else if oi == nil && ni != nil {
		change(BoundTightened, true, "%s now constrains its items", where)
	} else if oi != nil && ni == nil {
		change(BoundLoosened, false, "%s no longer constrains its items", where)
	}
}

// handled are the keywords schema compares one by one.
var handled = []string{"description", "type", "enum", "const", "pattern", "minimum", "exclusiveMinimum", "minLength",
	"minItems", "minProperties", "maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties",
	"additionalProperties", "properties", "required", "items"}

// narrowing are keywords that, added, can only refuse more values; what
// they hold is not compared further, so a change to one may break callers
// and is said to.
var narrowing = []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$defs", "definitions",
	"prefixItems", "contains", "minContains", "maxContains", "patternProperties", "propertyNames",
	"dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems",
	"additionalItems", "contentEncoding"}

// keywords compares the keywords of a schema node beyond those handled one
// by one: format, multipleOf, uniqueItems, nullable and default by what they
// mean; the narrowing ones as may-break; the rest (title, examples,
// vendor keys) as text.
func (r *Report) keywords(where string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
	var keys []string
	for _, v := range []*jsonv.Value{old, new} {
		for _, m := range v.Members {
			if !slices.Contains(handled, m.Key) {
				keys = append(keys, m.Key)
			}
		}
	}
	for _, k := range slices.Compact(slices.Sorted(slices.Values(keys))) {
		o, n := old.Get(k), new.Get(k)
		if same(o, n) {
			continue
		}
		switch k {
		case "format":
			switch {
			case o == nil:
				change(FormatAdded, true, "%s must now be in format %s", where, n.JSON())
			case n == nil:
				change(FormatRemoved, false, "%s no longer has format %s", where, o.JSON())
			default:
				change(FormatChanged, true, "%s format changed from %s to %s", where, o.JSON(), n.JSON())
			}
		case "multipleOf":
			ov, oOK := o.Float()
			nv, nOK := n.Float()
			switch {
			case !nOK:
				change(BoundLoosened, false, "%s no longer has multipleOf (was %s)", where, describe(o))
			case oOK && nv != 0 && math.Mod(ov, nv) == 0:
				change(BoundLoosened, false, "%s multipleOf loosened from %s to %s", where, o.Text, n.Text)
			case oOK:
				change(BoundTightened, true, "%s multipleOf tightened from %s to %s", where, o.Text, n.Text)
			default:
				change(BoundTightened, true, "%s now has multipleOf %s", where, n.Text)
			}
		case "uniqueItems":
			if truthy(n) && !truthy(o) {
				change(BoundTightened, true, "%s now refuses repeated items", where)
			} else if truthy(o) && !truthy(n) {
				change(BoundLoosened, false, "%s now accepts repeated items", where)
			}
		case "nullable":
			if truthy(o) && !truthy(n) {
				change(TypeNarrowed, true, "%s no longer accepts null", where)
			} else if truthy(n) && !truthy(o) {
				change(TypeWidened, false, "%s now accepts null", where)
			}
		case "default":
			change(DefaultChanged, false, "%s default changed from %s to %s: a call that leaves it out now gets the new one", where, describe(o), describe(n))
		default:
			switch {
			case !slices.Contains(narrowing, k):
				change(SchemaOtherChanged, false, "%s %s changed from %s to %s", where, k, brief(o), brief(n))
			case o == nil:
				change(ConstraintAdded, true, "%s now has %s, which values must meet", where, k)
			case n == nil:
				change(ConstraintRemoved, false, "%s no longer has %s", where, k)
			default:
				change(ConstraintChanged, true, "%s %s changed (not compared further: check that calls that worked still do)", where, k)
			}
		}
	}
}

// brief is a value's JSON, cut to a line's worth.
func brief(v *jsonv.Value) string {
	s := describe(v)
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

func truthy(v *jsonv.Value) bool { return v != nil && v.Kind == jsonv.Bool && v.Bool }

func describe(v *jsonv.Value) string {
	if v == nil {
		return "none"
	}
	return v.JSON()
}

// types compares the declared types; integer counts as part of number.
func (r *Report) types(tool, path, where string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
	ot, nt := typeSet(old.Get("type")), typeSet(new.Get("type"))
	if slices.Equal(ot, nt) {
		return
	}
	allows := func(set []string, t string) bool {
		return set == nil || slices.Contains(set, t) || (t == "integer" && slices.Contains(set, "number"))
	}
	narrowed, widened := false, false
	for _, t := range orAll(ot) {
		if !allows(nt, t) {
			narrowed = true
		}
	}
	for _, t := range orAll(nt) {
		if !allows(ot, t) {
			widened = true
		}
	}
	if narrowed {
		change(TypeNarrowed, true, "%s type narrowed from %s to %s", where, typeText(ot), typeText(nt))
	} else if widened {
		change(TypeWidened, false, "%s type widened from %s to %s", where, typeText(ot), typeText(nt))
	}
}

var allTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

func orAll(set []string) []string {
	if set == nil {
		return allTypes
	}
	return set
}

// typeSet is a schema's type list, sorted; nil when any type goes.
func typeSet(v *jsonv.Value) []string {
	var out []string
	switch {
	case v == nil:
		return nil
	case v.Kind == jsonv.String:
		out = []string{v.Text}
	case v.Kind == jsonv.Array:
		for _, it := range v.Items {
			if s, ok := it.Str(); ok {
				out = append(out, s)
			}
		}
	default:
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func typeText(set []string) string {
	if set == nil {
		return "any type"
	}
	return strings.Join(set, "|")
}

func (r *Report) enums(where string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
	oe, ne := old.Get("enum"), new.Get("enum")
	switch {
	case oe == nil && ne == nil:
		return
	case oe == nil:
		change(EnumAdded, true, "%s now takes only %s", where, listText(ne.Items))
		return
	case ne == nil:
		change(EnumRemoved, false, "%s no longer limits its values to an enum", where)
		return
	}
	var gone, added []*jsonv.Value
	for _, v := range oe.Items {
		if !slices.ContainsFunc(ne.Items, func(w *jsonv.Value) bool { return same(v, w) }) {
			gone = append(gone, v)
		}
	}
	for _, v := range ne.Items {
		if !slices.ContainsFunc(oe.Items, func(w *jsonv.Value) bool { return same(v, w) }) {
			added = append(added, v)
		}
	}
	if len(gone) > 0 {
		change(EnumValueRemoved, true, "%s no longer takes %s", where, listText(gone))
	}
	if len(added) > 0 {
		change(EnumValueAdded, false, "%s also takes %s", where, listText(added))
	}
}

func listText(vs []*jsonv.Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.JSON()
	}
	return strings.Join(parts, ", ")
}

func requiredSet(v *jsonv.Value) []string {
	var out []string
	if req := v.Get("required"); req != nil {
		for _, it := range req.Items {
			if s, ok := it.Str(); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func (r *Report) properties(tool, path string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
	op, np := old.Get("properties"), new.Get("properties")
	oreq, nreq := requiredSet(old), requiredSet(new)
	if op == nil && np == nil && slices.Equal(oreq, nreq) {
		return
	}
	var names []string
	if op != nil {
		for _, m := range op.Members {
			names = append(names, m.Key)
		}
	}
	if np != nil {
		for _, m := range np.Members {
			if op.Get(m.Key) == nil {
				names = append(names, m.Key)
			}
		}
	}
	for _, n := range slices.Compact(slices.Sorted(slices.Values(append(append([]string(nil), oreq...), nreq...)))) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, name := range names {
		p := join(path, name)
		ov, nv := op.Get(name), np.Get(name)
		wasReq, isReq := slices.Contains(oreq, name), slices.Contains(nreq, name)
		sub := func(k Kind, breaking bool, format string, args ...any) {
			r.add(Change{Kind: k, Tool: tool, Param: p, Breaking: breaking, Message: fmt.Sprintf(format, args...)})
		}
		switch {
		case ov == nil && nv != nil && isReq:
			sub(ParamRequired, true, "new required parameter %s: a call without it now fails", p)
		case ov == nil && nv != nil:
			sub(ParamAdded, false, "optional parameter %s added", p)
		case ov != nil && nv == nil:
			sub(ParamRemoved, true, "parameter %s removed: a call that sends it is refused or its value ignored", p)
		default:
			if !wasReq && isReq {
				sub(ParamRequired, true, "parameter %s is now required: a call without it now fails", p)
			} else if wasReq && !isReq {
				sub(ParamOptional, false, "parameter %s is now optional", p)
			}
			if ov != nil && nv != nil {
				r.schema(tool, p, ov, nv)
			}
		}
	}
}
