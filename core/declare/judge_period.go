package declare

import (
	"fmt"
	"slices"
	"strings"

	"toolscope/core/jsonv"
)

// Keys each part of a period declaration may carry.
var (
	sugarKeys = []string{"argument", "spelling", "accepts", "zoneArgument"}
	factKeys  = []string{"direction", "retention", "maxRange", "granularity", "filtersToAsked", "wallZone"}
	formKeys  = map[FormKind][]string{
		KindJoined:   {"kind", "argument", "spelling", "accepts", "zoneArgument"},
		KindBounds:   {"kind", "from", "to", "zoneArgument"},
		KindObject:   {"kind", "argument", "from", "to", "as", "edge", "zoneArgument"},
		KindDay:      {"kind", "argument", "zoneArgument"},
		KindLookback: {"kind", "argument", "unit", "unitArgument", "zoneArgument"},
	}
)

func (j *judge) period(v *jsonv.Value, rules *Rules) (*Period, *Refusal) {
	const path = "period"
	if !v.Is(jsonv.Object) {
		return nil, j.refuse(v, path, "", "is %s, want an object", v.ArticleType())
	}
	sugar := ""
	for _, m := range v.Members {
		switch {
		case slices.Contains(sugarKeys, m.Key):
			if sugar == "" {
				sugar = m.Key
			}
		case m.Key == "forms" || slices.Contains(factKeys, m.Key):
		default:
			return nil, j.refuse(m.Value, path, "", "unknown key %s (a period has argument + spelling or accepts, or forms, and the facts %s)",
				jsonv.Quote(m.Key), strings.Join(factKeys, ", "))
		}
	}
	p := &Period{Sugar: sugar != "", Pos: v.Pos}
	forms := v.Get("forms")
	switch {
	case p.Sugar && forms != nil:
		return nil, j.refuse(v, path, "", "declares both the single-argument form (%s) and forms; use one", sugar)
	case p.Sugar:
		f, ref := j.joined(v, path)
		if ref == nil {
			ref = j.zone(&f, v, path)
		}
		if ref != nil {
			return nil, ref
		}
		p.Forms = []Form{f}
	case forms == nil:
		return nil, j.refuse(v, path, "", "names no argument: declare argument and spelling, or forms")
	default:
		var ref *Refusal
		if p.Forms, ref = j.forms(forms); ref != nil {
			return nil, ref
		}
	}
	var ref *Refusal
	if p.Facts, ref = j.facts(v); ref != nil {
		return nil, ref
	}
	return p, j.periodArguments(p, rules)
}

func (j *judge) forms(v *jsonv.Value) ([]Form, *Refusal) {
	const path = "period.forms"
	switch {
	case !v.Is(jsonv.Array):
		return nil, j.refuse(v, path, "", "is %s, want an array of forms", v.ArticleType())
	case len(v.Items) == 0:
		return nil, j.refuse(v, path, "", "is empty; a period takes at least one form")
	case len(v.Items) > MaxPeriodForms:
		return nil, j.refuse(v, path, "", "has %d forms, over %d", len(v.Items), MaxPeriodForms)
	}
	out := make([]Form, 0, len(v.Items))
	for i, item := range v.Items {
		f, ref := j.form(item, fmt.Sprintf("%s[%d]", path, i))
		if ref != nil {
			return nil, ref
		}
		out = append(out, f)
	}
	return out, nil
}

func (j *judge) form(v *jsonv.Value, path string) (Form, *Refusal) {
	if !v.Is(jsonv.Object) {
		return Form{}, j.refuse(v, path, "", "is %s, want a form object", v.ArticleType())
	}
	kind, ref := j.name(v, "kind", path, true)
	if ref != nil {
		return Form{}, ref
	}
	keys, ok := formKeys[FormKind(kind)]
	if !ok {
		return Form{}, j.refuse(v.Get("kind"), path+".kind", "", "unknown kind %s (want one of %s)", jsonv.Quote(kind), joinNames(formKinds, ", "))
	}
	for _, m := range v.Members {
		if !slices.Contains(keys, m.Key) {
			return Form{}, j.refuse(m.Value, path, "", "unknown key %s for a %s form (it takes %s)", jsonv.Quote(m.Key), kind, strings.Join(keys[1:], ", "))
		}
	}
	var f Form
	switch FormKind(kind) {
	case KindJoined:
		f, ref = j.joined(v, path)
	case KindBounds:
		f, ref = j.bounds(v, path)
	case KindObject:
		f, ref = j.object(v, path)
	case KindDay:
		f = Form{Kind: KindDay}
		f.Argument, ref = j.name(v, "argument", path, true)
	case KindLookback:
		f, ref = j.lookback(v, path)
	}
	if ref != nil {
		return f, ref
	}
	return f, j.zone(&f, v, path)
}

