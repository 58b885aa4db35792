package similarity

import (
	"fmt"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// The risk scoring's hint: the axis a request must state for a model to
// pick one tool of a flagged pair over the other, and a sentence for each
// description that names the other tool with that condition. Applying the
// sentences makes both descriptions name each other with guidance, which is
// what takes the pair under the threshold (docs/calibration.md).

// choiceAxis is what tells two tools apart: a known axis (time, scope,
// format, detail) with where each tool stands on it, the action when the
// names' actions differ, or else each side by its own words.
type choiceAxis struct {
	name string // "time", "scope", "format", "detail", "action", "name" (the words only one name has), or "" (each description's own)
	a, b axisSide
}

// axisSide is what says when to choose one tool of the pair.
type axisSide struct {
	axis  string   // the axis of this side's condition; "action", "name" (its name's own words), or "" (its description's)
	pole  string   // where it stands ("past", "one", "markdown"); the verb for "action"
	words []string // the tool's own words that say so
}

// axisPole is a word's place on an axis.
type axisPole struct{ axis, pole string }

// axisWords are the words that place a tool on an axis: what a request
// says (how fresh, how many, in what form, how deep) and a description can
// answer.
var axisWords = map[string]axisPole{}

// poleText is how a fix says a pole.
var poleText = map[string]string{
	"now": "the present", "past": "the past", "future": "the future",
	"one": "one item it is given", "many": "several items at once",
	"summary": "a summary", "full": "the full detail",
}

// otherPole is the pole a tool stands at when only the other tool's text
// places itself on a two-pole axis.
var otherPole = map[string]string{"now": "past", "past": "now", "one": "many", "many": "one"}

func init() {
	for _, g := range []struct {
		axis, pole string
		words      []string
	}{
		{"time", "now", []string{"live", "current", "currently", "now", "realtime", "recent", "latest", "today"}},
		{"time", "past", []string{"hist", "history", "historical", "past", "archived", "archive", "old", "older", "recorded", "yesterday", "ago", "months", "weeks", "years"}},
		{"time", "future", []string{"forecast", "future", "upcoming", "coming", "tomorrow", "next"}},
		{"scope", "one", []string{"one", "single", "specific"}},
		{"scope", "many", []string{"list", "all", "many", "multiple", "batch", "bulk", "several", "every"}},
		{"detail", "summary", []string{"summary", "summarize", "overview", "brief", "count", "aggregate", "grouped"}},
		{"detail", "full", []string{"details", "detailed", "verbose", "complete"}},
	} {
		for _, w := range g.words {
			axisWords[w] = axisPole{g.axis, g.pole}
		}
	}
	for _, w := range []string{"markdown", "html", "json", "raw", "screenshot", "image", "pdf", "csv", "xml", "yaml"} {
		axisWords[w] = axisPole{"format", w}
	}
}

// axisOrder is the order in which axes are tried.
var axisOrder = []string{"time", "detail"}

// plainWords say nothing about which tool to choose: guidance and filler
// a description's own terms often hold.
var plainWords = map[string]bool{
	"use": true, "used": true, "only": true, "after": true, "before": true, "first": true,
	"when": true, "then": true, "this": true, "that": true, "these": true, "tool": true,
	"returns": true, "return": true, "given": true, "using": true, "not": true, "can": true,
	"will": true, "need": true, "needs": true, "call": true, "you": true, "your": true,
	"optionally": true, "optional": true, "also": true, "via": true, "etc": true, "such": true,
	"may": true, "must": true, "should": true, "other": true, "any": true, "each": true,
	"supports": true, "allows": true, "lets": true, "provides": true, "specified": true,
}

// ownWords are the words only tool x's name (after any server prefix, its
// action when the actions differ) and only its description use.
func ownWords(x, y nameParts, xt, yt []string) (name, terms []string) {
	return ownWordsBeside(x, y, xt, singularSet(yt))
}

// ownWordsBeside is ownWords with the other's words as singularSet
// made them (once per tool).
func ownWordsBeside(x, y nameParts, xt []string, others map[string]struct{}) (name, terms []string) {
	add := func(out []string, w string) []string {
		if w != "" && !plainWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
		return out
	}
	if x.verb != "" && x.action != y.action {
		name = add(name, x.verb)
	}
	for _, w := range x.said {
		if !slices.Contains(y.said, w) && !slices.Contains(y.object, singular(w)) {
			name = add(name, w)
		}
	}
	// The other's words and those kept so far are looked up by their
	// singular, each made once (hasTerm over sets).
	kept := singularSet(name)
	for _, w := range xt {
		// An identifier (another tool's name, a parameter, a fragment of
		// a UUID in an example) is no condition; a word the other uses in
		// its singular or plural is not this one's own.
		s := singular(w)
		if _, ok := others[s]; ok {
			continue
		}
		if _, ok := kept[s]; ok || w == "" || plainWords[w] || strings.Contains(w, "_") || idFragment(w) {
			continue
		}
		// Not kept in any form, so not in terms: add's test, at once.
		terms = append(terms, w)
		kept[s] = struct{}{}
	}
	return name, terms
}

// singularSet is the singulars of ws, for hasTerm as a lookup.
func singularSet(ws []string) map[string]struct{} {
	set := make(map[string]struct{}, len(ws))
	for _, w := range ws {
		set[singular(w)] = struct{}{}
	}
	return set
}

// hasTerm reports whether ws holds w, in its singular or plural:
// "incident" and "incidents" are one term.
func hasTerm(ws []string, w string) bool {
	s := singular(w)
	return slices.ContainsFunc(ws, func(x string) bool { return x == w || singular(x) == s })
}

// idFragment reports whether w is a piece of an identifier rather than a
// word: digits only, or hexadecimal with a digit in it (the parts of a
// UUID, "3fa85f64", "4562", "b3fc2c96").
func idFragment(w string) bool {
	digit := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
		default:
			return false
		}
	}
	return digit
}

