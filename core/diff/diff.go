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
	"strconv"
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

	ParamAdded   Kind = "param-added"
	ParamRemoved Kind = "param-removed"
	// OptionalParamRemoved is an optional parameter removed: a call that
	// sends it may be refused, one that leaves it out is not.
	OptionalParamRemoved Kind = "optional-param-removed"
	ParamRequired        Kind = "param-now-required"
	ParamOptional        Kind = "param-now-optional"
	TypeNarrowed         Kind = "type-narrowed"
	TypeWidened          Kind = "type-widened"
	// TypeChanged is a type neither narrowed nor widened: string to
	// integer refuses every value it took.
	TypeChanged       Kind = "type-changed"
	EnumValueRemoved  Kind = "enum-value-removed"
	EnumValueAdded    Kind = "enum-value-added"
	EnumAdded         Kind = "enum-added"
	EnumRemoved       Kind = "enum-removed"
	ConstChanged      Kind = "const-changed"
	PatternAdded      Kind = "pattern-added"
	PatternChanged    Kind = "pattern-changed"
	PatternRemoved    Kind = "pattern-removed"
	BoundTightened    Kind = "bound-tightened"
	BoundLoosened     Kind = "bound-loosened"
	ExtraKeysRefused  Kind = "additional-properties-refused"
	ExtraKeysAllowed  Kind = "additional-properties-allowed"
	ConstRemoved      Kind = "const-removed"
	FormatAdded       Kind = "format-added"
	FormatChanged     Kind = "format-changed"
	FormatRemoved     Kind = "format-removed"
	DefaultChanged    Kind = "default-changed"
	ConstraintAdded   Kind = "constraint-added"
	ConstraintChanged Kind = "constraint-changed"
	ConstraintRemoved Kind = "constraint-removed"
	// BranchAdded and BranchRemoved are an anyOf or oneOf alternative
	// added or dropped (an allOf part the other way round); the branches
	// both sides keep are compared as schemas.
	BranchAdded   Kind = "branch-added"
	BranchRemoved Kind = "branch-removed"
	// DefinitionAdded and DefinitionRemoved are a $defs (definitions)
	// entry; one both sides keep is compared as a schema.
	DefinitionAdded    Kind = "definition-added"
	DefinitionRemoved  Kind = "definition-removed"
	SchemaOtherChanged Kind = "schema-changed"

	TitleChanged       Kind = "title-changed"
	AnnotationsChanged Kind = "annotations-changed"
	// AnnotationsDestructive is a tool that said it only reads, or that
	// it destroys nothing, no longer saying so: a host that ran it
	// without asking may now run a destructive call unconfirmed.
	AnnotationsDestructive Kind = "annotations-now-destructive"
	// HiddenTextAdded is a name, title or description that gained
	// characters a reader cannot see (lint's invisible-characters).
	HiddenTextAdded Kind = "hidden-text-added"
	// InstructionsAdded is text that gained orders to the model in the
	// shape of a tool-poisoning attack (lint's tool-poisoning).
	InstructionsAdded Kind = "instructions-added"

	// The result's schema (outputSchema), where a caller reads what the
	// tool returns: what may now be missing or of another type breaks it.
	OutputFieldRemoved     Kind = "output-field-removed"
	OutputFieldOptional    Kind = "output-field-now-optional"
	OutputFieldAdded       Kind = "output-field-added"
	OutputTypeChanged      Kind = "output-type-changed"
	OutputTypeWidened      Kind = "output-type-widened"
	OutputTypeNarrowed     Kind = "output-type-narrowed"
	OutputEnumValueAdded   Kind = "output-enum-value-added"
	OutputEnumValueRemoved Kind = "output-enum-value-removed"
	OutputSchemaAdded      Kind = "output-schema-added"
	OutputSchemaChanged    Kind = "output-schema-changed"
)

