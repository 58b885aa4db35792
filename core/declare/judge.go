package declare

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/validate"
)

// Refusal is why a tool's declarations cannot be applied: one sentence
// naming the tool, where in the declaration, and what is wrong. A refused
// declaration is never repaired.
type Refusal struct {
	Tool string
	// Argument is the argument the sentence is about, "" when it is about
	// the declaration as a whole.
	Argument string
	// Path is where in the declarations: `askOrAssume.unit`,
	// `period.forms[1].to.as`.
	Path   string
	Reason string
	// Pos is where the offending value stands in the source.
	Pos jsonv.Pos
}

// Error is the refusal's sentence: `tool get_volume_status:
// askOrAssume.unit: assume "minutes" is not one of "ms", "s"`.
func (r *Refusal) Error() string {
	return "tool " + r.Tool + ": " + r.Path + ": " + r.Reason
}

// Read judges a catalog tool's declarations against its schema; see Judge.
func Read(tool *catalog.Tool) (*Rules, *Refusal) {
	return Judge(tool.Name, tool.AskOrAssume, tool.Period, tool.Wants, tool.Schema)
}

// Judge reads a tool's askOrAssume and period (with its wants) and judges
// them against the tool's input schema. It returns the rules when the tool
// declares something this version can apply, nil and nil when it declares
// neither (JSON null counts as not declared), and otherwise a refusal.
func Judge(tool string, askOrAssume, period, wants, schema *jsonv.Value) (*Rules, *Refusal) {
	if absent(askOrAssume) && absent(period) {
		return nil, nil
	}
	j := &judge{tool: tool, props: schema.Get("properties")}
	wanted, ref := j.wants(wants)
	if ref != nil {
		return nil, ref
	}
	rules := &Rules{Tool: tool}
	if !absent(askOrAssume) {
		if rules.Ruled, ref = j.rules(askOrAssume, wanted); ref != nil {
			return nil, ref
		}
	}
	if !absent(period) {
		if rules.Period, ref = j.period(period, rules); ref != nil {
			return nil, ref
		}
		for _, a := range rules.Period.Arguments() {
			if r := rules.Rule(a); r != nil {
				r.Period = true
			}
		}
	}
	return rules, nil
}

func absent(v *jsonv.Value) bool { return v == nil || v.Kind == jsonv.Null }

// judge carries what every check needs: the tool's name for the sentence
// and the schema's properties.
type judge struct {
	tool  string
	props *jsonv.Value
}

func (j *judge) refuse(at *jsonv.Value, path, argument, format string, a ...any) *Refusal {
	r := &Refusal{Tool: j.tool, Argument: argument, Path: path, Reason: fmt.Sprintf(format, a...)}
	if at != nil {
		r.Pos = at.Pos
	}
	return r
}

// wants reads the names of the tool's wants arguments: an object mapping
// each to what it wants.
func (j *judge) wants(w *jsonv.Value) ([]string, *Refusal) {
	if absent(w) {
		return nil, nil
	}
	if !w.Is(jsonv.Object) {
		return nil, j.refuse(w, "wants", "", "is %s, want an object naming arguments", w.ArticleType())
	}
	names := make([]string, 0, len(w.Members))
	for _, m := range w.Members {
		if !m.Value.Is(jsonv.String) {
			return nil, j.refuse(m.Value, "wants."+m.Key, m.Key, "is %s, want a string", m.Value.ArticleType())
		}
		names = append(names, m.Key)
	}
	return names, nil
}

const ruleShape = `a rule is {"assume": V} or {"ask": "question", "choices": [...]}`

func (j *judge) rules(aoa *jsonv.Value, wanted []string) ([]Rule, *Refusal) {
	if !aoa.Is(jsonv.Object) {
		return nil, j.refuse(aoa, "askOrAssume", "", "is %s, want an object mapping argument names to rules", aoa.ArticleType())
	}
	ruled := make([]Rule, 0, len(aoa.Members))
	asks := 0
	for _, m := range aoa.Members {
		r, ref := j.rule(m, wanted)
		if ref != nil {
			return nil, ref
		}
		if r.Kind == Ask {
			asks++
		}
		ruled = append(ruled, r)
	}
	if asks > MaxAskArguments {
		return nil, j.refuse(aoa, "askOrAssume", "", "%d arguments carry ask; at most %d may on one tool", asks, MaxAskArguments)
	}
	return ruled, nil
}

func (j *judge) rule(m jsonv.Member, wanted []string) (Rule, *Refusal) {
	name, v := m.Key, m.Value
	path := "askOrAssume." + name
	r := Rule{Argument: name, Pos: v.Pos}
	prop := j.props.Get(name)
	if prop == nil {
		return r, j.refuse(v, path, name, "the schema has no property %s", name)
	}
	if slices.Contains(wanted, name) {
		return r, j.refuse(v, path, name, "%s is a wants argument; a rule cannot rule it too", name)
	}
	t := prop.Get("type")
	r.Type, _ = t.Str()
	if !slices.Contains(RuledTypes, r.Type) {
		typed := "declares no type"
		if t != nil {
			typed = "is typed " + t.JSON()
		}
		return r, j.refuse(v, path, name, "property %s %s; a ruled argument is exactly one of %s", name, typed, strings.Join(RuledTypes, ", "))
	}
	if !v.Is(jsonv.Object) {
		return r, j.refuse(v, path, name, "is %s; %s", v.ArticleType(), ruleShape)
	}
	for _, k := range v.Members {
		switch k.Key {
		case "assume", "ask":
		case "choices":
			if v.Has("assume") && !v.Has("ask") {
				return r, j.refuse(k.Value, path+".choices", name, "choices belong to an ask rule, not an assume rule")
			}
		default:
			return r, j.refuse(k.Value, path, name, "unknown key %s; %s", jsonv.Quote(k.Key), ruleShape)
		}
	}
	assume, ask := v.Get("assume"), v.Get("ask")
	switch {
	case assume != nil && ask != nil:
		return r, j.refuse(v, path, name, "has both assume and ask; a rule is one or the other")
	case assume == nil && ask == nil:
		return r, j.refuse(v, path, name, "has neither assume nor ask; %s", ruleShape)
	case assume != nil:
		r.Kind, r.Assume = Assume, assume
		return r, j.fits(assume, prop, path, name, "assume")
	}
	r.Kind = Ask
	q, ref := j.text(ask, path, name, "ask question", AskQuestionChars)
	if ref != nil {
		return r, ref
	}
	r.Question = q
	if c := v.Get("choices"); c != nil {
		r.Choices, ref = j.choices(c, prop, path+".choices", name)
	}
	return r, ref
}