// sharesObject reports whether two names are about the same thing: an
// object word in common, singular or plural.
func sharesObject(a, b nameParts) bool {
	for _, w := range a.object {
		if !stopWords[w] && hasTerm(b.object, w) {
			return true
		}
	}
	return false
}

// asHint reads a name again for a hint when its action word is the other
// name's object: in rollback_deploy beside get_deploy, "deploy" is the
// thing both are about and "rollback" the action, though only deploy is
// a known action word. The risk keeps its own reading.
func asHint(p, o nameParts) nameParts {
	if p.verb == "" || p.lead == p.verb || isAction(p.lead) || stopWords[p.lead] || len(p.said) != 1 || p.said[0] != p.lead || !hasTerm(o.object, p.verb) {
		return p
	}
	q := p
	q.verb, q.action, q.kind = p.lead, p.lead, kindAct
	q.said = []string{p.verb}
	q.object = []string{singular(p.verb)}
	return q
}

// onAxis finds the pole ws place a tool at on axis, with the words that
// say so.
func onAxis(ws []string, axis string) (string, []string) {
	pole, said := "", []string(nil)
	for _, w := range ws {
		if p, ok := axisWords[w]; ok && p.axis == axis && (pole == "" || p.pole == pole) && len(said) < MaxHintTerms {
			pole, said = p.pole, append(said, w)
		}
	}
	return pole, said
}

// chooseAxis finds what tells a and b apart, named only when both
// tools' own texts show it. The names come first: a word only one name
// has is what its author chose to tell it apart by.
//  1. A name word on a known axis (hist, count, markdown) and the other
//     tool placed at another pole of that axis by its own name or
//     description: that axis. A format is none (a format word is as often
//     the input's as the output's: import_xml vs import_yaml), nor is how
//     many items a tool takes (reply vs reply_all, create_collection vs
//     create_variables are not told apart by counting).
//  2. Different actions (get vs resize): the action, as the names say it.
//  3. Other name words (rollback, form): those words.
//  4. Else nothing: the advice then says plainly what differs.
func chooseAxis(a, b nameParts, at, bt []string) choiceAxis {
	return chooseAxisOf(a, b, at, bt, singularSet(at), singularSet(bt))
}