// zone reads a form's zoneArgument, which must not also carry the window.
func (j *judge) zone(f *Form, v *jsonv.Value, path string) *Refusal {
	var ref *Refusal
	if f.ZoneArgument, ref = j.name(v, "zoneArgument", path, false); ref != nil {
		return ref
	}
	if slices.Contains(f.windowArguments(), f.ZoneArgument) {
		return j.refuse(v.Get("zoneArgument"), path+".zoneArgument", f.ZoneArgument, "%s carries both the window and its zone", f.ZoneArgument)
	}
	return nil
}

// joined reads a joined form, or the single-argument sugar that means one:
// an argument and a spelling, or accepts (several, in preference order).
func (j *judge) joined(v *jsonv.Value, path string) (Form, *Refusal) {
	f := Form{Kind: KindJoined}
	var ref *Refusal
	if f.Argument, ref = j.name(v, "argument", path, true); ref != nil {
		return f, ref
	}
	sp, acc := v.Get("spelling"), v.Get("accepts")
	switch {
	case sp != nil && acc != nil:
		return f, j.refuse(v, path, f.Argument, "declares both spelling and accepts; use one")
	case sp != nil:
		s, ref := j.spelling(sp, path+".spelling", f.Argument)
		f.Spellings = []Spelling{s}
		return f, ref
	case acc == nil:
		return f, j.refuse(v, path, f.Argument, "names %s but no spelling (want spelling: one of %s, or accepts)", f.Argument, spellingList())
	case !acc.Is(jsonv.Array):
		return f, j.refuse(acc, path+".accepts", f.Argument, "is %s, want an array of spellings", describeValue(acc))
	case len(acc.Items) == 0:
		return f, j.refuse(acc, path+".accepts", f.Argument, "is empty, want at least one spelling")
	}
	for i, item := range acc.Items {
		s, ref := j.spelling(item, fmt.Sprintf("%s.accepts[%d]", path, i), f.Argument)
		if ref != nil {
			return f, ref
		}
		if slices.Contains(f.Spellings, s) {
			return f, j.refuse(item, fmt.Sprintf("%s.accepts[%d]", path, i), f.Argument, "repeats %s", s)
		}
		f.Spellings = append(f.Spellings, s)
	}
	return f, nil
}

func (j *judge) spelling(v *jsonv.Value, path, argument string) (Spelling, *Refusal) {
	s, _ := v.Str()
	if !Spelling(s).Known() {
		return "", j.refuse(v, path, argument, "unknown spelling %s (want one of %s)", show(v), spellingList())
	}
	return Spelling(s), nil
}

func (j *judge) bounds(v *jsonv.Value, path string) (Form, *Refusal) {
	f := Form{Kind: KindBounds}
	var ref *Refusal
	if f.From, ref = j.bound(v, "from", path); ref != nil {
		return f, ref
	}
	if f.To, ref = j.bound(v, "to", path); ref != nil {
		return f, ref
	}
	if f.From.Argument == f.To.Argument {
		return f, j.refuse(v, path, f.From.Argument, "names %s for both ends; a bounds form takes two arguments", f.From.Argument)
	}
	return f, nil
}

// bound reads {argument, as} (and edge, at the end) of a bounds form.
func (j *judge) bound(v *jsonv.Value, end, path string) (Bound, *Refusal) {
	path += "." + end
	b := v.Get(end)
	if !b.Is(jsonv.Object) {
		return Bound{}, j.refuse(orParent(b, v), path, "", "is %s, want {\"argument\": NAME, \"as\": %s}", describeValue(b), joinNames(asValues, ", "))
	}
	keys := []string{"argument", "as"}
	if end == "to" {
		keys = append(keys, "edge")
	}
	for _, m := range b.Members {
		if !slices.Contains(keys, m.Key) {
			return Bound{}, j.refuse(m.Value, path, "", "unknown key %s (a %s end takes %s)", jsonv.Quote(m.Key), end, strings.Join(keys, ", "))
		}
	}
	var out Bound
	var ref *Refusal
	if out.Argument, ref = j.name(b, "argument", path, true); ref != nil {
		return out, ref
	}
	if out.As, ref = j.as(b, path, out.Argument); ref != nil {
		return out, ref
	}
	out.Edge, ref = j.edge(b, path, out.Argument)
	return out, ref
}