func (j *judge) choices(c, prop *jsonv.Value, path, name string) ([]Choice, *Refusal) {
	switch {
	case !c.Is(jsonv.Array):
		return nil, j.refuse(c, path, name, "is %s, want an array of choices", c.ArticleType())
	case len(c.Items) == 0:
		return nil, j.refuse(c, path, name, "is empty; leave choices out for a free answer")
	case len(c.Items) > MaxChoices:
		return nil, j.refuse(c, path, name, "has %d choices, over %d", len(c.Items), MaxChoices)
	}
	out := make([]Choice, 0, len(c.Items))
	for i, item := range c.Items {
		at := fmt.Sprintf("%s[%d]", path, i)
		ch, ref := j.choice(item, at, name)
		if ref != nil {
			return nil, ref
		}
		if ref := j.fits(ch.Value, prop, at, name, "choice"); ref != nil {
			return nil, ref
		}
		for k := range out {
			if jsonv.Equal(out[k].Value, ch.Value) || SameArgumentValue(out[k].Value, ch.Value) {
				return nil, j.refuse(item, at, name, "choice %s repeats choices[%d] (%s)", show(ch.Value), k, show(out[k].Value))
			}
		}
		out = append(out, ch)
	}
	return out, nil
}

const choiceShape = `a choice is a value or {"value": V, "said": ["phrase", ...]}`

func (j *judge) choice(item *jsonv.Value, path, name string) (Choice, *Refusal) {
	if item.Is(jsonv.Array) {
		return Choice{}, j.refuse(item, path, name, "is an array; %s", choiceShape)
	}
	if !item.Is(jsonv.Object) {
		return Choice{Value: item}, nil
	}
	for _, k := range item.Members {
		if k.Key != "value" && k.Key != "said" {
			return Choice{}, j.refuse(k.Value, path, name, "unknown key %s; %s", jsonv.Quote(k.Key), choiceShape)
		}
	}
	ch := Choice{Value: item.Get("value")}
	if ch.Value == nil {
		return ch, j.refuse(item, path, name, "has no value; %s", choiceShape)
	}
	said := item.Get("said")
	if said == nil {
		return ch, nil
	}
	switch {
	case !said.Is(jsonv.Array):
		return ch, j.refuse(said, path+".said", name, "is %s, want an array of phrases", said.ArticleType())
	case len(said.Items) > MaxSaidPhrases:
		return ch, j.refuse(said, path+".said", name, "has %d phrases, over %d", len(said.Items), MaxSaidPhrases)
	}
	for i, p := range said.Items {
		s, ref := j.text(p, fmt.Sprintf("%s.said[%d]", path, i), name, "phrase", SaidPhraseChars)
		if ref != nil {
			return ch, ref
		}
		ch.Said = append(ch.Said, s)
	}
	return ch, nil
}

// text reads an author's bounded, non-blank text: a question or a phrase.
func (j *judge) text(v *jsonv.Value, path, name, what string, max int) (string, *Refusal) {
	s, ok := v.Str()
	n := utf8.RuneCountInString(s)
	switch {
	case !ok:
		return "", j.refuse(v, path, name, "the %s is %s, want a string", what, v.ArticleType())
	case strings.TrimFunc(s, isJSSpace) == "":
		return "", j.refuse(v, path, name, "the %s is blank", what)
	case n > max:
		return "", j.refuse(v, path, name, "the %s is %d characters, over %d", what, n, max)
	}
	return s, nil
}

// fits refuses a declared value (an assume or a choice) that the property's
// own schema rejects; the root's required list plays no part.
func (j *judge) fits(v, prop *jsonv.Value, path, name, what string) *Refusal {
	res := validate.ValidatePropertyValue(v, prop)
	if res.OK || len(res.Issues) == 0 {
		return nil
	}
	is := res.Issues[0]
	if rest, ok := strings.CutPrefix(is.Expected, "one of "); ok && is.Path == "" {
		return j.refuse(v, path, name, "%s %s is not one of %s", what, show(v), rest)
	}
	where := ""
	if is.Path != "" {
		where = " at " + is.Path
	}
	return j.refuse(v, path, name, "%s %s does not fit property %s%s: expected %s, got %s", what, show(v), name, where, is.Expected, is.Got)
}

// show renders a declared value for a sentence: JSON, long strings clipped.
func show(v *jsonv.Value) string {
	if s, ok := v.Str(); ok {
		return jsonv.Quote(clip(s))
	}
	return clip(v.JSON())
}