// chooseAxisOf is chooseAxis with each side's words as singularSet made
// them.
func chooseAxisOf(a, b nameParts, at, bt []string, as, bs map[string]struct{}) choiceAxis {
	a, b = asHint(a, b), asHint(b, a)
	na, ta := ownWordsBeside(a, b, at, bs)
	nb, tb := ownWordsBeside(b, a, bt, as)
	all := func(n, t []string) []string { return append(slices.Clip(n), t...) }
	for _, axis := range axisOrder {
		pa, _ := onAxis(na, axis)
		pb, _ := onAxis(nb, axis)
		if pa == "" && pb == "" {
			continue
		}
		pa, sa := onAxis(all(na, ta), axis)
		pb, sb := onAxis(all(nb, tb), axis)
		if pa != "" && pb != "" && pa != pb {
			return choiceAxis{name: axis, a: axisSide{axis, pa, sa}, b: axisSide{axis, pb, sb}}
		}
	}
	if a.verb != "" && b.verb != "" && a.action != b.action {
		return choiceAxis{name: "action", a: axisSide{axis: "action", pole: a.verb}, b: axisSide{axis: "action", pole: b.verb}}
	}
	if len(na)+len(nb) > 0 {
		side := func(p nameParts, n []string) axisSide {
			switch {
			case p.verb != "" && slices.Contains(n, p.verb):
				return axisSide{axis: "action", pole: p.verb}
			case len(n) > 0:
				return axisSide{axis: "name", words: firstN(n, MaxHintTerms)}
			}
			return axisSide{}
		}
		return choiceAxis{name: "name", a: side(a, na), b: side(b, nb)}
	}
	return choiceAxis{}
}

func firstN(ws []string, n int) []string { return ws[:min(n, len(ws))] }

// pole says where the side stands, briefly: "the past", "to resize".
func (s axisSide) poleText() string {
	switch s.axis {
	case "action":
		return "to " + s.pole
	case "name":
		return quoteJoin(s.words, ", ")
	case "":
		if len(s.words) == 0 {
			return "nothing of its own"
		}
		return "says " + strings.Join(s.words, ", ")
	case "format":
		return s.pole + " output"
	}
	return poleText[s.pole]
}

// text is the pole with the words that place the side there.
func (s axisSide) text() string {
	t := s.poleText()
	if s.axis != "" && s.axis != "action" && s.axis != "name" && len(s.words) > 0 && !(s.axis == "format" && len(s.words) == 1) {
		t += " (" + strings.Join(s.words, ", ") + ")"
	}
	return t
}

// differs says what tells the pair apart, as the texts show it: the axis
// with where each stands, or the names' own words; "" when the names show
// nothing either.
func (c choiceAxis) differs(a, b string) string {
	where := fmt.Sprintf(" (%s: %s; %s: %s)", a, c.a.text(), b, c.b.text())
	switch c.name {
	case "time":
		return "the time each covers" + where
	case "format":
		return "the form each returns" + where
	case "detail":
		return "how much detail each gives" + where
	case "action":
		return fmt.Sprintf("the names' actions ('%s' vs '%s')", c.a.pole, c.b.pole)
	case "name":
		var said []string
		for _, s := range []axisSide{c.a, c.b} {
			switch s.axis {
			case "name":
				said = append(said, "'"+strings.Join(s.words, " ")+"'")
			case "action":
				said = append(said, "'"+s.pole+"'")
			}
		}
		if len(said) == 1 {
			return "the word " + said[0] + " only one name has"
		}
		return "the names' words (" + strings.Join(said, " vs ") + ")"
	}
	return ""
}