// object reads an object form: one argument holding both ends under the
// keys from and to name, written as `as`.
func (j *judge) object(v *jsonv.Value, path string) (Form, *Refusal) {
	f := Form{Kind: KindObject}
	var ref *Refusal
	if f.Argument, ref = j.name(v, "argument", path, true); ref != nil {
		return f, ref
	}
	if f.From.Argument, ref = j.name(v, "from", path, true); ref != nil {
		return f, ref
	}
	if f.To.Argument, ref = j.name(v, "to", path, true); ref != nil {
		return f, ref
	}
	if f.From.Argument == f.To.Argument {
		return f, j.refuse(v, path, f.Argument, "names key %s for both ends", f.From.Argument)
	}
	if f.From.As, ref = j.as(v, path, f.Argument); ref != nil {
		return f, ref
	}
	f.To.As = f.From.As
	f.To.Edge, ref = j.edge(v, path, f.Argument)
	return f, ref
}

func (j *judge) lookback(v *jsonv.Value, path string) (Form, *Refusal) {
	f := Form{Kind: KindLookback}
	var ref *Refusal
	if f.Argument, ref = j.name(v, "argument", path, true); ref != nil {
		return f, ref
	}
	if f.UnitArgument, ref = j.name(v, "unitArgument", path, false); ref != nil {
		return f, ref
	}
	unit := v.Get("unit")
	switch {
	case unit != nil && f.UnitArgument != "":
		return f, j.refuse(v, path, f.Argument, "declares both unit and unitArgument; use one")
	case unit == nil && f.UnitArgument == "":
		return f, j.refuse(v, path, f.Argument, "names no unit: declare unit (like \"h\") or unitArgument")
	case f.UnitArgument == f.Argument:
		return f, j.refuse(v, path+".unitArgument", f.Argument, "names %s for both the count and the unit", f.Argument)
	case unit != nil:
		s, ok := unit.Str()
		if _, err := unitNamed(s); !ok || err != nil {
			return f, j.refuse(unit, path+".unit", f.Argument, "%s is not a unit (s, m, h, d, w, or seconds, minutes, hours, days, weeks)", show(unit))
		}
		f.Unit = s
	}
	return f, nil
}

// name reads a string naming an argument or a key; required says whether
// the key must be there.
func (j *judge) name(v *jsonv.Value, key, path string, required bool) (string, *Refusal) {
	n := v.Get(key)
	if n == nil {
		if required {
			return "", j.refuse(v, path, "", "has no %s", key)
		}
		return "", nil
	}
	s, ok := n.Str()
	if !ok || strings.TrimSpace(s) == "" {
		return "", j.refuse(n, path+"."+key, "", "is %s, want a name", describeValue(n))
	}
	return s, nil
}

func (j *judge) as(v *jsonv.Value, path, argument string) (As, *Refusal) {
	a := v.Get("as")
	s, _ := a.Str()
	if !slices.Contains(asValues, As(s)) {
		return "", j.refuse(orParent(a, v), path+".as", argument, "is %s, want one of %s", describeValue(a), joinNames(asValues, ", "))
	}
	return As(s), nil
}

func (j *judge) edge(v *jsonv.Value, path, argument string) (Edge, *Refusal) {
	e := v.Get("edge")
	if e == nil {
		return "", nil
	}
	s, _ := e.Str()
	if Edge(s) != EdgeInclusive && Edge(s) != EdgeExclusive {
		return "", j.refuse(e, path+".edge", argument, "is %s, want inclusive or exclusive", describeValue(e))
	}
	return Edge(s), nil
}