// Change is one difference. Tool is the tool's name in the new catalog
// (the old one's for a removed tool); Param is a parameter path
// ("filter.name", "tags[]"), "" for the tool itself.
type Change struct {
	Kind  Kind   `json:"kind"`
	Tool  string `json:"tool"`
	Param string `json:"param,omitempty"`
	// Level is how much the change weighs (DefaultLevels, or the
	// project's toolscope.yaml).
	Level Level `json:"level"`
	// Class is "security" for a change that may turn the tool against
	// its user.
	Class string `json:"class,omitempty"`
	// Breaking is true for an error-level change: arguments a caller sent
	// before may now fail or call nothing, or a result it read may be
	// missing.
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
	Warnings     int `json:"warnings"`
	Security     int `json:"security"`
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
			kind := AnnotationsChanged
			if mayDestroy(t.Annotations) && !mayDestroy(before.Annotations) {
				kind = AnnotationsDestructive
				msg += ": a host that ran the tool unconfirmed as read-only or non-destructive may now let it destroy data"
			}
			r.add(Change{Kind: kind, Tool: t.Name, Message: msg})
		}
		r.guard(before, t)
		r.schema(t.Name, "", orAny(before.Schema), orAny(t.Schema))
		r.output(t.Name, before.OutputSchema, t.OutputSchema)
	}
	r.SetLevels(nil)
	return r
}

// mayDestroy reports whether MCP annotations let a host take the tool for
// one that may destroy data: not readOnlyHint true, and not
// destructiveHint false (its default is true).
func mayDestroy(a *jsonv.Value) bool {
	if ro := a.Get("readOnlyHint"); ro != nil && ro.Kind == jsonv.Bool && ro.Bool {
		return false
	}
	if d := a.Get("destructiveHint"); d != nil && d.Kind == jsonv.Bool && !d.Bool {
		return false
	}
	return true
}

// output compares a tool's output schema (MCP's outputSchema, what its
// structured result holds) from the caller's side, which reads the result:
// a field removed or no longer required, a type that takes other values
// than before, an enum value the caller has never seen, break it; a field
// added or a type narrowed does not.
func (r *Report) output(tool string, old, new *jsonv.Value) {
	switch {
	case same(old, new):
		return
	case old == nil:
		r.add(Change{Kind: OutputSchemaAdded, Tool: tool, Param: "(output)", Message: "the tool now declares its result (outputSchema)"})
		return
	}
	// A result no longer declared promises nothing: each field is gone.
	in := &Report{}
	in.schema(tool, "", old, orAny(new))
	for _, c := range in.Changes {
		if new == nil && c.Param == "" {
			continue // the fields gone say it
		}
		field := strings.TrimPrefix(c.Param, ".")
		label := "the result"
		if field != "" {
			label = "the result's field " + field
		}
		out := Change{Tool: tool, Param: "(output)", Old: c.Old, New: c.New}
		if field != "" {
			out.Param = "(output)." + field
		}
		switch c.Kind {
		case ParamRemoved, OptionalParamRemoved:
			out.Kind, out.Message = OutputFieldRemoved, fmt.Sprintf("%s is no longer declared: a caller that reads it may find nothing", label)
		case ParamOptional:
			out.Kind, out.Message = OutputFieldOptional, fmt.Sprintf("%s is no longer required: a caller that reads it may find nothing", label)
		case ParamAdded, ParamRequired:
			out.Kind, out.Message = OutputFieldAdded, fmt.Sprintf("%s is declared now", label)
		case TypeChanged:
			out.Kind, out.Message = OutputTypeChanged, outputText(c.Message, label)+": a caller that reads it gets another type"
		case TypeWidened:
			out.Kind, out.Message = OutputTypeWidened, outputText(c.Message, label)+": a caller may get a type it does not expect"
		case TypeNarrowed:
			out.Kind, out.Message = OutputTypeNarrowed, outputText(c.Message, label)
		case EnumValueAdded, EnumRemoved:
			out.Kind, out.Message = OutputEnumValueAdded, outputText(c.Message, label)+": a caller may get a value it does not handle"
		case EnumValueRemoved:
			out.Kind, out.Message = OutputEnumValueRemoved, outputText(c.Message, label)
		default:
			out.Kind, out.Message = OutputSchemaChanged, outputText(c.Message, label)
		}
		r.add(out)
	}
}