// riskFixes proposes the choice sentences for a flagged pair: each
// description names the other tool with what the other is for, in the
// other's own words (its description's first sentence), and the
// parameters only the other takes. No condition is made up: a side whose
// description gives no such sentence, or one that only restates its name,
// gets a sentence from its required parameters, or none. A description
// that already names the other gets none.
func riskFixes(a, b *catalog.Tool, pa, pb nameParts, aNamesB, bNamesA bool) []Fix {
	return fixesFor(fixSide{a, pa, aNamesB, purposeOf}, fixSide{b, pb, bNamesA, purposeOf})
}

// purposeFunc is purposeOf, or a memo of it for one tool.
type purposeFunc func(t *catalog.Tool, p nameParts) string

// fixSide is one tool of a flagged pair as its fix is written: the tool,
// its name's parts, whether its description already names the other with
// guidance, and how its purpose is read.
type fixSide struct {
	tool       *catalog.Tool
	parts      nameParts
	namesOther bool
	purpose    purposeFunc
}

// fixesFor is riskFixes with each tool's purpose read by its side's
// purpose.
func fixesFor(sa, sb fixSide) []Fix {
	a, b := sa.tool, sb.tool
	pa, pb := asHint(sa.parts, sb.parts), asHint(sb.parts, sa.parts)
	if samePurpose(a, b) {
		return nil
	}
	// The same purpose read from both descriptions tells them apart by
	// nothing: only their parameters may then. Each purpose is read
	// once: a purposeless tool has none.
	wa, wb := sa.purpose(a, pa), sb.purpose(b, pb)
	if wa != "" && strings.EqualFold(wa, wb) {
		a, b = purposeless(a), purposeless(b)
		wa, wb = "", ""
	}
	var out []Fix
	if !sa.namesOther {
		if s := choiceSentence(b, a, wb); s != "" {
			out = append(out, Fix{Tool: a.Name, Other: b.Name, Sentence: s})
		}
	}
	if !sb.namesOther {
		if s := choiceSentence(a, b, wa); s != "" {
			out = append(out, Fix{Tool: b.Name, Other: a.Name, Sentence: s})
		}
	}
	return out
}

// choiceSentence is the sentence for other's description that sends a
// request to x: what x is for, in x's words, and what only x takes; ""
// when x's texts say nothing toolscope can reuse. what is x's purpose
// (purposeOf).
func choiceSentence(x, other *catalog.Tool, what string) string {
	params := ownParams(x, other)
	if what != "" {
		return fmt.Sprintf("Use `%s` instead to %s%s.", nameFrom(x, other), what, takes(params))
	}
	if req := ownRequired(x, other); len(req) > 0 {
		quoted := make([]string, len(req))
		for k, p := range req {
			quoted[k] = "`" + p + "`"
		}
		return fmt.Sprintf("Use `%s` instead when the request gives %s.", nameFrom(x, other), strings.Join(quoted, " and "))
	}
	return ""
}

// nameFrom is how tool x is named in tool from's description: the name
// its server serves when both are one server's, else the name a merged
// catalog gives it (two servers' delete_branch are told apart only by
// their servers).
func nameFrom(x, from *catalog.Tool) string {
	if x.Server == from.Server {
		return x.OwnName()
	}
	return x.Name
}

// twinHint is the hint of a pair the cross-server band judged confusable:
// across servers two tools that read this alike are most often one job
// done twice, which no sentence in a description settles as well as
// mounting one of them; hint is the pair's hint otherwise.
func twinHint(a, b *catalog.Tool, hint string) string {
	return fmt.Sprintf("the two read as one job done on two servers (%s and %s): turn one of them off in the host, since a model given both cannot tell which is meant; or %s", a.Server, b.Server, hint)
}

