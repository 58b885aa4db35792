package judge

import (
	"fmt"
	"sort"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/termsafe"
)

// SentenceGuard refuses fix sentences that would make a catalog worse by
// lint's own measure, before they are re-tested or written. The judge
// proposes them from both tools' texts, which often come from a third
// party's server, so a sentence is untrusted text bound for a tool
// description: it must be printable (no control character, no bidi
// override, tag or zero-width character: termsafe's test) and the
// amended catalog must have no error-level finding of any rule (every
// rule of lint.AllRules, the tool-poisoning guard and the
// invisible-characters rule among them) that the catalog did not have.
type SentenceGuard struct {
	cat    *catalog.Catalog
	rules  []lint.Rule
	before map[errorKey]int
}

// errorKey counts error findings by tool and rule.
type errorKey struct{ tool, rule string }

// NewSentenceGuard is the guard for sentences added to cat's tools.
func NewSentenceGuard(cat *catalog.Catalog) *SentenceGuard {
	g := &SentenceGuard{cat: cat, rules: lint.AllRules()}
	g.before, _ = g.errors(cat)
	return g
}

// errors counts cat's error-level findings by tool and rule, with the
// first finding of each.
func (g *SentenceGuard) errors(cat *catalog.Catalog) (map[errorKey]int, map[errorKey]lint.Finding) {
	counts, first := map[errorKey]int{}, map[errorKey]lint.Finding{}
	for _, f := range lint.Structural(cat, lint.Options{Rules: g.rules}) {
		if f.Severity != lint.SeverityError {
			continue
		}
		k := errorKey{f.Tool, f.Rule}
		if counts[k] == 0 {
			first[k] = f
		}
		counts[k]++
	}
	return counts, first
}

// Refuse says why the sentences (by tool name) may not be added to their
// tools' descriptions, "" when they may: a sentence that is not one line
// of printable text, or an error finding the amended catalog has that
// the catalog had not. The reason names the tool and the rule, every
// character a terminal could act on escaped.
func (g *SentenceGuard) Refuse(sentences map[string]string) string {
	names := make([]string, 0, len(sentences))
	for name := range sentences {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := sentences[name]
		if shown := termsafe.Line(s); shown != s {
			return fmt.Sprintf("the sentence for %s is not plain printable text (it holds a control, bidi, tag or zero-width character: %s)", termsafe.Line(name), clip(shown, 120))
		}
	}
	amended := &catalog.Catalog{Source: g.cat.Source, Tools: make([]*catalog.Tool, len(g.cat.Tools))}
	changed := false
	for i, t := range g.cat.Tools {
		amended.Tools[i] = t
		if s, ok := sentences[t.Name]; ok && s != "" {
			nt := *t
			nt.Description = Amend(t.Description, s)
			nt.HasDescription = true
			amended.Tools[i] = &nt
			changed = true
		}
	}
	if !changed {
		return ""
	}
	after, first := g.errors(amended)
	keys := make([]errorKey, 0, len(after))
	for k, n := range after {
		if n > g.before[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].tool != keys[j].tool {
			return keys[i].tool < keys[j].tool
		}
		return keys[i].rule < keys[j].rule
	})
	f := first[keys[0]]
	return fmt.Sprintf("the sentence for %s fails lint's %s rule (%s)", termsafe.Line(f.Tool), f.Rule, termsafe.Line(clip(f.Message, 160)))
}