// outputText rewords an input change's message for the result: its
// "parameter X" or "the input schema" becomes label.
func outputText(msg, label string) string {
	if rest, ok := strings.CutPrefix(msg, "the input schema"); ok {
		return "the result" + rest
	}
	if i := strings.Index(msg, "parameter "); i == 0 {
		rest := msg[len("parameter "):]
		if sp := strings.IndexByte(rest, ' '); sp >= 0 {
			return label + rest[sp:]
		}
	}
	return label + ": " + msg
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
		switch {
		case c.Breaking:
			s.Breaking++
		case c.Level == LevelWarn:
			s.Warnings++
		case !slices.Contains([]Kind{ToolAdded, DescriptionChanged, ParamDescriptionChanged}, c.Kind):
			s.Other++
		}
		if c.Class == ClassSecurity {
			s.Security++
		}
	}
	r.Summary = s
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
			return props != nil && len(props.Members) > 0 && same(a.Schema, b.Schema) && ShareWord(a.Name, b.Name)
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

// ShareWord reports whether two names have a word in common (split at
// '_', '-', '.', and lower-to-upper case changes).
func ShareWord(a, b string) bool {
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
		r.paramDescription(tool, path, old, new)
	}
	r.types(tool, path, where, old, new, change)
	r.enums(where, old, new, change)
	constChange(where, old, new, change)
	patternChange(where, old, new, change)
	boundChanges(where, old, new, change)
	r.additionalProperties(tool, path, where, old, new, change)
	r.composition(tool, path, old, new, change)
	r.keywords(where, old, new, change)
	r.properties(tool, path, old, new, change)
	r.items(tool, path, where, old, new, change)
}

// paramDescription reports a parameter's description changed: what a
// model reads of it.
func (r *Report) paramDescription(tool, path string, old, new *jsonv.Value) {
	od, _ := old.Get("description").Str()
	nd, _ := new.Get("description").Str()
	if od != nd {
		r.add(Change{Kind: ParamDescriptionChanged, Tool: tool, Param: path, Old: od, New: nd,
			Message: textChanged("parameter description changed: what a model reads of it is different", od, nd)})
	}
}

// constChange compares the value a node is fixed to: a new or other
// value breaks callers, none any more does not.
func constChange(where string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
	if oc, nc := old.Get("const"), new.Get("const"); nc != nil && !same(oc, nc) {
		change(ConstChanged, true, "%s must now be %s", where, nc.JSON())
	} else if oc != nil && nc == nil {
		change(ConstRemoved, false, "%s is no longer fixed to %s", where, oc.JSON())
	}
}

// patternChange compares a node's pattern: one added or changed may
// refuse what callers send.
func patternChange(where string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
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
}

// boundChanges compares a node's numeric bounds: one added or tightened
// narrows what it takes (breaking), one removed or loosened widens it.
func boundChanges(where string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
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
}

// additionalProperties compares what a node does with keys it does not
// declare: refused, accepted, or checked against a schema (compared as a
// parameter named "*").
func (r *Report) additionalProperties(tool, path, where string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
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
}