// ownParams lists up to two top-level parameters x takes and y does not,
// required ones first: what a request must carry for x, which tells a
// reader (and a model) the two apart as plainly as any word.
func ownParams(x, y *catalog.Tool) []string {
	theirs := map[string]bool{}
	for _, m := range paramMembers(y) {
		theirs[strings.ToLower(m)] = true
	}
	required := map[string]bool{}
	if req := x.Schema.Get("required"); req.Is(jsonv.Array) {
		for _, r := range req.Items {
			if s, ok := r.Str(); ok {
				required[s] = true
			}
		}
	}
	var req, opt []string
	for _, m := range paramMembers(x) {
		switch {
		case theirs[strings.ToLower(m)] || !plainParam(m):
		case required[m]:
			req = append(req, m)
		default:
			opt = append(opt, m)
		}
	}
	return firstN(append(req, opt...), 2)
}

// paramMembers are a tool's top-level parameter names, in file order.
func paramMembers(t *catalog.Tool) []string {
	props := t.Schema.Get("properties")
	if !props.Is(jsonv.Object) {
		return nil
	}
	out := make([]string, 0, len(props.Members))
	for _, m := range props.Members {
		out = append(out, m.Key)
	}
	return out
}

// plainParam reports whether a parameter name can be quoted in a sentence
// as it is: short, and made of letters, digits, `_` and `-`.
func plainParam(name string) bool {
	if name == "" || len(name) > 32 {
		return false
	}
	for k := 0; k < len(name); k++ {
		c := name[k]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// takes says, after a condition, the parameters only that tool takes.
func takes(params []string) string {
	if len(params) == 0 {
		return ""
	}
	quoted := make([]string, len(params))
	for k, p := range params {
		quoted[k] = "`" + p + "`"
	}
	return "; it takes " + strings.Join(quoted, " and ")
}

// riskHint says what differs and the sentences to add. A pair clears
// only when both descriptions say when to pick the other; a side with no
// sentence is asked of the author.
func riskHint(a, b *catalog.Tool, c choiceAxis, fixes []Fix) string {
	if len(fixes) == 0 && samePurpose(a, b) {
		return fmt.Sprintf("%s and %s describe the same job in the same words: say in each when to pick it and not the other, or merge them", a.Name, b.Name)
	}
	differs := c.differs(a.Name, b.Name)
	if pa, pb := ownParams(a, b), ownParams(b, a); len(pa)+len(pb) > 0 {
		var ps []string
		for _, s := range []struct {
			name   string
			params []string
		}{{a.Name, pa}, {b.Name, pb}} {
			if len(s.params) > 0 {
				ps = append(ps, s.name+" takes "+strings.TrimPrefix(takes(s.params), "; it takes "))
			}
		}
		if differs != "" {
			differs += "; "
		}
		differs += strings.Join(ps, ", ")
	}
	intro := "say in each description when to pick it over the other"
	if differs != "" {
		intro += " (what differs: " + differs + ")"
	}
	has := map[string]bool{}
	var parts []string
	for _, f := range fixes {
		has[f.Tool] = true
		parts = append(parts, fmt.Sprintf("add to %s %q", f.Tool, f.Sentence))
	}
	named := 0
	for _, s := range [][2]*catalog.Tool{{a, b}, {b, a}} {
		if has[s[0].Name] {
			continue
		}
		if names(s[0].Description, s[1].Name) {
			parts = append(parts, fmt.Sprintf("%s already names %s", s[0].Name, s[1].Name))
			named++
			continue
		}
		parts = append(parts, fmt.Sprintf("write in %s when to pick %s (its texts give toolscope nothing to reuse)", s[0].Name, s[1].Name))
	}
	if named == 2 {
		return "both descriptions already name the other, yet the pair still reads alike: make each condition the real boundary, or merge the tools"
	}
	return intro + ": " + strings.Join(parts, "; ") + "; the pair clears only when both descriptions say it (check each sentence is the real boundary)"
}

// orList joins words as "a, b or c".
func orList(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

// purposeless is t with no description to read a purpose from, for
// choiceSentence: its sentence then rests on its parameters alone.
func purposeless(t *catalog.Tool) *catalog.Tool {
	c := *t
	c.Description = ""
	return &c
}