func (j *judge) facts(v *jsonv.Value) (Facts, *Refusal) {
	var f Facts
	if d := v.Get("direction"); d != nil {
		s, _ := d.Str()
		if Direction(s) != Past && Direction(s) != Future {
			return f, j.refuse(d, "period.direction", "", "is %s, want past or future", describeValue(d))
		}
		f.Direction = Direction(s)
	}
	for _, d := range []struct {
		key string
		out *Duration
	}{{"retention", &f.Retention}, {"maxRange", &f.MaxRange}, {"granularity", &f.Granularity}} {
		dv := v.Get(d.key)
		if dv == nil {
			continue
		}
		s, ok := dv.Str()
		length, err := ParseDuration(s)
		if !ok || err != nil {
			reason := "want a duration like 30d, 24h, 1m"
			if ok {
				reason = err.Error()
			}
			return f, j.refuse(dv, "period."+d.key, "", "%s is not a duration: %s", show(dv), reason)
		}
		*d.out = Duration{Text: s, Length: length}
	}
	if b := v.Get("filtersToAsked"); b != nil {
		if !b.Is(jsonv.Bool) {
			return f, j.refuse(b, "period.filtersToAsked", "", "is %s, want true or false", describeValue(b))
		}
		f.FiltersToAsked = b.Bool
	}
	if w := v.Get("wallZone"); w != nil {
		if s, _ := w.Str(); s != "app" {
			return f, j.refuse(w, "period.wallZone", "", "is %s, want \"app\" (or a zoneArgument on the form)", describeValue(w))
		}
		f.WallZoneApp = true
	}
	return f, nil
}

// periodArguments checks the arguments a period names against the schema
// and the rules: each must be a property; each that carries a window value
// needs a rule (a period argument is exactly what a rule is for), except an
// object form's argument, which no rule can hold; and every declared value
// of a period argument must be written the way the period reads it.
func (j *judge) periodArguments(p *Period, rules *Rules) *Refusal {
	for i := range p.Forms {
		f := &p.Forms[i]
		path := "period"
		if !p.Sugar {
			path = fmt.Sprintf("period.forms[%d]", i)
		}
		for _, a := range f.Arguments() {
			if j.props.Get(a) == nil {
				return j.refuse(nil, path, a, "the schema has no property %s", a).at(p.Pos)
			}
			r := f.roleOf(a)
			if rules.Rule(a) == nil && r != roleObject && r != roleUnit && r != roleZone {
				return j.refuse(nil, path, a, "%s has no rule in askOrAssume; a period argument needs one (assume a default window or ask for one)", a).at(p.Pos)
			}
		}
	}
	for i := range rules.Ruled {
		r := &rules.Ruled[i]
		if ref := j.declaredValue(p, r, r.Assume, "askOrAssume."+r.Argument, "assume"); ref != nil {
			return ref
		}
		for k, c := range r.Choices {
			if ref := j.declaredValue(p, r, c.Value, fmt.Sprintf("askOrAssume.%s.choices[%d]", r.Argument, k), "choice"); ref != nil {
				return ref
			}
		}
	}
	return nil
}

// declaredValue refuses a declared value of a period argument that none of
// the forms naming the argument can read.
func (j *judge) declaredValue(p *Period, r *Rule, v *jsonv.Value, path, what string) *Refusal {
	if v == nil {
		return nil
	}
	var first error
	var want string
	for i := range p.Forms {
		f := &p.Forms[i]
		role := f.roleOf(r.Argument)
		if role == roleNone {
			continue
		}
		_, err := f.read(role, v)
		if err == nil {
			return nil
		}
		if first == nil {
			first, want = err, f.describe(role)
		}
	}
	if first == nil {
		return nil
	}
	return j.refuse(v, path, r.Argument, "%s %s is not written as the period reads %s (%s): %s", what, show(v), r.Argument, want, first)
}

// at moves a refusal to pos, for refusals about a value that is absent.
func (r *Refusal) at(pos jsonv.Pos) *Refusal {
	r.Pos = pos
	return r
}

// orParent is v, or its parent when v is absent, for a refusal's position.
func orParent(v, parent *jsonv.Value) *jsonv.Value {
	if v == nil {
		return parent
	}
	return v
}

// describeValue says what a value is for a refusal: a short string is
// quoted, anything else named by its type.
func describeValue(v *jsonv.Value) string {
	switch {
	case v == nil:
		return "missing"
	case v.Kind == jsonv.String:
		return jsonv.Quote(clip(v.Text))
	default:
		return v.ArticleType()
	}
}
