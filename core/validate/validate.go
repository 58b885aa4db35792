// Package validate checks the arguments a model produced for a tool against
// the tool's input schema, before dispatch, and turns a bad call into a
// message the model can act on (SPEC §2).
//
// It enforces an honest subset of JSON Schema, the core that tool schemas in
// the wild use (type, required, properties, items, primitive enums,
// additionalProperties: false, and the string shape keywords pattern,
// minLength and maxLength), and ignores everything else, so an exotic schema
// can under-validate but never block a legitimate call. Every function here
// is total: no schema and no argument makes it panic.
//
// Issues name the path, the expected shape and the type of what arrived;
// only string-shape issues echo a capped excerpt of the offending string,
// because a shape complaint that does not say which string it is about
// cannot be acted on.
package validate

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"toolscope/core/jsonv"
)

// MaxIssues is the most issues one validation reports.
const MaxIssues = 10

// MaxValueChars is the longest excerpt of an offending string an issue
// carries, in code points, the cut marker included.
const MaxValueChars = 80

// Issue is one way the arguments miss the schema.
type Issue struct {
	// Path is the dot/bracket path from the arguments' root (`filters[2].name`),
	// "" for the root itself.
	Path     string `json:"path"`
	Expected string `json:"expected"`
	// Got is the type of what arrived (`number`, `missing`), with a measured
	// length on string-shape issues (`string of 3 chars`); never a value.
	Got string `json:"got"`
	// Value is a capped excerpt of the offending string, on string-shape
	// issues only.
	Value string `json:"value,omitempty"`
	// Hint is the parameter's own description, on string-shape issues only.
	Hint string `json:"hint,omitempty"`
}

// stringShapeGot prefixes Got on the issues that may echo a value.
const stringShapeGot = "string of "

// StringShape reports whether the issue is about a string's shape (pattern,
// minLength, maxLength): the one kind that carries Value and Hint.
func (i Issue) StringShape() bool { return strings.HasPrefix(i.Got, stringShapeGot) }

// Result is the verdict on one set of arguments.
type Result struct {
	OK     bool    `json:"ok"`
	Issues []Issue `json:"issues"`
	// Warnings are things the check could not do on this call (a pattern
	// match that timed out); they never reject the call.
	Warnings []string `json:"warnings,omitempty"`
}

// emptyObject stands in for absent or null arguments; it is never mutated.
var emptyObject = &jsonv.Value{Kind: jsonv.Object}

// Validate checks a tool call's arguments against the tool's input schema.
// Absent or null arguments validate as {}; an absent schema accepts
// everything.
func Validate(args, schema *jsonv.Value) Result {
	if args == nil || args.Kind == jsonv.Null {
		args = emptyObject
	}
	return ValidatePropertyValue(args, schema)
}

// ValidatePropertyValue checks one value against one property's own schema,
// by the same node rule Validate applies below the root and nothing above it
// (no root `required`): how a declared assume value or ask choice is judged.
func ValidatePropertyValue(value, propSchema *jsonv.Value) Result {
	var w walker
	w.path = w.buf[:0]
	w.node(value, propSchema)
	if len(w.unchecked) > 0 {
		w.warnings = append(w.warnings, uncheckedWarning(w.unchecked))
	}
	return Result{OK: len(w.issues) == 0, Issues: w.issues, Warnings: w.warnings}
}

// uncheckedWarning says which pattern checks the call's budget left unmade.
func uncheckedWarning(paths []string) string {
	const listed = 5
	var b strings.Builder
	b.WriteString(plural(float64(len(paths)), "pattern check"))
	if len(paths) == 1 {
		b.WriteString(" was not made (at ")
	} else {
		b.WriteString(" were not made (at ")
	}
	for i, p := range paths[:min(len(paths), listed)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quotePath(p))
	}
	if len(paths) > listed {
		fmt.Fprintf(&b, " and %d more", len(paths)-listed)
	}
	fmt.Fprintf(&b, "): this call's %v for pattern matching ran out; the values were let through unchecked", CallMatchBudget)
	return b.String()
}

// seg is one step below the root: an object key, or an array index.
type seg struct {
	key   string
	index int // -1 for an object key
}

// walker carries one validation. The path to the current node is a stack of
// segments, rendered only when an issue needs it, so a valid call does not
// build path strings.
type walker struct {
	issues   []Issue
	warnings []string
	// skipped lists the patterns that timed out on this call; they are not
	// tried again, so one hostile pattern over a long array costs one timeout.
	skipped []string
	// spent is the time this call's pattern matches have taken, against
	// CallMatchBudget; unchecked holds the paths of the pattern checks left
	// unmade once it ran out.
	spent     time.Duration
	unchecked []string
	path      []seg
	buf       [8]seg // the path's first backing store, so paths up to 8 deep cost no allocation of their own
}

func (w *walker) push(key string, index int) { w.path = append(w.path, seg{key, index}) }
func (w *walker) pop()                       { w.path = w.path[:len(w.path)-1] }