// items compares an array node's items, as a parameter path+"[]" when
// both constrain them.
func (r *Report) items(tool, path, where string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
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
		if same(o, n) || byBranch(k, o, n) {
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

// byBranch reports whether composition compares keyword k part by part:
// anyOf, oneOf and allOf holding lists on both sides, $defs and
// definitions holding objects.
func byBranch(k string, o, n *jsonv.Value) bool {
	switch k {
	case "anyOf", "oneOf", "allOf":
		return o.Is(jsonv.Array) && n.Is(jsonv.Array)
	case "$defs", "definitions":
		return o.Is(jsonv.Object) && n.Is(jsonv.Object)
	}
	return false
}

// composition compares anyOf, oneOf and allOf branch by branch and $defs
// by name. Branches equal on both sides are set aside; the others are
// paired, those of the same type first, and compared as schemas (path
// "anyOf[1]" and the like, the new side's index); a branch left over was
// added or dropped. More anyOf or oneOf branches accept more values, an
// allOf part more refuses more.
func (r *Report) composition(tool, path string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
	where := "the input schema"
	if path != "" {
		where = "parameter " + path
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		o, n := old.Get(k), new.Get(k)
		if same(o, n) || !byBranch(k, o, n) {
			continue
		}
		oldLeft, newLeft := unmatched(o.Items, n.Items), unmatched(n.Items, o.Items)
		paired := map[int]bool{}
		for _, sameType := range []bool{true, false} {
			for _, i := range oldLeft {
				if paired[-1-i] {
					continue
				}
				for _, j := range newLeft {
					if paired[j] || (sameType && !same(o.Items[i].Get("type"), n.Items[j].Get("type"))) {
						continue
					}
					paired[-1-i], paired[j] = true, true
					r.schema(tool, join(path, fmt.Sprintf("%s[%d]", k, j)), o.Items[i], n.Items[j])
					break
				}
			}
		}
		for _, j := range newLeft {
			if paired[j] {
				continue
			}
			if k == "allOf" {
				change(ConstraintAdded, true, "%s allOf has a new part %s, which values must also meet", where, brief(n.Items[j]))
			} else {
				change(BranchAdded, false, "%s %s also accepts %s", where, k, brief(n.Items[j]))
			}
		}
		for _, i := range oldLeft {
			if paired[-1-i] {
				continue
			}
			if k == "allOf" {
				change(ConstraintRemoved, false, "%s allOf no longer has the part %s", where, brief(o.Items[i]))
			} else {
				change(BranchRemoved, true, "%s %s no longer accepts %s: a call that sent such a value fails", where, k, brief(o.Items[i]))
			}
		}
	}
	for _, k := range []string{"$defs", "definitions"} {
		o, n := old.Get(k), new.Get(k)
		if same(o, n) || !byBranch(k, o, n) {
			continue
		}
		for _, m := range o.Members {
			if n.Get(m.Key) == nil {
				change(DefinitionRemoved, true, "%s %s no longer defines %s: a $ref to it no longer resolves", where, k, m.Key)
			} else {
				r.schema(tool, join(path, k+"."+m.Key), m.Value, n.Get(m.Key))
			}
		}
		for _, m := range n.Members {
			if o.Get(m.Key) == nil {
				change(DefinitionAdded, false, "%s %s now defines %s", where, k, m.Key)
			}
		}
	}
}

// unmatched are the indexes of a's items with no equal item in b, each
// item of b matching once.
func unmatched(a, b []*jsonv.Value) []int {
	used := make([]bool, len(b))
	var out []int
	for i, x := range a {
		j := slices.IndexFunc(b, func(y *jsonv.Value) bool { return same(x, y) })
		for j >= 0 && used[j] {
			k := slices.IndexFunc(b[j+1:], func(y *jsonv.Value) bool { return same(x, y) })
			if k < 0 {
				j = -1
				break
			}
			j += 1 + k
		}
		if j < 0 {
			out = append(out, i)
			continue
		}
		used[j] = true
	}
	return out
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
	switch {
	case narrowed && widened:
		change(TypeChanged, true, "%s type changed from %s to %s", where, typeText(ot), typeText(nt))
	case narrowed:
		change(TypeNarrowed, true, "%s type narrowed from %s to %s", where, typeText(ot), typeText(nt))
	case widened:
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
	// Sets keyed by sameKey: a 200,000-value enum compares in linear time.
	gone, added := missing(oe.Items, ne.Items), missing(ne.Items, oe.Items)
	if len(gone) > 0 {
		change(EnumValueRemoved, true, "%s no longer takes %s", where, listText(gone))
	}
	if len(added) > 0 {
		change(EnumValueAdded, false, "%s also takes %s", where, listText(added))
	}
}

// missing is the values of a that b lacks (compared as same does), in a's
// order.
func missing(a, b []*jsonv.Value) []*jsonv.Value {
	in := make(map[string]bool, len(b))
	for _, v := range b {
		in[sameKey(v)] = true
	}
	var out []*jsonv.Value
	for _, v := range a {
		if !in[sameKey(v)] {
			out = append(out, v)
		}
	}
	return out
}

// sameKey is a text that two values share exactly when same says they are
// the same: numbers by value, objects as sets of members, arrays in
// order.
func sameKey(v *jsonv.Value) string {
	var b strings.Builder
	writeSameKey(&b, v)
	return b.String()
}

func writeSameKey(b *strings.Builder, v *jsonv.Value) {
	if v == nil {
		b.WriteByte('u')
		return
	}
	switch v.Kind {
	case jsonv.Null:
		b.WriteByte('n')
	case jsonv.Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case jsonv.Number:
		f, _ := v.Float()
		if f == 0 {
			f = 0 // -0 is 0
		}
		b.WriteString("d" + strconv.FormatFloat(f, 'g', -1, 64))
	case jsonv.String:
		b.WriteString("s" + strconv.Quote(v.Text))
	case jsonv.Array:
		b.WriteByte('[')
		for _, it := range v.Items {
			writeSameKey(b, it)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	default:
		// The first member of each name counts, as Get finds it.
		keys := make([]string, 0, len(v.Members))
		seen := make(map[string]bool, len(v.Members))
		for _, m := range v.Members {
			if !seen[m.Key] {
				seen[m.Key] = true
				keys = append(keys, m.Key)
			}
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for _, k := range keys {
			b.WriteString(strconv.Quote(k) + ":")
			writeSameKey(b, v.Get(k))
			b.WriteByte(',')
		}
		b.WriteByte('}')
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

// members maps an object's member names to their values, the first of
// each name winning as Get does; nil for no object.
func members(v *jsonv.Value) map[string]*jsonv.Value {
	if v == nil || v.Kind != jsonv.Object {
		return nil
	}
	out := make(map[string]*jsonv.Value, len(v.Members))
	for _, m := range v.Members {
		if _, ok := out[m.Key]; !ok {
			out[m.Key] = m.Value
		}
	}
	return out
}

func setOf(list []string) map[string]bool {
	out := make(map[string]bool, len(list))
	for _, s := range list {
		out[s] = true
	}
	return out
}

func (r *Report) properties(tool, path string, old, new *jsonv.Value, change func(Kind, bool, string, ...any)) {
	op, np := old.Get("properties"), new.Get("properties")
	oreq, nreq := requiredSet(old), requiredSet(new)
	if op == nil && np == nil && slices.Equal(oreq, nreq) {
		return
	}
	// Sets and maps, not list scans: thousands of properties or required
	// names compare in linear time.
	oprops, nprops := members(op), members(np)
	oreqSet, nreqSet := setOf(oreq), setOf(nreq)
	var names []string
	seen := map[string]bool{}
	addName := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if op != nil {
		for _, m := range op.Members {
			addName(m.Key)
		}
	}
	if np != nil {
		for _, m := range np.Members {
			addName(m.Key)
		}
	}
	for _, n := range slices.Sorted(slices.Values(append(append([]string(nil), oreq...), nreq...))) {
		addName(n)
	}
	for _, name := range names {
		p := join(path, name)
		ov, nv := oprops[name], nprops[name]
		wasReq, isReq := oreqSet[name], nreqSet[name]
		sub := func(k Kind, breaking bool, format string, args ...any) {
			r.add(Change{Kind: k, Tool: tool, Param: p, Breaking: breaking, Message: fmt.Sprintf(format, args...)})
		}
		switch {
		case ov == nil && nv != nil && isReq:
			sub(ParamRequired, true, "new required parameter %s: a call without it now fails", p)
		case ov == nil && nv != nil:
			sub(ParamAdded, false, "optional parameter %s added", p)
		case ov != nil && nv == nil && !wasReq:
			sub(OptionalParamRemoved, false, "optional parameter %s removed: a call that sends it is refused or its value ignored", p)
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

// guardRules are lint's tool-poisoning guard, run on both sides of a tool.
var guardRules = []lint.Rule{lint.InvisibleCharactersRule(), lint.ToolPoisoningRule(lint.DefaultPoisonPatterns)}

// guard reports what the tool-poisoning guard finds in the new tool and
// not in the old: hidden characters or orders to the model that arrived
// with this change (a description rewritten after it was approved).
func (r *Report) guard(old, new *catalog.Tool) {
	ctx := &lint.Context{}
	seen := map[string]bool{}
	for _, rule := range guardRules {
		for _, f := range rule.Check(old, ctx) {
			seen[rule.ID+"\x00"+f.Param+"\x00"+f.Message] = true
		}
	}
	for _, rule := range guardRules {
		kind := HiddenTextAdded
		if rule.ID == lint.RuleToolPoisoning {
			kind = InstructionsAdded
		}
		for _, f := range rule.Check(new, ctx) {
			if !seen[rule.ID+"\x00"+f.Param+"\x00"+f.Message] {
				r.add(Change{Kind: kind, Tool: new.Name, Param: f.Param, Message: f.Message})
			}
		}
	}
}