// pathString renders the current path: `filters[2].name`, "" at the root.
func (w *walker) pathString() string {
	var b strings.Builder
	for _, s := range w.path {
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

func (w *walker) full() bool { return len(w.issues) >= MaxIssues }

func (w *walker) add(expected, got string) {
	w.issues = append(w.issues, Issue{Path: w.pathString(), Expected: expected, Got: got})
}

// addChild reports an issue on a key of the current object.
func (w *walker) addChild(key, expected, got string) {
	w.push(key, -1)
	w.add(expected, got)
	w.pop()
}

// node applies the subset to one value: type (a mismatch stops), enum (a miss
// stops), string shape, then the object or array checks.
func (w *walker) node(v, s *jsonv.Value) {
	if w.full() || !s.Is(jsonv.Object) {
		return
	}
	if t := s.Get("type"); t != nil && !typeMatches(v, t) {
		w.add(expectedType(t), v.TypeName())
		return
	}
	if e := s.Get("enum"); isPrimitiveEnum(e) && !inEnum(v, e) {
		w.add(expectedEnum(e), v.TypeName())
		return
	}
	switch {
	case v.Is(jsonv.String):
		w.stringShape(v.Text, s)
	case v.Is(jsonv.Object):
		w.object(v, s)
	case v.Is(jsonv.Array):
		w.array(v, s)
	}
}

// array applies `items` to each element past the prefix: with
// `prefixItems` (draft 2020-12) the first len(prefixItems) elements belong
// to the tuple, which the subset does not check, and `items` covers only
// the rest. A `prefixItems` that is not an array leaves the prefix's length
// unknown, so nothing is checked.
func (w *walker) array(v, s *jsonv.Value) {
	items := s.Get("items")
	if !items.Is(jsonv.Object) {
		return
	}
	from := 0
	if pi := s.Get("prefixItems"); pi != nil {
		if !pi.Is(jsonv.Array) {
			return
		}
		from = len(pi.Items)
	}
	for i := from; i < len(v.Items); i++ {
		if w.full() {
			return
		}
		w.push("", i)
		w.node(v.Items[i], items)
		w.pop()
	}
}

// typeMatches reads `type` as one name or a union of names. An unknown name,
// a non-string entry, an empty union or a `type` of another kind constrains
// nothing: the subset never rejects on what it does not understand.
func typeMatches(v, t *jsonv.Value) bool {
	switch t.Kind {
	case jsonv.String:
		return matchesName(v, t.Text)
	case jsonv.Array:
		// Entries that are not strings are no type names: they are ignored,
		// as the reference validator does, so ["string", 3] takes strings
		// only (lint's type-invalid flags the schema). A union with no
		// name left, like an empty one, takes anything.
		named := false
		for _, n := range t.Items {
			if !n.Is(jsonv.String) {
				continue
			}
			if matchesName(v, n.Text) {
				return true
			}
			named = true
		}
		return !named
	default:
		return true
	}
}

func matchesName(v *jsonv.Value, name string) bool {
	switch name {
	case "object":
		return v.Is(jsonv.Object)
	case "array":
		return v.Is(jsonv.Array)
	case "string":
		return v.Is(jsonv.String)
	case "number":
		return v.Is(jsonv.Number)
	case "integer":
		return v.Is(jsonv.Number) && v.IsInteger()
	case "boolean":
		return v.Is(jsonv.Bool)
	case "null":
		return v.Is(jsonv.Null)
	default:
		return true
	}
}

// expectedType renders a `type` that did not match: its names, the
// entries of a union that are not strings left out; only called when every
// name is a known one.
func expectedType(t *jsonv.Value) string {
	if t.Kind == jsonv.String {
		return t.Text
	}
	var names []string
	for _, n := range t.Items {
		if n.Is(jsonv.String) {
			names = append(names, n.Text)
		}
	}
	return strings.Join(names, " | ")
}

// isPrimitiveEnum says whether `enum` is enforced: a non-empty array of
// primitives only.
func isPrimitiveEnum(e *jsonv.Value) bool {
	if !e.Is(jsonv.Array) || len(e.Items) == 0 {
		return false
	}
	for _, m := range e.Items {
		if !m.IsPrimitive() {
			return false
		}
	}
	return true
}

func inEnum(v, e *jsonv.Value) bool {
	for _, m := range e.Items {
		if jsonv.Equal(v, m) {
			return true
		}
	}
	return false
}

// expectedEnum echoes the schema's own members, as the author wrote them.
func expectedEnum(e *jsonv.Value) string {
	var b strings.Builder
	b.WriteString("one of ")
	for i, m := range e.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(m.JSON())
	}
	return b.String()
}

// stringShape checks pattern, minLength and maxLength, each failure its own
// issue carrying the excerpt and the parameter's description.
func (w *walker) stringShape(str string, s *jsonv.Value) {
	chars := -1 // counted once, when a length or an issue needs it
	count := func() int {
		if chars < 0 {
			chars = utf8.RuneCountInString(str)
		}
		return chars
	}
	if p, ok := s.Get("pattern").Str(); ok && !w.matches(p, str) {
		w.shapeIssue(s, "string matching "+QuotePattern(p), str, count())
	}
	if n, ok := lengthBound(s.Get("minLength")); ok && float64(count()) < n {
		w.shapeIssue(s, "at least "+plural(n, "character"), str, count())
	}
	if n, ok := lengthBound(s.Get("maxLength")); ok && float64(count()) > n {
		w.shapeIssue(s, "at most "+plural(n, "character"), str, count())
	}
}

// matches runs a pattern, unanchored. A pattern that does not compile counts
// as absent (CompilePattern records the developer warning); one that times
// out counts as matching, with a warning on this call; one the call's
// budget has no time left for is not run, counts as matching, and is
// listed in one warning at the end. Compiling a pattern not yet cached
// spends the budget too, and is not begun once it is spent.
func (w *walker) matches(pattern, str string) bool {
	for _, p := range w.skipped {
		if p == pattern {
			return true
		}
	}
	c, cached := cachedPattern(pattern)
	if !cached {
		if w.spent >= CallMatchBudget {
			w.unchecked = append(w.unchecked, w.pathString())
			return true
		}
		start := time.Now()
		c.re, c.err = CompilePattern(pattern)
		w.spent += time.Since(start)
	}
	if c.err != nil {
		return true
	}
	start := time.Now()
	ok, err := matchString(c.re, str, CallMatchBudget-w.spent)
	w.spent += time.Since(start)
	if err == errOverBudget {
		w.unchecked = append(w.unchecked, w.pathString())
		return true
	}
	if err != nil {
		w.skipped = append(w.skipped, pattern)
		w.warnings = append(w.warnings, fmt.Sprintf("pattern %s at %s could not be checked (%v); the value was let through", QuotePattern(pattern), quotePath(w.pathString()), err))
		return true
	}
	return ok
}

// lengthBound reads minLength/maxLength: only a non-negative integer counts.
func lengthBound(v *jsonv.Value) (float64, bool) {
	if !v.Is(jsonv.Number) || !v.IsInteger() {
		return 0, false
	}
	f, _ := v.Float()
	return f, f >= 0
}

// plural renders a count with the noun agreeing.
func plural(n float64, noun string) string {
	text := strconv.FormatFloat(n, 'g', -1, 64)
	if n < 1e15 {
		text = strconv.FormatFloat(n, 'f', -1, 64)
	}
	if n == 1 {
		return text + " " + noun
	}
	return text + " " + noun + "s"
}

func (w *walker) shapeIssue(s *jsonv.Value, expected, str string, chars int) {
	if w.full() {
		return
	}
	hint, _ := s.Get("description").Str()
	w.issues = append(w.issues, Issue{
		Path:     w.pathString(),
		Expected: expected,
		Got:      stringShapeGot + plural(float64(chars), "char"),
		Value:    excerpt(str),
		Hint:     strings.TrimSpace(hint),
	})
}

// excerpt caps a string at MaxValueChars code points, the cut marked with
// an ellipsis that counts toward the cap.
func excerpt(s string) string {
	n := 0
	for i := range s {
		if n == MaxValueChars-1 {
			if utf8.RuneCountInString(s[i:]) > 1 {
				return s[:i] + "…"
			}
			return s
		}
		n++
	}
	return s
}

// object checks required names, declared properties in schema order, then
// extra keys in argument order.
func (w *walker) object(v, s *jsonv.Value) {
	if req := s.Get("required"); req.Is(jsonv.Array) {
		for i, r := range req.Items {
			if w.full() {
				return
			}
			name, ok := r.Str()
			if !ok || v.Has(name) || listedBefore(req.Items[:i], name) {
				continue
			}
			w.addChild(name, "required", "missing")
		}
	}
	props := s.Get("properties")
	if props.Is(jsonv.Object) {
		for _, m := range props.Members {
			if w.full() {
				return
			}
			if av := v.Get(m.Key); av != nil {
				w.push(m.Key, -1)
				w.node(av, m.Value)
				w.pop()
			}
		}
	}
	if !namesKnowable(s) {
		return
	}
	for _, m := range v.Members {
		if w.full() {
			return
		}
		if !props.Has(m.Key) {
			w.addChild(m.Key, ExpectedNoAdditional, m.Value.TypeName())
		}
	}
}

// namesKnowable says whether `additionalProperties: false` can prove a key
// extra: an omitted `properties` declares no names, but a malformed one, or
// a non-empty or malformed `patternProperties`, leaves coverage unknown.
func namesKnowable(s *jsonv.Value) bool {
	if ap := s.Get("additionalProperties"); !ap.Is(jsonv.Bool) || ap.Bool {
		return false
	}
	if p := s.Get("properties"); p != nil && !p.Is(jsonv.Object) {
		return false
	}
	if pp := s.Get("patternProperties"); pp != nil && (!pp.Is(jsonv.Object) || len(pp.Members) > 0) {
		return false
	}
	return true
}

func listedBefore(items []*jsonv.Value, name string) bool {
	for _, it := range items {
		if s, ok := it.Str(); ok && s == name {
			return true
		}
	}
	return false
}
